"""The shorten pass: a shorter rewrite's target length, and which words its seed gives up.

An instruction asking for less text (``Intent.shorter``) is reached by cutting the seed, since
a model this small cannot follow it on its own: free text is written to fill the positions it
is given. The seed is cut down to a character target, :data:`TARGET_SHARE` of the passage
(what a reader asking for "shorter" sees), by taking the units a person would cut, cheapest
first, and stopping there (:func:`engine.language.en.drops.drop_words`): hedges, filler and
wordy phrases (:mod:`engine.language.en.rewordings`), hedging openers, side clauses and
clauses that wonder whether the reader has something ("any questions you might have";
:mod:`engine.language.en.cut_phrases`), whole wordy units (:mod:`engine.language.en.
cut_units`), clause shapes and sentence openings found by their word classes, not by a phrase
list (:mod:`engine.language.en.cut_clauses`, :mod:`engine.language.en.cut_openers`), a
later clause's pronoun that only repeats the sentence's subject
(:mod:`engine.language.en.cut_subjects`), whole
sentences that restate the passage or only thank the reader
(:mod:`engine.language.en.cut_sentences`), adverbs and describing words, never the passage's
end. Every cut is checked against the whole passage
(:func:`engine.language.en.cut_safety.cut_damage`), and so is the model's mending of the
cuts' joins after the steps (:func:`mended_or_seed`). Locks split a passage into
runs; the cut is shared by the room each run has for safe cuts (:func:`char_targets`). Where
the safe cuts run out the passage stays longer, and its proposal says so
(:data:`engine.run.answers.LONGER_THAN_ASKED`) rather than silently coming back long.

Which units go is priced by the backend's causal reader when it has one (the damage each cut
does to the tokens after it); without one they go in the fixed tier order. A cancelled request
stops pricing and cuts in that fixed order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from engine.core.canvas import Kind, SeedCut, assemble, encoded_texts
from engine.core.plan import EditPlan, Free
from engine.core.tokens import TokenTable
from engine.language.en.cut_clauses import ASIDES, CLAUSE_WORDINGS, DESCRIBING_CUTS
from engine.language.en.cut_openers import OPENER_WORDINGS
from engine.language.en.cut_phrases import (
    hedge_openers,
    openers_with,
    reader_haves,
    side_clauses,
    simple_verbs,
)
from engine.language.en.cut_safety import mending_damage
from engine.language.en.cut_sentences import courtesy_sentences, redundant_sentences
from engine.language.en.cut_subjects import SUBJECT_CUTS
from engine.language.en.cut_units import WORDING_UNITS, parentheticals, reduced_relatives
from engine.language.en.drops import (
    TIER_ADVERB,
    TIER_CLAUSE,
    TIER_HEDGE,
    TIER_LIGHT,
    TIER_MODIFIER,
    Swap,
    TokenCosts,
    drop_words,
    word_spans,
)
from engine.language.en.rewordings import Rewording, rewordings
from engine.passes.base import Pass, PassContext, Settled
from engine.passes.reread import changed_runs, was_before
from engine.run.answers import LONGER_THAN_ASKED

# What a shorter rewrite aims at: its seed cut until the passage is at most this share of its
# characters (locks included), which is what a reader asking for "shorter" sees. Four fifths
# less a margin: the model mending the cuts' joins may write a word longer than the seed's.
TARGET_SHARE = 0.78
# The dearest tier of the cuts that say nothing: what a passage that cannot reach its target
# is cut by (see :func:`char_targets`).
SAYS_NOTHING = TIER_ADVERB
# What the instruction asks, as a reader counts it: a seed its safe cuts leave longer than this
# share of the passage gets a note saying so.
ASKED_SHARE = 0.8
# The token budget is only a floor under the cut (it stops at the character target first):
# the canvas gets the tokens the cut kept, so no free room is left for the model to fill.
SHORTER_SHARE = 0.6


@dataclass
class CutRecord:
    """What one request's cuts took: the passage's characters, and those each run's cut
    removed (a run its budget did not cut removed none)."""

    whole: int = 0
    removed: list[int] = field(default_factory=list)

    def kept_share(self) -> float:
        """The share of the passage's characters its seed keeps."""
        return (self.whole - sum(self.removed)) / self.whole if self.whole else 1.0


