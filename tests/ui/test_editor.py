"""The editor: typing, locks that move with edits, and every way of editing a lock refused."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt
from PySide6.QtGui import QDropEvent, QInputMethodEvent, QTextCursor
from PySide6.QtWidgets import QApplication
from pytestqt.qtbot import QtBot

from ui.editor import DocumentEditor
from ui.locks import PositionMap

TEXT = "Call Ada Lovelace today about the loom."
LOCKED = "Ada Lovelace"
LOCK = (TEXT.index(LOCKED), TEXT.index(LOCKED) + len(LOCKED))


@pytest.fixture
def editor(qtbot: QtBot) -> DocumentEditor:
    widget = DocumentEditor()
    qtbot.addWidget(widget)
    widget.resize(500, 300)
    widget.load_text(TEXT, [LOCK])
    return widget


def _select(editor: DocumentEditor, start: int, end: int | None = None) -> None:
    cursor = editor.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(start if end is None else end, QTextCursor.MoveMode.KeepAnchor)
    editor.setTextCursor(cursor)


def _refused(qtbot: QtBot, editor: DocumentEditor, action) -> None:  # type: ignore[no-untyped-def]
    """Run ``action``; it must emit editRefused and leave text and locks as they were."""
    before, locks = editor.toPlainText(), editor.lock_spans()
    with qtbot.waitSignal(editor.editRefused, timeout=1000) as blocker:
        action()
    assert "locked" in blocker.args[0]
    assert editor.toPlainText() == before
    assert editor.lock_spans() == locks


def test_typing_goes_into_the_document(qtbot: QtBot) -> None:
    editor = DocumentEditor()
    qtbot.addWidget(editor)
    qtbot.keyClicks(editor, "Hello, world")
    assert editor.toPlainText() == "Hello, world"


def test_toggle_lock_on_the_selection_locks_then_unlocks(editor: DocumentEditor) -> None:
    _select(editor, 0, 4)
    editor.toggle_lock()
    assert editor.lock_spans() == [(0, 4), LOCK]
    editor.toggle_lock()
    assert editor.lock_spans() == [LOCK]


def test_toggle_with_only_a_cursor_unlocks_the_lock_under_it(
    qtbot: QtBot, editor: DocumentEditor
) -> None:
    _select(editor, LOCK[0] + 2)
    editor.toggle_lock()
    assert editor.lock_spans() == []
    with qtbot.waitSignal(editor.editRefused):
        editor.toggle_lock()  # nothing selected, no lock here: a hint, not a lock


def test_locks_merge_when_adjacent_or_overlapping_and_round_trip(editor: DocumentEditor) -> None:
    editor.locks.add(LOCK[1], LOCK[1] + 3)  # touches the end
    editor.locks.add(0, 2)
    editor.locks.add(1, 6)  # overlaps (0, 2) and touches the big one
    assert editor.lock_spans() == [(0, LOCK[1] + 3)]
    editor.locks.remove(2, 4)
    assert editor.lock_spans() == [(0, 2), (4, LOCK[1] + 3)]
    spans = editor.lock_spans()
    editor.load_text(TEXT)
    assert editor.lock_spans() == []
    editor.set_lock_spans(spans)
    assert editor.lock_spans() == spans


def test_locks_move_when_text_is_inserted_before_them(qtbot: QtBot, editor: DocumentEditor) -> None:
    _select(editor, 0)
    qtbot.keyClicks(editor, "Please ")
    assert editor.lock_spans() == [(LOCK[0] + 7, LOCK[1] + 7)]
    start, end = editor.lock_spans()[0]
    assert editor.toPlainText()[start:end] == LOCKED


def test_typing_at_both_edges_of_a_lock_is_allowed_and_stays_outside(
    qtbot: QtBot, editor: DocumentEditor
) -> None:
    _select(editor, LOCK[1])
    qtbot.keyClicks(editor, "!")
    _select(editor, LOCK[0])
    qtbot.keyClicks(editor, "Dr ")
    start, end = editor.lock_spans()[0]
    assert editor.toPlainText()[start:end] == LOCKED
    assert editor.toPlainText().startswith("Call Dr Ada Lovelace! today")


def test_typing_inside_a_lock_is_refused(qtbot: QtBot, editor: DocumentEditor) -> None:
    _select(editor, LOCK[0] + 3)
    _refused(qtbot, editor, lambda: qtbot.keyClicks(editor, "x"))
    _refused(qtbot, editor, lambda: qtbot.keyClick(editor, Qt.Key.Key_Return))


def test_typing_over_a_selection_that_reaches_into_a_lock_is_refused(
    qtbot: QtBot, editor: DocumentEditor
) -> None:
    _select(editor, 0, LOCK[0] + 1)
    _refused(qtbot, editor, lambda: qtbot.keyClicks(editor, "x"))


@pytest.mark.parametrize(
    ("position", "key", "allowed"),
    [
        (LOCK[1], Qt.Key.Key_Backspace, False),  # would eat the lock's last character
        (LOCK[0], Qt.Key.Key_Backspace, True),  # eats the space before it
        (LOCK[0], Qt.Key.Key_Delete, False),  # would eat its first character
        (LOCK[1], Qt.Key.Key_Delete, True),  # eats the space after it
    ],
)
def test_backspace_and_delete_at_a_lock_boundary(
    qtbot: QtBot, editor: DocumentEditor, position: int, key: Qt.Key, allowed: bool
) -> None:
    _select(editor, position)
    if allowed:
        qtbot.keyClick(editor, key)
        assert len(editor.toPlainText()) == len(TEXT) - 1
        start, end = editor.lock_spans()[0]
        assert editor.toPlainText()[start:end] == LOCKED
    else:
        _refused(qtbot, editor, lambda: qtbot.keyClick(editor, key))


def test_word_deletion_into_a_lock_is_refused(qtbot: QtBot, editor: DocumentEditor) -> None:
    _select(editor, LOCK[1])
    _refused(
        qtbot,
        editor,
        lambda: qtbot.keyClick(editor, Qt.Key.Key_Backspace, Qt.KeyboardModifier.ControlModifier),
    )


def test_deleting_a_selection_across_a_lock_boundary_is_refused(
    qtbot: QtBot, editor: DocumentEditor
) -> None:
    _select(editor, LOCK[1] - 2, LOCK[1] + 3)
    _refused(qtbot, editor, lambda: qtbot.keyClick(editor, Qt.Key.Key_Backspace))
    _refused(qtbot, editor, lambda: qtbot.keyClick(editor, Qt.Key.Key_Delete))


def test_cut_across_a_lock_is_refused_but_cut_outside_works(
    qtbot: QtBot, editor: DocumentEditor
) -> None:
    _select(editor, 0, LOCK[0] + 2)
    _refused(
        qtbot,
        editor,
        lambda: qtbot.keyClick(editor, Qt.Key.Key_X, Qt.KeyboardModifier.ControlModifier),
    )
    _refused(qtbot, editor, editor.cut)
    _select(editor, 0, 5)
    editor.cut()
    assert editor.toPlainText() == TEXT[5:]


def _mime(text: str) -> QMimeData:
    data = QMimeData()
    data.setText(text)
    return data


def test_paste_into_a_lock_is_refused_and_outside_it_works(
    qtbot: QtBot, editor: DocumentEditor
) -> None:
    _select(editor, LOCK[0] + 1)
    _refused(qtbot, editor, lambda: editor.insertFromMimeData(_mime("zz")))
    QApplication.clipboard().setText("zz")
    _refused(
        qtbot,
        editor,
        lambda: qtbot.keyClick(editor, Qt.Key.Key_V, Qt.KeyboardModifier.ControlModifier),
    )
    _select(editor, 0)
    editor.insertFromMimeData(_mime("zz"))
    assert editor.toPlainText() == "zz" + TEXT


def _drop_at(editor: DocumentEditor, position: int, text: str) -> None:
    cursor = QTextCursor(editor.document())
    cursor.setPosition(position)
    point = QPointF(editor.cursorRect(cursor).center())
    data = _mime(text)  # the event does not own its data: keep it alive until the drop is done
    event = QDropEvent(
        point,
        Qt.DropAction.CopyAction,
        data,
        Qt.MouseButton.LeftButton,
        Qt.KeyboardModifier.NoModifier,
    )
    # Qt only delivers a Drop that follows a real drag, so call the handler the drag would reach.
    editor.dropEvent(event)


def test_drop_into_a_lock_is_refused_and_outside_it_works(
    qtbot: QtBot, editor: DocumentEditor
) -> None:
    editor.show()
    qtbot.waitExposed(editor)
    middle = LOCK[0] + 4
    _refused(qtbot, editor, lambda: _drop_at(editor, middle, "zz"))
    _drop_at(editor, len(TEXT), "zz")
    assert editor.toPlainText() == TEXT + "zz"


def _commit(editor: DocumentEditor, text: str) -> None:
    event = QInputMethodEvent("", [])
    event.setCommitString(text)
    QApplication.sendEvent(editor, event)


def test_input_method_commit_into_a_lock_is_refused_and_outside_it_works(
    qtbot: QtBot, editor: DocumentEditor
) -> None:
    _select(editor, LOCK[0] + 2)
    _refused(qtbot, editor, lambda: _commit(editor, "é"))
    _select(editor, 0)
    _commit(editor, "é")
    assert editor.toPlainText() == "é" + TEXT


def test_undo_that_would_remove_locked_text_is_refused(qtbot: QtBot) -> None:
    editor = DocumentEditor()
    qtbot.addWidget(editor)
    qtbot.keyClicks(editor, "Keep me")
    editor.set_lock_spans([(0, 7)])
    _refused(qtbot, editor, editor.undo)
    _refused(
        qtbot,
        editor,
        lambda: qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier),
    )


def test_context_menu_cut_and_delete_are_checked_too(qtbot: QtBot, editor: DocumentEditor) -> None:
    _select(editor, 0, LOCK[0] + 2)
    menu = editor.build_context_menu(QPoint(20, 10))
    for name in ("edit-cut", "edit-delete"):
        action = next(a for a in menu.actions() if a.objectName() == name)
        _refused(qtbot, editor, action.trigger)
    _select(editor, 0, 5)
    next(a for a in menu.actions() if a.objectName() == "edit-delete").trigger()
    assert editor.toPlainText() == TEXT[5:]
    menu.deleteLater()


def test_replace_ranges_is_one_undo_step_and_never_touches_locks(editor: DocumentEditor) -> None:
    editor.replace_ranges([(0, 4, "Phone"), (LOCK[1] + 1, LOCK[1] + 6, "tomorrow")])
    assert editor.toPlainText() == "Phone Ada Lovelace tomorrow about the loom."
    start, end = editor.lock_spans()[0]
    assert editor.toPlainText()[start:end] == LOCKED
    editor.undo()
    assert editor.toPlainText() == TEXT
    assert editor.lock_spans() == [LOCK]
    with pytest.raises(ValueError, match="locked"):
        editor.replace_ranges([(LOCK[0] + 1, LOCK[0] + 2, "x")])


def test_offsets_are_python_indices_even_after_emoji_and_no_break_spaces_survive(
    qtbot: QtBot,
) -> None:
    editor = DocumentEditor()
    qtbot.addWidget(editor)
    text = "😀 smile, then 1\u00a0000 €, 𝄞 and the end"
    lock = (text.index("1"), text.index("€") + 1)
    editor.load_text(text, [lock])
    assert editor.plain_text() == text
    assert editor.lock_spans() == [lock]
    assert editor.text_range(*lock) == "1\u00a0000 €"
    end = text.index("end")
    editor.replace_ranges([(end, end + 3, "finish"), (0, 1, "🙂🙂")])
    (start, stop), new = editor.lock_spans()[0], editor.plain_text()
    assert new == "🙂🙂 smile, then 1\u00a0000 €, 𝄞 and the finish"
    assert new[start:stop] == "1\u00a0000 €"
    _select(editor, editor.position_map().to_qt(start), editor.position_map().to_qt(stop))
    assert editor.selection_span() == (start, stop)


def test_the_gutter_marks_lines_holding_a_lock(editor: DocumentEditor) -> None:
    editor.load_text("one\ntwo\nthree\nfour", [(5, 11)])  # "wo\nthr"
    assert editor.locked_lines() == [1, 2]


_OPS = st.lists(
    st.tuples(
        st.sampled_from(["type", "backspace", "delete"]),
        st.integers(0, 60),
        st.integers(0, 3),
        st.text("xy ", min_size=1, max_size=3),
    ),
    max_size=12,
)


def _expected(text: str, locks: list[tuple[int, int]], op: tuple[str, int, int, str]):  # type: ignore[no-untyped-def]
    """What an edit should do, worked out without Qt: (text, locks) after it, or None if refused."""
    kind, at, width, typed = op
    start, end = at, min(at + width, len(text))
    inserted = typed if kind == "type" else ""
    if kind != "type" and start == end:
        start, end = (start - 1, start) if kind == "backspace" else (start, start + 1)
        if start < 0 or end > len(text):
            return text, locks
    for lock_start, lock_end in locks:
        if start < lock_end and lock_start < end:
            return None
        if inserted and start == end and lock_start < start < lock_end:
            return None
    shift = len(inserted) - (end - start)
    moved = [(s + shift, e + shift) if end <= s else (s, e) for s, e in locks]
    return text[:start] + inserted + text[end:], moved


@settings(max_examples=40)
@given(_OPS)
def test_random_key_edits_never_change_locked_text(qtbot: QtBot, ops) -> None:  # type: ignore[no-untyped-def]
    editor = DocumentEditor()
    qtbot.addWidget(editor)
    editor.load_text(TEXT, [LOCK, (len(TEXT) - 5, len(TEXT) - 1)])
    text, locks = TEXT, editor.lock_spans()
    keys = {"backspace": Qt.Key.Key_Backspace, "delete": Qt.Key.Key_Delete}
    for op in ops:
        kind, at, width, typed = op
        at = min(at, len(text))
        op = (kind, at, width, typed)
        _select(editor, at, min(at + width, len(text)))
        expected = _expected(text, locks, op)
        if kind == "type":
            qtbot.keyClicks(editor, typed)
        else:
            qtbot.keyClick(editor, keys[kind])
        if expected is not None:
            text, locks = expected
        assert editor.toPlainText() == text
        assert editor.lock_spans() == locks
    for (start, end), original in zip(locks, [LOCKED, TEXT[-5:-1]], strict=True):
        assert text[start:end] == original


@given(st.text(st.sampled_from(["a", "\n", "é", "😀", "𝄞", "\u00a0"]), max_size=30))
def test_position_map_counts_utf16_units(text: str) -> None:
    positions = PositionMap(text)
    for index in range(len(text) + 1):
        qt = len(text[:index].encode("utf-16-le")) // 2
        assert positions.to_qt(index) == qt
        assert positions.from_qt(qt) == index


def test_the_text_is_copied_out_once_per_change(qtbot: QtBot, editor: DocumentEditor) -> None:
    first = editor.plain_text()
    assert editor.plain_text() is first  # a 20 MB document is not copied again per call
    assert editor.position_map() is editor.position_map()
    editor.moveCursor(QTextCursor.MoveOperation.End)
    editor.insertPlainText(" 🙂!")
    assert editor.plain_text() == first + " 🙂!"
    assert editor.position_map().to_qt(len(first) + 3) == len(first) + 4  # the emoji is wide
    editor.undo()
    assert editor.plain_text() == first
