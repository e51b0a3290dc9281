"""Settle's engine: models, plans and canvases, diffusion samplers, the worker process.

Nothing here imports Qt, qasync, `ui` or `app` (a test enforces it). The GUI talks to the engine
only through the plain dataclasses of :mod:`engine.core.protocol`, across a process boundary.
"""