class Shorten(Pass):
    """Budgets below the original for a shorter rewrite; cuts priced by the model."""

    name = "shorten"

    def __init__(self) -> None:
        self.targets: dict[tuple[int, ...], int] = {}
        self.dearest = TIER_CLAUSE
        self.record = CutRecord()

    def before(self, plan: EditPlan, ctx: PassContext) -> EditPlan:
        if not ctx.intent.shorter:
            return plan
        texts = encoded_texts(plan.segments)
        budgets = shorter_budgets(plan, texts, ctx.table)
        cuts = char_targets(plan, texts, ctx.table)
        self.targets = {tuple(ctx.table.encode(texts[i])): n for i, n in cuts.chars.items()}
        self.dearest = cuts.dearest
        self.record.whole = len("".join(texts).strip())
        segments = tuple(
            replace(s, budget=budgets[i]) if isinstance(s, Free) and i in budgets else s
            for i, s in enumerate(plan.segments)
        )
        return replace(plan, segments=segments)

    def seed_cut(self, ctx: PassContext) -> SeedCut | None:
        return ReaderCut(ctx, self.targets, self.record, self.dearest)

    def after(self, settled: Settled, ctx: PassContext) -> Settled:
        """A shorter rewrite whose model mended the cut seed into damage is put back to the
        seed (:func:`mended_or_seed`); one whose seed its safe cuts could not bring to
        :data:`ASKED_SHARE` of the passage says so."""
        if not ctx.intent.shorter:
            return settled
        settled = mended_or_seed(settled, ctx.table)
        if self.record.kept_share() <= ASKED_SHARE:
            return settled
        return replace(settled, notes=(*settled.notes, f"Shorter: {LONGER_THAN_ASKED}."))


def mended_or_seed(settled: Settled, table: TokenTable) -> Settled:
    """``settled``, or its seed where the model's mending of the cuts' joins broke what the
    seed said (:func:`engine.language.en.cut_safety.mending_damage`: two sentences run
    together, a content word lost, a sign of meaning changed). Every cut of the seed was
    checked whole; the mending renoises the words before the joins and may write over more
    than the join ("left so early like to stay" where the seed read "left early. We would
    like to stay")."""
    canvas, filler = settled.canvas, table.specials.filler_id
    seed = [
        was_before(canvas, i, filler) if kind is Kind.FREE else token
        for i, (kind, token) in enumerate(zip(canvas.kinds, settled.last.ids, strict=True))
    ]
    if seed == settled.last.ids:
        return settled

    def text(ids: list[int]) -> str:
        return "".join(s.text for s in assemble(canvas, ids, table))

    if mending_damage(text(seed), text(settled.last.ids)) is None:
        return settled
    return settled.with_ids(seed, len(changed_runs(canvas, settled.last.ids, filler)))


class ReaderCut:
    """A :class:`~engine.core.canvas.SeedCut` that drops words, priced by the causal reader,
    down to each seed's character target (``targets``, by the seed's ids)."""

    def __init__(
        self,
        ctx: PassContext,
        targets: dict[tuple[int, ...], int] | None = None,
        record: CutRecord | None = None,
        dearest: int = TIER_CLAUSE,
    ) -> None:
        self.ctx = ctx
        self.targets = targets or {}
        self.record = record if record is not None else CutRecord()
        self.dearest = dearest

    def __call__(
        self, original: list[int], budget: int, context: list[int], following: list[int]
    ) -> tuple[list[int], list[int]]:
        table, reader = self.ctx.table, self.ctx.reader
        pieces = [table.text(i) for i in original]
        swaps, extended = concise_swaps(pieces, original, table)
        costs: TokenCosts | None = None
        if reader is not None:
            cancelled = self.ctx.cancelled

            def costs(rows: Sequence[Sequence[int]]) -> list[list[float]]:
                # A cancelled request reads no more: every cut priced alike, the fixed order
                # decides, and the pipeline stops before its first denoising step.
                if cancelled():
                    return [[0.0] * len(row) for row in rows]
                return reader.read_cuts(context, extended, rows, following)

        chars = self.targets.get(tuple(original))
        kept = drop_words(pieces, budget, costs, swaps, chars, self.dearest)
        after = table.decode([extended[i] for i in kept]).strip()
        self.record.removed.append(len(table.decode(original).strip()) - len(after))
        return extended, kept


def shorter_share(seed_tokens: int) -> int:
    """A shorter rewrite's budget for a gap of ``seed_tokens``."""
    return max(1, math.ceil(seed_tokens * SHORTER_SHARE))


def shorter_budgets(plan: EditPlan, texts: Sequence[str], table: TokenTable) -> dict[int, int]:
    """Token budgets of the free segments a shorter rewrite cuts (those without a budget of
    their own): :data:`SHORTER_SHARE` of each one's length, a floor under its cut, which stops
    at its character target first (:func:`char_targets`)."""
    return {
        index: shorter_share(len(table.encode(texts[index])))
        for index, segment in enumerate(plan.segments)
        if isinstance(segment, Free) and segment.budget is None
    }


