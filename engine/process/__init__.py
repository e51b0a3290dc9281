"""The worker process, its client and what travels between them."""
