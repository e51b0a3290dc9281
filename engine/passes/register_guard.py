"""Keeping the register a rewrite was asked for: the canvas may not undo what proofreading did.

Proofreading writes a formal rewrite's contractions and slang out before the canvas is built
(:mod:`engine.passes.proofread`), so the canvas starts from "I am going to be out". The canvas
then renoises that seed, and the embedded model, which reads "I'm" as likelier than "I am"
nearly everywhere, wrote "I'm going to be out" again; the self-check
(:mod:`engine.passes.reread`) kept it, since it reads more fluently. A fluency check cannot
see the register: the user asked for formal words, and the likelier words are the casual
ones. So after the steps, a changed run that brings back what the register removes is put
back to its seed, however it reads: for formal, a contraction or a slang or colloquial word
(the words :mod:`engine.language.en.registers` writes out); for casual, a contraction written
out again. A noun's "'s" that is a verb ("the lot's reserved", which casual's proofreading
makes) counts as a contraction for both, read as :mod:`engine.language.en.clitics` reads it:
the canvas wrote "the parking lot's reserved" back as "lot is", and the guard, counting only
the pronouns' contractions, let it; a possessive ("Maria's report") is no contraction.

Each stretch of changes is judged by what putting it back alone does to the passage's count
of such words, so a stretch that also changes other words is judged by its register, and
stretches that keep the register are left to the other checks.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from engine.core.canvas import Canvas
from engine.core.worddiff import split_words
from engine.intent import Intent
from engine.language.en.clitics import noun_clitics
from engine.language.en.registers import (
    CONTRACTED,
    FORMAL_GREETINGS,
    FORMAL_WORDS,
    NOT_CLITIC,
    STRAIGHT_APOSTROPHES,
)
from engine.passes.base import PassContext, Settled
from engine.passes.reread import changed_runs, hunks, was_before

# A word as a register counts it: letters with the apostrophes inside or before it ("'cause").
REGISTER_WORD = re.compile(r"[A-Za-z']+")
# Formal writes these out: one-word slang, colloquial words and greetings ("gonna", "ok", "hey").
INFORMAL_WORDS = frozenset(
    casual for casual, _ in (*FORMAL_WORDS, *FORMAL_GREETINGS) if " " not in casual
)


def register_words(text: str) -> list[str]:
    """The lower-case words of ``text``, apostrophes straightened."""
    return REGISTER_WORD.findall(text.translate(STRAIGHT_APOSTROPHES).lower())


def is_contraction(word: str) -> bool:
    return word in CONTRACTED or (word.endswith(NOT_CLITIC) and len(word) > len(NOT_CLITIC))


def verb_clitic_count(text: str) -> int:
    """How many nouns' "'s" in ``text`` are a verb ("the lot's reserved"; not "Maria's report")."""
    words, _ = split_words(text.translate(STRAIGHT_APOSTROPHES))
    return len({found.first for found in noun_clitics(words, CONTRACTED)})


def informal_count(text: str) -> int:
    """How many of ``text``'s words a formal rewrite writes out: contractions, slang."""
    listed = sum(1 for w in register_words(text) if is_contraction(w) or w in INFORMAL_WORDS)
    return listed + verb_clitic_count(text)


def contraction_count(text: str) -> int:
    listed = sum(1 for w in register_words(text) if is_contraction(w))
    return listed + verb_clitic_count(text)


def register_faults(intent: Intent) -> Callable[[str], int] | None:
    """What counts against the register ``intent`` asks for (higher is worse), or ``None``
    when it asks for no register (or for both, which leaves nothing to keep)."""
    if intent.formal == intent.casual:
        return None
    if intent.formal:
        return informal_count
    return lambda text: -contraction_count(text)


def kept_register(
    canvas: Canvas,
    ids: Sequence[int],
    filler: int,
    decode: Callable[[Sequence[int]], str],
    faults: Callable[[str], int],
) -> list[int]:
    """``ids`` with every changed stretch put back whose seed alone has fewer ``faults``.

    Stretches as the self-check judges them (:func:`engine.passes.reread.hunks`): runs close
    together read each other ("I think it's is, but" for "the course is great but"), so
    putting back only the one with the contraction would leave its neighbour ("is, but")."""
    out = list(ids)
    now = faults(decode(out))
    for run in hunks(changed_runs(canvas, ids, filler)):
        trial = list(out)
        for position in run:
            trial[position] = was_before(canvas, position, filler)
        fewer = faults(decode(trial))
        if fewer < now:
            out, now = trial, fewer
    return out


def register_kept(settled: Settled, ctx: PassContext) -> Settled:
    """``settled`` with the canvas's changes that undo the register asked for put back (the
    model writes proofreading's "I am" back as "I'm"), counted as put back in the review."""
    faults = register_faults(ctx.intent)
    if faults is None:
        return settled
    filler = ctx.table.specials.filler_id
    ids = kept_register(settled.canvas, settled.last.ids, filler, ctx.table.decode, faults)
    if ids == list(settled.last.ids):
        return settled
    put_back = len(changed_runs(settled.canvas, settled.last.ids, filler)) - len(
        changed_runs(settled.canvas, ids, filler)
    )
    return settled.with_ids(ids, put_back)