@dataclass(frozen=True)
class CutPlan:
    """The characters each cut run of a passage may keep (by segment index), and the dearest
    tier its cuts may take (:data:`engine.language.en.drops.TIER_PHASES`)."""

    chars: dict[int, int]
    dearest: int = TIER_CLAUSE


def char_targets(plan: EditPlan, texts: Sequence[str], table: TokenTable) -> CutPlan:
    """How many characters each free segment a shorter rewrite cuts may keep, so that the
    passage, its locks as they are, comes to :data:`TARGET_SHARE` of its length.

    The cut is shared by the segments in proportion to the room each has: what its safe cuts
    could take at most (:func:`shortest`). Locks split a passage into runs, and a share by
    length alone asked a run with nothing left to cut for its part ("will arrive at the
    warehouse on [12 June]") while the run before it kept a hedge it could have given up.
    When every safe cut reaches four fifths (:data:`ASKED_SHARE`) but not the margin below
    it, every one is made. When even they fall short, the passage cannot be made short enough
    without changing what it says: only the cuts that say nothing (:data:`SAYS_NOTHING`:
    hedges, filler, wordy phrases, adverbs) are made, as far as they go, and the note says
    why."""
    lengths = {
        index: len(texts[index].strip())
        for index, segment in enumerate(plan.segments)
        if isinstance(segment, Free) and segment.budget is None
    }
    whole = len("".join(texts).strip())
    needed = whole - math.floor(whole * TARGET_SHARE)
    floors = {i: min(n, shortest(texts[i], table)) for i, n in lengths.items()}
    room = {i: lengths[i] - floors[i] for i in lengths}
    total = sum(room.values())
    if total < whole - math.floor(whole * ASKED_SHARE):
        cheap = {i: min(n, shortest(texts[i], table, SAYS_NOTHING)) for i, n in lengths.items()}
        return CutPlan(cheap, SAYS_NOTHING)
    if total <= needed:
        return CutPlan(floors)  # four fifths, not the margin below it: every safe cut
    return CutPlan({i: n - math.ceil(needed * room[i] / total) for i, n in lengths.items()})


def shortest(text: str, table: TokenTable, dearest: int = TIER_CLAUSE) -> int:
    """The characters ``text`` keeps once every safe cut up to tier ``dearest`` is made (in
    the fixed tier order)."""
    ids = table.encode(text)
    pieces = [table.text(i) for i in ids]
    swaps, extended = concise_swaps(pieces, ids, table)
    kept = drop_words(pieces, 0, None, swaps, dearest=dearest)
    return len(table.decode([extended[i] for i in kept]).strip())


def concise_swaps(
    pieces: Sequence[str], ids: Sequence[int], table: TokenTable
) -> tuple[list[Swap], list[int]]:
    """The passage's wordy phrases (:func:`engine.language.en.rewordings.rewordings`), hedging
    openers, modal progressives and side clauses (:mod:`engine.language.en.cut_phrases`) as
    swaps that save tokens, and the passage's ids with their new text's ids appended (where the
    swaps' token indices point)."""
    spans = word_spans(pieces)
    words = ["".join(pieces[i] for i in span) for span in spans]
    wording = [*rewordings(words), *simple_verbs(words)]
    finders = (*WORDING_UNITS, *CLAUSE_WORDINGS, *OPENER_WORDINGS)
    wording += [r for find in finders for r in find(words)]
    openers = hedge_openers(words)
    wording += [*openers, *openers_with(openers, wording)]
    found: list[tuple[Rewording, int]] = [(r, TIER_HEDGE) for r in wording]
    found += [(r, TIER_LIGHT) for r in reduced_relatives(words)]
    found += [(r, TIER_LIGHT) for find in SUBJECT_CUTS for r in find(words)]
    found += [(r, TIER_MODIFIER) for find in DESCRIBING_CUTS for r in find(words)]
    asides = [r for find in ASIDES for r in find(words)]
    asides += [*side_clauses(words), *reader_haves(words), *parentheticals(words)]
    asides += [*redundant_sentences(words), *courtesy_sentences(words)]
    found += [(r, TIER_CLAUSE) for r in asides]
    extended, swaps = list(ids), []
    for rewording, tier in found:
        concise = table.encode(rewording.text)
        replaced = sum(len(spans[w]) for w in range(rewording.first, rewording.stop))
        if concise and len(concise) < replaced:
            indices = tuple(range(len(extended), len(extended) + len(concise)))
            words_replaced = tuple(range(rewording.first, rewording.stop))
            swaps.append(Swap(words_replaced, indices, rewording.text, tier))
            extended += concise
    return swaps, extended
