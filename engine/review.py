"""The model checking its own rewrite: a changed run stays only where it reads at least as well.

A rewrite renoises part of the paragraph and the model writes those positions again. The
embedded model fills them less fluently than its base wrote the original ("we'll get let you
know the report"), so most of what a polish changed made the paragraph worse, and the user had
to find and reject each such hunk in the diff. Yet the same model, reading causally (as it
reads the text before its canvas), is as good a judge of fluency as its base
(:mod:`engine.backends.passage_reader`). So before a rewrite is offered, each run of changed
words is read twice, as written and put back as it was, and it stays only if the total NLL of
the run and the few tokens after it is no higher as written. A change that fixes something
("The guide were" → "The guide was") reads better and stays; one that breaks a sentence goes.
Runs fewer than :data:`REVIEW_LOOKAHEAD` positions apart are judged as one stretch
(:func:`hunks`), since each is read with the other's words around it.

Text a rewrite adds in its extra room is a change like any other and is read out the same
way: it stays only where the paragraph reads better with it (the model otherwise ended
paragraphs with "We're" or " Answer:"). Drafts are not checked: all of a draft is new.
Locked positions never change, so they split runs.

A run that puts other content words where the user's stood is put back however it reads
(:func:`replaces_content`): the model read "None, if the product is unused ..." as more fluent
than "Returns, if the product is unused ...", and "sent it to the office" as more fluent than
"to the manager". Fluency cannot tell a better word from another meaning; a rewrite may drop a
word or change its form (:mod:`engine.proofread` does that before the canvas), not say
something else. At strength 1 (the "rewrite" preset) the passage is renoised whole because new
words are what the user asked for, so there the check judges by fluency alone.

Pure functions over ids and a reader, so tests can pin them down without a model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from engine.canvas import Canvas, Kind
from engine.shorten import FUNCTION, HEDGES, LIGHT

# Tokens after a run that are read with it: a change shows its cost in how the text goes on.
REVIEW_LOOKAHEAD = 4
# Shorter words are mostly function words ("the", "was", "its"): changing one is no new content.
CONTENT_LETTERS = 4
# Longer words that say nothing of the topic: swapping "should" for "would" is no new content.
NOT_CONTENT = (
    FUNCTION
    | HEDGES
    | LIGHT
    | frozenset(
        """when what where while with without because since until than then there these those
    they their would could should might must shall will been being also just only even""".split()  # noqa: SIM905
    )
)

# PassageReader.read: (context, tokens, variants as (at, tail)) -> (NLL of each token, of each
# variant's tail).
VariantReader = Callable[
    [list[int], list[int], Sequence[tuple[int, list[int]]]],
    tuple[list[float], list[list[float]]],
]


def changed_runs(canvas: Canvas, ids: Sequence[int], filler: int) -> list[range]:
    """Maximal runs of free positions that hold something other than before the rewrite: their
    seed token, or nothing (the filler) in the room past the seed."""
    runs: list[range] = []
    start: int | None = None
    for i in range(len(canvas) + 1):
        changed = (
            i < len(canvas) and canvas.kinds[i] is Kind.FREE and ids[i] != _was(canvas, i, filler)
        )
        if changed and start is None:
            start = i
        elif not changed and start is not None:
            runs.append(range(start, i))
            start = None
    return runs


def hunks(runs: Sequence[range], gap: int = REVIEW_LOOKAHEAD) -> list[range]:
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


def review_rewrite(
    canvas: Canvas,
    ids: Sequence[int],
    filler: int,
    reader: VariantReader,
    context: list[int],
    after: list[int],
    decode: Callable[[Sequence[int]], str] | None = None,
) -> list[int]:
    """``ids`` with every changed run the model reads as less fluent put back as it was, and,
    given ``decode``, every run that replaces the user's content words.

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
        tail = tokens[stop : stop + REVIEW_LOOKAHEAD]
        original = [canvas.seed_ids[i] for i in run if canvas.seeded[i]]
        variants.append((at, original + tail))
        spans.append((at, stop + len(tail)))
    written, put_back = reader(context, tokens, variants)
    out = list(ids)
    for run, (at, stop), nlls in zip(runs, spans, put_back, strict=True):
        was = [_was(canvas, i, filler) for i in run]
        other = decode is not None and replaces_content(
            decode([t for t in was if t != filler]),
            decode([ids[i] for i in run if ids[i] != filler]),
        )
        if other or sum(written[at:stop]) > sum(nlls):
            for i, token in zip(run, was, strict=True):
                out[i] = token
    return out


def replaces_content(was: str, now: str) -> bool:
    """Whether ``now`` says other content words where ``was`` had some: it loses a word of
    :data:`CONTENT_LETTERS` letters or more that is not a function word, and gains another."""
    lost, gained = content_words(was) - content_words(now), content_words(now) - content_words(was)
    return bool(lost and gained)


def content_words(text: str) -> set[str]:
    """Lower-cased words of :data:`CONTENT_LETTERS` letters or more, function words aside."""
    found = {w for w in re.findall(r"[a-z']+", text.lower()) if len(w) >= CONTENT_LETTERS}
    return found - NOT_CONTENT


def _was(canvas: Canvas, position: int, filler: int) -> int:
    """What a free position held before the rewrite: its seed token, or nothing (the filler)."""
    return canvas.seed_ids[position] if canvas.seeded[position] else filler


def _first_at_or_after(visible: Sequence[int], position: int, default: int) -> int:
    """Index into the filler-free text of the first visible position at or after ``position``."""
    return next((k for k, i in enumerate(visible) if i >= position), default)
