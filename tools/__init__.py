"""Tools run by make (benchmarks, the quality suite, the adaptation recipe); not shipped."""
