"""The remote engine's widgets: the "Remote engine…" dialog, the status bar's link and queue,
the banner's "Reconnect"."""

from __future__ import annotations

import pytest
from PySide6.QtWidgets import QPushButton, QWidget

from engine.core.protocol import EngineLink
from ui.model_dialog import ModelPicker
from ui.remote_dialog import RemoteEngineDialog
from ui.status import EngineBanner, EngineStatus


def test_the_dialog_enables_connect_only_for_a_usable_address(qtbot) -> None:
    dialog = RemoteEngineDialog()
    qtbot.addWidget(dialog)
    wanted: list[tuple[str, str, str]] = []
    dialog.connectRequested.connect(lambda *args: wanted.append(args))
    for url, token, says in [
        ("gpu.lan:8765", "t" * 20, "ws://HOST:PORT"),
        ("http://gpu.lan:8765", "t" * 20, "ws://HOST:PORT"),
        ("ws://gpu.lan:port", "t" * 20, "port must be a number"),
        ("ws://gpu.lan:8765", "", "Paste the token"),
    ]:
        dialog.set_urls([url])
        dialog.set_token(token)
        assert says in dialog.problem()
        dialog.connect_engine()
    assert wanted == []
    dialog.set_urls(["ws://gpu.lan:8765"])
    dialog.set_token("t" * 20)
    assert dialog.problem() == "" and "unencrypted" in dialog.note()
    dialog.connect_engine()
    assert wanted == [("ws://gpu.lan:8765", "t" * 20, "")]
    with pytest.raises(RuntimeError, match=r"open\(\)"):
        dialog.exec()


def test_the_picker_asks_for_a_remote_engine_and_closes(qtbot) -> None:
    picker = ModelPicker()
    qtbot.addWidget(picker)
    picker.open()
    remote = next(b for b in picker.findChildren(QPushButton) if b.text() == "Remote engine…")
    with qtbot.waitSignal(picker.remoteRequested):
        remote.click()
    assert not picker.isVisible()


def test_the_status_bar_shows_the_link_and_the_queue(qtbot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    status = EngineStatus(host)
    status.show_link(EngineLink("gpu.lan:8765", 0.0031))
    status.show_queued(2)
    assert "⇄ gpu.lan:8765 · 3 ms" in status.text() and "queued: 2 ahead" in status.text()
    assert status.state() == "loading"
    status.show_link(None)
    assert "gpu.lan" not in status.text()


def test_the_banner_names_its_action(qtbot) -> None:
    host = QWidget()
    qtbot.addWidget(host)
    banner = EngineBanner(host)
    banner.show_stopped("Lost the connection.", "Reconnect")
    button = next(b for b in banner.findChildren(QPushButton) if b.text() == "Reconnect")
    with qtbot.waitSignal(banner.restartRequested):
        button.click()
    banner.show_stopped("The engine stopped.")
    assert any(b.text() == "Restart engine" for b in banner.findChildren(QPushButton))
