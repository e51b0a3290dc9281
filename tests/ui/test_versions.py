"""Several versions aligned on the target's words (ui.versions): every version is recovered
from its choices, any combination changes nothing outside the slots, identical texts are one
option, and a try joins its slot's options without ever being offered twice."""

from __future__ import annotations

from dataclasses import dataclass

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.protocol import SegmentText
from engine.core.worddiff import apply_hunks, word_diff
from ui.versions import (
    Option,
    align_versions,
    chosen_diff,
    combine,
    from_diff,
    version_choices,
    with_try,
)

WORDS = st.sampled_from(["the", "loom", "cards", "Ada", "wrote", "notes", "on", "a", ","])


@dataclass(frozen=True)
class Case:
    target: str
    locks: tuple[tuple[int, int], ...]
    versions: tuple[tuple[SegmentText, ...], ...]


def _segments(words: list[tuple[str, bool]]) -> tuple[SegmentText, ...]:
    """Words joined by single spaces, locked words as their own locked segments."""
    chunks: list[SegmentText] = []
    for position, (word, locked) in enumerate(words):
        pieces = ([SegmentText(" ", False)] if position else []) + [SegmentText(word, locked)]
        for piece in pieces:
            if chunks and not piece.locked and not chunks[-1].locked:
                chunks[-1] = SegmentText(chunks[-1].text + piece.text, False)
            else:
                chunks.append(piece)
    return tuple(chunks)


@st.composite
def edited(draw: st.DrawFn, words: list[tuple[str, bool]]) -> tuple[SegmentText, ...]:
    """A version: each free word kept, replaced, dropped or followed by a new word."""
    out: list[tuple[str, bool]] = []
    for word, locked in words:
        move = "keep" if locked else draw(st.sampled_from(["keep", "swap", "drop", "add"]))
        if move == "swap":
            out.append((draw(WORDS), False))
        elif move != "drop":
            out.append((word, locked))
        if move == "add":
            out.append((draw(WORDS), False))
    return _segments(out)


@st.composite
def cases(draw: st.DrawFn, most: int = 4) -> Case:
    words = draw(st.lists(st.tuples(WORDS, st.booleans()), min_size=1, max_size=10))
    target = " ".join(word for word, _ in words)
    locks, at = [], 0
    for word, locked in words:
        if locked:
            locks.append((at, at + len(word)))
        at += len(word) + 1
    versions = draw(st.lists(edited(words), min_size=1, max_size=most))
    return Case(target, tuple(locks), tuple(versions))


def text_of(segments: tuple[SegmentText, ...]) -> str:
    return "".join(segment.text for segment in segments)


@given(cases())
def test_each_version_is_its_own_choices(case: Case) -> None:
    versions = align_versions(case.target, case.versions, case.locks)
    for number, segments in enumerate(case.versions, start=1):
        assert combine(versions, version_choices(versions, number)) == text_of(segments)


@given(cases(), st.data())
def test_any_combination_changes_nothing_outside_the_slots(case: Case, data: st.DataObject) -> None:
    versions = align_versions(case.target, case.versions, case.locks)
    choices = [
        data.draw(st.sampled_from([None, *range(len(slot.options))])) for slot in versions.slots
    ]
    combined = combine(versions, choices)
    # Every character outside the slots is the target's, moved only by the slots before it.
    shift, at = 0, 0
    for slot, choice in zip(versions.slots, choices, strict=True):
        gap = case.target[at : slot.start]
        assert combined[at + shift : slot.start + shift] == gap
        chosen = slot.old if choice is None else slot.options[choice].text
        shift += len(chosen) - len(slot.old)
        at = slot.end
    assert combined[at + shift :] == case.target[at:]
    for start, end in case.locks:
        assert case.target[start:end] in combined


@given(cases())
def test_options_are_distinct_changes_that_some_version_makes(case: Case) -> None:
    versions = align_versions(case.target, case.versions, case.locks)
    texts = [text_of(segments) for segments in case.versions]
    for slot in versions.slots:
        shown = [option.text for option in slot.options]
        assert len(shown) == len(set(shown)) and slot.old not in shown
        for option in slot.options:
            for number in option.versions:
                choices = version_choices(versions, number)
                assert choices[versions.slots.index(slot)] is not None
                assert combine(versions, choices) == texts[number - 1]
        assert all(slot.start >= end or slot.end <= start for start, end in case.locks)


@given(cases(most=1))
def test_one_version_gives_exactly_its_hunks(case: Case) -> None:
    versions = align_versions(case.target, case.versions, case.locks)
    diff = word_diff(case.target, case.versions[0], case.locks)
    assert [(s.start, s.end, s.options[0].text) for s in versions.slots] == [
        (h.start, h.end, h.new) for h in diff.hunks
    ]
    assert from_diff(diff).slots == versions.slots


@given(cases(), st.data())
def test_the_chosen_diff_applies_to_the_combined_text(case: Case, data: st.DataObject) -> None:
    versions = align_versions(case.target, case.versions, case.locks)
    choices = [data.draw(st.sampled_from(range(len(s.options)))) for s in versions.slots]
    diff = chosen_diff(versions, choices)
    every = [hunk.index for hunk in diff.hunks]
    assert diff.proposal == combine(versions, choices)
    assert apply_hunks(case.target, diff.hunks, every) == diff.proposal
    assert apply_hunks(case.target, diff.hunks, []) == case.target
    for hunk in diff.hunks:
        assert diff.proposal[hunk.new_start : hunk.new_end] == hunk.new


def test_identical_versions_are_one_option_naming_both() -> None:
    target = "Call Ada today about the loom."
    first = (SegmentText("Phone Ada today about the loom.", False),)
    second = (SegmentText("Phone Ada tomorrow about the loom.", False),)
    versions = align_versions(target, [first, first, second])
    assert [slot.old for slot in versions.slots] == ["Call", "today"]
    call, today = versions.slots
    assert call.options == (Option("Phone", (1, 2, 3)),)
    assert today.options == (Option("tomorrow", (3,)),)
    assert call.options[0].label() == "versions 1, 2 and 3"
    assert today.option_of(1) is None  # versions 1 and 2 keep "today"


def test_a_try_is_added_once_and_the_users_words_add_nothing() -> None:
    versions = align_versions("Call Ada today.", [(SegmentText("Phone Ada today.", False),)])
    tried, position = with_try(versions, 0, "Ring")
    assert position == 1 and tried.slots[0].options[1] == Option("Ring", attempt=1)
    assert tried.slots[0].options[1].label() == "try 1"
    again, same = with_try(tried, 0, "Ring")
    assert same == 1 and again == tried
    assert with_try(tried, 0, "Phone") == (tried, 0)
    assert with_try(tried, 0, "Call") == (tried, None)


def test_no_version_is_refused() -> None:
    with pytest.raises(ValueError, match="at least one version"):
        align_versions("text", [])
