"""Structured fills, start to finish: slots → backend steps → read back → re-denoise → repair.

:func:`settle_slots` is the loop both JSON and tables share. Each round lays the structure
out with every accepted value written in as locked text and only the failing slots open,
denoises that canvas with the same machinery as an edit (:func:`engine.session.denoise_frames`,
:func:`~engine.canvas.assemble`, :func:`~engine.canvas.check_proposal`), and reads each slot
back through its parser. Slots still failing after ``REDENOISE_ROUNDS`` extra rounds get their
precomputed valid default (the deterministic repair). The caller validates the whole result
and never offers one that fails.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field
from typing import Any, Protocol

from engine.backends.base import Backend
from engine.canvas import assemble, build_canvas, check_proposal
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
)
from engine.session import DraftTracker, denoise_frames, forbidden_texts, initial_step
from engine.structured.compiler import Compiled, compile_json, parse_json_fill
from engine.structured.render import choice_slot, pieces, plain_slot, segments
from engine.structured.tree import Path, instance_of
from engine.structured.values import NOTHING
from engine.tokens import TokenTable

REDENOISE_ROUNDS = 2  # extra rounds for slots whose text did not parse or validate
JSON_REPAIR_PASSES = 3  # whole-instance repairs (cross-slot keywords) before the default


class SlotProblem(Protocol):
    """What the loop needs from a structure: a layout, a reader and a repair per slot."""

    def layout(self, accepted: dict[Any, Any]) -> tuple[tuple[Segment, ...], tuple[Any, ...]]: ...

    def read(self, key: Any, text: str) -> Any: ...

    def default(self, key: Any) -> Any: ...


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

    def as_dict(self) -> dict[str, Any]:
        return {
            "slots": self.slots,
            "accepted_first_round": self.accepted_first,
            "rounds": self.rounds,
            "redenoised": self.redenoised,
            "repaired": list(self.repaired),
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
    keys: tuple[Any, ...]
    plan: EditPlan
    document: str
    request_id: int


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
    for _ in range(REDENOISE_ROUNDS + 1):
        plan_segments, keys = problem.layout(accepted)
        if not keys:
            break
        step = Round(backend, keys, plan_for(plan_segments), document, request_id)
        texts = yield from run_round(step, settings, stats, cancelled, clock, started)
        if texts is None:
            return None
        for key, text in zip(keys, texts, strict=True):
            value = problem.read(key, text)
            if value is not NOTHING:
                accepted[key] = value
        if stats.rounds == 1:
            stats.accepted_first = len(accepted)
        settings = settings.with_changes(seed=settings.seed + 1)
    for key in problem.layout(accepted)[1]:
        accepted[key] = problem.default(key)
        stats.repaired.append(str(key))
    return accepted, stats


def run_round(
    step: Round,
    settings: SamplerSettings,
    stats: SlotStats,
    cancelled: Callable[[], bool],
    clock: Callable[[], float],
    started: float,
) -> Generator[Frame, None, list[str] | None]:
    """Denoise one round's canvas; return each slot's text (``None`` when cancelled)."""
    table = step.backend.table
    canvas = build_canvas(step.plan, table, settings, step.backend.max_canvas_tokens)
    tracker = DraftTracker(step.request_id, canvas, table)
    yield tracker.frame(initial_step(canvas, settings.steps), clock() - started)
    stats.first_frame_s = stats.first_frame_s or clock() - started
    last = yield from denoise_frames(
        step.backend, canvas, tracker, settings, cancelled, clock, started
    )
    if last is None:
        return None
    texts = assemble(canvas, last.ids, table)
    check_proposal(step.plan, texts, step.document, forbidden_texts(table))
    slot_texts = [
        t.text for s, t in zip(step.plan.segments, texts, strict=True) if isinstance(s, Slot)
    ]
    if stats.rounds == 0:
        stats.slots = len(step.keys)
        stats.churn = tracker.churn(last.ids)
    else:
        stats.redenoised += len(step.keys)
    stats.rounds += 1
    stats.forwards += last.forwards
    stats.steps += last.step
    stats.generated += sum(1 for t in slot_texts if t)
    return slot_texts


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


class JsonProblem:
    """A compiled schema as a slot problem: slots are keyed by their JSON path."""

    def __init__(self, compiled: Compiled, table: TokenTable) -> None:
        self.compiled = compiled
        self.leaves = {v.path: v.leaf for v in compiled.leaves()}
        self.slots: dict[Path, Slot] = {}
        self.firsts: dict[Path, tuple[str, ...]] = {}
        for path, leaf in self.leaves.items():
            if leaf.kind != "choice":
                self.slots[path] = plain_slot(leaf)
                continue
            self.slots[path], firsts = choice_slot(leaf, table)
            if firsts is not None:
                self.firsts[path] = firsts

    def layout(self, accepted: dict[Any, Any]) -> tuple[tuple[Segment, ...], tuple[Any, ...]]:
        return segments(self.compiled.tree, accepted, self.slots.__getitem__)

    def read(self, key: Any, text: str) -> Any:
        leaf = self.leaves[key]
        firsts = self.firsts.get(key)
        if firsts is None:
            return leaf.read(text, self.compiled.context)
        if text not in firsts:
            return NOTHING
        return leaf.alternatives[firsts.index(text)]

    def default(self, key: Any) -> Any:
        return self.leaves[key].default


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
    instance = validated_instance(compiled, values, stats)
    yield json_filled(fill, compiled, values, instance, stats, clock() - started)


def validated_instance(compiled: Compiled, values: dict[Path, Any], stats: SlotStats) -> Any:
    """The filled instance, repaired where cross-slot keywords fail; never an invalid one."""
    validator = compiled.context.root_validator()
    for _ in range(JSON_REPAIR_PASSES):
        instance = instance_of(compiled.tree, values)
        errors = list(validator.iter_errors(instance))
        if not errors:
            return instance
        bad = [tuple(e.absolute_path) for e in errors]
        drop = [p for p in values if any(p[: len(b)] == b for b in bad)]
        for path in drop:
            values[path] = _default(compiled, path)
            stats.repaired.append(str(path))
    if validator.is_valid(compiled.default):
        values.clear()
        return compiled.default
    raise InvariantViolation("No valid instance could be produced; nothing is offered.")


def _default(compiled: Compiled, path: Path) -> Any:
    return next(v.leaf.default for v in compiled.leaves() if v.path == path)


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
