"""The one denoising pipeline: a plan and a run context in, frames and a checked result out.

:func:`denoise_plan` is every request's middle: plan → canvas → backend steps → frames →
assembly and the invariant check. An edit (:mod:`engine.run.edit_run`) calls it once; a structured
fill (:mod:`engine.structured.slots`) once per round. It is a generator in the style of
superqt's GeneratorWorker: each yield is a :class:`Frame`, and its return value is the
:class:`Denoised` result, or ``None`` when the run was cancelled (checked before every step).
:func:`make_metrics` is the one place a request's :class:`Metrics` are built.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Generator
from contextlib import closing
from dataclasses import dataclass, field, replace

from engine.backends.base import Backend, Reader, StepResult, locked_states
from engine.core.canvas import Canvas, as_user_locked, assemble, build_canvas, check_proposal
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan
from engine.core.protocol import EditMode, Frame, Metrics, SegmentText, TokenState, TokenView
from engine.core.tokens import TokenTable
from engine.intent import read_intent
from engine.passes.base import Pass, PassContext, Settled, never
from engine.passes.order import passes_for
from engine.run.answers import Outcome, rewrite_notes

# The opening frame's canvas is for showing only: no model limit applies to it.
UNBOUNDED = sys.maxsize

__all__ = [
    "Denoised",
    "RunContext",
    "Shaped",
    "Track",
    "after_steps",
    "denoise_plan",
    "make_metrics",
    "never",
    "settle_shaped",
    "shape_plan",
]


@dataclass(frozen=True)
class RunContext:
    """What a request's runs share: its id, the cancel predicate, the clock and its start."""

    request_id: int
    cancelled: Callable[[], bool] = never
    clock: Callable[[], float] = time.perf_counter
    started: float = field(default=0.0)

    @classmethod
    def starting(
        cls,
        request_id: int,
        cancelled: Callable[[], bool] = never,
        clock: Callable[[], float] = time.perf_counter,
    ) -> RunContext:
        """A context whose clock starts now."""
        return cls(request_id, cancelled, clock, clock())

    def elapsed(self) -> float:
        return self.clock() - self.started


@dataclass(frozen=True)
class Denoised:
    """One settled canvas: its last step, the assembled (checked) segments and what it cost."""

    canvas: Canvas
    last: StepResult
    segments: tuple[SegmentText, ...]
    text: str  # the document with the target replaced, as ``check_proposal`` verified it
    first_frame_s: float
    churn: float
    generated: int  # generated positions that hold content (not the filler)
    settled_at: dict[int, int]  # canvas position → the forward at which it first settled
    reads: int = 0  # forwards outside the denoising steps (pricing cuts, the self-check)
    put_back: int = 0  # changed runs the self-check put back as they were
    altered_meaning: int = 0  # of those, the runs the meaning check put back
    notes: tuple[str, ...] = ()  # a rewrite's: why it is unchanged, what it could not follow
    retried: int = 0  # a later version's forwards on tries that came back as an earlier one

    @property
    def forwards(self) -> int:
        """Every forward the request cost: its denoising steps, the passage reads, and the
        forwards of a version's earlier tries (:mod:`engine.run.versions`)."""
        return self.last.forwards + self.reads + self.retried


class DraftTracker:
    """Turns step results into frames holding only changed positions, and measures churn."""

    def __init__(self, request_id: int, canvas: Canvas, table: TokenTable) -> None:
        self.request_id = request_id
        self.table = table
        self.shown: list[tuple[int, TokenState, str] | None] = [None] * len(canvas)
        self.provisional_shown: list[tuple[int, int]] = []  # (position, token) pairs displayed
        self.settled_at: dict[int, int] = {}

    def frame(self, result: StepResult, elapsed_s: float) -> Frame:
        updates = []
        texts = self.table.display_texts(result.draft_ids)
        views = zip(result.draft_ids, result.states, texts, strict=True)
        for i, (token, state, text) in enumerate(views):
            if self.shown[i] == (token, state, text):
                continue
            previous = self.shown[i]
            if previous is None or previous[:2] != (token, state):
                self.count(i, token, state, result.forwards)
            self.shown[i] = (token, state, text)
            updates.append(TokenView(i, text, state, float(result.confidence[i])))
        return Frame(
            self.request_id,
            result.forwards,
            result.max_steps,
            len(self.shown),
            tuple(updates),
            result.forwards,
            elapsed_s,
        )

    def count(self, position: int, token: int, state: TokenState, forwards: int) -> None:
        """Note a newly shown token: provisional ones for churn, settled ones' first step."""
        if state is TokenState.PROVISIONAL:
            self.provisional_shown.append((position, token))
        elif state is TokenState.SETTLED:
            self.settled_at.setdefault(position, forwards)

    def churn(self, final_ids: list[int]) -> float:
        if not self.provisional_shown:
            return 0.0
        changed = sum(1 for pos, token in self.provisional_shown if final_ids[pos] != token)
        return changed / len(self.provisional_shown)


