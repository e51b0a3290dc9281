"""A rewrite's later versions settled as one batch (engine.run.together, engine.run.versions):
the versions and frames one after another gives, the same guarantees, cancel, the fallback."""

from __future__ import annotations

import re
from dataclasses import replace
from itertools import groupby

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.config import SamplerSettings
from engine.core.plan import plan_edit
from engine.core.protocol import Cancelled, Edit, EditMode, Frame, Proposal, Span
from engine.core.worddiff import word_diff
from engine.run.edit_run import run_edit
from engine.run.near_misses import near_misses, next_misses, varies_content
from engine.run.pipeline import RunContext, shape_plan
from engine.run.together import batches, settle_together
from engine.run.versions import (
    EXTRA_TRIES,
    Tries,
    batching,
    denoise_versions,
    open_spans,
    settle_version,
    settled_again,
    version_plan,
    version_settings,
)
from tests.helpers.backends import counting_forwards, llama_backend
from tests.helpers.gemma import gemma_backend
from tests.helpers.settled import drain, settled_as_seeded

TEXT = "The quick brown fox jumps over the lazy dog near the old river bank."
LOCK = Span(TEXT.index("fox"), TEXT.index("fox") + 3)
# No passes after the model: nothing that reads an earlier version's text, so batched and
# one after another plan the same versions.
FAST = SamplerSettings(
    steps=8, strength=1.0, temperature=1.0, seed=4, passes=(), alternatives=3, batch_versions=True
)
CHECKED = FAST.with_changes(passes=SamplerSettings().passes)
KEEPING = CHECKED.with_changes(strength=0.5, temperature=0.0)


def rewrite(settings: SamplerSettings, locks: tuple[Span, ...] = (LOCK,)) -> Edit:
    return Edit(1, TEXT, Span(0, len(TEXT)), locks, "", EditMode.REWRITE, settings)


def run(edit: Edit) -> tuple[Proposal, list[Frame]]:
    events = list(run_edit(llama_backend(), edit))
    proposal = events[-1]
    assert isinstance(proposal, Proposal)
    return proposal, [e for e in events if isinstance(e, Frame)]


def shown(frames: list[Frame]) -> list[object]:
    """What the frames show, without when, and each confidence to six digits: a batch's matrix
    kernels round the last float32 bits otherwise than one canvas's do on some CPUs (AVX2)."""
    rounded = [[replace(v, confidence=round(v.confidence, 6)) for v in f.updates] for f in frames]
    return [(f.step, f.length, views, f.stage) for f, views in zip(frames, rounded, strict=True)]


def test_batching_is_asked_for_and_needs_two_later_versions_and_a_backend_that_batches() -> None:
    plan = plan_edit(rewrite(FAST))
    assert not SamplerSettings().batch_versions  # one after another was faster on the CPU
    assert batching(llama_backend(), plan, FAST)
    assert not batching(llama_backend(), plan, FAST.with_changes(batch_versions=False))
    assert not batching(llama_backend(), plan, FAST.with_changes(alternatives=2))  # one later
    assert not batching(gemma_backend(), plan, FAST) and not batches(gemma_backend())


@pytest.mark.parametrize("seed", range(4))
def test_batched_versions_and_frames_are_those_one_after_another_gives(seed: int) -> None:
    """Without a pass that reads an earlier version, the batch plans the versions one after
    another plans; on the tiny model it settles them alike, and each version's frames go out
    whole and in turn (never interleaved with another's), exactly as they did."""
    batched = rewrite(FAST.with_changes(seed=seed))
    alone = replace(batched, settings=batched.settings.with_changes(batch_versions=False))
    (together, frames), (apart, apart_frames) = run(batched), run(alone)
    assert (together.text, together.segments) == (apart.text, apart.segments)
    assert together.alternatives == apart.alternatives
    assert together.notes == apart.notes
    assert shown(frames) == shown(apart_frames)
    assert together.metrics.forwards == apart.metrics.forwards  # a read per canvas per step


def may_change(edit: Edit) -> str:
    """The pattern every later version matches: the first version's openings and near misses
    anything, every other character of the target as it was."""
    backend = llama_backend()
    plan = plan_edit(edit)
    first = drain(
        denoise_versions(
            backend, plan, edit.settings.with_changes(alternatives=1), TEXT, RunContext(1)
        )
    )[0]
    locks = [(LOCK.start, LOCK.end)]
    misses = near_misses(TEXT, first, backend.table, locks, varies_content(edit.settings))
    opened = open_spans(TEXT, word_diff(TEXT, first.segments, locks).hunks, locks)
    spans = [*opened, *((m.start, m.end) for m in misses)]
    return "".join(
        "(.*?)" if free else re.escape("".join(TEXT[i] for i, _ in chunk))
        for free, chunk in groupby(
            enumerate(TEXT), lambda item: any(a <= item[0] < b for a, b in spans)
        )
    )


