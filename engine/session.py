"""One edit, start to finish: request → plan → canvas → backend steps → frames → proposal.

:func:`run_edit` is a generator in the style of superqt's GeneratorWorker: every yield is an
event (:class:`Frame`, then a :class:`Proposal` or :class:`Cancelled`); cancel is a flag checked
before every denoising step; errors propagate to the caller, which reports them as ``Failed``.
The same generator serves the worker process, the in-process test worker and the headless CLI.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Generator, Iterator
from contextlib import closing

from engine.backends.base import Backend, StepResult, locked_states
from engine.canvas import Canvas, assemble, build_canvas, check_proposal
from engine.config import SamplerSettings
from engine.plan import plan_edit
from engine.protocol import (
    Cancelled,
    Edit,
    Frame,
    Metrics,
    Proposal,
    TokenState,
    TokenView,
)
from engine.tokens import TokenTable

EditEvent = Frame | Proposal | Cancelled


class DraftTracker:
    """Turns step results into frames holding only changed positions, and measures churn."""

    def __init__(self, request_id: int, canvas: Canvas, table: TokenTable) -> None:
        self.request_id = request_id
        self.table = table
        self.shown: list[tuple[int, TokenState] | None] = [None] * len(canvas)
        self.provisional_shown: list[tuple[int, int]] = []  # (position, token) pairs displayed

    def frame(self, result: StepResult, elapsed_s: float) -> Frame:
        updates = []
        for i, (token, state) in enumerate(zip(result.draft_ids, result.states, strict=True)):
            if self.shown[i] == (token, state):
                continue
            self.shown[i] = (token, state)
            if state is TokenState.PROVISIONAL:
                self.provisional_shown.append((i, token))
            conf = float(result.confidence[i])
            updates.append(TokenView(i, self.table.text(token), state, conf))
        return Frame(
            self.request_id,
            result.step,
            result.max_steps,
            len(self.shown),
            tuple(updates),
            result.forwards,
            elapsed_s,
        )

    def churn(self, final_ids: list[int]) -> float:
        if not self.provisional_shown:
            return 0.0
        changed = sum(1 for pos, token in self.provisional_shown if final_ids[pos] != token)
        return changed / len(self.provisional_shown)


def initial_step(canvas: Canvas, max_steps: int) -> StepResult:
    """Step 0: locked text in place, every generated position still noise."""
    ids = list(canvas.seed_ids)
    return StepResult(0, max_steps, ids, ids, locked_states(canvas), [0.0] * len(ids), 0)


def run_edit(
    backend: Backend,
    edit: Edit,
    cancelled: Callable[[], bool] = lambda: False,
    clock: Callable[[], float] = time.perf_counter,
) -> Iterator[EditEvent]:
    """Run one edit, yielding frames, then exactly one ``Proposal`` or ``Cancelled``."""
    started = clock()
    plan = plan_edit(edit)
    settings = edit.settings
    canvas = build_canvas(plan, backend.table, settings, backend.max_canvas_tokens)
    tracker = DraftTracker(edit.request_id, canvas, backend.table)
    yield tracker.frame(initial_step(canvas, settings.steps), clock() - started)
    first_frame_s = clock() - started
    last = yield from denoise_frames(backend, canvas, tracker, settings, cancelled, clock, started)
    if last is None:
        yield Cancelled(edit.request_id)
        return
    segments = assemble(canvas, last.ids, backend.table)
    forbidden = forbidden_texts(backend.table)
    text = check_proposal(plan, segments, edit.text, forbidden)
    settle_s = clock() - started
    generated = sum(
        1 for i in canvas.generated_positions() if last.ids[i] != backend.table.specials.filler_id
    )
    metrics = Metrics(
        time_to_first_frame_s=first_frame_s,
        time_to_settle_s=settle_s,
        steps=last.step,
        forwards=last.forwards,
        tokens_generated=generated,
        tokens_per_forward=generated / max(last.forwards, 1),
        churn=tracker.churn(last.ids),
        tokens_per_second=generated / max(settle_s, 1e-9),
    )
    yield Proposal(edit.request_id, edit.target, text, segments, plan.locked_texts, metrics)


def denoise_frames(
    backend: Backend,
    canvas: Canvas,
    tracker: DraftTracker,
    settings: SamplerSettings,
    cancelled: Callable[[], bool],
    clock: Callable[[], float],
    started: float,
) -> Generator[Frame, None, StepResult | None]:
    """Run the backend over ``canvas``, yielding a frame per step; return the last step.

    Returns ``None`` when cancelled (checked before every step), so the caller can end with
    ``Cancelled``; shared by edits and structured fills (:mod:`engine.structured.fill`).
    """
    last: StepResult | None = None
    with closing(backend.denoise(canvas, canvas.plan, settings)) as steps:
        while True:
            if cancelled():
                return None
            result = next(steps, None)
            if result is None:
                break
            last = result
            yield tracker.frame(result, clock() - started)
    return last if last is not None else initial_step(canvas, settings.steps)


def forbidden_texts(table: TokenTable) -> list[str]:
    """Texts whose appearance in generated text means a special token leaked."""
    specials = table.specials
    ids = [specials.filler_id, *(i for i in (specials.mask_id,) if i is not None)]
    texts = [str(table.tokenizer.convert_ids_to_tokens(i)) for i in ids]
    # Only texts that look like markup tokens are a sign of a leak; a byte-level filler such as
    # "!" would also be legitimate prose.
    return [t for t in texts if len(t) > 2 and t.startswith("<") and t.endswith(">")]
