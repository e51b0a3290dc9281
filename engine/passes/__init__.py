"""Passes around the canvas: what shapes a plan before the model and judges its result after."""
