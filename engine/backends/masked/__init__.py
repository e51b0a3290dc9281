"""The masked-diffusion backend family."""