@pytest.mark.parametrize("base", [FAST, CHECKED, KEEPING], ids=["fast", "checked", "keeping"])
@given(seed=st.integers(0, 50))
@settings(max_examples=4, deadline=None)
def test_batched_and_one_after_another_give_the_same_guarantees(
    base: SamplerSettings, seed: int
) -> None:
    """Either way, every later version keeps the user's lock and changes nothing but the
    first version's openings and near misses (``check_proposal``: nothing outside the
    target), and no version is offered twice."""
    for batch in (True, False):
        edit = rewrite(base.with_changes(seed=seed, batch_versions=batch))
        versions = drain(
            denoise_versions(llama_backend(), plan_edit(edit), edit.settings, TEXT, RunContext(1))
        )
        shape = may_change(edit)
        for version in versions[1:]:
            assert re.fullmatch(shape, version.text, re.DOTALL), version.text
            assert [s.text for s in version.segments if s.locked] == ["fox"]
        proposal, _ = run(edit)
        texts = [proposal.text, *(v.text for v in proposal.alternatives)]
        assert len(set(texts)) == len(texts) and TEXT not in texts[1:]


def test_a_cancel_before_the_batch_runs_no_forward() -> None:
    """Cancel is checked before the batch's first forward, as before every step."""
    backend = llama_backend()
    edit = rewrite(FAST)
    plan = plan_edit(edit)
    first = settled_as_seeded(plan, lambda _: 0.5, settings=FAST)
    misses = near_misses(TEXT, first, backend.table, [(LOCK.start, LOCK.end)], content=True)
    plans = []
    for _ in range(2):
        varied, misses = next_misses(misses, [])
        again = version_plan(plan, [first], varied)
        assert again is not None
        plans.append(again)
    own = [version_settings(FAST, n) for n in (2, 3)]
    shaped = [
        drain(shape_plan(backend, p, o, RunContext(1))) for p, o in zip(plans, own, strict=True)
    ]
    stopped = RunContext(1, cancelled=lambda: True)
    with counting_forwards(backend.model) as counted:
        assert drain(settle_together(backend, shaped, own, TEXT, stopped)) is None
    assert counted.count == 0


def test_a_cancel_during_the_batch_cancels_the_request() -> None:
    seen: list[object] = []

    def cancelled() -> bool:  # after the first version's frames, and a few of the batch's
        return sum(1 for e in seen if isinstance(e, Frame)) > 12

    for event in run_edit(llama_backend(), rewrite(FAST), cancelled):
        seen.append(event)
    assert isinstance(seen[-1], Cancelled)
    assert not any(isinstance(e, Proposal) for e in seen)


def test_a_backend_that_does_not_batch_settles_the_plans_one_after_another() -> None:
    backend = gemma_backend()
    edit = rewrite(FAST)
    plan = plan_edit(edit)
    first = drain(
        denoise_versions(backend, plan, FAST.with_changes(alternatives=1), TEXT, RunContext(1))
    )[0]
    again = version_plan(plan, [first], [])
    if again is None:
        pytest.skip("the tiny DiffusionGemma changed nothing here")
    own = [version_settings(FAST, 2)]
    shaped = [drain(shape_plan(backend, again, own[0], RunContext(1)))]
    (together,) = drain(settle_together(backend, shaped, own, TEXT, RunContext(1)))
    (alone,) = [
        drain(settle_version(backend, plan, FAST, TEXT, RunContext(1), [first], Tries([], [], 0)))
    ]
    assert (together.text, together.segments) == (alone.text, alone.segments)


def test_a_batched_version_that_came_back_as_another_is_settled_again_at_no_extra_try() -> None:
    """Its plan could not avoid the other batched version's text, so it is settled again one
    after another, avoiding it (as one after another would have planned it), and the batched
    try's forwards count in its own."""
    backend = llama_backend()
    settings = FAST.with_changes(strength=0.5)
    plan = plan_edit(rewrite(settings))
    first = settled_as_seeded(plan, lambda _: 0.5, settings=settings)
    misses = near_misses(TEXT, first, backend.table, [(LOCK.start, LOCK.end)], content=True)
    tries = Tries(misses, [])
    second = drain(settle_version(backend, plan, settings, TEXT, RunContext(1), [first], tries))
    assert second is not None
    left = len(tries.misses)
    args = (backend, plan, settings, TEXT, RunContext(1), [first, second], tries, second)
    again = drain(settled_again(*args))
    assert again is not second and again.retried >= second.forwards
    assert tries.extra <= EXTRA_TRIES and len(tries.misses) <= left
    # One that came back as nothing earlier is offered as it came.
    fresh = replace(second, text=second.text + " ")
    assert (
        drain(settled_again(backend, plan, settings, TEXT, RunContext(1), [first], tries, fresh))
        is fresh
    )