def initial_step(canvas: Canvas, max_steps: int) -> StepResult:
    """Step 0: locked text in place, every generated position still noise."""
    ids = list(canvas.seed_ids)
    return StepResult(max_steps, ids, ids, locked_states(canvas), [0.0] * len(ids), 0)


def denoise_plan(
    backend: Backend,
    plan: EditPlan,
    settings: SamplerSettings,
    document: str,
    run: RunContext,
) -> Generator[Frame, None, Denoised | None]:
    """Settle ``plan`` over ``document``: a frame per step, then the checked result.

    The plan goes through its passes (:func:`engine.passes.order.passes_for`) before the canvas
    and after the last step. Returns ``None`` when cancelled, so the caller can end with
    ``Cancelled``.
    """
    shaped = yield from shape_plan(backend, plan, settings, run)
    return (yield from settle_shaped(backend, shaped, settings, document, run))


@dataclass(frozen=True)
class Shaped:
    """A request after its passes' ``before``: the canvas every version of it settles from.

    ``reads_before`` is the reader's count where this settling's reads start counting (the
    request's start for its first version; a later version's own start), ``reads`` what the
    passes before the canvas read."""

    canvas: Canvas
    ctx: PassContext
    passes: tuple[Pass, ...]
    first_frame_s: float | None
    reads_before: int
    reads: int = 0


def shape_plan(
    backend: Backend, plan: EditPlan, settings: SamplerSettings, run: RunContext
) -> Generator[Frame, None, Shaped]:
    """The passes before the model, then the canvas (an opening frame while they read)."""
    table, reader = backend.table, backend.reader()
    reads_before = reader.forwards if reader is not None else 0
    ctx = PassContext(table, settings, read_intent(plan.instruction), reader, run.cancelled)
    passes = passes_for(plan, settings)
    first_frame_s: float | None = None  # when the first frame was made, not when it was taken
    readers = reading_passes(ctx, passes)
    opening: Frame | None = None
    if readers:  # the passage at once, while the passes read the model
        opening = opening_frame(plan, table, settings, run, readers[0])
        first_frame_s = opening.elapsed_s
        yield opening
    canvas = yield from shaped(
        plan, passes, ctx, backend.max_canvas_tokens, opening_stages(opening, readers, reader, run)
    )
    reads = reader.forwards - reads_before if reader is not None else 0
    return Shaped(canvas, ctx, tuple(passes), first_frame_s, reads_before, reads)


def settle_shaped(
    backend: Backend,
    shaped: Shaped,
    settings: SamplerSettings,
    document: str,
    run: RunContext,
) -> Generator[Frame, None, Denoised | None]:
    """Settle a shaped canvas with ``settings`` (its seed): frames, the passes after the
    model, assembly and the check; ``None`` when cancelled."""
    canvas = shaped.canvas
    tracker = DraftTracker(run.request_id, canvas, backend.table)
    start = tracker.frame(initial_step(canvas, settings.steps), run.elapsed())
    first_frame_s = start.elapsed_s if shaped.first_frame_s is None else shaped.first_frame_s
    yield start
    last = yield from step_frames(backend, canvas, tracker, settings, run)
    if last is None:
        return None
    track = Track(tracker, first_frame_s, shaped.reads_before)
    return (yield from after_steps(backend, shaped, last, track, document, run))


@dataclass(frozen=True)
class Track:
    """How a settling canvas is shown and counted: its frames' tracker, when its first frame
    was made, and the reader's count its reads are counted from."""

    tracker: DraftTracker
    first_frame_s: float
    reads_before: int


def after_steps(
    backend: Backend,
    shaped: Shaped,
    last: StepResult,
    track: Track,
    document: str,
    run: RunContext,
) -> Generator[Frame, None, Denoised]:
    """A settled canvas's passes after the model (a frame when they changed it), assembly, the
    check, and a rewrite's notes: the checked result."""
    canvas, ctx, reader = shaped.canvas, shaped.ctx, shaped.ctx.reader
    plan, table, tracker = canvas.plan, backend.table, track.tracker
    settled = Settled(canvas, last)
    for step in shaped.passes:
        settled = step.after(settled, ctx)
    if settled.last is not last:
        yield tracker.frame(settled.last, run.elapsed())
    reads = reader.forwards - track.reads_before if reader is not None else 0
    done = finished(settled, document, table, tracker, track.first_frame_s, reads)
    if plan.mode is not EditMode.REWRITE:
        return done
    return answered(done, document[plan.target.start : plan.target.end], ctx, backend.family)


def answered(done: Denoised, original: str, ctx: PassContext, family: str) -> Denoised:
    """A rewrite's result with the notes that say what was done (:mod:`engine.run.answers`);
    ``original`` is the target's text as the user wrote it."""
    unchanged = done.text == original
    outcome = Outcome(
        ctx.intent, family, unchanged, done.put_back, ctx.reader is not None, ctx.settings.passes,
        done.altered_meaning,
    )  # fmt: skip
    return replace(done, notes=(*done.notes, *rewrite_notes(outcome)))


