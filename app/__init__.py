"""Settle's composition root: CLI, start-up, settings, the worker client and the controllers."""
