"""The model checking its own rewrite: a changed run stays only where it reads at least as well.

A rewrite renoises part of the paragraph and the model writes those positions again. The
embedded model fills them less fluently than its base wrote the original ("we'll get let you
know the report"), so most of what a polish changed made the paragraph worse, and the user had
to find and reject each such hunk in the diff. Yet the same model, reading causally (as it
reads the text before its canvas), is as good a judge of fluency as its base
(:mod:`engine.backends.masked.reader`). So before a rewrite is offered, each run of changed
words is read twice, as written and put back as it was, and it stays only if the total NLL of
the run and the few tokens after it is no higher as written. A change that fixes something
("The guide were" → "The guide was") reads better and stays; one that breaks a sentence goes.
Runs fewer than :data:`READ_AFTER` positions apart are judged as one stretch
(:func:`hunks`), since each is read with the other's words around it.

Text a rewrite adds in its extra room is a change like any other and is read out the same
way: it stays only where the paragraph reads better with it (the model otherwise ended
paragraphs with "We're" or " Answer:"). Drafts are not checked: all of a draft is new.
Locked positions never change, so they split runs.

A run that puts other content words where the user's stood is put back however it reads
(:func:`replaces_content`): the model read "None, if the product is unused ..." as more fluent
than "Returns, if the product is unused ...", and "sent it to the office" as more fluent than
"to the manager". So is a run that writes marks alone in a word's place
(:func:`~engine.language.en.content.marks_for_a_word`): a sentence's renoised first word came
back as a dash ("Still it rained." as "-- it rained.") in 5 of the 377 sentences of JFLEG's
tuning half. So is a run that writes a word no dictionary knows
(:func:`writes_non_word`): a misspelling the proofreader found no candidate for came back from
the canvas as another non-word and a word more (in my own words, "was realy glad" as "was
reall so glad"; 1 of the 377 tuning sentences), and read as more fluent. Fluency cannot tell a
better word from another meaning; a rewrite may drop a word or change its form
(:mod:`engine.passes.proofread` does that before the canvas),
not say something else. At strength 1 (the "rewrite" preset) the passage is renoised whole
because new words are what the user asked for, so there the check judges by fluency alone.

Pure functions over ids and a reader, so tests can pin them down without a model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from engine.backends.base import Reader
from engine.core.canvas import Canvas, Kind, context_ids
from engine.core.protocol import EditMode
from engine.language.en.content import marks_for_a_word, replaces_content
from engine.language.en.spelling import Speller
from engine.passes.base import Pass, PassContext, Settled

# Tokens after a run that are read with it: a change shows its cost in how the text goes on.
READ_AFTER = 4
# Tokens read on each side of a run to see the whole words it falls in.
WORD_TOKENS = 3
# A plain lower-case word: the only kind the dictionary judges (a capital may be a name).
PLAIN_WORD = re.compile(r"(?<![\w'\-])[a-z]+(?![\w'\-])")


def changed_runs(canvas: Canvas, ids: Sequence[int], filler: int) -> list[range]:
    """Maximal runs of free positions that hold something other than before the rewrite: their
    seed token, or nothing (the filler) in the room past the seed."""
    runs: list[range] = []
    start: int | None = None
    for i in range(len(canvas) + 1):
        changed = (
            i < len(canvas)
            and canvas.kinds[i] is Kind.FREE
            and ids[i] != was_before(canvas, i, filler)
        )
        if changed and start is None:
            start = i
        elif not changed and start is not None:
            runs.append(range(start, i))
            start = None
    return runs


def hunks(runs: Sequence[range], gap: int = READ_AFTER) -> list[range]:
    """Runs closer than ``gap`` positions merged into one stretch, judged whole.

    Changes that close read each other: "which is what happened on Monday to" became "and then
    what happens on Monday is", three runs each reading better than putting it back alone
    among the other two, while the whole read worse than the original. Within a stretch the
    unchanged positions are put back as they already are."""
    merged: list[range] = []
    for run in runs:
        if merged and run.start - merged[-1].stop < gap:
            merged[-1] = range(merged[-1].start, run.stop)
        else:
            merged.append(run)
    return merged


def reread(
    canvas: Canvas,
    ids: Sequence[int],
    filler: int,
    reader: Reader,
    context: list[int],
    after: list[int],
    decode: Callable[[Sequence[int]], str] | None = None,
    speller: Speller | None = None,
) -> list[int]:
    """``ids`` with every changed run the model reads as less fluent put back as it was, and,
    given ``decode``, every run that replaces the user's content words (or, given ``speller``
    too, writes a word it does not know).

    ``context`` and ``after`` are the tokens around the canvas; the text read is the canvas
    without its filler, then ``after`` (a run at the end is read leading into it).
    """
    runs = hunks(changed_runs(canvas, ids, filler))
    if not runs:
        return list(ids)
    visible = [i for i, token in enumerate(ids) if token != filler]
    tokens = [ids[i] for i in visible] + list(after)
    variants, spans = [], []
    for run in runs:
        at = _first_at_or_after(visible, run.start, len(visible))
        stop = _first_at_or_after(visible, run.stop, len(visible))
        tail = tokens[stop : stop + READ_AFTER]
        original = [canvas.seed_ids[i] for i in run if canvas.seeded[i]]
        variants.append((at, original + tail))
        spans.append((at, stop + len(tail)))
    written, put_back = reader.read(context, tokens, variants)
    out = list(ids)
    for run, (at, stop), nlls in zip(runs, spans, put_back, strict=True):
        was = [was_before(canvas, i, filler) for i in run]
        now = [ids[i] for i in run]
        around = _around(ids, run, filler)
        other = decode is not None and says_otherwise(decode, was, now, filler, speller, around)
        if other or sum(written[at:stop]) > sum(nlls):
            for i, token in zip(run, was, strict=True):
                out[i] = token
    return out


def says_otherwise(
    decode: Callable[[Sequence[int]], str],
    was: Sequence[int],
    now: Sequence[int],
    filler: int,
    speller: Speller | None = None,
    around: tuple[Sequence[int], Sequence[int]] = ((), ()),
) -> bool:
    """Whether a run written as ``now`` where ``was`` stood says something else however it
    reads: other content words (:func:`replaces_content`), marks in a word's place
    (:func:`marks_for_a_word`), or, given ``speller``, a word it does not know
    (:func:`writes_non_word`, read with the tokens ``around`` the run, which both share, so
    that a run inside a word is judged by the whole word: "al" of "reall" is a word)."""
    was_text = decode([t for t in was if t != filler])
    now_text = decode([t for t in now if t != filler])
    if replaces_content(was_text, now_text) or marks_for_a_word(was_text, now_text):
        return True
    if speller is None:
        return False
    lead, tail = around
    whole_was = decode([*lead, *(t for t in was if t != filler), *tail])
    whole_now = decode([*lead, *(t for t in now if t != filler), *tail])
    return writes_non_word(whole_was, whole_now, speller)


def writes_non_word(was_text: str, now_text: str, speller: Speller) -> bool:
    """Whether ``now_text`` has a plain lower-case word that ``was_text`` lacks and
    ``speller`` does not know: the canvas made a misspelling of its own (a word with a
    capital, a digit or an inner mark may be a name or code, and is left to the other checks)."""
    before = set(PLAIN_WORD.findall(was_text))
    return any(
        word not in before and not speller.is_known(word) for word in PLAIN_WORD.findall(now_text)
    )


def _around(ids: Sequence[int], run: range, filler: int) -> tuple[list[int], list[int]]:
    """The :data:`WORD_TOKENS` visible tokens before and after ``run`` (the same in the
    rewrite and in what it replaced: only the run differs)."""
    before = [t for t in ids[: run.start] if t != filler][-WORD_TOKENS:]
    after = [t for t in ids[run.stop :] if t != filler][:WORD_TOKENS]
    return before, after


def was_before(canvas: Canvas, position: int, filler: int) -> int:
    """What a free position held before the rewrite: its seed token, or nothing (the filler)."""
    return canvas.seed_ids[position] if canvas.seeded[position] else filler


def _first_at_or_after(visible: Sequence[int], position: int, default: int) -> int:
    """Index into the filler-free text of the first visible position at or after ``position``."""
    return next((k for k, i in enumerate(visible) if i >= position), default)


# Enough characters of the text after a rewrite for the few tokens its last run is read into.
AFTER_READ_CHARS = 64


class Reread(Pass):
    """After the last step of a rewrite: each changed run stays only where the model, reading
    causally, finds it at least as fluent as the original (and, below strength 1, where it
    says no other content words); the rest is put back."""

    name = "reread"

    def after(self, settled: Settled, ctx: PassContext) -> Settled:
        canvas, last = settled.canvas, settled.last
        if ctx.reader is None or canvas.plan.mode is not EditMode.REWRITE:
            return settled
        plan, table, filler = canvas.plan, ctx.table, ctx.table.specials.filler_id
        after = table.encode(plan.after[:AFTER_READ_CHARS])[:READ_AFTER]
        context = context_ids(plan, [], table)
        # At strength 1 the passage is renoised whole: new words are what the user asked for.
        decode = table.decode if ctx.settings.strength < 1.0 else None
        speller = Speller.with_words(plan.known_words) if decode is not None else None
        ids = reread(canvas, last.ids, filler, ctx.reader, context, after, decode, speller)
        if ids == last.ids:
            return settled
        put_back = len(changed_runs(canvas, last.ids, filler)) - len(
            changed_runs(canvas, ids, filler)
        )
        return settled.with_ids(ids, put_back)
