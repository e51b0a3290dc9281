"""The slot loop every structured fill shares: rounds → the pipeline → read back → repair.

:func:`settle_slots` fills the open values of a :class:`SlotProblem` (a JSON instance, a
Markdown table). Each round lays the structure out with every accepted value written in as
locked text and only the failing slots open, settles that plan with the same pipeline as an
edit (:func:`engine.run.pipeline.denoise_plan`), and reads each slot back through its parser. Slots
still failing after ``REDENOISE_ROUNDS`` extra rounds get their precomputed valid default (the
deterministic repair). :func:`fill_events` wraps the loop into a request's events; the caller
validates the whole result and never offers one that fails.

A fill should cost about one rewrite of the same length, so every round is one canvas settled
in parallel (:func:`round_settings`: the whole canvas one block, a confidence threshold, at most
``FIRST_ROUND_STEPS`` forwards, then ``REDENOISE_STEPS`` per re-denoise round), and its plan asks
the backend to keep the locked text's keys and values across the round's steps
(``EditPlan.cache_locked``), so each step after the first runs only the open positions.
``SlotStats`` counts the forwards per fill and per slot.
"""

from __future__ import annotations

from collections.abc import Callable, Generator
from dataclasses import dataclass, field, replace
from typing import Any, Protocol

from engine.backends.base import Backend
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, Segment, Slot
from engine.core.protocol import Cancelled, EditMode, Fill, Frame, Metrics, Proposal, Span
from engine.run.pipeline import Denoised, RunContext, denoise_plan, make_metrics
from engine.structured.values import NOTHING

REDENOISE_ROUNDS = 2  # extra rounds for slots whose text did not parse or validate
FIRST_ROUND_STEPS = 6  # forwards at most for the first round (every slot at once)
REDENOISE_STEPS = 2  # forwards at most for each re-denoise round (the failed slots only)
FILL_THRESHOLD = 0.7  # commit every position at least this confident (Fast-dLLM's threshold)


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

    def metrics(self, elapsed_s: float) -> Metrics:
        return make_metrics(
            self.first_frame_s, elapsed_s, self.forwards, self.generated, self.churn
        )


@dataclass(frozen=True)
class Filled:
    """A validated fill: the proposal the window reviews, plus what the CLI prints."""

    proposal: Proposal
    value: Any  # the JSON instance, or the table's Markdown
    stats: SlotStats


@dataclass(frozen=True)
class Layout:
    """Where a fill's structure goes: the document, the span it replaces, the instruction."""

    document: str
    target: Span
    instruction: str
    template_words: tuple[str, ...] = ()  # engine.structured.words.template_words

    def plan(self, segments: tuple[Segment, ...]) -> EditPlan:
        """A round's plan: a rewrite of the target whose locked text is kept across steps."""
        doc, target = self.document, self.target
        return EditPlan(
            target,
            segments,
            doc[: target.start],
            doc[target.end :],
            self.instruction,
            EditMode.FILL,
            cache_locked=True,
            template_words=self.template_words,
        )


Finish = Callable[[dict[Any, Any], SlotStats, RunContext], Filled]
FillEvents = Generator[Frame | Cancelled | Filled, None, None]  # what run_json/run_table yield


def fill_events(
    backend: Backend,
    fill: Fill,
    problem: SlotProblem,
    layout: Layout,
    finish: Finish,
    run: RunContext,
) -> FillEvents:
    """A fill's events: frames, then ``finish``'s :class:`Filled` (or ``Cancelled``)."""
    slots_run = replace(run, started=run.clock())  # frames count from the first round
    outcome = yield from settle_slots(backend, problem, layout, fill.settings, slots_run)
    if outcome is None:
        yield Cancelled(fill.request_id)
        return
    values, stats = outcome
    yield finish(values, stats, run)


def settle_slots(
    backend: Backend,
    problem: SlotProblem,
    layout: Layout,
    settings: SamplerSettings,
    run: RunContext,
) -> Generator[Frame, None, tuple[dict[Any, Any], SlotStats] | None]:
    """Fill every slot; return accepted values (repairs included) and stats, or ``None``.

    Each round lays out only the slots still open (accepted values are written in as locked
    text), with a fresh seed; what is still open after the last round gets its default.
    """
    accepted: dict[Any, Any] = {}
    stats = SlotStats()
    for number in range(REDENOISE_ROUNDS + 1):
        plan_segments, owners = problem.layout(accepted)
        if not open_keys(owners):
            break
        fill_round = FillRound(layout.plan(plan_segments), owners)
        this = round_settings(settings, number)
        done = yield from denoise_plan(backend, fill_round.plan, this, layout.document, run)
        if done is None:
            return None
        fill_round.count(done, stats)
        accepted |= read_round(problem, owners, [s.text for s in done.segments])
        if stats.rounds == 1:
            stats.accepted_first = len(accepted)
    for key in open_keys(problem.layout(accepted)[1]):
        accepted[key] = problem.default(key, list(accepted.values()))
        stats.repaired.append(str(key))
    return accepted, stats


@dataclass(frozen=True)
class FillRound:
    """One round of a fill: its plan, and per plan segment the value it belongs to (or None)."""

    plan: EditPlan
    owners: tuple[Any, ...]

    @property
    def keys(self) -> tuple[Any, ...]:
        return open_keys(self.owners)

    def count(self, done: Denoised, stats: SlotStats) -> None:
        """Add this round's cost to ``stats`` (the first round also sets churn and settling)."""
        stats.first_frame_s = stats.first_frame_s or done.first_frame_s
        if stats.rounds == 0:
            stats.slots = len(self.keys)
            stats.churn = done.churn
            stats.settled_at = self.settled_by_value(done)
        else:
            stats.redenoised += len(self.keys)
        stats.rounds += 1
        stats.forwards += done.forwards
        stats.generated += done.generated

    def settled_by_value(self, done: Denoised) -> dict[str, int]:
        """For each open value: the forward by which all its positions had settled."""
        found: dict[str, int] = {}
        for index, owner in enumerate(self.owners):
            if owner is None or not isinstance(self.plan.segments[index], Slot):
                continue
            positions = done.canvas.segment_positions(index)
            at = max((done.settled_at.get(p, 0) for p in positions), default=0)
            found[str(owner)] = max(found.get(str(owner), 0), at)
        return found


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
        order_bias=0.0,  # every slot at once, by confidence: no reading order across a template
        threshold=settings.threshold or FILL_THRESHOLD,
        seed=settings.seed + number,
    )
