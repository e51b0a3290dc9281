"""Several versions of one rewrite (engine.run.versions): seeds, merging, frames, cancel."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.backends.base import Backend
from engine.core.config import SamplerSettings
from engine.core.protocol import Cancelled, Edit, EditMode, Frame, Proposal, Span
from engine.run.edit_run import run_edit
from engine.run.versions import SEED_BITS, VERSION_TEMPERATURE, version_seed, version_settings
from tests.helpers.backends import llama_backend
from tests.helpers.gemma import gemma_backend

TEXT = "The quick brown fox jumps over the lazy dog near the old river bank."
LOCK = Span(TEXT.index("fox"), TEXT.index("fox") + 3)
# No passes after the model: the tiny random model's every change would be put back.
FAST = SamplerSettings(steps=8, strength=1.0, temperature=1.0, seed=4, passes=())
CHECKED = FAST.with_changes(passes=SamplerSettings().passes)
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
    ("family", "base"), [(f, s) for f in sorted(BACKENDS) for s in (FAST, CHECKED)]
)
def test_each_version_is_the_rewrite_its_own_seed_gives(family: str, base: SamplerSettings) -> None:
    """Versions share the passes before the model, not their randomness: version k is what a
    single rewrite with version k's seed proposes, checks and notes included."""
    backend = BACKENDS[family]()
    settings = base.with_changes(alternatives=3)
    proposal = proposal_of(backend, rewrite(settings))
    singles = [
        proposal_of(backend, rewrite(replace(version_settings(settings, k), alternatives=1)))
        for k in (1, 2, 3)
    ]
    assert proposal.text == singles[0].text and proposal.segments == singles[0].segments
    expected = []
    for single in singles[1:]:  # merged as the engine merges: once each, never the first
        if single.text not in {TEXT, singles[0].text, *(e.text for e in expected)}:
            expected.append(single)
    assert [v.text for v in proposal.alternatives] == [e.text for e in expected]
    assert [v.notes for v in proposal.alternatives] == [e.notes for e in expected]


def test_the_cost_of_every_version_is_counted() -> None:
    """Every version's forwards (steps and passes' reads) count; the passes before the model
    (here none read it) run once."""
    backend = llama_backend()
    three = proposal_of(backend, rewrite(FAST.with_changes(alternatives=3))).metrics.forwards
    singles = [proposal_of(backend, rewrite(version_settings(FAST, k))).metrics for k in (1, 2, 3)]
    assert three == sum(metrics.forwards for metrics in singles)


def test_every_version_is_shown_as_it_settles() -> None:
    """Each version's frames start with a frame of every position (the overlay starts over),
    so the window shows each version settling in turn."""
    backend = llama_backend()
    one = [e for e in events_of(backend, rewrite(FAST)) if isinstance(e, Frame)]
    three = [
        e
        for e in events_of(backend, rewrite(FAST.with_changes(alternatives=3)))
        if isinstance(e, Frame)
    ]
    full = [f for f in three if f.step == 0 and len(f.updates) == f.length]
    assert len(full) == 3
    assert len(three) == 3 * len(one)


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
