"""Near misses: where a rewrite's first version came closest to writing something else.

Later versions of a rewrite (:mod:`engine.run.versions`) need somewhere to differ. The first
version's changes are one such place, but a first version that changed little or nothing
leaves later versions nothing to settle, and the passes after the model put most of a
re-settled change back, so the versions collapsed into one (on the 78 dev rewrites, three
distinct versions in 10). The canvas itself says where another reading was close: each
position it predicted and committed carries the model's confidence in the token it chose
(``StepResult.confidence``: the chosen token's probability on the masked family, the
exponentiated negative entropy on DiffusionGemma). The least sure of the positions where the
first version kept the user's words are its *near misses*; a later version opens a few of them
as varied segments (:attr:`engine.core.plan.Free.vary`: the seed token is banned there, so
the canvas commits its next choice), and the same passes judge the result as any change.

The backends report the chosen token's confidence, not the margin to the runner-up; the two
rank positions alike where the top choice is below one half, and the confidence needs no new
field in either family's step. Only positions the canvas predicted count (at strength 0.5 half
the seed stays unmasked, with nothing to say), and below strength 1 none in a content word:
the reread puts back any other content word where the user's stood, so a near miss there has
nowhere to go (:func:`varies_content`). Never one in a pronoun, determiner, quantifier or
preposition: any other word there says another thing ("have more by" for "have it by", "fine
to you" for "fine to me"), so the meaning check puts back every closed-class word a varied
segment changes (:func:`engine.language.en.meaning.closed_words_changed`), and a near miss
there could only come back as the user's word.

What it found on the dev split: the embedded model is mostly sure (the least sure kept token
of a rewrite is often above 0.8), and its next choice at a kept word mostly reads worse than
the user's word ("a machine" for "the machine", "Would that like to come with you?"), which
the reread rightly puts back. Letting a varied run read up to 1 nat worse and stay (tried on
26 dev rewrites) found no more distinct versions and let through "after that , run" and
"you 've made"; the reread judges varied words as it judges any change. Near misses give a
version somewhere to differ; they rarely give it a reading that survives.

Each try of a later version takes the next few down the list, so no two versions vary the
same place and each offers its own reading somewhere; a version that came back as an earlier
one is tried again over the next ones, within a few tries a request may spend
(:data:`engine.run.versions.EXTRA_TRIES`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from engine.core.canvas import Canvas, Kind, encoded_texts
from engine.core.config import SamplerSettings
from engine.core.plan import Free, plan_text, segment_text
from engine.core.protocol import SegmentText
from engine.core.tokens import TokenTable
from engine.core.worddiff import Hunk, word_diff
from engine.language.en.content import content_words
from engine.language.en.meaning import closed_words
from engine.run.pipeline import Denoised

# Near misses one try of a later version varies. Tuned on the dev split only (``python -m
# tools.bench.review --only alternatives --limit 26``, 26 of its rewrites): 2 a try gave three
# distinct versions in 3 of 26, 4 a try (with the content-word rule below) in 2; each varied
# word that survives is one more change for the user to judge, so the fewer.
NEAR_MISSES_PER_VERSION = 2
# The confidence of a position the canvas never predicted (a seed token kept unmasked): the
# model was not asked there, so it is no near miss.
UNASKED = 1.0

Spans = Sequence[tuple[int, int]]


@dataclass(frozen=True)
class NearMiss:
    """A token of the target (``start``..``end``, its leading space included) that the first
    version kept as written, and the canvas's confidence when it committed it."""

    start: int
    end: int
    confidence: float


def near_misses(
    target: str, first: Denoised, table: TokenTable, locks: Spans = (), content: bool = False
) -> list[NearMiss]:
    """The tokens of ``target`` the first version kept where its canvas was least sure, least
    sure first; none inside or beside one of the first version's hunks (``locks``: the user's
    locks, as spans of ``target``), none in a closed-class word, and unless ``content``, none
    in a content word (:func:`may_vary`)."""
    shaped = plan_text(first.canvas.plan.segments)  # the target after the passes before
    moved = word_diff(target, [SegmentText(shaped, False)]).hunks
    changed = word_diff(target, first.segments, locks).hunks
    misses = []
    for start, end, confidence in kept_tokens(first, table):
        at = in_target(start, end, moved)
        if at is None or touches(at, changed) or not target[at[0] : at[1]].strip():
            continue
        if may_vary(word_around(target, *at), content):
            misses.append(NearMiss(at[0], at[1], confidence))
    return sorted(misses, key=lambda miss: (miss.confidence, miss.start))


