"""The status bar's message: a long one is cut after a whole word with "…", never inside one,
and stays readable in full (tooltip, click); counts are worded in the right number."""

from __future__ import annotations

import string

from hypothesis import example, given
from hypothesis import strategies as st
from PySide6.QtCore import Qt
from PySide6.QtGui import QFontMetrics
from PySide6.QtWidgets import QApplication, QStatusBar, QToolTip
from pytestqt.qtbot import QtBot

from engine.core.protocol import Metrics
from ui.status_message import ELLIPSIS, StatusMessage, fit_words
from ui.wording import counted, metrics_summary

LONG = "No change: the model read each change it tried as less fluent than your text."
PUNCTUATION_CUT = ",;:—–-"

words = st.text(alphabet=string.ascii_letters + ".,;:!?'é—", min_size=1, max_size=12)
texts = st.lists(words, min_size=1, max_size=20).map(" ".join)


@example(text="? : : :", room=22)  # a word of punctuation alone: never "? …"
@given(text=texts, room=st.integers(min_value=0, max_value=600))
def test_a_cut_message_ends_after_a_whole_word(qapp: QApplication, text: str, room: int) -> None:
    metrics = QFontMetrics(qapp.font())
    shown = fit_words(text, metrics, room)
    if metrics.horizontalAdvance(text) <= room:
        assert shown == text
        return
    first_word = text.split()[0].rstrip(PUNCTUATION_CUT)
    if not first_word or metrics.horizontalAdvance(first_word + ELLIPSIS) > room:
        return  # no word fits (or the first is punctuation): Qt's own cut is the last resort
    kept = shown.removesuffix(ELLIPSIS)
    assert shown.endswith(ELLIPSIS) and metrics.horizontalAdvance(shown) <= room
    assert text.startswith(kept) and kept and not kept[-1].isspace()
    following = text[len(kept)]
    assert following.isspace() or following in PUNCTUATION_CUT  # never inside a word


def test_the_label_cuts_at_a_word_and_shows_the_whole_message_on_click(qtbot: QtBot) -> None:
    bar = QStatusBar()  # as in the window: a click the label passed on would hide the tooltip
    qtbot.addWidget(bar)
    label = StatusMessage()
    bar.addWidget(label, 1)
    bar.resize(label.fontMetrics().horizontalAdvance(LONG) * 2 // 3, 24)
    bar.show()
    bar.activateWindow()  # the user's window is active when they click its status bar
    qtbot.waitUntil(lambda: QApplication.activeWindow() is bar)
    label.show_message(LONG)
    assert label.is_cut() and label.text().endswith(ELLIPSIS)
    assert LONG.startswith(label.text().removesuffix(ELLIPSIS) + " ")
    assert label.toolTip() == LONG and label.full_text() == LONG
    qtbot.mouseClick(label, Qt.MouseButton.LeftButton)
    qtbot.wait(50)
    assert QToolTip.isVisible() and QToolTip.text() == LONG
    bar.resize(label.fontMetrics().horizontalAdvance(LONG) + 60, 24)
    qtbot.waitUntil(lambda: label.text() == LONG)
    assert not label.is_cut()


def test_counts_are_worded_in_the_right_number() -> None:
    assert counted(1, "change") == "1 change"
    assert counted(0, "change") == "0 changes"
    assert counted(8, "change") == "8 changes"
    assert counted(1, "entry", "entries") == "1 entry"
    assert counted(2, "entry", "entries") == "2 entries"
    one_step = Metrics(0.05, 0.2, 1, 1, 4, 4.0, 0.0, 20.0)
    assert metrics_summary(one_step).startswith("1 step, ")
    assert metrics_summary(Metrics(0.05, 1.2, 20, 20, 64, 3.2, 0.1, 53.3)).startswith("20 steps")
