"""Canvases: a plan tokenized into positions, and the way back from token ids to text.

A :class:`Canvas` is the target region only: per position a seed token id, a kind (locked, free,
slot) and the segment it belongs to. Free and slot positions may end up holding the *filler*
token, which assembly strips, so a segment can come out shorter than its budget.

Assembly is textual (DESIGN §4): a locked segment contributes its original string, never a
detokenization, so locked bytes are exact by construction; :func:`check_proposal` verifies it
again (and that nothing outside the target moved) before any proposal leaves the engine.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from engine.config import SamplerSettings
from engine.errors import BadRequest, InvariantViolation
from engine.plan import EditPlan, Free, Locked, Slot
from engine.protocol import SegmentText
from engine.tokens import TokenTable


class Kind(StrEnum):
    LOCKED = "locked"
    FREE = "free"
    SLOT = "slot"


@dataclass(frozen=True)
class Canvas:
    """The target region as token positions."""

    plan: EditPlan
    seed_ids: tuple[int, ...]  # locked tokens; free: original tokens then filler
    kinds: tuple[Kind, ...]
    segment_of: tuple[int, ...]  # position -> index into plan.segments
    seeded: tuple[bool, ...]  # position holds a token of the original text

    def __len__(self) -> int:
        return len(self.seed_ids)

    def generated_positions(self) -> list[int]:
        return [i for i, kind in enumerate(self.kinds) if kind is not Kind.LOCKED]

    def segment_positions(self, segment: int) -> range:
        first = self.segment_of.index(segment)
        return range(first, first + self.segment_of.count(segment))


def free_budget(seed_tokens: int, settings: SamplerSettings) -> int:
    """Room for a rewritten gap: its original length plus slack, so a rewrite may grow a little."""
    return max(seed_tokens + math.ceil(seed_tokens * settings.slack), seed_tokens + 2, 1)


def build_canvas(
    plan: EditPlan, table: TokenTable, settings: SamplerSettings, max_tokens: int
) -> Canvas:
    """Tokenize every segment; refuse a target longer than ``max_tokens`` before any model work."""
    seed: list[int] = []
    kinds: list[Kind] = []
    segment_of: list[int] = []
    seeded: list[bool] = []
    filler = table.specials.filler_id
    for index, segment in enumerate(plan.segments):
        if isinstance(segment, Locked):
            ids = table.encode(segment.text)
            kinds += [Kind.LOCKED] * len(ids)
            flags = [True] * len(ids)
        else:
            original = table.encode(segment.seed)
            budget = (
                segment.budget
                if segment.budget is not None
                else free_budget(len(original), settings)
            )
            original = original[:budget]
            ids = original + [filler] * (budget - len(original))
            kinds += [Kind.SLOT if isinstance(segment, Slot) else Kind.FREE] * budget
            flags = [True] * len(original) + [False] * (budget - len(original))
        seed += ids
        segment_of += [index] * len(ids)
        seeded += flags
    if len(seed) > max_tokens:
        raise BadRequest(
            f"The selection is too long for this model: it needs {len(seed)} tokens and the model "
            f"takes at most {max_tokens}. Select less text."
        )
    return Canvas(plan, tuple(seed), tuple(kinds), tuple(segment_of), tuple(seeded))


def assemble(canvas: Canvas, ids: Sequence[int], table: TokenTable) -> tuple[SegmentText, ...]:
    """Segment texts of a finished canvas: locked ones are the user's original strings."""
    out: list[SegmentText] = []
    for index, segment in enumerate(canvas.plan.segments):
        if isinstance(segment, Locked):
            out.append(SegmentText(segment.text, locked=True))
            continue
        positions = canvas.segment_positions(index)
        out.append(SegmentText(table.decode([ids[i] for i in positions]), locked=False))
    return tuple(out)


def check_proposal(
    plan: EditPlan, segments: Sequence[SegmentText], document: str, forbidden: Sequence[str]
) -> str:
    """Return the proposed replacement text, or raise if any invariant fails.

    Invariants: each locked segment is byte-identical and in order; generated segments contain
    no filler/mask/special text; the document outside the target is unchanged.
    """
    if len(segments) != len(plan.segments):
        raise InvariantViolation("The proposal lost or gained a segment.")
    for planned, got in zip(plan.segments, segments, strict=True):
        if isinstance(planned, Locked) != got.locked:
            raise InvariantViolation("A locked segment moved.")
        if isinstance(planned, Locked) and planned.text != got.text:
            raise InvariantViolation(f"The locked text {planned.text!r} changed.")
        if isinstance(planned, Free | Slot):
            leaked = [f for f in forbidden if f and f in got.text]
            if leaked:
                raise InvariantViolation(f"Generated text contains special tokens {leaked}.")
    text = "".join(s.text for s in segments)
    start, end = plan.target.start, plan.target.end
    updated = document[:start] + text + document[end:]
    if updated[:start] != plan.before or updated[start + len(text) :] != plan.after:
        raise InvariantViolation("Text outside the target would change.")
    return text
