"""Near misses (engine.run.near_misses) and the varied segments later versions open there
(engine.core.plan.Free.vary): where they are, how versions share them, what a varied segment
may hold, and that a version varying them changes nothing else (both model families)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.backends.base import Backend
from engine.core.canvas import Kind, build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, Free, Locked, plan_edit, segment_text
from engine.core.protocol import Edit, EditMode, SegmentText, Span
from engine.core.tokens import TokenTable
from engine.core.worddiff import word_diff
from engine.decode.allowed import allowed_mask
from engine.language.en.content import content_words
from engine.language.en.meaning import closed_words
from engine.run.near_misses import (
    NEAR_MISSES_PER_VERSION,
    NearMiss,
    in_target,
    may_vary,
    near_misses,
    next_misses,
    token_ends,
    touches,
    varies_content,
    word_around,
)
from engine.run.pipeline import Denoised, RunContext, denoise_plan
from engine.run.versions import (
    open_spans,
    segments_over,
    user_locks,
    version_plan,
)
from tests.helpers.backends import llama_backend, tiny_table
from tests.helpers.gemma import gemma_backend
from tests.helpers.settled import drain, settled_as_seeded

BEFORE, AFTER = "A note first. ", " And a last word."
TEXT = "The quick brown fox jumps over the lazy dog near the old river bank."
DOCUMENT = BEFORE + TEXT + AFTER
TARGET = Span(len(BEFORE), len(BEFORE) + len(TEXT))
LOCK = Span(TARGET.start + TEXT.index("fox"), TARGET.start + TEXT.index("fox") + 3)
# Greedy, half the words renoised, no passes after the model: the tiny random model keeps
# many of the words it predicts, so there are near misses to find.
KEEPING = SamplerSettings(steps=8, strength=0.5, temperature=0.0, seed=3, passes=())
BACKENDS: dict[str, Callable[[], Backend]] = {"masked": llama_backend, "gemma": gemma_backend}


def rewrite(settings: SamplerSettings, locks: tuple[Span, ...] = (LOCK,)) -> Edit:
    return Edit(1, DOCUMENT, TARGET, locks, "", EditMode.REWRITE, settings)


def target_of(done: Denoised) -> str:
    """The target as a version settled it (``check_proposal`` has verified that the text
    around it is the document's, byte for byte)."""
    return done.text


@given(st.lists(st.floats(0.01, 1.0), min_size=40, max_size=40), st.sets(st.integers(0, 30)))
@settings(max_examples=25, deadline=None)
def test_near_misses_are_kept_tokens_least_sure_first(
    confidences: list[float], changed: set[int]
) -> None:
    """Each near miss is a token of the target that the first version kept as written and
    the canvas predicted (a confidence below 1), outside and not beside any hunk of the first
    version, never in the user's lock; least sure first."""
    plan = plan_edit(rewrite(KEEPING))
    locks = user_locks(plan)
    first = settled_as_seeded(plan, lambda i: confidences[i % 40], frozenset(changed))
    misses = near_misses(TEXT, first, tiny_table(), locks, content=True)
    hunks = word_diff(TEXT, first.segments, locks).hunks
    assert [m.confidence for m in misses] == sorted(m.confidence for m in misses)
    plain = near_misses(TEXT, first, tiny_table(), locks)  # below strength 1: no content word
    assert plain == [m for m in misses if not content_words(word_around(TEXT, m.start, m.end))]
    for miss in misses:
        assert 0 <= miss.start < miss.end <= len(TEXT) and miss.confidence < 1
        assert TEXT[miss.start : miss.end].strip()
        assert not touches((miss.start, miss.end), hunks)
        assert not any(a < miss.end and miss.start < b for a, b in locks)
        assert not closed_words(word_around(TEXT, miss.start, miss.end))
    if not changed:  # every token kept: each word piece the canvas predicted is one
        canvas, table = first.canvas, tiny_table()
        asked = [
            i
            for i, sure in enumerate(first.last.confidence)
            if sure < 1.0 and canvas.seeded[i] and canvas.kinds[i] is Kind.FREE
            if table.decode([canvas.seed_ids[i]]).strip()
            if not closed_words(seed_word(first, table, i))
        ]
        assert len(misses) == len(asked)


def seed_word(first: Denoised, table: TokenTable, position: int) -> str:
    """The word of ``TEXT`` that seed position ``position`` of a free segment spells part of:
    its segment's seed decoded up to it and through it, placed where the segment starts."""
    canvas = first.canvas
    index = canvas.segment_of[position]
    at = sum(len(segment_text(s)) for s in canvas.plan.segments[:index])
    start = canvas.segment_positions(index).start
    before = table.decode([canvas.seed_ids[i] for i in range(start, position)])
    through = table.decode([canvas.seed_ids[i] for i in range(start, position + 1)])
    return word_around(TEXT, at + len(before), at + len(through))


def test_a_first_version_that_changed_nothing_has_its_least_sure_token_first() -> None:
    plan = plan_edit(rewrite(KEEPING))
    table = tiny_table()
    canvas = build_canvas(plan, table, KEEPING, 512)
    sure = settled_as_seeded(plan, lambda i: 0.9)
    after_lock = canvas.segment_positions(2)  # a word piece of "lazy", after the lock
    position = next(p for p in after_lock if seed_word(sure, table, p) == "lazy")
    first = settled_as_seeded(plan, lambda i: 0.2 if i == position else 0.9)
    misses = near_misses(TEXT, first, table, user_locks(plan), content=True)
    assert misses[0].confidence == pytest.approx(0.2)
    assert TEXT[misses[0].start : misses[0].end] == table.decode([canvas.seed_ids[position]])
    assert all(m.confidence == pytest.approx(0.9) for m in misses[1:])
    assert first.text == TEXT  # nothing changed, and still somewhere to vary


def test_a_shortened_seed_maps_no_position() -> None:
    """Token ids that do not spell the seed (a shorter rewrite's cut) place nothing."""
    table = tiny_table()
    ids = table.encode("the lazy dog")
    assert token_ends(table, ids, "the lazy dog")[-1] == len("the lazy dog")
    assert token_ends(table, ids[:-1], "the lazy dog") == []


def test_a_span_a_pass_changed_is_not_in_the_target() -> None:
    """Offsets after a proofread word move by its change; inside it they map to nothing."""
    target, shaped = "we was here today", "we were here today"
    moved = word_diff(target, [SegmentText(shaped, False)]).hunks
    assert in_target(shaped.index("here"), shaped.index("here") + 4, moved) == (7, 11)
    assert in_target(3, 7, moved) is None
    assert in_target(0, 2, moved) == (0, 2)


@given(st.lists(st.floats(0.0, 0.99), min_size=0, max_size=16), st.integers(0, 3))
def test_each_try_takes_the_next_near_misses(confidences: list[float], blocked: int) -> None:
    """Tries one after another never vary the same place: each takes the least sure left, at
    most its share, none touching what is open or one another; a near miss beside an opened
    hunk is never taken and not kept for later."""
    # Tokens 5 characters apart in runs of two that touch: a try takes one of each pair.
    misses = [NearMiss(5 * i, 5 * i + 5 - i % 2, c) for i, c in enumerate(sorted(confidences))]
    opened = [(5 * i, 5 * i + 1) for i in range(0, 4 * blocked, 4)]
    seen: list[tuple[int, int]] = []
    left = misses
    while left:
        taken, after = next_misses(left, opened)
        assert taken == sorted(taken) and len(taken) <= NEAR_MISSES_PER_VERSION
        assert not any(touches_span(span, opened) for span in taken)
        assert not any(touches_span(a, [b]) for i, a in enumerate(taken) for b in taken[i + 1 :])
        least = [(m.start, m.end) for m in left if not touches_span((m.start, m.end), opened)]
        assert not least or least[0] in taken  # the least sure one free to take goes first
        assert len(after) < len(left) or not taken
        seen += taken
        if not taken:
            break
        left = after
    assert len(seen) == len(set(seen))
    assert not any(touches_span(span, opened) for span in seen)


def touches_span(span: tuple[int, int], others: list[tuple[int, int]]) -> bool:
    return any(span[0] <= b and a <= span[1] for a, b in others)


def test_a_varied_segment_may_not_hold_its_seed_tokens() -> None:
    """A varied segment bans each seed token at its own position, and nothing there (the
    filler, a token of spaces); nothing else anywhere."""
    table = tiny_table()
    plan = plan_edit(rewrite(KEEPING))
    segments = segments_over(TEXT, [], user_locks(plan), [(3, 9)])  # " quick"
    varied = EditPlan(plan.target, segments, plan.before, plan.after, "", EditMode.REWRITE)
    canvas = build_canvas(varied, table, KEEPING, 512)
    mask = allowed_mask(canvas, table, len(table.tokenizer))
    index = next(i for i, s in enumerate(segments) if isinstance(s, Free))
    assert segments[index] == Free(seed=" quick", vary=True)
    for position in canvas.segment_positions(index):
        if canvas.seeded[position]:
            assert not mask[position, canvas.seed_ids[position]]
    plain_segments = tuple(Free(seed=s.seed) if isinstance(s, Free) else s for s in segments)
    plain = allowed_mask(
        build_canvas(replace(varied, segments=plain_segments), table, KEEPING, 512),
        table,
        len(table.tokenizer),
    )
    blank = [i for i in table.starting_with(" ") if table.is_blank(i)]
    nothing = [table.specials.filler_id, *blank]
    banned = {
        (p, token)
        for p in canvas.segment_positions(index)
        if canvas.seeded[p]
        for token in (canvas.seed_ids[p], *nothing)
        if plain[p, token]
    }
    assert {tuple(pair) for pair in (plain & ~mask).nonzero().tolist()} == banned
    assert not (mask & ~plain).any()


def test_a_varied_word_is_written_otherwise() -> None:
    """The masked sampler renoises a varied word whatever the strength, and writes another
    token there (its seed is not allowed)."""
    backend = llama_backend()
    plan = plan_edit(rewrite(KEEPING))
    span = (TEXT.index(" lazy"), TEXT.index(" lazy") + 5)
    segments = segments_over(TEXT, [], user_locks(plan), [span])
    varied = EditPlan(plan.target, segments, plan.before, plan.after, "", EditMode.REWRITE)
    done = drain(denoise_plan(backend, varied, KEEPING, DOCUMENT, RunContext.starting(1)))
    assert " lazy" not in target_of(done) and "  " not in target_of(done)
    assert target_of(done).startswith(TEXT[: span[0]])
    assert target_of(done).endswith(TEXT[span[1] :])


WORDS = [(m.start(), m.end()) for m in re.finditer(r" ?[a-z]+", TEXT)]


@pytest.mark.parametrize("family", sorted(BACKENDS))
@given(seed=st.integers(0, 50), picks=st.sets(st.integers(0, len(WORDS) - 1), max_size=4))
@settings(max_examples=4, deadline=None)
def test_varied_near_misses_change_nothing_else(family: str, seed: int, picks: set[int]) -> None:
    """Whatever near misses a later version varies (any words but the lock), it writes only
    there and at the first version's changes: the lock and the text outside stay."""
    backend = BACKENDS[family]()
    edit = rewrite(KEEPING.with_changes(seed=seed, passes=SamplerSettings().passes))
    plan = plan_edit(edit)
    first = drain(denoise_plan(backend, plan, edit.settings, DOCUMENT, RunContext(1)))
    locks = user_locks(plan)
    opened = open_spans(TEXT, word_diff(TEXT, first.segments, locks).hunks, locks)
    misses = [NearMiss(*WORDS[i], 0.5) for i in sorted(picks) if TEXT[slice(*WORDS[i])] != " fox"]
    varied, _ = next_misses(misses, opened)
    again = version_plan(plan, [first], varied)
    if again is None:
        assert not opened and not varied
        return
    version = drain(denoise_plan(backend, again, edit.settings, DOCUMENT, RunContext(1)))
    kept = segments_over(TEXT, opened, locks, varied)
    shape = "".join(re.escape(s.text) if isinstance(s, Locked) else "(.*?)" for s in kept)
    assert re.fullmatch(shape, target_of(version), re.DOTALL), version.text
    assert [s.text for s in version.segments if s.locked] == ["fox"]


def test_no_near_miss_is_varied_in_a_closed_class_word() -> None:
    """A pronoun, determiner, quantifier or preposition is never varied (any other word
    there says another thing, and the meaning check puts it back); a content word only where
    the reread lets content words change."""
    for word in ("it", "it's", "the", "more", "to", "me,"):
        assert not may_vary(word, content=True) and not may_vary(word, content=False)
    assert may_vary("and", content=False) and may_vary("so,", content=False)
    assert may_vary("quick", content=True) and not may_vary("quick", content=False)


def test_a_word_around_a_token_is_its_whole_run() -> None:
    assert word_around("the gutters, then", 7, 11) == "gutters,"
    assert word_around("the gutters", 0, 3) == "the"
    assert varies_content(SamplerSettings(strength=1.0))
    assert not varies_content(SamplerSettings(strength=0.5))
