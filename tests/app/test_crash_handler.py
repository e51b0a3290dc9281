"""An unhandled error saves the user's text for recovery first, then says so without blocking."""

from __future__ import annotations

import faulthandler
import os
import subprocess
import sys
from pathlib import Path

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
        faulthandler.enable(file=sys.__stderr__)  # back to where the test run reports crashes
    [snapshot] = RecoveryStore(session.files.recovery.folder).snapshots()
    assert snapshot.text == "words worth keeping"
    box = session.crash_box
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert "boom" in box.text() and "safe" in box.text()
    assert "RuntimeError" in box.detailedText()
    assert session.window.editor.plain_text() == "words worth keeping"


def test_a_native_crash_leaves_its_stack_in_the_log_folder_not_the_recovery_one(
    tmp_path: Path,
) -> None:
    logs, recovery = tmp_path / "logs", tmp_path / "recovery"
    crash = (
        "from app.crashlog import enable_native_crash_log\n"
        "enable_native_crash_log()\n"
        "import ctypes\n"
        "def deep_in_the_model():\n"
        "    ctypes.string_at(0)\n"
        "deep_in_the_model()\n"
    )
    env = {**os.environ, "SETTLE_LOG_DIR": str(logs), "SETTLE_RECOVERY_DIR": str(recovery)}
    done = subprocess.run([sys.executable, "-c", crash], env=env, capture_output=True, timeout=60)
    assert done.returncode != 0
    text = (logs / "crash.log").read_text()
    assert "Fatal Python error" in text and "deep_in_the_model" in text
    assert not recovery.exists()


def test_an_unwritable_log_folder_does_not_stop_the_app(tmp_path: Path) -> None:
    from app.crashlog import enable_native_crash_log

    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert enable_native_crash_log(blocker / "logs") is None
