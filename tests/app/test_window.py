"""The window's own pieces: recent files, find, preview, word count, shortcuts window, and the
actions that must not be reachable in the wrong state."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication, QFileDialog, QLineEdit, QTreeWidget

from app.edit_controller import EditState
from app.gui import Session


def test_recent_files_menu_lists_and_reopens(qtbot, session: Session, tmp_path: Path) -> None:
    first, second = tmp_path / "a.md", tmp_path / "b.md"
    first.write_text("alpha", encoding="utf-8")
    second.write_text("beta", encoding="utf-8")
    session.files.open_path(first)
    session.files.open_path(second)
    actions = session.window.recent_menu.actions()
    assert [a.text() for a in actions] == [str(second.resolve()), str(first.resolve())]
    actions[1].trigger()
    assert session.window.editor.plain_text() == "alpha"


def test_find_moves_the_cursor_and_wraps(qtbot, session: Session) -> None:
    editor = session.window.editor
    editor.load_text("one fish two fish red fish")
    session.window.action("edit.find").trigger()
    bar = session.window.find_bar
    assert bar.isVisible()
    field = bar.findChild(QLineEdit)
    qtbot.keyClicks(field, "fish")
    assert editor.textCursor().selectionStart() == 4
    qtbot.keyClick(field, Qt.Key.Key_Return)
    assert editor.textCursor().selectionStart() == 13
    qtbot.keyClick(field, Qt.Key.Key_Return)
    qtbot.keyClick(field, Qt.Key.Key_Return)  # wraps to the first match
    assert editor.textCursor().selectionStart() == 4
    qtbot.keyClicks(field, "z")
    assert bar.status.text() == "No match"
    assert editor.plain_text() == "one fish two fish red fish"


def test_preview_renders_markdown_and_word_count_follows(qtbot, session: Session) -> None:
    session.window.editor.load_text("# Title\n\nSome *words* here.\n")
    session.window.action("view.preview").trigger()
    preview = session.window.preview
    assert preview.isVisible()
    qtbot.waitUntil(lambda: "Some words here." in preview.rendered_text(), timeout=3000)
    assert "#" not in preview.rendered_text()
    qtbot.waitUntil(lambda: session.window.word_count.text() == "5 words", timeout=2000)


def test_shortcuts_window_lists_the_rewrite_key(qtbot, session: Session) -> None:
    session.window.action("help.shortcuts").trigger()
    shown = session.window.shortcuts_window
    assert shown is not None and shown.isVisible()
    tree = shown.findChild(QTreeWidget)
    rows = [
        tree.topLevelItem(g).child(r)
        for g in range(tree.topLevelItemCount())
        for r in range(tree.topLevelItem(g).childCount())
    ]
    listed = {row.text(0): row.text(1) for row in rows}
    assert listed["Rewrite the selection"].startswith("Ctrl+Return")
    assert listed["Lock or unlock the selection"] == "Ctrl+L"


def test_review_state_disables_the_rewrite_keys_and_running_enables_cancel(
    qtbot, session: Session
) -> None:
    window = session.window
    assert not window.action("ask.cancel").isEnabled()
    session.edits.stateChanged.emit(EditState.RUNNING)
    assert window.action("ask.cancel").isEnabled()
    session.edits.stateChanged.emit(EditState.REVIEWING)
    assert not window.action("ask.rewrite").isEnabled()
    assert not window.action("ask.cancel").isEnabled()
    session.edits.stateChanged.emit(EditState.IDLE)
    assert window.action("ask.rewrite").isEnabled()


def test_rewrite_without_a_selection_says_what_to_do(qtbot, session: Session) -> None:
    messages: list[str] = []
    session.edits.message.connect(messages.append)
    session.window.editor.load_text("text")
    session.window.action("ask.rewrite").trigger()
    assert not session.window.bar.isVisible()
    assert messages == ["Select the text to rewrite first."]


def test_a_long_message_is_elided_before_the_word_count(
    qtbot, session: Session, tmp_path: Path
) -> None:
    window = session.window
    window.resize(700, 400)
    bad = tmp_path / "latin1.md"
    bad.write_bytes(b"caf\xe9")
    session.files.open_path(bad)
    session.files._dialog.close()
    qtbot.waitUntil(lambda: window.status_message.full_text().endswith("nothing was changed."))
    message, words = window.status_message, window.word_count
    assert message.geometry().right() < words.geometry().left()
    shown = message.text()
    assert shown.endswith("…") and message.fontMetrics().horizontalAdvance(shown) <= message.width()
    window.grab().save(str(tmp_path / "status.png"))


def press_ctrl_o(qtbot, session: Session) -> QFileDialog | None:
    """Ctrl+O as the keyboard sends it: to whatever widget has the keyboard focus now."""
    before = session.files._dialog
    target = QApplication.focusWidget() or session.window
    qtbot.keyClick(target, Qt.Key.Key_O, Qt.KeyboardModifier.ControlModifier)
    dialog = session.files._dialog
    opened = dialog is not before and isinstance(dialog, QFileDialog) and dialog.isVisible()
    return dialog if opened else None


def test_ctrl_o_works_again_after_a_dialog_closes(qtbot, session: Session, tmp_path: Path) -> None:
    window = session.window
    chosen = tmp_path / "notes.md"
    chosen.write_text("chosen", encoding="utf-8")
    window.activateWindow()
    window.editor.setFocus()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    for choose in (False, True):  # cancelled, then a file chosen
        dialog = press_ctrl_o(qtbot, session)
        assert dialog is not None, "Ctrl+O opened no file dialog"
        qtbot.waitUntil(lambda d=dialog: QApplication.activeWindow() is d)  # the user is in it
        if choose:  # typed into the name field, then Enter
            name_field = dialog.findChild(QLineEdit, "fileNameEdit")
            name_field.setText(str(chosen))
            qtbot.keyClick(name_field, Qt.Key.Key_Return)
        else:
            dialog.reject()
        # The keyboard goes back to the editor, so the next Ctrl+O is not lost.
        qtbot.waitUntil(lambda: QApplication.focusWidget() is window.editor)
    assert window.editor.plain_text() == "chosen"
    assert press_ctrl_o(qtbot, session) is not None


def test_closing_the_shortcuts_window_gives_the_keyboard_back(qtbot, session: Session) -> None:
    window = session.window
    window.activateWindow()
    window.editor.setFocus()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    window.action("help.shortcuts").trigger()
    shown = window.shortcuts_window
    assert shown is not None
    qtbot.waitUntil(lambda: QApplication.activeWindow() is shown)
    qtbot.keyClick(QApplication.focusWidget() or shown, Qt.Key.Key_Escape)
    assert not shown.isVisible()
    qtbot.waitUntil(lambda: QApplication.activeWindow() is window)
    assert press_ctrl_o(qtbot, session) is not None
