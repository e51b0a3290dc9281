"""Per-step decode processors: constraints composed outside the samplers."""
