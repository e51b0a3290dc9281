"""Diff review: keyboard and mouse decide hunks, and the panel emits exactly the accepted set."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QWidget
from pytestqt.qtbot import QtBot

from engine.core.protocol import SegmentText
from engine.core.worddiff import apply_hunks, word_diff
from ui.review import Decision, DiffReview

TARGET = "Call Ada Lovelace today about the loom and the cards."
SEGMENTS = [
    SegmentText("Phone ", False),
    SegmentText("Ada Lovelace", True),
    SegmentText(" tomorrow about the loom and the punched cards.", False),
]
LOCK = (5, 17)

Key = Qt.Key
Mod = Qt.KeyboardModifier


@pytest.fixture
def review(qtbot: QtBot) -> Iterator[DiffReview]:
    # A parent keeps the panel from being a top-level window (the offscreen platform warns when
    # a top-level window's size constraints change).
    host = QWidget()
    qtbot.addWidget(host)
    panel = DiffReview(host)
    panel.resize(700, 260)
    panel.set_diff(word_diff(TARGET, SEGMENTS, [LOCK]))
    yield panel  # (yield, not return: the host must outlive the test)


def test_the_diff_has_three_hunks_and_none_inside_the_lock(review: DiffReview) -> None:
    hunks = review.diff().hunks
    assert [(h.old, h.new) for h in hunks] == [
        ("Call", "Phone"),
        ("today", "tomorrow"),
        ("", "punched "),
    ]
    assert all(h.end <= LOCK[0] or h.start >= LOCK[1] for h in hunks)
    assert review.current() == 0


def test_keyboard_flow_emits_the_accepted_set(qtbot: QtBot, review: DiffReview) -> None:
    qtbot.keyClick(review, Key.Key_A)  # accept 0, move to 1
    assert review.current() == 1
    qtbot.keyClick(review, Key.Key_R)  # reject 1, move to 2
    qtbot.keyClick(review, Key.Key_Return)  # accept 2
    assert review.accepted() == {0, 2}
    assert review.rejected() == {1}
    with qtbot.waitSignal(review.applyRequested, timeout=1000) as blocker:
        qtbot.keyClick(review, Key.Key_Return, Mod.ControlModifier)
    assert blocker.args == [{0, 2}]
    diff = review.diff()
    assert apply_hunks(diff.target, diff.hunks, blocker.args[0]) == (
        "Phone Ada Lovelace today about the loom and the punched cards."
    )


@pytest.mark.parametrize(
    ("key", "modifier", "expected"),
    [
        (Key.Key_N, Mod.NoModifier, 1),
        (Key.Key_J, Mod.NoModifier, 1),
        (Key.Key_Down, Mod.NoModifier, 1),
        (Key.Key_Right, Mod.NoModifier, 1),
    ],
)
def test_next_keys(
    qtbot: QtBot, review: DiffReview, key: Key, modifier: Mod, expected: int
) -> None:
    qtbot.keyClick(review, key, modifier)
    assert review.current() == expected


@pytest.mark.parametrize("key", [Key.Key_P, Key.Key_K, Key.Key_Up, Key.Key_Left])
def test_previous_keys(qtbot: QtBot, review: DiffReview, key: Key) -> None:
    review.select_hunk(2)
    qtbot.keyClick(review, key)
    assert review.current() == 1


def test_bulk_keys_backspace_and_keypad_enter(qtbot: QtBot, review: DiffReview) -> None:
    qtbot.keyClick(review, Key.Key_A, Mod.ShiftModifier)
    assert review.accepted() == {0, 1, 2}
    qtbot.keyClick(review, Key.Key_R, Mod.ShiftModifier)
    assert review.accepted() == set() and review.rejected() == {0, 1, 2}
    review.select_hunk(1)
    qtbot.keyClick(review, Key.Key_Enter, Mod.KeypadModifier)
    assert review.accepted() == {1}
    review.select_hunk(1)
    qtbot.keyClick(review, Key.Key_Backspace)
    assert review.decision(1) is Decision.REJECTED


def test_apply_with_nothing_accepted_emits_nothing(qtbot: QtBot, review: DiffReview) -> None:
    with qtbot.assertNotEmitted(review.applyRequested):
        qtbot.keyClick(review, Key.Key_Return, Mod.ControlModifier)


def test_escape_dismisses_and_g_asks_again(qtbot: QtBot, review: DiffReview) -> None:
    assert review.button("regenerate").text() == "Ask again"  # the README's words
    with qtbot.waitSignal(review.dismissed, timeout=1000):
        qtbot.keyClick(review, Key.Key_Escape)
    with qtbot.waitSignal(review.regenerateRequested, timeout=1000):
        qtbot.keyClick(review, Key.Key_G)


def test_clicking_a_hunk_makes_it_current_and_buttons_act_on_it(
    qtbot: QtBot, review: DiffReview
) -> None:
    review.parentWidget().show()
    qtbot.waitExposed(review)
    rect = review.hunk_rects(2)[0]
    qtbot.mouseClick(review.view.viewport(), Qt.MouseButton.LeftButton, pos=rect.center())
    assert review.current() == 2
    review.button("accept").click()
    assert review.accepted() == {2}
    with qtbot.waitSignal(review.applyRequested, timeout=1000) as blocker:
        review.button("apply").click()
    assert blocker.args == [{2}]


def test_context_menu_decides_the_hunk_under_the_pointer(qtbot: QtBot, review: DiffReview) -> None:
    review.parentWidget().show()
    qtbot.waitExposed(review)
    menu = review.build_context_menu(review.hunk_rects(1)[0].center())
    assert menu is not None
    assert review.current() == 1
    next(a for a in menu.actions() if a.text() == "Reject this change").trigger()
    assert review.rejected() == {1}
    menu.deleteLater()


def test_the_view_shows_removed_inserted_and_locked_text(review: DiffReview) -> None:
    shown = review.view_text()
    for words in ("Call", "Phone", "Ada Lovelace", "today", "tomorrow", "punched cards."):
        assert words in shown


def test_an_identical_proposal_has_nothing_to_apply(qtbot: QtBot, review: DiffReview) -> None:
    review.set_diff(word_diff("same", [SegmentText("same", False)]))
    assert review.current() == -1
    with qtbot.assertNotEmitted(review.applyRequested):
        qtbot.keyClick(review, Key.Key_A)
        review.apply()


def _json_lines(count: int, value: str) -> str:
    body = ",\n".join(f'  "field_{n}": "{value}"' for n in range(count))
    return "{\n" + body + "\n}"


TALL_NEW = _json_lines(30, "filled")


def _first_line_shown(qtbot: QtBot, panel: DiffReview) -> bool:
    qtbot.wait(50)  # the view lays the text out, and scrolls, once events run
    return panel.view.verticalScrollBar().value() == 0


def test_a_tall_fill_opens_at_its_top(qtbot: QtBot) -> None:
    """A JSON fill at the cursor is one change as tall as the instance: the review opens on
    its first line, as the window shows it (filled while hidden, then shown)."""
    host = QWidget()
    qtbot.addWidget(host)
    host.resize(720, 300)
    panel = DiffReview(host)
    panel.resize(700, 260)
    panel.set_diff(word_diff(TARGET, SEGMENTS, [LOCK]))  # an earlier review, then closed
    host.show()
    qtbot.waitExposed(panel)
    panel.hide()
    panel.set_diff(word_diff("", [SegmentText(TALL_NEW, False)], []))
    panel.show()
    assert panel.view.verticalScrollBar().maximum() > 0, "the change is taller than the view"
    assert _first_line_shown(qtbot, panel)
    panel.set_diff(word_diff("", [SegmentText(TALL_NEW, False)], []))  # while shown
    assert _first_line_shown(qtbot, panel)


def test_moving_to_a_later_change_brings_its_first_line_into_view(qtbot: QtBot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    panel = DiffReview(host)
    panel.resize(700, 200)
    host.show()
    old = "\n".join(f"line {n} stays" for n in range(40))
    new = old.replace("line 35 stays", "line 35 moved")
    panel.set_diff(word_diff(old, [SegmentText(new, False)], []))
    qtbot.waitExposed(panel)
    qtbot.wait(50)
    (rect,) = panel.hunk_rects(panel.current())
    assert panel.view.viewport().rect().contains(rect)
