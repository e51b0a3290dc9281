"""Faults at scale: SIGKILL the window's process at random moments while it types, autosaves and
saves. Every time the file on disk is one of the versions a save wrote, whole (never truncated
or half-written), and a new start offers the last autosave back.

``make test`` runs a few trials; ``make faults`` runs 100 (``SETTLE_FAULT_TRIALS``).
"""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from app.gui import build_session
from app.recovery import RecoveryStore
from engine.process.client import ThreadWorker
from tests.helpers.faults import record, trials
from tests.helpers.gui_typist import STREAM

ROOT = Path(__file__).resolve().parents[2]


def run_and_kill(folder: Path, delay_s: float) -> list[str]:
    """Start the typist, kill it ``delay_s`` after it is ready; its log lines."""
    (folder / "doc.md").write_text("", encoding="utf-8")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.helpers.gui_typist", str(folder)],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    log = folder / "log"
    deadline = time.monotonic() + 120
    while "ready" not in (log.read_text(encoding="utf-8") if log.exists() else ""):
        assert time.monotonic() < deadline and child.poll() is None, "the typist did not start"
        time.sleep(0.02)
    time.sleep(delay_s)
    child.send_signal(signal.SIGKILL)
    child.wait()
    return log.read_text(encoding="utf-8").splitlines()


def check_file(folder: Path, lines: list[str]) -> list[str]:
    """The file is empty or exactly one version a save was asked to write."""
    text = (folder / "doc.md").read_text(encoding="utf-8")
    asked = {0} | {int(line.split()[1]) for line in lines if line.startswith("save ")}
    if len(text) not in asked or text != STREAM[: len(text)]:
        return [f"the file holds {len(text)} characters, not a saved version"]
    committed = [int(line.split()[1]) for line in lines if line.startswith("saved ")]
    if committed and len(text) < committed[-1]:
        return ["the file lost a completed save"]
    return []


def check_recovery(qtbot, folder: Path, lines: list[str], settings) -> list[str]:
    """A new start offers the last autosave (or a newer one) when the text was unsaved."""
    events = [line for line in lines if line.startswith(("autosave ", "saved "))]
    snapshots = RecoveryStore(folder / "recovery").snapshots()
    if not events or events[-1].startswith("saved "):
        return []  # saved last: nothing needs recovering (a newer autosave may still be offered)
    expected = int(events[-1].split()[1])
    session = build_session(ThreadWorker(), settings, RecoveryStore(folder / "recovery"))
    qtbot.addWidget(session.window)
    try:
        session.files.offer_recovery()
        box = session.files._dialog
        if not snapshots or not isinstance(box, QMessageBox):
            # Killed after a save wrote the file and dropped the snapshot, before "saved" was
            # logged: nothing to recover because the file holds the text.
            on_disk = (folder / "doc.md").read_text(encoding="utf-8")
            if len(on_disk) >= expected and on_disk == STREAM[: len(on_disk)]:
                return []
            return [f"no recovery was offered, and the file holds {len(on_disk)} of {expected}"]
        box.button(QMessageBox.StandardButton.Yes).click()
        text = session.window.editor.plain_text()
        if len(text) < expected or text != STREAM[: len(text)]:
            return [f"recovered {len(text)} characters, the last autosave had {expected}"]
        return []
    finally:
        session.files.shutdown()


def test_sigkill_the_window_while_typing_and_saving(qtbot, qloop, settings, tmp_path) -> None:
    rng = random.Random(7)
    count, failures, unsaved = trials(), [], 0
    for trial in range(count):
        folder = tmp_path / f"trial{trial}"
        folder.mkdir()
        lines = run_and_kill(folder, rng.uniform(0.2, 2.0))
        problems = check_file(folder, lines) + check_recovery(qtbot, folder, lines, settings)
        events = [line for line in lines if line.startswith(("autosave ", "saved "))]
        unsaved += bool(events) and events[-1].startswith("autosave ")  # recovery was checked
        failures += [f"trial {trial}: {p}" for p in problems]
    record("window SIGKILL while typing and saving", count, count - len(failures),
           killed_with_unsaved_text=unsaved, failures=failures)  # fmt: skip
    assert not failures, failures
