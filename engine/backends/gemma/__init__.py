"""The DiffusionGemma backend family."""
