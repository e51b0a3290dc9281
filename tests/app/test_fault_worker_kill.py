"""Faults at scale: SIGKILL the worker process at random moments (loading, mid-draft, in review,
mid-fill). Every time the document is intact, the banner appears and a restart works.

``make test`` runs one trial; ``make faults`` runs 100 (``SETTLE_FAULT_TRIALS``) and records
the counts for the README.
"""

from __future__ import annotations

import os
import random
import signal
from pathlib import Path

import pytest
from PySide6.QtWidgets import QPushButton

from app.gui import Session, build_session
from app.recovery import RecoveryStore
from engine.core.protocol import Fill, FillKind, Span
from engine.process.client import WorkerHandle
from tests.app.test_rewrite_flow import DOC, ask
from tests.helpers.faults import record, trials
from tests.helpers.worker_models import worker_loader

MOMENTS = ("loading", "draft", "review", "fill")
SCHEMA = '{"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}'


@pytest.fixture
def spawned(qtbot, qloop, settings, tmp_path: Path):
    settings.set_model("tiny:slow", "cpu")
    worker = WorkerHandle(loader=worker_loader)
    session = build_session(worker, settings, RecoveryStore(tmp_path / "recovery"))
    qtbot.addWidget(session.window)
    session.window.show()
    session.client.start()
    yield session, worker
    session.files.shutdown()
    session.client.close()


def bring_about(qtbot, session: Session, moment: str, rng: random.Random) -> None:
    """Get the window to ``moment`` (a little past it, at random) without finishing it."""
    client = session.client
    if moment == "loading":
        session.models.on_requested("tiny:slow", "cpu", False)
        qtbot.wait(rng.randint(0, 600))
        return
    if moment == "fill":
        fill = Fill(client.next_request_id(), FillKind.JSON, DOC, Span(len(DOC), len(DOC)),
                    schema=SCHEMA, settings=session.edits.settings)  # fmt: skip
        with qtbot.waitSignal(client.frame, timeout=60000):
            session.edits.send_fill(fill)
    else:
        signal_name = client.proposal if moment == "review" else client.frame
        with qtbot.waitSignal(signal_name, timeout=60000):
            ask(qtbot, session, "tighter")
    qtbot.wait(rng.randint(0, 80))


def kill_and_restart(qtbot, session: Session, worker: WorkerHandle) -> list[str]:
    """Kill the worker; what went wrong (nothing, when the app behaved)."""
    problems = []
    with qtbot.waitSignal(session.client.failed, timeout=30000):
        os.kill(worker.pid, signal.SIGKILL)
    banner = session.window.banner
    qtbot.waitUntil(banner.isVisible, timeout=5000)
    if session.window.editor.plain_text() != DOC:
        problems.append("the document changed")
    session.window.review.cancel()
    restart = next(b for b in banner.findChildren(QPushButton) if "Restart" in b.text())
    with qtbot.waitSignal(session.client.modelReady, timeout=120000):
        restart.click()
    if banner.isVisible():
        problems.append("the banner stayed after the restart")
    return problems


def test_sigkill_at_random_moments(qtbot, spawned) -> None:
    session, worker = spawned
    with qtbot.waitSignal(session.client.modelReady, timeout=120000):
        session.models.load_saved()
    rng = random.Random(12)
    count, failures = trials(1), []
    for trial in range(count):
        session.window.editor.load_text(DOC)
        moment = rng.choice(MOMENTS)
        bring_about(qtbot, session, moment, rng)
        problems = kill_and_restart(qtbot, session, worker)
        failures += [f"trial {trial} ({moment}): {p}" for p in problems]
    with qtbot.waitSignal(session.client.proposal, timeout=60000):
        ask(qtbot, session, "tighter")  # and the engine still works at the end
    record("worker SIGKILL at random moments", count, count - len(failures), failures=failures)
    assert not failures, failures
