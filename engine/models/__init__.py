"""Models: the registry, loading, the embedded default and its adapter."""
