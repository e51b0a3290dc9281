"""Word diff: tokens rejoin exactly, hunks never touch locks, accepted hunks give the proposal."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.protocol import SegmentText
from engine.core.worddiff import apply_hunks, edits_for, split_words, tokenize, word_diff

_ALPHABET = st.sampled_from(list("ab cd,.'\n\t–é"))
_TEXT = st.text(_ALPHABET, max_size=40)


@st.composite
def _target_with_proposal(draw: st.DrawFn) -> tuple[str, list[tuple[int, int]], list[SegmentText]]:
    """A target cut into free and locked pieces, and a proposal that keeps the locked ones."""
    free = draw(st.lists(_TEXT, min_size=1, max_size=5))
    locked = [draw(st.text(_ALPHABET, min_size=1, max_size=10)) for _ in free[1:]]
    target, spans, segments = "", [], []
    for i, piece in enumerate(free):
        target += piece
        segments.append(SegmentText(draw(_TEXT), locked=False))
        if i < len(locked):
            spans.append((len(target), len(target) + len(locked[i])))
            target += locked[i]
            segments.append(SegmentText(locked[i], locked=True))
    return target, spans, segments


@given(_TEXT)
def test_tokens_join_back_to_the_text(text: str) -> None:
    assert "".join(tokenize(text)) == text


def test_tokens_are_words_spaces_and_punctuation() -> None:
    assert tokenize("Don't  stop, now.") == ["Don't", "  ", "stop", ",", " ", "now", "."]


@given(_TEXT)
def test_spaced_words_and_their_trail_join_back_to_the_text(text: str) -> None:
    words, trail = split_words(text)
    assert "".join(words) + trail == text
    assert not trail.strip()


def test_spaced_words_keep_their_punctuation_and_leading_space() -> None:
    assert split_words("  Late, again. \n") == (["  Late,", " again."], " \n")


@given(_target_with_proposal(), st.data())
def test_any_subset_of_hunks_keeps_locks_and_the_extremes_are_exact(
    case: tuple[str, list[tuple[int, int]], list[SegmentText]], data: st.DataObject
) -> None:
    target, spans, segments = case
    diff = word_diff(target, segments, spans)
    indices = [h.index for h in diff.hunks]
    assert apply_hunks(target, diff.hunks, indices) == diff.proposal
    assert apply_hunks(target, diff.hunks, set()) == target
    for hunk in diff.hunks:
        assert target[hunk.start : hunk.end] == hunk.old
        assert diff.proposal[hunk.new_start : hunk.new_end] == hunk.new
        assert hunk.old != hunk.new
        for start, end in spans:
            assert hunk.end <= start or hunk.start >= end, "a hunk reaches into a lock"
    chosen = data.draw(st.sets(st.sampled_from(indices)) if indices else st.just(set()))
    result = apply_hunks(target, diff.hunks, chosen)
    at = 0
    for start, end in spans:
        found = result.find(target[start:end], at)
        assert found >= 0, "a locked text went missing"
        at = found + end - start


@given(_target_with_proposal())
def test_editor_edits_in_reverse_rebuild_the_proposal(
    case: tuple[str, list[tuple[int, int]], list[SegmentText]],
) -> None:
    target, spans, segments = case
    diff = word_diff(target, segments, spans)
    document = "PRE" + target + "POST"
    for start, end, text in reversed(edits_for(diff.hunks, [h.index for h in diff.hunks], 3)):
        document = document[:start] + text + document[end:]
    assert document == "PRE" + diff.proposal + "POST"


def test_neighbouring_word_changes_merge_into_one_hunk() -> None:
    diff = word_diff("the quick brown fox", [SegmentText("a slow brown dog", False)])
    assert [(h.old, h.new) for h in diff.hunks] == [("the quick", "a slow"), ("fox", "dog")]


def test_locked_words_are_never_part_of_a_hunk() -> None:
    target = "Call Ada Lovelace today"
    segments = [
        SegmentText("Phone ", False),
        SegmentText("Ada Lovelace", True),
        SegmentText(" tomorrow", False),
    ]
    diff = word_diff(target, segments, [(5, 17)])
    assert [(h.old, h.new) for h in diff.hunks] == [("Call", "Phone"), ("today", "tomorrow")]
    assert diff.locks == ((5, 17),)


def test_adjacent_locked_segments_and_missing_free_segments_line_up() -> None:
    target = "AB tail"
    segments = [SegmentText("A", True), SegmentText("B", True), SegmentText(" end", False)]
    diff = word_diff(target, segments, [(0, 1), (1, 2)])
    assert [(h.old, h.new) for h in diff.hunks] == [("tail", "end")]


def test_a_draft_is_one_insertion() -> None:
    diff = word_diff("", [SegmentText("New words.", False)])
    assert [(h.start, h.end, h.new) for h in diff.hunks] == [(0, 0, "New words.")]


def test_a_proposal_that_changed_a_locked_text_is_rejected() -> None:
    with pytest.raises(ValueError, match="locked segments"):
        word_diff("keep THIS", [SegmentText("keep ", False), SegmentText("that", True)], [(5, 9)])


def test_overlapping_locks_are_rejected() -> None:
    with pytest.raises(ValueError, match="overlaps"):
        word_diff("abcdef", [SegmentText("abcdef", False)], [(0, 3), (2, 4)])
