"""A hunk's re-roll run through the real engine (run_edit) on both model families: nothing
outside the hunk ever changes, quoted note words stay, and the whole proposal follows."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.backends.base import Backend
from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, Proposal, SegmentText, Span
from engine.core.worddiff import Hunk, word_diff
from engine.run.edit_run import run_edit
from engine.run.retry import HunkRetry, retried_span, retried_text, retry_edit
from tests.helpers.backends import llama_backend
from tests.helpers.gemma import gemma_backend

WORDS = ("the", "meeting", "moved", "to", "Tuesday", "at", "noon", "we", "plan", "budget")
BEFORE, AFTER = "Intro line.\n\n", "\n\nOutro line."
FAST = SamplerSettings(steps=6, strength=1.0, temperature=1.0)
FAMILIES: dict[str, Callable[[], Backend]] = {"masked": llama_backend, "gemma": gemma_backend}


@cache
def backend(family: str) -> Backend:
    return FAMILIES[family]()


def settle(family: str, edit: Edit) -> Proposal:
    last = list(run_edit(backend(family), edit))[-1]
    assert isinstance(last, Proposal)
    return last


def retry_of(target: str, proposal: str, pick: int, note: str = "") -> HunkRetry:
    """A document around ``target``, and the retry of hunk number ``pick`` (modulo the hunk
    count) of ``proposal``."""
    text = BEFORE + target + AFTER
    span = Span(len(BEFORE), len(BEFORE) + len(target))
    hunks = word_diff(target, [SegmentText(proposal, False)]).hunks
    hunk: Hunk = hunks[pick % len(hunks)]
    old, new = Span(hunk.start, hunk.end), Span(hunk.new_start, hunk.new_end)
    return HunkRetry(text, span, proposal, old, new, "formal", note, 1 + pick)


target_words = st.lists(st.sampled_from(WORDS), min_size=3, max_size=9)


@pytest.mark.parametrize("family", sorted(FAMILIES))
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    words=target_words,
    replacement=st.sampled_from((*WORDS, "Monday", "gather")),
    at=st.integers(0, 8),
    pick=st.integers(0, 3),
    seed=st.integers(0, 2**31),
)
def test_a_reroll_never_changes_a_byte_outside_its_hunk(
    family: str, words: list[str], replacement: str, at: int, pick: int, seed: int
) -> None:
    changes = {at % len(words): replacement + "s", (at + 2) % len(words): "gather"}
    proposal = " ".join(changes.get(i, word) for i, word in enumerate(words))
    retry = retry_of(" ".join(words), proposal, pick)
    edit = retry_edit(1, retry, FAST.with_changes(seed=seed))
    proposal = settle(family, edit)
    result = edit.text[: edit.target.start] + proposal.text + edit.text[edit.target.end :]
    assert result[: edit.target.start] == edit.text[: edit.target.start]
    tail = len(edit.text) - edit.target.end
    assert result[len(result) - tail :] == edit.text[edit.target.end :]
    whole = retried_text(retry, edit, proposal.text)  # the review's proposal after the try
    span = retried_span(retry, edit)
    assert whole[: span.start] == retry.proposal[: span.start]
    assert whole[len(whole) - (len(retry.proposal) - span.end) :] == retry.proposal[span.end :]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_a_quoted_word_of_the_note_comes_back_as_it_stands(family: str) -> None:
    target, proposal = "we plan the budget at noon on Tuesday", "we review the budget by Monday"
    retry = retry_of(target, proposal, 1, note="keep 'Tuesday', less stiff")
    edit = retry_edit(1, retry, FAST.with_changes(seed=3))
    assert edit.text[edit.target.start : edit.target.end] == "at noon on Tuesday"
    assert edit.instruction == "formal; keep , less stiff"
    settled = settle(family, edit)
    assert [s.text for s in settled.segments if s.locked] == ["Tuesday"]
    assert settled.text.endswith("Tuesday")  # nothing after the lock in the hunk


def test_a_retry_costs_fewer_forwards_than_the_rewrite_it_came_from() -> None:
    """Only the hunk's positions are open: the same settings spend fewer steps on them."""
    target = "we plan the budget at noon on Tuesday with the whole team"
    retry = retry_of(target, target.replace("Tuesday", "Monday"), 0)
    settings = FAST.with_changes(steps=24, block_length=4, threshold=0.9)
    full = Edit(1, retry.text, retry.target, settings=settings)
    rewrite = settle("masked", full)
    again = settle("masked", retry_edit(1, retry, settings))
    assert again.metrics.forwards < rewrite.metrics.forwards