def finished(
    settled: Settled,
    document: str,
    table: TokenTable,
    tracker: DraftTracker,
    first_frame_s: float,
    reads: int,
) -> Denoised:
    """Assembly and the invariant check: the settled canvas as a checked :class:`Denoised`."""
    canvas, last = settled.canvas, settled.last
    segments = assemble(canvas, last.ids, table)
    text = check_proposal(canvas.plan, segments, document, forbidden_texts(table))
    segments = as_user_locked(canvas.plan, segments)
    filler = table.specials.filler_id
    generated = sum(1 for i in canvas.generated_positions() if last.ids[i] != filler)
    return Denoised(
        canvas, last, segments, text, first_frame_s, tracker.churn(last.ids), generated,
        tracker.settled_at, reads, settled.put_back, settled.altered_meaning, settled.notes,
    )  # fmt: skip


def reading_passes(ctx: PassContext, passes: list[Pass]) -> list[str]:
    """The passes that will read the model before the canvas, in order: proofreading (an
    instruction with a style) and pricing a shorter rewrite's cuts, on a backend that reads."""
    if ctx.reader is None:
        return []
    wanted = {"proofread": ctx.intent.styled, "shorten": ctx.intent.shorter}
    return [p.name for p in passes if wanted.get(p.name, False)]


StageFrame = Callable[[str], Frame | None]  # the frame saying which pass reads next, if any


def opening_stages(
    opening: Frame | None, readers: list[str], reader: Reader | None, run: RunContext
) -> StageFrame:
    """After each pass: a frame naming the next reading pass and the reads so far (an empty
    update on the opening frame's canvas), so the window shows the passes' progress."""
    start = reader.forwards if reader is not None else 0

    def after(done: str) -> Frame | None:
        later = readers[readers.index(done) + 1 :] if done in readers else []
        if opening is None or not later or reader is None:
            return None
        return replace(
            opening, updates=(), elapsed_s=run.elapsed(), stage=later[0],
            reads=reader.forwards - start,
        )  # fmt: skip

    return after


def shaped(
    plan: EditPlan, passes: list[Pass], ctx: PassContext, max_tokens: int, stages: StageFrame
) -> Generator[Frame, None, Canvas]:
    """The canvas of ``plan`` after every pass's ``before``, cut as a pass says; between the
    passes, the frames ``stages`` makes."""
    for step in passes:
        plan = step.before(plan, ctx)
        frame = stages(step.name)
        if frame is not None:
            yield frame
    cut = next((c for c in (p.seed_cut(ctx) for p in passes) if c is not None), None)
    return build_canvas(plan, ctx.table, ctx.settings, max_tokens, cut)


def opening_frame(
    plan: EditPlan, table: TokenTable, settings: SamplerSettings, run: RunContext, stage: str = ""
) -> Frame:
    """The passage as it stands, before the passes that read the model: something moves on
    screen at once (proofreading and pricing cuts took seconds before the first frame).
    ``stage`` names the pass that reads first.

    Only tokenizing runs here; its canvas is for showing, never sampled, so a passage that only
    fits once a shorter rewrite has cut it is not refused here. The canvas built after the
    passes replaces it (the overlay starts over when the length changes)."""
    canvas = build_canvas(plan, table, settings, UNBOUNDED)
    frame = DraftTracker(run.request_id, canvas, table).frame(
        initial_step(canvas, settings.steps), run.elapsed()
    )
    return replace(frame, stage=stage)


def step_frames(
    backend: Backend,
    canvas: Canvas,
    tracker: DraftTracker,
    settings: SamplerSettings,
    run: RunContext,
) -> Generator[Frame, None, StepResult | None]:
    """Pull the backend's steps one at a time, cancel checked before each; the last step.

    Closing this generator (an abandoned run) closes the backend's, whose ``finally`` cleans up.
    """
    last: StepResult | None = None
    with closing(backend.denoise(canvas, settings)) as steps:
        while True:
            if run.cancelled():
                return None
            result = next(steps, None)
            if result is None:
                break
            last = result
            yield tracker.frame(result, run.elapsed())
    return last if last is not None else initial_step(canvas, settings.steps)


def make_metrics(
    first_frame_s: float,
    settle_s: float,
    forwards: int,
    generated: int,
    churn: float,
    put_back: int = 0,
) -> Metrics:
    """A request's metrics (DESIGN §9); a step is one forward, so ``steps`` counts forwards."""
    return Metrics(
        time_to_first_frame_s=first_frame_s,
        time_to_settle_s=settle_s,
        steps=forwards,
        forwards=forwards,
        tokens_generated=generated,
        tokens_per_forward=generated / max(forwards, 1),
        churn=churn,
        tokens_per_second=generated / max(settle_s, 1e-9),
        put_back=put_back,
    )


def forbidden_texts(table: TokenTable) -> list[str]:
    """Texts whose appearance in generated text means a special token leaked."""
    specials = table.specials
    ids = [specials.filler_id, *(i for i in (specials.mask_id,) if i is not None)]
    texts = [str(table.tokenizer.convert_ids_to_tokens(i)) for i in ids]
    # Only texts that look like markup tokens are a sign of a leak; a byte-level filler such as
    # "!" would also be legitimate prose.
    return [t for t in texts if len(t) > 2 and t.startswith("<") and t.endswith(">")]
