"""The meaning check: a changed run that says another thing is put back before it is offered.

The reread pass (:mod:`engine.passes.reread`) keeps a change where the model reads it as
fluent, but fluency cannot tell a better word from another meaning: "but" read after a clause
is as fluent as "so", "was not" as "was", "38" as "36". So after it, each stretch of changed
words (:func:`~engine.passes.reread.hunks`) is read in its sentence twice, as rewritten and put
back as it was, and goes back when the two differ in a sign of meaning
(:func:`engine.language.en.meaning.meaning_change`): a negation added or dropped, a
contrastive connective swapped for another kind, a question made a statement or the reverse
("send me the file?" settled as "send me the file."), a verb of another time put for
another verb ("didn't work" as "won't work"), a number or a name changed, a sentence
left without a verb, or one now opening in lower case (a comma settled as a stop before
"because"), or the passage's last sentence left without its end mark ("on Monday." settled as
"on Monday,"). Asked only to correct (fix grammar, fix spelling), a stretch also goes
back when it puts another word for a content word or leaves one out
(:func:`engine.language.en.content.reworded`): "every night" fixed as "every day" is no
correction, nor "on a high mountain" fixed as "on a high"; and when it gives a word a capital
where no sentence opens (:func:`engine.language.en.meaning.capitals_added`: "Note: the van"
settled as "Note: The van" is a house style, not the writer's). A stretch in a varied segment (a
later version's near miss, :attr:`Free.vary`: one of the user's words the canvas had to write
otherwise) also goes back when it changes a
pronoun, determiner, quantifier or preposition
(:func:`engine.language.en.meaning.closed_words_changed`): "have it by" written "have more
by", "the" written "a", "fine to me" written "fine for me". Stretches are judged in order,
each with the others as they stand.

It needs no model, so it runs for every backend and at every strength: new words are what
a strength-1 rewrite asks for, another meaning never is. Drafts are not checked (all of a
draft is new). Pure functions over ids and a decoder, so tests pin them down without a model.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.core.canvas import Canvas
from engine.core.plan import Free
from engine.core.protocol import EditMode
from engine.intent import Intent
from engine.language.en.content import reworded
from engine.language.en.cut_safety import lower_starts
from engine.language.en.meaning import (
    SENTENCE_CLOSERS,
    capitals_added,
    closed_words_changed,
    meaning_change,
)
from engine.passes.base import Pass, PassContext, Settled
from engine.passes.reread import changed_runs, hunks, was_before

Decode = Callable[[Sequence[int]], str]
SENTENCE_ENDS = (".", "!", "?")


def check_meaning(
    canvas: Canvas,
    ids: Sequence[int],
    filler: int,
    decode: Decode,
    corrections: bool = False,
) -> list[int]:
    """``ids`` with every changed stretch that changes its sentence's meaning put back (for a
    correction, also one that puts another word for a content word)."""
    out = list(ids)
    for run in hunks(changed_runs(canvas, ids, filler)):
        window = sentence_around(out, run, filler, decode)
        was = list(out)
        for i in run:
            was[i] = was_before(canvas, i, filler)
        before, after = _text(was, window, filler, decode), _text(out, window, filler, decode)
        if changes_meaning(before, after, corrections, in_varied(canvas, run)):
            out[run.start : run.stop] = was[run.start : run.stop]
    return out


def changes_meaning(before: str, after: str, corrections: bool, varied: bool) -> bool:
    """Whether a stretch's sentence reads ``after`` in another meaning than ``before``: a sign
    of meaning changed, a sentence now opening in lower case (a stop put before "because"
    splits a sentence into a fragment and a broken one), another word for a content word or
    a capital where no sentence opens where only a correction was asked, or, in a varied
    segment, another pronoun, determiner, quantifier or preposition.

    A verb in another time is a change of meaning under every instruction (``forms_fixed``
    false): ``before`` is the proofread seed, which already holds the grammar fixes a request
    asked for, each priced against its risk of changing a tense, so the canvas's own "has"
    for a correct "had" is no fix. On JFLEG's tuning half it scores 46.43 GLEU, against 46.42
    with a grammar request's canvas free to move tenses."""
    if meaning_change(before, after, forms_fixed=False) is not None:
        return True
    if lower_starts(after) > lower_starts(before) or end_mark_lost(before, after):
        return True
    corrected_otherwise = corrections and (reworded(before, after) or capitals_added(before, after))
    return corrected_otherwise or (varied and closed_words_changed(before, after))


