"""The worker process dies mid-request: the banner says so, the document is untouched, one click
restarts the engine, and the next request works. Real spawned process."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from PySide6.QtWidgets import QPushButton

from app.gui import build_session
from app.recovery import RecoveryStore
from engine.core.protocol import Failed
from engine.process.client import WorkerHandle
from tests.app.test_rewrite_flow import DOC, ask
from tests.helpers.worker_models import worker_loader


def test_worker_killed_mid_request_then_restart_from_the_banner(
    qtbot, qloop, settings, tmp_path: Path, tiny_folder: Path
) -> None:
    settings.set_model("tiny:hang", "cpu")  # loads, then never finishes a step
    worker = WorkerHandle(loader=worker_loader)
    session = build_session(worker, settings, RecoveryStore(tmp_path / "recovery"))
    qtbot.addWidget(session.window)
    session.window.show()
    session.client.start()
    try:
        with qtbot.waitSignal(session.client.modelReady, timeout=90000):
            session.models.load_saved()
        session.window.editor.load_text(DOC)
        with qtbot.waitSignal(session.client.frame, timeout=30000):
            ask(qtbot, session, "tighter")
        with qtbot.waitSignal(session.client.failed, timeout=30000) as died:
            os.kill(worker.pid, signal.SIGKILL)
        failure: Failed = died.args[0]
        assert failure.kind == "worker-died"
        banner = session.window.banner
        qtbot.waitUntil(banner.isVisible)
        assert session.window.editor.plain_text() == DOC
        assert not session.window.overlay.isVisible()
        # Asking again before the restart says what to do instead of waiting forever.
        messages: list[str] = []
        session.edits.message.connect(messages.append)
        ask(qtbot, session, "tighter")
        assert session.edits.running is None and "restart" in messages[-1]
        # Restart from the banner; the restarted worker reloads the last model (the hanging
        # one), so pick the working tiny model next, as a user would in the picker.
        restart = next(b for b in banner.findChildren(QPushButton) if "Restart" in b.text())
        with qtbot.waitSignal(session.client.modelReady, timeout=90000):
            restart.click()
        assert not banner.isVisible()
        with qtbot.waitSignal(session.client.modelReady, timeout=90000):
            session.models.on_requested(str(tiny_folder), "cpu", False)
        with qtbot.waitSignal(session.client.proposal, timeout=60000):
            ask(qtbot, session, "tighter")
        assert session.window.editor.plain_text() == DOC
    finally:
        session.client.close()
