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

from engine.backends.base import Backend, StepResult
from engine.core.canvas import Kind, assemble, build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, Free, Locked, plan_edit
from engine.core.protocol import Edit, EditMode, SegmentText, Span, TokenState
from engine.core.worddiff import word_diff
from engine.decode.allowed import allowed_mask
from engine.run.near_misses import (
    NEAR_MISSES_PER_VERSION,
    NearMiss,
    in_target,
    near_misses,
    token_ends,
    touches,
    version_misses,
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


def drain(steps):
    """The return value of a generator of frames."""
    while True:
        try:
            next(steps)
        except StopIteration as done:
            return done.value


def target_of(done: Denoised) -> str:
    """The target as a version settled it (``check_proposal`` has verified that the text
    around it is the document's, byte for byte)."""
    return done.text


def settled_as_seeded(
    plan: EditPlan, confidence: Callable[[int], float], changed: frozenset[int] = frozenset()
) -> Denoised:
    """A first version that kept every seed token but those at ``changed`` (which hold the
    filler), committed with ``confidence(position)``: near misses without trusting a model."""
    table = tiny_table()
    canvas = build_canvas(plan, table, KEEPING, 512)
    filler = table.specials.filler_id
    ids = [filler if i in changed else token for i, token in enumerate(canvas.seed_ids)]
    sure = [1.0 if k is Kind.LOCKED else confidence(i) for i, k in enumerate(canvas.kinds)]
    last = StepResult(8, ids, ids, [TokenState.SETTLED] * len(ids), sure, 8, True)
    segments = assemble(canvas, ids, table)
    text = "".join(segment.text for segment in segments)
    return Denoised(canvas, last, segments, text, 0.0, 0.0, len(ids), {})


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
    misses = near_misses(TEXT, first, tiny_table(), locks)
    hunks = word_diff(TEXT, first.segments, locks).hunks
    assert [m.confidence for m in misses] == sorted(m.confidence for m in misses)
    for miss in misses:
        assert 0 <= miss.start < miss.end <= len(TEXT) and miss.confidence < 1
        assert TEXT[miss.start : miss.end].strip()
        assert not touches((miss.start, miss.end), hunks)
        assert not any(a < miss.end and miss.start < b for a, b in locks)
    if not changed:  # every token kept: each word piece the canvas predicted is one
        canvas, table = first.canvas, tiny_table()
        asked = [
            i
            for i, sure in enumerate(first.last.confidence)
            if sure < 1.0 and canvas.seeded[i] and canvas.kinds[i] is Kind.FREE
            if table.decode([canvas.seed_ids[i]]).strip()
        ]
        assert len(misses) == len(asked)


def test_a_first_version_that_changed_nothing_has_its_least_sure_token_first() -> None:
    plan = plan_edit(rewrite(KEEPING))
    table = tiny_table()
    canvas = build_canvas(plan, table, KEEPING, 512)
    position = canvas.segment_positions(2)[3]  # a word piece after the lock
    first = settled_as_seeded(plan, lambda i: 0.2 if i == position else 0.9)
    misses = near_misses(TEXT, first, table, user_locks(plan))
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


@given(st.lists(st.floats(0.0, 0.99), min_size=0, max_size=12), st.integers(2, 4))
def test_versions_take_their_own_near_misses(confidences: list[float], count: int) -> None:
    """Versions 2..N never vary the same place, each at most its share, none touching what
    is already open or another of its own."""
    misses = [NearMiss(10 * i, 10 * i + 4, c) for i, c in enumerate(sorted(confidences))]
    opened = [(20, 24)] if len(misses) > 2 else []
    taken = [version_misses(misses, v, count - 1, opened) for v in range(2, count + 1)]
    flat = [span for spans in taken for span in spans]
    assert len(flat) == len(set(flat))
    assert all(len(spans) <= NEAR_MISSES_PER_VERSION for spans in taken)
    assert not any(touches_span(span, opened) for span in flat)
    if len(misses) >= 4 * count:  # enough for everyone: each version varies somewhere
        assert all(taken)


def touches_span(span: tuple[int, int], others: list[tuple[int, int]]) -> bool:
    return any(span[0] <= b and a <= span[1] for a, b in others)


def test_a_varied_segment_may_not_hold_its_seed_tokens() -> None:
    """A varied segment bans each seed token at its own position, and only there."""
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
    banned = {(p, canvas.seed_ids[p]) for p in canvas.segment_positions(index) if canvas.seeded[p]}
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
    assert " lazy" not in target_of(done)
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
    varied = version_misses(misses, 2, 1, opened)
    again = version_plan(plan, [first], varied)
    if again is None:
        assert not opened and not varied
        return
    version = drain(denoise_plan(backend, again, edit.settings, DOCUMENT, RunContext(1)))
    kept = segments_over(TEXT, opened, locks, varied)
    shape = "".join(re.escape(s.text) if isinstance(s, Locked) else "(.*?)" for s in kept)
    assert re.fullmatch(shape, target_of(version), re.DOTALL), version.text
    assert [s.text for s in version.segments if s.locked] == ["fox"]
