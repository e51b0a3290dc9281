"""Settle's widgets. No torch or transformers here: widgets receive `engine.core.protocol` data."""
