"""The engine's core: requests, settings, plans, tokens and the canvas (nothing about English)."""
