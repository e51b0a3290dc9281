"""A fast, deterministic stand-in for a model: fills every open position with an allowed token.

The structured-infill tests need thousands of fills (the whole conformance suite, hypothesis
schemas), which even the tiny random model would make slow. This backend applies the same
per-position allowed sets as the real ones (:func:`engine.backends.base.allowed_mask`) and
picks, with a generator seeded from the settings, one allowed token per position (the filler
only sometimes, and only where it is allowed, so slots end at different lengths): junk that
respects every constraint, which is exactly what the compiler, the re-denoising rounds and the
repair must cope with.
"""

from __future__ import annotations

from collections.abc import Iterator

import torch

from engine.backends.base import StepResult
from engine.core.canvas import Canvas, Kind
from engine.core.config import SamplerSettings
from engine.core.protocol import TokenState
from engine.core.tokens import TokenTable
from engine.decode.allowed import allowed_mask

FILLER_SHARE = 0.3  # chance that an open position takes the filler token


class FillerBackend:
    """A :class:`~engine.backends.base.Backend` with no model: one step, seeded choices."""

    family = "filler"

    def __init__(self, table: TokenTable, max_canvas_tokens: int = 4096) -> None:
        self.table = table
        self.max_canvas_tokens = max_canvas_tokens
        self.vocab_size = len(table.tokenizer)

    def reader(self) -> None:
        return None

    def denoise(self, canvas: Canvas, settings: SamplerSettings) -> Iterator[StepResult]:
        generator = torch.Generator().manual_seed(settings.seed)
        allowed = allowed_mask(canvas, self.table, self.vocab_size)
        filler = self.table.specials.filler_id
        ids = list(canvas.seed_ids)
        for position, kind in enumerate(canvas.kinds):
            if kind is Kind.LOCKED:
                continue
            choices = allowed[position].nonzero().flatten()
            others = choices[choices != filler]
            may_end = bool(allowed[position, filler])  # not in a slot's first min_tokens
            if not len(others) or (
                may_end and torch.rand(1, generator=generator).item() < FILLER_SHARE
            ):
                ids[position] = filler
            else:
                pick = torch.randint(len(others), (1,), generator=generator).item()
                ids[position] = int(others[int(pick)])
        states = [
            TokenState.LOCKED if k is Kind.LOCKED else TokenState.SETTLED for k in canvas.kinds
        ]
        yield StepResult(1, ids, ids, states, [1.0] * len(ids), 1, done=True)
