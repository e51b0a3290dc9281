"""A settled first version made without a model, so near misses can be tested exactly; a
settled rewrite whose free text came back as given, for the after-passes; and the value a
pipeline's generator of frames returns."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from engine.backends.base import StepResult
from engine.core.canvas import Kind, assemble, build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, Free, plan_edit
from engine.core.protocol import Edit, Span, TokenState
from engine.passes.base import Settled
from engine.run.pipeline import Denoised
from tests.helpers.backends import tiny_table

MAX_TOKENS = 512  # room for any test passage


def settled_as_seeded(
    plan: EditPlan,
    confidence: Callable[[int], float],
    changed: frozenset[int] = frozenset(),
    settings: SamplerSettings | None = None,
) -> Denoised:
    """A first version of ``plan`` that kept every seed token but those at ``changed``
    (which hold the filler), each committed with ``confidence(position)`` (locked ones at 1),
    on the tiny tokenizer's table."""
    table = tiny_table()
    canvas = build_canvas(plan, table, settings or SamplerSettings(), MAX_TOKENS)
    filler = table.specials.filler_id
    ids = [filler if i in changed else token for i, token in enumerate(canvas.seed_ids)]
    sure = [1.0 if k is Kind.LOCKED else confidence(i) for i, k in enumerate(canvas.kinds)]
    last = StepResult(8, ids, ids, [TokenState.SETTLED] * len(ids), sure, 8, True)
    segments = assemble(canvas, ids, table)
    text = "".join(segment.text for segment in segments)
    return Denoised(canvas, last, segments, text, 0.0, 0.0, len(ids), {})


def settled_rewrite(seed: str, rewritten: str, settings: SamplerSettings) -> Settled:
    """A settled rewrite of all of ``seed`` whose free text came back as ``rewritten`` (cut or
    padded with the filler to the canvas's room), on the tiny tokenizer's table."""
    table = tiny_table()
    plan = plan_edit(Edit(1, seed, Span(0, len(seed))))
    canvas = build_canvas(plan, table, settings, MAX_TOKENS)
    ids = list(canvas.seed_ids)
    for index, segment in enumerate(plan.segments):
        if isinstance(segment, Free):
            positions = canvas.segment_positions(index)
            new = table.encode(rewritten)[: len(positions)]
            new += [table.specials.filler_id] * (len(positions) - len(new))
            for position, token in zip(positions, new, strict=True):
                ids[position] = token
    last = StepResult(settings.steps, ids, ids, [], [0.0] * len(ids), settings.steps)
    return Settled(canvas, last)


def drain(steps: Generator[Any, None, Any]) -> Any:
    """The return value of a generator of frames (a pipeline's settled versions)."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value
