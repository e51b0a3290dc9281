"""Language knowledge, one folder per language."""
