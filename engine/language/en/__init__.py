"""English: rules (morphology) and data files."""
