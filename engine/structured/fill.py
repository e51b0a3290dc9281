"""Structured fills, start to finish: slots → backend steps → read back → re-denoise → repair.

:func:`settle_slots` is the loop both JSON and tables share. Each round lays the structure
out with every accepted value written in as locked text and only the failing slots open,
denoises that canvas with the same machinery as an edit (:func:`engine.session.denoise_frames`,
:func:`~engine.canvas.assemble`, :func:`~engine.canvas.check_proposal`), and reads each slot
back through its parser. Slots still failing after ``REDENOISE_ROUNDS`` extra rounds get their
precomputed valid default (the deterministic repair). The caller validates the whole result
and never offers one that fails.

A fill should cost about one rewrite of the same length, so every round is one canvas settled
in parallel (:func:`round_settings`: the whole canvas one block, a confidence threshold, at most
``FIRST_ROUND_STEPS`` forwards, then ``REDENOISE_STEPS`` per re-denoise round), and its plan asks
the backend to keep the locked text's keys and values across the round's steps
(``EditPlan.cache_locked``), so each step after the first runs only the open positions.
``SlotStats`` counts the forwards per fill and per slot.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from engine.backends.base import Backend, StepResult
from engine.canvas import Canvas, assemble, build_canvas, check_proposal
from engine.config import SamplerSettings
from engine.errors import InvariantViolation
from engine.plan import EditPlan, Segment, Slot
from engine.protocol import (
    Cancelled,
    EditMode,
    Fill,
    FillKind,
    Frame,
    Metrics,
    Proposal,
    SegmentText,
    TokenState,
)
from engine.session import DraftTracker, denoise_frames, forbidden_texts, initial_step
from engine.structured.compiler import Compiled, compile_json, parse_json_fill
from engine.structured.json_problem import JsonProblem
from engine.structured.render import pieces
from engine.structured.tree import Path, instance_of
from engine.structured.values import NOTHING

REDENOISE_ROUNDS = 2  # extra rounds for slots whose text did not parse or validate
FIRST_ROUND_STEPS = 6  # forwards at most for the first round (every slot at once)
REDENOISE_STEPS = 2  # forwards at most for each re-denoise round (the failed slots only)
FILL_THRESHOLD = 0.7  # commit every position at least this confident (Fast-dLLM's threshold)
JSON_REPAIR_PASSES = 3  # whole-instance repairs (cross-slot keywords) before the default


class SlotProblem(Protocol):
    """What the loop needs from a structure: a layout, a reader and a repair per value.

    ``layout`` gives the plan's segments and, for each, the key of the open value it belongs
    to (``None``: structure). A value may own several segments (the slots and locked
    characters of its shape); ``read`` gets their texts in order. ``default`` is the repair,
    told the values already taken so it need not repeat one of them.
    """

    def layout(self, accepted: dict[Any, Any]) -> tuple[tuple[Segment, ...], tuple[Any, ...]]: ...

    def read(self, key: Any, texts: list[str]) -> Any: ...

    def default(self, key: Any, taken: list[Any]) -> Any: ...


@dataclass
class SlotStats:
    """How the slots fared: the numbers the CLI and the benchmark report."""

    slots: int = 0
    accepted_first: int = 0
    rounds: int = 0
    redenoised: int = 0
    repaired: list[str] = field(default_factory=list)
    forwards: int = 0
    steps: int = 0
    generated: int = 0
    churn: float = 0.0
    first_frame_s: float = 0.0
    settled_at: dict[str, int] = field(default_factory=dict)  # value → forward (first round)

    def as_dict(self) -> dict[str, Any]:
        return {
            "slots": self.slots,
            "forwards": self.forwards,
            "forwards_per_slot": self.forwards / max(self.slots, 1),
            "accepted_first_round": self.accepted_first,
            "rounds": self.rounds,
            "redenoised": self.redenoised,
            "repaired": list(self.repaired),
            "settled_at_forward": dict(self.settled_at),
        }


@dataclass(frozen=True)
class Filled:
    """A validated fill: the proposal the window reviews, plus what the CLI prints."""

    proposal: Proposal
    value: Any  # the JSON instance, or the table's Markdown
    stats: SlotStats


@dataclass(frozen=True)
class Round:
    """One round's fixed inputs: the backend, the layout's slot keys and the plan it became."""

    backend: Backend
    keys: tuple[Any, ...]  # the open values, in order
    plan: EditPlan
    document: str
    request_id: int
    owners: tuple[Any, ...] = ()  # per plan segment: the value it belongs to, or None


def settle_slots(
    backend: Backend,
    problem: SlotProblem,
    plan_for: Callable[[tuple[Segment, ...]], EditPlan],
    document: str,
    request_id: int,
    settings: SamplerSettings,
    cancelled: Callable[[], bool],
    clock: Callable[[], float],
) -> Generator[Frame | Cancelled, None, tuple[dict[Any, Any], SlotStats] | None]:
    """Fill every slot; return accepted values (repairs included) and stats, or ``None``.

    Each round lays out only the slots still open (accepted values are written in as locked
    text), with a fresh seed; what is still open after the last round gets its default.
    """
    started = clock()
    accepted: dict[Any, Any] = {}
    stats = SlotStats()
    for number in range(REDENOISE_ROUNDS + 1):
        plan_segments, owners = problem.layout(accepted)
        keys = open_keys(owners)
        if not keys:
            break
        plan = replace(plan_for(plan_segments), cache_locked=True)
        step = Round(backend, keys, plan, document, request_id, owners)
        texts = yield from run_round(
            step, round_settings(settings, number), stats, cancelled, clock, started
        )
        if texts is None:
            return None
        accepted |= read_round(problem, owners, texts)
        if stats.rounds == 1:
            stats.accepted_first = len(accepted)
    for key in open_keys(problem.layout(accepted)[1]):
        accepted[key] = problem.default(key, list(accepted.values()))
        stats.repaired.append(str(key))
    return accepted, stats


def read_round(problem: SlotProblem, owners: tuple[Any, ...], texts: list[str]) -> dict[Any, Any]:
    """The values a round's segment texts spell (each value from the segments it owns)."""
    found: dict[Any, Any] = {}
    for key in open_keys(owners):
        value = problem.read(key, [t for t, o in zip(texts, owners, strict=True) if o == key])
        if value is not NOTHING:
            found[key] = value
    return found


