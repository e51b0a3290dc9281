"""Running a request: the one denoising pipeline and the edit that drives it."""
