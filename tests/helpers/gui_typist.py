"""A Settle window that types, autosaves and saves until it is killed (for the GUI kill test).

``python -m tests.helpers.gui_typist FOLDER``: opens FOLDER/doc.md in the real window (offscreen),
appends the text of :data:`STREAM` a few characters at a time, autosaves every 40 ms and saves
every 150 ms. Every step that matters is logged to FOLDER/log *before* it could be cut short
("save N" before a save of N characters, "saved N" after it, "autosave N" after a snapshot is
on disk), each line flushed and fsynced, so the test can tell what the file and the recovery
folder must hold after a SIGKILL at any moment.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

STREAM = "".join(f"word{n} " for n in range(200_000))


class Log:
    def __init__(self, path: Path) -> None:
        self.handle = path.open("a", encoding="utf-8")

    def __call__(self, line: str) -> None:
        self.handle.write(line + "\n")
        self.handle.flush()
        os.fsync(self.handle.fileno())


def main(folder: Path) -> None:
    from PySide6.QtCore import QSettings, QTimer
    from PySide6.QtWidgets import QApplication

    from app.gui import build_session
    from app.recovery import RecoveryStore
    from app.settings import Settings
    from engine.process.client import ThreadWorker

    app = QApplication([sys.argv[0]])
    log = Log(folder / "log")
    store = RecoveryStore(folder / "recovery")
    store_save = store.save

    def logged_save(doc_id: str, path: str | None, text: str, locks: list[tuple[int, int]]) -> None:
        store_save(doc_id, path, text, locks)
        log(f"autosave {len(text)}")

    store.save = logged_save  # type: ignore[method-assign]
    settings = Settings(QSettings(str(folder / "settings.ini"), QSettings.Format.IniFormat))
    session = build_session(ThreadWorker(), settings, store)
    files, editor = session.files, session.window.editor
    files.open_path(folder / "doc.md")
    files.autosave.setInterval(40)

    def type_some() -> None:
        at = len(editor.plain_text())
        editor.moveCursor(editor.textCursor().MoveOperation.End)
        editor.insertPlainText(STREAM[at : at + 7])

    def save() -> None:
        size = len(editor.plain_text())
        log(f"save {size}")
        if files.save():
            log(f"saved {size}")

    timers = [QTimer(interval=5), QTimer(interval=150)]
    timers[0].timeout.connect(type_some)
    timers[1].timeout.connect(save)
    for timer in timers:
        timer.start()
    log("ready")
    app.exec()


if __name__ == "__main__":
    main(Path(sys.argv[1]))
