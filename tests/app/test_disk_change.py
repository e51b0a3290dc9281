"""Another program changes the open file: Settle notices before saving and asks (reload, keep
mine, compare); nothing is overwritten or lost until the user answers."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QDialog, QMessageBox, QPlainTextEdit

from app.gui import Session


def opened_and_typed(qtbot, session: Session, path: Path) -> None:
    path.write_text("first line\n", encoding="utf-8")
    assert session.files.open_path(path)
    cursor = session.window.editor.textCursor()
    cursor.setPosition(len("first line"))
    session.window.editor.setTextCursor(cursor)
    qtbot.keyClicks(session.window.editor, " and mine")
    path.write_text("first line\nand theirs\n", encoding="utf-8")  # another program


def question(session: Session) -> QMessageBox:
    box = session.files._dialog
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert "changed" in box.text()
    return box


def click(box: QMessageBox, label: str) -> None:
    next(b for b in box.buttons() if b.text() == label).click()


def test_keep_mine_after_comparing(qtbot, session: Session, tmp_path: Path) -> None:
    path = tmp_path / "shared.md"
    opened_and_typed(qtbot, session, path)
    assert not session.files.save()
    assert path.read_text(encoding="utf-8") == "first line\nand theirs\n"  # not yet
    click(question(session), "Compare")
    dialog = session.files._dialog
    assert isinstance(dialog, QDialog) and dialog.isVisible()
    diff = dialog.findChild(QPlainTextEdit).toPlainText()
    assert "-and theirs" in diff and "+first line and mine" in diff
    dialog.reject()
    click(question(session), "Keep mine")
    assert path.read_text(encoding="utf-8") == "first line and mine\n"
    assert not session.files.modified
    assert session.files.save()  # saved here last: no question now


def test_reload_takes_the_file_on_disk(qtbot, session: Session, tmp_path: Path) -> None:
    path = tmp_path / "shared.md"
    opened_and_typed(qtbot, session, path)
    session.files.save()
    click(question(session), "Reload")
    assert session.window.editor.plain_text() == "first line\nand theirs\n"
    assert not session.files.modified


def test_cancel_changes_nothing_and_closing_waits(qtbot, session: Session, tmp_path: Path) -> None:
    path = tmp_path / "shared.md"
    opened_and_typed(qtbot, session, path)
    session.window.close()  # "Save the changes?" → Save → the file changed → ask
    session.files._dialog.button(QMessageBox.StandardButton.Save).click()
    question(session).button(QMessageBox.StandardButton.Cancel).click()
    assert path.read_text(encoding="utf-8") == "first line\nand theirs\n"
    assert session.window.editor.plain_text() == "first line and mine\n"
    assert session.window.isVisible() and session.files.modified
