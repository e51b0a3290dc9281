"""Several versions of one rewrite (engine.run.versions): seeds, where later versions write,
merging, frames, cost, cancel."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import replace
from itertools import groupby

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.backends.base import Backend
from engine.core.config import SamplerSettings
from engine.core.plan import Locked, plan_edit
from engine.core.protocol import Cancelled, Edit, EditMode, Frame, Proposal, SegmentText, Span
from engine.core.worddiff import word_diff
from engine.run.answers import NO_OTHER_READING, REASONS, Merged, versions_note
from engine.run.edit_run import run_edit
from engine.run.near_misses import near_misses, varies_content
from engine.run.pipeline import Denoised, RunContext
from engine.run.versions import (
    EXTRA_TRIES,
    SEED_BITS,
    VERSION_TEMPERATURE,
    Tries,
    alternatives,
    denoise_versions,
    merged,
    only_cuts,
    open_spans,
    settle_version,
    version_plan,
    version_seed,
    version_settings,
)
from tests.helpers.backends import counting_forwards, llama_backend
from tests.helpers.gemma import gemma_backend
from tests.helpers.settled import drain, settled_as_seeded

TEXT = "The quick brown fox jumps over the lazy dog near the old river bank."
LOCK = Span(TEXT.index("fox"), TEXT.index("fox") + 3)
# No passes after the model: the tiny random model's every change would be put back.
FAST = SamplerSettings(steps=8, strength=1.0, temperature=1.0, seed=4, passes=())
CHECKED = FAST.with_changes(passes=SamplerSettings().passes)
# Greedy at half strength: the canvas keeps words it predicted, so there are near misses.
KEEPING = CHECKED.with_changes(strength=0.5, temperature=0.0)
BACKENDS: dict[str, Callable[[], Backend]] = {"masked": llama_backend, "gemma": gemma_backend}


def rewrite(settings: SamplerSettings, locks: tuple[Span, ...] = (LOCK,)) -> Edit:
    return Edit(1, TEXT, Span(0, len(TEXT)), locks, "", EditMode.REWRITE, settings)


def events_of(backend: Backend, edit: Edit) -> list[object]:
    return list(run_edit(backend, edit))


def proposal_of(backend: Backend, edit: Edit) -> Proposal:
    last = events_of(backend, edit)[-1]
    assert isinstance(last, Proposal)
    return last


@given(st.integers(0, (1 << SEED_BITS) - 1), st.integers(2, 4))
def test_version_one_keeps_the_seed_and_every_other_has_its_own(seed: int, count: int) -> None:
    seeds = [version_seed(seed, version) for version in range(1, count + 1)]
    assert seeds[0] == seed
    assert len(set(seeds)) == count
    assert all(0 <= s < 1 << SEED_BITS for s in seeds)


@pytest.mark.parametrize("temperature", [0.0, 0.3, 1.5])
def test_versions_after_the_first_sample_where_the_request_is_greedy(temperature: float) -> None:
    settings = SamplerSettings(temperature=temperature, seed=9)
    assert version_settings(settings, 1) == settings
    later = version_settings(settings, 2)
    assert later.temperature == max(temperature, VERSION_TEMPERATURE)
    assert later.seed == version_seed(9, 2) and later.steps == settings.steps


@pytest.mark.parametrize("family", sorted(BACKENDS))
def test_versions_are_distinct_checked_and_keep_every_lock(family: str) -> None:
    """Over a few requests (the tiny DiffusionGemma mostly keeps the text as it was, and a
    version equal to the user's text is not offered), every version offered is distinct."""
    backend = BACKENDS[family]()
    offered = 0
    for seed in range(4):
        proposal = proposal_of(backend, rewrite(FAST.with_changes(alternatives=4, seed=seed)))
        texts = [proposal.text, *(version.text for version in proposal.alternatives)]
        assert len(set(texts)) == len(texts)
        assert TEXT not in texts[1:]  # the user's own text is what rejecting gives
        for version in proposal.alternatives:
            assert "".join(segment.text for segment in version.segments) == version.text
            assert [s.text for s in version.segments if s.locked] == ["fox"]
        offered += len(proposal.alternatives)
    assert offered, "sixteen random versions of a tiny model should not all match"


@pytest.mark.parametrize(
    ("family", "base"), [(f, s) for f in sorted(BACKENDS) for s in (FAST, CHECKED, KEEPING)]
)
@given(seed=st.integers(0, 50))
@settings(max_examples=4, deadline=None)
def test_a_later_version_changes_only_its_openings(
    family: str, base: SamplerSettings, seed: int
) -> None:
    """Every later version settles the first version's changes again and varies its own near
    misses, every other word kept: none of its hunks lies elsewhere, the user's lock stays,
    and (``check_proposal``) nothing outside the target changes."""
    backend = BACKENDS[family]()
    edit = rewrite(base.with_changes(alternatives=3, seed=seed))
    plan = plan_edit(edit)
    versions = drain(denoise_versions(backend, plan, edit.settings, TEXT, RunContext(1)))
    first, locks = versions[0], [(LOCK.start, LOCK.end)]
    misses = near_misses(TEXT, first, backend.table, locks, varies_content(edit.settings))
    opened = open_spans(TEXT, word_diff(TEXT, first.segments, locks).hunks, locks)
    may_change = [*opened, *((m.start, m.end) for m in misses)]
    # Every character no opening holds stays, in order, byte for byte; anything in them.
    shape = "".join(
        "(.*?)" if free else re.escape("".join(TEXT[i] for i, _ in run))
        for free, run in groupby(
            enumerate(TEXT), lambda item: any(a <= item[0] < b for a, b in may_change)
        )
    )
    for version in versions[1:]:
        assert re.fullmatch(shape, version.text, re.DOTALL), version.text
        assert [s.text for s in version.segments if s.locked] == ["fox"]


def test_the_first_version_is_the_rewrite_one_version_gives() -> None:
    backend = llama_backend()
    three = proposal_of(backend, rewrite(CHECKED.with_changes(alternatives=3)))
    one = proposal_of(backend, rewrite(CHECKED))
    assert (three.text, three.segments) == (one.text, one.segments)
    own = tuple(note for note in three.notes if NO_OTHER_READING not in note)
    assert own == one.notes  # and, when versions were merged, the note that says so


def test_the_cost_of_every_version_is_counted() -> None:
    """Every version's forwards (steps and passes' reads) count in the request's."""
    backend = llama_backend()
    edit = rewrite(FAST.with_changes(alternatives=3))
    run = RunContext.starting(1)
    versions = drain(denoise_versions(backend, plan_edit(edit), edit.settings, TEXT, run))
    assert len(versions) == 3  # the tiny model changes something: there is something to vary
    forwards = proposal_of(backend, edit).metrics.forwards
    assert forwards == sum(version.forwards for version in versions)
    assert all(version.forwards > 0 for version in versions)


def test_every_version_is_shown_as_it_settles() -> None:
    """Each version's frames start with a frame of every position (the overlay starts over),
    so the window shows each version settling in turn."""
    backend = llama_backend()
    events = events_of(backend, rewrite(FAST.with_changes(alternatives=3)))
    frames = [e for e in events if isinstance(e, Frame)]
    full = [f for f in frames if f.step == 0 and len(f.updates) == f.length]
    assert len(full) == 3
    assert frames[0] is full[0]  # the first version first, from its first frame


def test_a_rewrite_that_changed_nothing_has_one_version() -> None:
    """Nothing changed, nothing to vary: the later versions are not settled."""
    backend = llama_backend()
    unchanged = rewrite(FAST.with_changes(alternatives=3, strength=0.01, temperature=0.0))
    proposal = proposal_of(backend, unchanged)
    if proposal.text == TEXT:
        assert proposal.alternatives == ()
    frames = [e for e in events_of(backend, unchanged) if isinstance(e, Frame)]
    full = [f for f in frames if f.step == 0 and len(f.updates) == f.length]
    assert len(full) == (1 if proposal.text == TEXT else 3)


def test_a_cancel_during_a_later_version_cancels_the_request() -> None:
    backend = llama_backend()
    seen: list[object] = []

    def cancelled() -> bool:  # after the first version's frames, and a few of the second's
        return sum(1 for e in seen if isinstance(e, Frame)) > 12

    events = run_edit(backend, rewrite(FAST.with_changes(alternatives=2)), cancelled)
    for event in events:
        seen.append(event)
    assert isinstance(seen[-1], Cancelled)
    assert not any(isinstance(e, Proposal) for e in seen)


def test_a_draft_settles_one_version_whatever_the_setting() -> None:
    backend = llama_backend()
    settings = FAST.with_changes(alternatives=3, draft_tokens=6)
    draft = Edit(1, TEXT, Span(len(TEXT), len(TEXT)), (), "", EditMode.DRAFT, settings)
    proposal = proposal_of(backend, draft)
    assert proposal.alternatives == ()
    single = proposal_of(backend, replace(draft, settings=replace(settings, alternatives=1)))
    assert proposal.text == single.text


def test_fewer_versions_than_asked_say_so() -> None:
    """Versions merged away are never silent: the proposal's notes say how many of the asked
    came back and what became of each one missing, with the reason from the fixed list."""
    backend = llama_backend()
    for strength in (0.01, 1.0):
        asked = FAST.with_changes(alternatives=4, strength=strength, temperature=0.0)
        proposal = proposal_of(backend, rewrite(asked))
        offered = 1 + len(proposal.alternatives)
        said = [note for note in proposal.notes if NO_OTHER_READING in note]
        assert len(said) == (0 if offered == 4 else 1)
        for note in said:
            assert note.startswith(f"{offered} version")
            assert len(re.findall(r"version \d (came back|had nowhere)", note)) == 4 - offered


def denoised(text: str, put_back: int = 0) -> Denoised:
    """A settled version as :func:`merged` reads it: its text and what the checks put back."""
    segments = (SegmentText(text, False),)
    return Denoised(None, None, segments, text, 0.0, 0.0, 0, {}, put_back=put_back)  # type: ignore[arg-type]


def test_each_version_not_offered_is_accounted_for() -> None:
    """Version 2 equal to the user's text, 3 to version 1 after the checks put back two of
    its changes, 4 distinct, and a fifth asked that was never settled."""
    versions = [denoised("b"), denoised("a"), denoised("b", put_back=2), denoised("c")]
    fates = merged(versions, "a", 5)
    assert fates == (Merged(2, 0), Merged(3, 1, 2), Merged(5, None))
    assert len(alternatives(versions, "a")) == 1
    (note,) = versions_note(5, 2, fates)
    assert note == (
        f"2 versions of the 5 asked: {NO_OTHER_READING} (version 2 came back as your text; "
        "version 3 came back as version 1 once the checks put back 2 changes; version 5 had "
        "nowhere to differ)."
    )


def test_the_versions_note_counts_what_came_back() -> None:
    assert versions_note(3, 3) == () and versions_note(1, 1) == ()
    assert versions_note(3, 1) == (
        f"1 version of the 3 asked: {NO_OTHER_READING} (the others were the same).",
    )
    assert versions_note(2, 1, (Merged(2, 1, 1),)) == (
        f"1 version of the 2 asked: {NO_OTHER_READING} (version 2 came back as version 1 once "
        "the checks put back 1 change).",
    )
    assert NO_OTHER_READING in REASONS


def test_spaces_between_two_locks_stay_the_engines_lock_in_every_version() -> None:
    """The space between two locked words is an engine lock: a later version keeps it as the
    user's text, never as a lock of the user's (the review aligns versions on the user's)."""
    backend = llama_backend()
    text = "In 1843 Ada Lovelace wrote notes on the engine that were long."
    target = Span(0, len(text))
    locks = (Span(3, 7), Span(8, 20))
    edit = Edit(1, text, target, locks, "", EditMode.REWRITE, FAST.with_changes(alternatives=3))
    proposal = proposal_of(backend, edit)
    for version in (proposal, *proposal.alternatives):
        assert [s.text for s in version.segments if s.locked] == ["1843", "Ada Lovelace"]
        word_diff(text, version.segments, [(3, 7), (8, 20)])  # aligns on the user's locks


def settles(frames: list[Frame]) -> int:
    """How many canvases the frames show settling (each starts with a frame of every one;
    the opening frame shown while a pass reads names that pass)."""
    return sum(1 for f in frames if f.step == 0 and len(f.updates) == f.length and not f.stage)


def try_version(settings: SamplerSettings, instruction: str) -> tuple[Denoised, list[Frame], int]:
    """Version 2 after a first version that changed nothing and was unsure of every word:
    the version, its frames, and every forward the model ran for it."""
    backend = llama_backend()
    edit = replace(rewrite(settings.with_changes(alternatives=2)), instruction=instruction)
    plan = plan_edit(edit)
    first = settled_as_seeded(plan, lambda _: 0.5, settings=settings)
    misses = near_misses(TEXT, first, backend.table, [(LOCK.start, LOCK.end)], content=True)
    tries = Tries(misses, [])
    frames: list[Frame] = []
    steps = settle_version(backend, plan, edit.settings, TEXT, RunContext(1), [first], tries)
    with counting_forwards(backend.model) as counted:
        while True:
            try:
                frames.append(next(steps))
            except StopIteration as done:
                return done.value, frames, counted.count


def test_a_version_that_differs_is_settled_once() -> None:
    """No pass to put anything back: the varied words differ at once, one try."""
    version, frames, forwards = try_version(FAST.with_changes(strength=0.5), "")
    assert version.text != TEXT and settles(frames) == 1
    assert version.retried == 0 and version.forwards == forwards


def test_a_version_that_came_back_the_same_is_tried_again_within_the_budget() -> None:
    """Spelling alone puts back every change the canvas makes, so each try comes back as the
    user's text: the version is tried again over the next near misses, as many times as
    the extra tries allow, and every try's forwards count."""
    version, frames, forwards = try_version(CHECKED.with_changes(strength=0.5), "fix spelling")
    assert version.text == TEXT
    assert settles(frames) == 1 + EXTRA_TRIES
    assert version.retried > 0 and version.forwards == forwards


def test_a_cut_stays_as_the_first_version_made_it() -> None:
    """Later versions keep the first version's cuts (a cut settled again from a lone hunk can
    only come back cut or as the user's words) and open its other changes."""
    text = "This week we basically spent most of our time on a number of small bugs."
    first = "This week we spent most of our time on several bugs."
    hunks = word_diff(text, [SegmentText(first, False)]).hunks
    cuts = [h for h in hunks if only_cuts(h)]
    assert [h.old.strip() for h in cuts] == ["basically"]
    plan = plan_edit(Edit(1, text, Span(0, len(text)), (), "tighter", EditMode.REWRITE))
    version = version_plan(plan, [denoised(first)])
    assert version is not None
    free = [s.seed for s in version.segments if not isinstance(s, Locked)]
    assert [seed.strip() for seed in free] == ["a number of small"]
    kept = "".join(s.text if isinstance(s, Locked) else s.seed for s in version.segments)
    assert kept == text.replace(" basically", "", 1) or kept == text.replace("basically ", "", 1)
    only_cut = "This week we spent most of our time on a number of small bugs."
    assert version_plan(plan, [denoised(only_cut)]) is None  # nowhere to differ
    assert version_plan(plan, [denoised(only_cut)], [(text.index(" our"), text.index(" our") + 4)])
