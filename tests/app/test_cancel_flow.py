"""Esc during a draft in the real window: the status bar says "Cancelling…" at once and shows the
engine idle again as soon as the engine confirms, never the last step of the cancelled draft.

The worker holds the draft at a known step (:class:`StepGate`), so "before the engine confirms"
is a fixed point, not a timing."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt

from app.edit_controller import CANCELLED
from app.gui import Session, build_session
from app.recovery import RecoveryStore
from app.settings import Settings
from engine.core.protocol import Cancelled, Frame
from engine.process.client import ThreadWorker
from tests.helpers.worker_models import StepGate, gated_loader

DOC = "Ada met Babbage in London. They spoke of engines and of numbers.\n"
GATE_STEP = 3


@pytest.fixture
def gate() -> Iterator[StepGate]:
    gate = StepGate(at=GATE_STEP)
    yield gate
    gate.release.set()  # never leave the worker thread parked


@pytest.fixture
def gated(qtbot, qloop, settings: Settings, tmp_path: Path, gate: StepGate) -> Iterator[Session]:
    settings.set_model("tiny:gated", "cpu")
    built = build_session(
        ThreadWorker(loader=gated_loader(gate)), settings, RecoveryStore(tmp_path / "recovery")
    )
    qtbot.addWidget(built.window)
    built.window.show()
    built.client.start()
    with qtbot.waitSignal(built.client.modelReady, timeout=60000):
        built.models.load_saved()
    built.window.editor.load_text(DOC)
    built.edits.settings = built.edits.settings.with_changes(steps=25, block_length=0)
    yield built
    built.files.shutdown()
    built.client.close()


def draft_until_the_gate(qtbot, session: Session, gate: StepGate) -> None:
    frames: list[Frame] = []
    session.client.frame.connect(frames.append)
    session.edits.begin_draft()
    session.window.bar.submit()
    qtbot.waitUntil(lambda: gate.reached.is_set() and bool(frames), timeout=60000)
    assert session.window.engine_status.state() == "running"
    assert "/25" in session.window.engine_status.text()  # "step 2/25": the gate holds step 3


def test_esc_says_cancelling_at_once_and_idle_once_the_engine_confirms(
    qtbot, gated: Session, gate: StepGate
) -> None:
    window, status = gated.window, gated.window.engine_status
    draft_until_the_gate(qtbot, gated, gate)
    qtbot.keyClick(window.editor, Qt.Key.Key_Escape)
    # The engine has not answered yet (it is parked at the gate): the window says so.
    assert status.state() == "cancelling"
    assert "cancelling…" in status.text() and "step" not in status.text()
    assert window.status_message.full_text() == "Cancelling…"
    assert not window.overlay.isVisible()
    with qtbot.waitSignal(gated.client.cancelled, timeout=60000):
        gate.release.set()
    assert status.state() == "ready"
    assert "cancelled" in status.text() and "step" not in status.text()
    assert window.status_message.full_text() == CANCELLED
    assert window.editor.plain_text() == DOC


def test_a_late_confirmation_leaves_the_next_draft_shown(
    qtbot, gated: Session, gate: StepGate
) -> None:
    window, status = gated.window, gated.window.engine_status
    draft_until_the_gate(qtbot, gated, gate)
    cancelled = gated.edits.running
    assert cancelled is not None
    qtbot.keyClick(window.editor, Qt.Key.Key_Escape)
    gated.edits.begin_draft()
    gated.window.bar.submit()  # a new draft before the engine confirmed the cancel
    assert status.state() == "cancelling"
    gated.client.cancelled.emit(Cancelled(cancelled.edit.request_id))
    assert gated.edits.cancelling is None
    assert status.state() == "cancelling"  # the new draft's first frame will say "running"
    assert window.status_message.full_text() != CANCELLED
    with qtbot.waitSignal(gated.client.proposal, timeout=60000):
        gate.release.set()
    assert status.state() == "ready"
