"""Settle's quality suite (``make eval``): what the embedded model writes, beside the AR model.

Four tasks of authored cases (``resources/eval/``): *cloze* gaps with accepted answers, *draft*
continuations, *rewrites* with locks and an instruction, and the *structured* templates. Each
case runs through Settle's own diffusion loop and through the same-size autoregressive model,
and both outputs are measured the same way (:mod:`tools.eval.measures`): a fluency judge (the
base causal model's per-token NLL), repeated 3-grams, empty outputs, length, content words
kept, locks and the whitespace at their edges, time to settle and tokens per forward.

The report (``docs/quality.md`` and ``docs/quality.json``) is the yardstick for every change to
the model, the samplers or their defaults.
"""
