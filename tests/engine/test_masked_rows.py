"""The masked backend's two row policies give the same steps: every row of the block at every step
(fixed shapes, what an accelerator runs) or only the still-open rows (what the CPU runs)."""

from __future__ import annotations

import pytest

from engine.core.canvas import build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, Free, Locked, Slot
from engine.core.protocol import EditMode, Span
from engine.core.tokens import charset
from tests.helpers.backends import BACKENDS

FAMILIES = sorted(BACKENDS)


def mixed_plan() -> EditPlan:
    segments = (
        Free(budget=7, seed="a short line of prose"),
        Locked(" kept "),
        Slot(charset("digits", "0123456789"), 3),
        Free(budget=5),
    )
    return EditPlan(Span(4, 4), segments, "The ", " end.", "tighter", EditMode.REWRITE)


def steps(family: str, fixed_rows: bool, **changes: object) -> list[tuple[object, ...]]:
    backend = BACKENDS[family]()
    backend.path.fixed_rows = fixed_rows
    settings = SamplerSettings(steps=9, block_length=6, seed=3).with_changes(**changes)
    canvas = build_canvas(mixed_plan(), backend.table, settings, backend.max_canvas_tokens)
    return [
        (r.ids, r.draft_ids, r.states, [round(c, 4) for c in r.confidence], r.forwards, r.done)
        for r in backend.denoise(canvas, settings)
    ]


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize(
    "changes",
    [{}, {"temperature": 1.0}, {"temperature": 1.0, "threshold": 0.2, "strength": 0.5}],
    ids=["greedy", "sampled", "threshold"],
)
def test_fixed_rows_and_open_rows_give_the_same_steps(family: str, changes: dict) -> None:
    fixed = steps(family, True, **changes)
    assert len(fixed) > 2  # several blocks and steps were compared
    assert fixed == steps(family, False, **changes)
