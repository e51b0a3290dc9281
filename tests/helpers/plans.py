"""Edit plans for the proofreading tests: a whole-text request and the seeds it plans."""

from __future__ import annotations

from engine.core.plan import EditPlan, Locked, find_locks, plan_edit
from engine.core.protocol import Edit, Span


def plan_of(text: str, instruction: str = "fix spelling", **edit: object) -> EditPlan:
    """The plan of ``instruction`` over the whole of ``text`` (``locks``: words to lock)."""
    locks = find_locks(text, Span(0, len(text)), list(edit.pop("locks", ())))  # type: ignore[call-overload]
    return plan_edit(Edit(1, text, Span(0, len(text)), locks, instruction, **edit))  # type: ignore[arg-type]


def seeds(plan: EditPlan) -> str:
    """The text the plan's segments hold: locked text as it is, free text as seeded."""
    return "".join(s.text if isinstance(s, Locked) else s.seed for s in plan.segments)