def open_keys(owners: tuple[Any, ...]) -> tuple[Any, ...]:
    """Each open value's key once, in layout order."""
    return tuple(dict.fromkeys(o for o in owners if o is not None))


def round_settings(settings: SamplerSettings, number: int) -> SamplerSettings:
    """How a fill round denoises: every slot in one parallel canvas (one block), committed by
    confidence threshold, within a small step budget (the first round's, then a re-denoise's),
    from pure noise whatever the rewrite strength; each round gets a fresh seed."""
    steps = FIRST_ROUND_STEPS if number == 0 else REDENOISE_STEPS
    return settings.with_changes(
        steps=min(settings.steps, steps),
        strength=1.0,  # a slot has no original text to keep: every position starts as noise
        block_length=0,
        threshold=settings.threshold or FILL_THRESHOLD,
        seed=settings.seed + number,
    )


def run_round(
    step: Round,
    settings: SamplerSettings,
    stats: SlotStats,
    cancelled: Callable[[], bool],
    clock: Callable[[], float],
    started: float,
) -> Generator[Frame, None, list[str] | None]:
    """Denoise one round's canvas; return every segment's text (``None`` when cancelled)."""
    table = step.backend.table
    canvas = build_canvas(step.plan, table, settings, step.backend.max_canvas_tokens)
    tracker = DraftTracker(step.request_id, canvas, table)
    yield tracker.frame(initial_step(canvas, settings.steps), clock() - started)
    stats.first_frame_s = stats.first_frame_s or clock() - started
    settled: dict[int, int] = {}
    frames = denoise_frames(step.backend, canvas, tracker, settings, cancelled, clock, started)
    last = yield from watch_settling(frames, settled)
    if last is None:
        return None
    texts = assemble(canvas, last.ids, table)
    check_proposal(step.plan, texts, step.document, forbidden_texts(table))
    if stats.rounds == 0:
        stats.slots = len(step.keys)
        stats.churn = tracker.churn(last.ids)
        stats.settled_at = settled_by_value(step, canvas, settled)
    else:
        stats.redenoised += len(step.keys)
    stats.rounds += 1
    stats.forwards += last.forwards
    stats.steps += last.step
    filler = table.specials.filler_id
    stats.generated += sum(1 for i in canvas.generated_positions() if last.ids[i] != filler)
    return [t.text for t in texts]


def watch_settling(
    frames: Generator[Frame, None, StepResult | None], settled: dict[int, int]
) -> Generator[Frame, None, StepResult | None]:
    """Pass the frames on, noting the forward at which each canvas position settled (closing
    the inner generator, and so the backend's, if the fill is abandoned)."""
    try:
        while True:
            try:
                frame = next(frames)
            except StopIteration as done:
                return done.value
            for update in frame.updates:
                if update.state is TokenState.SETTLED:
                    settled.setdefault(update.index, frame.forwards)
            yield frame
    finally:
        frames.close()


