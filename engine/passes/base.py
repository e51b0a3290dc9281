"""What a pass is: one decision around the canvas, made before the model writes or after.

A request's plan goes through an ordered list of passes (:mod:`engine.passes.order`) around the
denoising steps: each pass's :meth:`Pass.before` may change the plan (a proofread seed, a
shorter budget), :meth:`Pass.seed_cut` may say how a seed longer than its budget is cut, and
:meth:`Pass.after` may change the settled result (the model rereading its own changes). A pass
reads the model only through the backend's :class:`~engine.backends.base.Reader`, and checks the
request's cancel flag between reads.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace

from engine.backends.base import Reader, StepResult
from engine.core.canvas import Canvas, SeedCut
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan
from engine.core.tokens import TokenTable
from engine.intent import Intent


def never() -> bool:
    return False


@dataclass(frozen=True)
class PassContext:
    """What every pass of one request may use."""

    table: TokenTable
    settings: SamplerSettings
    intent: Intent
    reader: Reader | None = None
    cancelled: Callable[[], bool] = never


@dataclass(frozen=True)
class Settled:
    """A settled canvas as the after-passes see it: its last step, and what they put back."""

    canvas: Canvas
    last: StepResult
    put_back: int = 0  # changed runs a pass put back as they were (shown in the review)
    notes: tuple[str, ...] = field(default=())
    altered_meaning: int = 0  # of those, the runs put back for changing the meaning

    def with_ids(self, ids: list[int], put_back: int, altered_meaning: int = 0) -> Settled:
        step = replace(self.last, ids=ids, draft_ids=ids)
        return replace(
            self,
            last=step,
            put_back=self.put_back + put_back,
            altered_meaning=self.altered_meaning + altered_meaning,
        )


class Pass:
    """A pass that changes nothing; each real pass overrides the hooks it needs."""

    name = "pass"

    def before(self, plan: EditPlan, ctx: PassContext) -> EditPlan:
        """The plan as this pass would have the canvas start from it."""
        return plan

    def seed_cut(self, ctx: PassContext) -> SeedCut | None:
        """How this pass cuts a free seed longer than its budget, if it does."""
        return None

    def after(self, settled: Settled, ctx: PassContext) -> Settled:
        """The settled result as this pass judges it."""
        return settled
