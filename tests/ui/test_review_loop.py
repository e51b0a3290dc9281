"""The review's side of the loop (issue 29) on the panel alone: the keys T, E, [ and ], the
note field, "trying again…", and the promise that a try or a version choice moves no other
change (a hypothesis property on :class:`ui.review_state.ReviewState`)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from engine.core.protocol import SegmentText
from ui.review import DiffReview
from ui.review_state import Decision, ReviewState
from ui.versions import align_versions

TARGET = "Call Ada today about the loom and the cards."
VERSIONS = [
    (SegmentText("Phone Ada tomorrow about the loom and the punched cards.", False),),
    (SegmentText("Ring Ada tomorrow about the loom and the old cards.", False),),
    (SegmentText("Phone Ada tomorrow about the loom and the punched cards.", False),),
]
NOTE_LIMIT = 40

Key = Qt.Key


@pytest.fixture
def review(qtbot: QtBot) -> Iterator[DiffReview]:
    host = QWidget()
    qtbot.addWidget(host)
    panel = DiffReview(host)
    panel.resize(760, 300)
    panel.set_note_limit(NOTE_LIMIT)
    panel.set_versions(align_versions(TARGET, VERSIONS))
    host.show()
    yield panel


def shown(review: DiffReview) -> list[tuple[str, str]]:
    return [(h.old, h.new) for h in review.diff().hunks]


def test_versions_that_agree_are_one_option_and_brackets_cycle_the_others(
    qtbot: QtBot, review: DiffReview
) -> None:
    assert shown(review) == [("Call", "Phone"), ("today", "tomorrow"), ("", "punched ")]
    picker = review.tools.picker
    assert [picker.itemText(i) for i in range(picker.count())] == [
        "versions 1 and 3: Phone",
        "version 2: Ring",
    ]
    qtbot.keyClick(review, Key.Key_BracketRight)
    assert shown(review)[0] == ("Call", "Ring") and picker.currentIndex() == 1
    qtbot.keyClick(review, Key.Key_BracketRight)  # wraps around
    assert shown(review)[0] == ("Call", "Phone")
    qtbot.keyClick(review, Key.Key_BracketLeft)
    assert shown(review)[0] == ("Call", "Ring")
    review.select_hunk(1)
    assert not picker.isVisibleTo(review)  # every version says "tomorrow"


def test_picking_in_the_menu_changes_that_change_only(qtbot: QtBot, review: DiffReview) -> None:
    review.select_hunk(2)
    qtbot.keyClick(review, Key.Key_A)
    review.select_hunk(2)
    review.tools.picker.activated.emit(1)  # what choosing "version 2: old" in the menu sends
    assert shown(review) == [("Call", "Phone"), ("today", "tomorrow"), ("", "old ")]
    assert review.decision(2) is Decision.ACCEPTED  # an accepted change keeps its decision


def test_t_asks_for_the_current_change_with_its_note(qtbot: QtBot, review: DiffReview) -> None:
    review.select_hunk(1)
    qtbot.keyClick(review, Key.Key_E)
    field = review.tools.note_field
    assert field.isVisible() and field.maxLength() == NOTE_LIMIT
    assert not review.tools.button("retry").isVisible()  # the field takes the buttons' place
    qtbot.keyClicks(field, "  keep   'today'  ")
    qtbot.keyClick(field, Key.Key_Return)
    assert review.decision(1) is Decision.REJECTED and review.current() == 1
    assert "✎ keep 'today'" in review.view_text()
    with qtbot.waitSignal(review.retryRequested, timeout=1000) as asked:
        qtbot.keyClick(review, Key.Key_T)
    assert asked.args == [1, "keep 'today'"]
    assert review.trying() == 1 and "trying again…" in review.view_text()
    assert not review.tools.button("retry").isEnabled()
    assert not review.button("apply").isEnabled()


def test_esc_in_the_note_field_keeps_nothing_and_leaves_the_review_open(
    qtbot: QtBot, review: DiffReview
) -> None:
    qtbot.keyClick(review, Key.Key_E)
    qtbot.keyClicks(review.tools.note_field, "shorter")
    with qtbot.assertNotEmitted(review.dismissed):
        qtbot.keyClick(review.tools.note_field, Key.Key_Escape)
    assert not review.tools.note_field.isVisible()
    assert review.note(0) == "" and review.decision(0) is Decision.PENDING


def test_while_a_try_runs_its_change_waits_and_esc_stops_only_the_try(
    qtbot: QtBot, review: DiffReview
) -> None:
    qtbot.keyClick(review, Key.Key_T)
    before = shown(review)
    qtbot.keyClick(review, Key.Key_A)  # the change being tried cannot be decided
    assert review.decision(0) is Decision.PENDING
    review.accept_all()
    assert [review.decision(i) for i in range(3)] == [
        Decision.PENDING,
        Decision.ACCEPTED,
        Decision.ACCEPTED,
    ]
    with (
        qtbot.waitSignal(review.retryCancelled, timeout=1000),
        qtbot.assertNotEmitted(review.dismissed),
    ):
        qtbot.keyClick(review, Key.Key_Escape)
    assert review.trying() is None and shown(review) == before
    assert "trying again" not in review.view_text()


def test_a_try_comes_back_in_place_undecided(qtbot: QtBot, review: DiffReview) -> None:
    qtbot.keyClick(review, Key.Key_R)  # reject "Phone"
    review.select_hunk(0)
    review.retry_current()
    assert review.add_try(0, "Ask")
    assert shown(review) == [("Call", "Ask"), ("today", "tomorrow"), ("", "punched ")]
    assert review.decision(0) is Decision.PENDING
    assert review.tools.picker.itemText(2) == "try 1: Ask"
    review.retry_current()
    assert not review.add_try(0, "Ring")  # already offered: shown, not added twice
    assert shown(review)[0] == ("Call", "Ring") and review.tools.picker.count() == 3


OPERATIONS = st.lists(
    st.tuples(st.sampled_from(["accept", "reject", "choose", "select"]), st.integers(0, 5)),
    max_size=12,
)


@given(OPERATIONS, st.integers(0, 2), st.text(min_size=1, max_size=8), st.integers(0, 1))
def test_a_try_or_a_choice_moves_no_other_change(
    moves: list[tuple[str, int]], index: int, tried: str, option: int
) -> None:
    state = ReviewState(align_versions(TARGET, VERSIONS))
    for move, value in moves:
        if move == "select":
            state.select(value % 3)
        elif move == "choose":
            state.choose(state.current, value % 2)
        else:
            state.decide(Decision.ACCEPTED if move == "accept" else Decision.REJECTED)
    others = [i for i in range(3) if i != index]

    def snapshot() -> list[object]:
        hunks = state.diff().hunks
        return [(hunks[i].old, hunks[i].new, state.decisions[i], state.choices[i]) for i in others]

    before = snapshot()
    state.select(index)
    assert state.start_try() == index
    state.add_try(index, tried)
    assert snapshot() == before
    state.choose(index, option % len(state.versions.slots[index].options))
    assert snapshot() == before
    assert state.diff().hunks[index].old == state.versions.slots[index].old


def test_a_change_only_another_version_makes_is_named(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    panel = DiffReview(host)
    first = (SegmentText("Call Ada today about the loom.", False),)
    second = (SegmentText("Call Ada today about the frame.", False),)
    panel.set_versions(align_versions("Call Ada today about the loom.", [first, second]))
    host.show()
    assert shown(panel) == [("loom", "frame")]  # version 1 keeps "loom": rejecting keeps it
    picker = panel.tools.picker
    assert picker.isVisibleTo(panel) and picker.itemText(0) == "version 2: frame"
