"""Benchmarks (``python -m tools.bench``, ``make bench``): what Settle exists for, measured.

Diffusion against autoregressive decoding of the same model on the same tasks, the seed's six
metrics, DiffusionGemma's architecture on the CPU, edit cost against document length, the
constraint overhead, and (from :mod:`tools.bench.gui`, which needs Qt) the window's smoothness.
Everything is measured as ratios within one run on one machine; the results go to
``docs/benchmarks.json`` and ``docs/benchmarks.md``. Unit tests run each piece on tiny models
and check the shape of the results, never a wall-clock number.
"""