def may_vary(word: str, content: bool) -> bool:
    """Whether a near miss in ``word`` (a whitespace-free run) may be varied: never in a
    pronoun, determiner, quantifier or preposition (the meaning check puts back any other
    word a varied one writes there), and unless ``content``, never in a content word."""
    if closed_words(word):
        return False
    return content or not content_words(word)


def varies_content(settings: SamplerSettings) -> bool:
    """Whether a near miss may lie in a content word: only where the reread lets a rewrite
    say other content words (strength 1, :mod:`engine.passes.reread`); below it, any other
    content word a version wrote there would be put back, so it would have nowhere to go."""
    return settings.strength >= 1.0


def word_around(text: str, start: int, end: int) -> str:
    """The whitespace-free run of ``text`` that holds ``start``..``end`` (a word and its
    marks: a token may be a piece of one)."""
    while start > 0 and not text[start - 1].isspace():
        start -= 1
    while end < len(text) and not text[end].isspace():
        end += 1
    return text[start:end]


def kept_tokens(first: Denoised, table: TokenTable) -> list[tuple[int, int, float]]:
    """Each seeded free position that the canvas predicted and settled on its seed token: its
    characters in the shaped target and its confidence at commit."""
    canvas, last = first.canvas, first.last
    tokens, offset = [], 0
    encoded = encoded_texts(canvas.plan.segments)  # a free text before a lock gives it a space
    for index, segment in enumerate(canvas.plan.segments):
        positions = seed_positions(canvas, index) if isinstance(segment, Free) else []
        ends = token_ends(table, [canvas.seed_ids[i] for i in positions], encoded[index])
        for position, start, end in zip(positions, [0, *ends], ends, strict=False):
            confidence = float(last.confidence[position])
            if last.ids[position] == canvas.seed_ids[position] and confidence < UNASKED:
                tokens.append((offset + start, offset + end, confidence))
        offset += len(segment_text(segment))
    return tokens


def seed_positions(canvas: Canvas, segment: int) -> list[int]:
    """The free positions of ``segment`` that hold a token of its seed, in order."""
    return [
        i
        for i in canvas.segment_positions(segment)
        if canvas.kinds[i] is Kind.FREE and canvas.seeded[i]
    ]


def token_ends(table: TokenTable, ids: Sequence[int], text: str) -> list[int]:
    """Where each of ``ids`` ends in ``text``, or none when they do not spell ``text`` (a
    shorter rewrite's cut seed, a tokenizer that normalizes): positions are then not mapped."""
    ends = [len(table.decode(ids[: k + 1])) for k in range(len(ids))]
    return ends if table.decode(ids) == text else []


def in_target(start: int, end: int, moved: Sequence[Hunk]) -> tuple[int, int] | None:
    """A span of the shaped target as a span of the target as written, or ``None`` where a
    pass before the model changed it (a proofread word)."""
    shift = 0
    for hunk in moved:
        if hunk.new_start < end and start < hunk.new_end:
            return None
        if hunk.new_end <= start:
            shift = hunk.end - hunk.new_end
    return start + shift, end + shift


def touches(span: tuple[int, int], hunks: Sequence[Hunk]) -> bool:
    """Whether ``span`` overlaps or borders one of ``hunks`` (target offsets)."""
    return any(span[0] <= hunk.end and hunk.start <= span[1] for hunk in hunks)


def next_misses(
    misses: Sequence[NearMiss], opened: Spans
) -> tuple[list[tuple[int, int]], list[NearMiss]]:
    """The near misses the next try varies (the least sure, :data:`NEAR_MISSES_PER_VERSION`
    at most, none touching ``opened`` or one another), as target spans in order, and those
    left for later tries (one touching ``opened`` never can be varied: it is dropped)."""
    taken: list[tuple[int, int]] = []
    left: list[NearMiss] = []
    for miss in misses:
        span = (miss.start, miss.end)
        if any(span[0] <= b and a <= span[1] for a, b in opened):
            continue
        full = len(taken) == NEAR_MISSES_PER_VERSION
        if full or any(span[0] <= b and a <= span[1] for a, b in taken):
            left.append(miss)
        else:
            taken.append(span)
    return sorted(taken), left
