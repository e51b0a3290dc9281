"""The shorten pass: a shorter rewrite's budgets, and which words its seed gives up.

An instruction asking for less text (``Intent.shorter``) gives each free gap a budget below its
original length, and that is how the instruction reaches a model too small to follow it on its
own: free text is written to fill its budget. The seed is then cut by dropping words all over
it (:func:`engine.language.en.drops.drop_words`) rather than cutting its end, so the rewrite
keeps the whole passage, not its first four fifths; wordy phrases may swap for their concise
forms (:mod:`engine.language.en.rewordings`). Which words go is priced by the backend's causal
reader when it has one (the damage each cut does to the tokens after it); without one they go
in the fixed tier order. A cancelled request stops pricing and cuts in that fixed order.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import replace

from engine.core.canvas import SeedCut, encoded_texts
from engine.core.plan import EditPlan, Free
from engine.core.tokens import TokenTable
from engine.language.en.cut_phrases import hedge_openers, side_clauses, simple_verbs
from engine.language.en.drops import (
    TIER_CLAUSE,
    TIER_HEDGE,
    Swap,
    TokenCosts,
    drop_words,
    word_spans,
)
from engine.language.en.rewordings import Rewording, rewordings
from engine.passes.base import Pass, PassContext

# Seven tenths of the tokens: once no cut may break a sentence (drops.py) a tighter budget only
# takes more of the cuts a person would make, and stops where they run out. Four fifths of
# the tokens left most dev "shorter" seeds at 0.83-0.85 of the characters (the words cut are
# long for their tokens); at 0.7, 5 of 14 seeds reach the suite's 0.8 against 3.
SHORTER_SHARE = 0.7
# A free run between locks this short keeps its length in a shorter rewrite (see
# :func:`shorter_budgets`): every word in it is needed to reach the lock.
SHORT_SEGMENT = 8


class Shorten(Pass):
    """Budgets below the original for a shorter rewrite; cuts priced by the model."""

    name = "shorten"

    def before(self, plan: EditPlan, ctx: PassContext) -> EditPlan:
        if not ctx.intent.shorter:
            return plan
        texts = encoded_texts(plan.segments)
        budgets = shorter_budgets(plan, texts, ctx.table)
        segments = tuple(
            replace(s, budget=budgets[i]) if isinstance(s, Free) and i in budgets else s
            for i, s in enumerate(plan.segments)
        )
        return replace(plan, segments=segments)

    def seed_cut(self, ctx: PassContext) -> SeedCut | None:
        return ReaderCut(ctx)


class ReaderCut:
    """A :class:`~engine.core.canvas.SeedCut` that drops words, priced by the causal reader."""

    def __init__(self, ctx: PassContext) -> None:
        self.ctx = ctx

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

        return extended, drop_words(pieces, budget, costs, swaps)


def shorter_share(seed_tokens: int) -> int:
    """A shorter rewrite's budget for a gap of ``seed_tokens``."""
    return max(1, math.ceil(seed_tokens * SHORTER_SHARE))


def shorter_budgets(plan: EditPlan, texts: Sequence[str], table: TokenTable) -> dict[int, int]:
    """Budgets of the free segments a shorter rewrite cuts (those without a budget of their own).

    Each gets :data:`SHORTER_SHARE` of its length. When locks split the passage into several,
    a fifth off each would force a word out of a short run between two locks, whatever it
    costs: "wrote about the machine in [1843]" lost "about", "will arrive at the warehouse on
    [12 June]" its "will" (so the canvas wrote "arrived"). A segment of fewer than
    :data:`SHORT_SEGMENT` tokens then keeps its length, and the longest segment gives up its cut
    (no more than twice its own fifth), so the passage as a whole still shrinks."""
    lengths = {
        index: len(table.encode(texts[index]))
        for index, segment in enumerate(plan.segments)
        if isinstance(segment, Free) and segment.budget is None
    }
    budgets = {index: shorter_share(length) for index, length in lengths.items()}
    return {**budgets, **moved_cuts(lengths, budgets)}


def moved_cuts(lengths: dict[int, int], budgets: dict[int, int]) -> dict[int, int]:
    """The short runs' cuts moved to the longest run (see :func:`shorter_budgets`)."""
    cut = {i: lengths[i] - budgets[i] for i in lengths if budgets[i] < lengths[i]}
    short = [i for i in cut if lengths[i] < SHORT_SEGMENT]
    if len(cut) < 2 or not short or len(short) == len(cut):
        return {}
    longest = max((i for i in cut if i not in short), key=lengths.__getitem__)
    room = 2 * cut[longest]
    moved = min(sum(cut[i] for i in short), room - cut[longest])
    out = {i: lengths[i] for i in short}
    out[longest] = budgets[longest] - moved
    return out


def concise_swaps(
    pieces: Sequence[str], ids: Sequence[int], table: TokenTable
) -> tuple[list[Swap], list[int]]:
    """The passage's wordy phrases (:func:`engine.language.en.rewordings.rewordings`), hedging
    openers, modal progressives and side clauses (:mod:`engine.language.en.cut_phrases`) as
    swaps that save tokens, and the passage's ids with their new text's ids appended (where the
    swaps' token indices point)."""
    spans = word_spans(pieces)
    words = ["".join(pieces[i] for i in span) for span in spans]
    found: list[tuple[Rewording, int]] = [(r, TIER_HEDGE) for r in rewordings(words)]
    found += [(r, TIER_HEDGE) for r in (*hedge_openers(words), *simple_verbs(words))]
    found += [(r, TIER_CLAUSE) for r in side_clauses(words)]
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
