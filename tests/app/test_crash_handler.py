"""An unhandled error saves the user's text for recovery first, then says so without blocking."""

from __future__ import annotations

import sys

from PySide6.QtWidgets import QMessageBox

from app.gui import Session, install_crash_handler
from app.recovery import RecoveryStore


def test_crash_handler_rescues_the_text_and_shows_a_dialog(qtbot, session: Session) -> None:
    qtbot.keyClicks(session.window.editor, "words worth keeping")
    previous = sys.excepthook
    try:
        install_crash_handler(session)
        try:
            raise RuntimeError("boom")
        except RuntimeError as error:
            sys.excepthook(type(error), error, error.__traceback__)
    finally:
        sys.excepthook = previous
    [snapshot] = RecoveryStore(session.files.recovery.folder).snapshots()
    assert snapshot.text == "words worth keeping"
    box = session.crash_box
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert "boom" in box.text() and "safe" in box.text()
    assert "RuntimeError" in box.detailedText()
    assert session.window.editor.plain_text() == "words worth keeping"