def settled_by_value(step: Round, canvas: Canvas, settled: dict[int, int]) -> dict[str, int]:
    """For each open value: the forward by which all its positions had settled."""
    found: dict[str, int] = {}
    for index, owner in enumerate(step.owners):
        if owner is None or not isinstance(step.plan.segments[index], Slot):
            continue
        at = max((settled.get(p, 0) for p in canvas.segment_positions(index)), default=0)
        found[str(owner)] = max(found.get(str(owner), 0), at)
    return found


def metrics_for(stats: SlotStats, elapsed_s: float) -> Metrics:
    return Metrics(
        time_to_first_frame_s=stats.first_frame_s,
        time_to_settle_s=elapsed_s,
        steps=stats.steps,
        forwards=stats.forwards,
        tokens_generated=stats.generated,
        tokens_per_forward=stats.generated / max(stats.forwards, 1),
        churn=stats.churn,
        tokens_per_second=stats.generated / max(elapsed_s, 1e-9),
    )


# --- JSON --------------------------------------------------------------------------------------


def run_json(
    backend: Backend,
    fill: Fill,
    cancelled: Callable[[], bool] = lambda: False,
    clock: Callable[[], float] = time.perf_counter,
) -> Generator[Frame | Cancelled | Filled, None, None]:
    """Fill a JSON instance; yields frames, then one :class:`Filled` or ``Cancelled``."""
    started = clock()
    schema, template = parse_json_fill(fill)
    compiled = compile_json(schema, template, fill.locks, fill.include)
    problem = JsonProblem(compiled, backend.table)
    document, target = fill.text, fill.target
    title = schema.get("title", "") if isinstance(schema, dict) else ""

    def plan_for(plan_segments: tuple[Segment, ...]) -> EditPlan:
        instruction = f"Fill in realistic values: {title}".rstrip(": ")
        return EditPlan(
            target,
            plan_segments,
            document[: target.start],
            document[target.end :],
            instruction,
            EditMode.REWRITE,
        )

    outcome = yield from settle_slots(
        backend, problem, plan_for, document, fill.request_id, fill.settings, cancelled, clock
    )
    if outcome is None:
        yield Cancelled(fill.request_id)
        return
    values, stats = outcome
    instance = validated_instance(problem, values, stats)
    yield json_filled(fill, compiled, values, instance, stats, clock() - started)


def validated_instance(problem: JsonProblem, values: dict[Path, Any], stats: SlotStats) -> Any:
    """The filled instance, repaired where cross-slot keywords fail; never an invalid one."""
    compiled = problem.compiled
    validator = compiled.context.root_validator()
    for _ in range(JSON_REPAIR_PASSES):
        instance = instance_of(compiled.tree, values)
        errors = list(validator.iter_errors(instance))
        if not errors:
            return instance
        bad = [tuple(e.absolute_path) for e in errors]
        drop = [p for p in values if any(p[: len(b)] == b for b in bad)]
        for path in drop:
            others = [v for p, v in values.items() if p != path]
            values[path] = problem.default(path, others)
            stats.repaired.append(str(path))
    if validator.is_valid(compiled.default):
        values.clear()
        return compiled.default
    raise InvariantViolation("No valid instance could be produced; nothing is offered.")


def json_filled(
    fill: Fill,
    compiled: Compiled,
    values: dict[Path, Any],
    instance: Any,
    stats: SlotStats,
    elapsed_s: float,
) -> Filled:
    text = json.dumps(instance, indent=2, ensure_ascii=False)
    shown = {v.path: v.leaf.default for v in compiled.leaves()} | values
    parts = pieces(compiled.tree, shown)
    if "".join(p.text for p in parts) != text:
        # A whole-instance fallback replaced the tree's values: offer it as one segment.
        parts = []
    seg_texts = tuple(SegmentText(p.text, locked=p.path is None) for p in parts) or (
        SegmentText(text, locked=False),
    )
    locks = tuple(p.text for p in parts if p.path is None)
    proposal = Proposal(
        fill.request_id, fill.target, text, seg_texts, locks, metrics_for(stats, elapsed_s)
    )
    return Filled(proposal, instance, stats)


def run_fill(
    backend: Backend,
    fill: Fill,
    cancelled: Callable[[], bool] = lambda: False,
    clock: Callable[[], float] = time.perf_counter,
) -> Iterator[Frame | Proposal | Cancelled]:
    """What the worker runs: frames, then a ``Proposal`` (or ``Cancelled``)."""
    from engine.structured.tables import run_table

    runner = run_json if fill.kind is FillKind.JSON else run_table
    for event in runner(backend, fill, cancelled, clock):
        yield event.proposal if isinstance(event, Filled) else event