def end_mark_lost(before: str, after: str) -> bool:
    """Whether the stretch's text, which ended its last sentence, no longer does ("on
    Monday." settled as "on Monday,"): at the canvas's end the window is the passage's last
    sentence, and a passage that ends in a comma is left unfinished, however it reads."""
    return _ends(before) and not _ends(after)


def _ends(text: str) -> bool:
    return text.rstrip().rstrip(SENTENCE_CLOSERS).endswith(SENTENCE_ENDS)


def in_varied(canvas: Canvas, run: range) -> bool:
    """Whether ``run`` writes in a varied segment: a word the canvas had to write otherwise,
    where no rewording of a phrase was asked for."""
    segments = canvas.plan.segments
    return any(
        isinstance(segment := segments[canvas.segment_of[i]], Free) and segment.vary for i in run
    )


def sentence_around(ids: Sequence[int], run: range, filler: int, decode: Decode) -> range:
    """The positions of the sentence(s) ``run`` stands in: from after the last sentence end
    before it through the next sentence end from its end on (or the canvas's ends)."""
    start = run.start
    while start > 0 and not ends_sentence(ids, start - 1, filler, decode):
        start -= 1
    stop = run.stop
    while stop < len(ids) and not ends_sentence(ids, stop, filler, decode):
        stop += 1
    return range(start, min(stop + 1, len(ids)))


def ends_sentence(ids: Sequence[int], position: int, filler: int, decode: Decode) -> bool:
    """Whether the token at ``position`` ends a sentence: it breaks the line, or ends in
    sentence punctuation with a space or the canvas's end after it ("3.5" does not)."""
    if ids[position] == filler:
        return False
    text = decode([ids[position]])
    if "\n" in text:
        return True
    if not text.rstrip().endswith(SENTENCE_ENDS):
        return False
    after = next((t for t in ids[position + 1 :] if t != filler), None)
    return after is None or decode([after])[:1].isspace()


def _text(ids: Sequence[int], window: range, filler: int, decode: Decode) -> str:
    return decode([ids[i] for i in window if ids[i] != filler])


def corrects_only(intent: Intent) -> bool:
    """Whether the instruction asks only for corrections (grammar, spelling): then a changed
    word must be the same word, corrected."""
    restyled = intent.casual or intent.formal or intent.clearer or intent.shorter
    return (intent.grammar or intent.spelling) and not (restyled or intent.polish or intent.free)


class MeaningCheck(Pass):
    """After the reread: every changed stretch that adds or drops a negation, swaps a
    contrastive connective, changes a number or a name, leaves a sentence without a verb,
    (asked only to correct) puts another word for a content word, or (in a varied segment)
    changes a pronoun, determiner, quantifier or preposition is put back; how many it put
    back is counted apart, for the review's note."""

    name = "meaning"

    def after(self, settled: Settled, ctx: PassContext) -> Settled:
        canvas, last = settled.canvas, settled.last
        if canvas.plan.mode is not EditMode.REWRITE:
            return settled
        filler = ctx.table.specials.filler_id
        corrections = corrects_only(ctx.intent)
        ids = check_meaning(canvas, last.ids, filler, ctx.table.decode, corrections)
        if ids == last.ids:
            return settled
        put_back = len(changed_runs(canvas, last.ids, filler)) - len(
            changed_runs(canvas, ids, filler)
        )
        return settled.with_ids(ids, put_back, altered_meaning=put_back)
