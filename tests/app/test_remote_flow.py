"""The window and the CLI on a remote engine: a real ``settle serve`` process on loopback.

Connect from the model picker, see host, model and round trip in the status bar, rewrite, go
back to the local worker; reconnect at start-up; the server killed mid-draft shows the banner
with "Reconnect" and leaves the document alone. The CLI's ``--engine`` gives the local result.
Tokens go to a private file in a temporary folder (the real keyring is never touched).
"""

from __future__ import annotations

import json
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtWidgets import QPushButton

from app.cli import main as cli_main
from app.credentials import CredentialStore
from app.gui import Session, build_session, start_engine
from app.recovery import RecoveryStore
from engine.core.config import SamplerSettings
from engine.core.protocol import EngineLink, Failed, ModelReady
from engine.process.client import ThreadWorker
from tests.app.test_rewrite_flow import DOC, ask
from tests.helpers.remote import ServerProcess, start_server, token_file
from tests.helpers.remote_server import GATE_SEED
from ui.model_dialog import ModelPicker
from ui.remote_dialog import RemoteEngineDialog

WAIT_MS = 120_000


@pytest.fixture(scope="module")
def engine(tmp_path_factory: pytest.TempPathFactory, tiny_folder: Path) -> Iterator[ServerProcess]:
    server = start_server(tmp_path_factory.mktemp("engine"), tiny_folder)
    yield server
    server.stop()


@pytest.fixture
def credentials(tmp_path: Path) -> CredentialStore:
    return CredentialStore(backend=None, folder=tmp_path / "config")


def connect_from_picker(qtbot, session: Session, engine: ServerProcess) -> None:
    session.models.choose()
    picker = session.models.picker
    assert isinstance(picker, ModelPicker)
    remote = next(b for b in picker.findChildren(QPushButton) if "Remote" in b.text())
    remote.click()
    dialog = session.remote.dialog if session.remote else None
    assert isinstance(dialog, RemoteEngineDialog) and dialog.isVisible()
    dialog.set_urls([engine.url])
    dialog.set_token(engine.token)
    with qtbot.waitSignal(session.client.modelReady, timeout=WAIT_MS):
        dialog.connect_engine()


def test_connect_rewrite_and_go_back_to_the_local_worker(
    qtbot, session: Session, engine: ServerProcess, credentials: CredentialStore, tiny_folder
) -> None:
    assert session.remote is not None
    session.remote._credentials = credentials
    connect_from_picker(qtbot, session, engine)
    host = engine.url.removeprefix("ws://")
    assert session.remote.active and session.remote.host == host
    with qtbot.waitSignal(session.client.link, timeout=WAIT_MS) as link:
        pass
    assert isinstance(link.args[0], EngineLink) and link.args[0].host == host
    status = session.window.engine_status.text()
    assert "tiny" in status and host in status and " ms" in status
    assert session.settings.engine_url() == engine.url
    saved = credentials.file
    assert json.loads(saved.read_text()) == {host: engine.token}
    assert stat.S_IMODE(saved.stat().st_mode) == 0o600
    session.window.editor.load_text(DOC)
    with qtbot.waitSignal(session.client.proposal, timeout=WAIT_MS):
        ask(qtbot, session, "tighter")
    qtbot.waitUntil(session.window.review.isVisible)
    assert session.window.editor.plain_text() == DOC  # nothing applied without review
    with qtbot.waitSignal(session.client.modelReady, timeout=WAIT_MS):
        session.models.on_requested(str(tiny_folder), "cpu", False)
    assert not session.remote.active and session.settings.engine_url() == ""
    assert host not in session.window.engine_status.text()


def test_the_engine_used_last_time_is_reconnected_at_start(
    qtbot, qloop, settings, tmp_path: Path, engine: ServerProcess, credentials
) -> None:
    settings.set_engine_url(engine.url)
    credentials.save(engine.url.removeprefix("ws://"), engine.token)
    local = ThreadWorker()
    session = build_session(local, settings, RecoveryStore(tmp_path / "r"), credentials)
    qtbot.addWidget(session.window)
    try:
        with qtbot.waitSignal(session.client.modelReady, timeout=WAIT_MS) as ready:
            start_engine(session)
        assert isinstance(ready.args[0], ModelReady)
        assert session.remote is not None and session.remote.active
        assert not local.alive  # the local worker was never started
    finally:
        session.client.close()


def test_without_a_remembered_token_the_local_worker_starts(
    qtbot, qloop, settings, tmp_path: Path, credentials, tiny_folder
) -> None:
    settings.set_engine_url("ws://127.0.0.1:9")
    settings.set_model(str(tiny_folder), "cpu")
    session = build_session(ThreadWorker(), settings, RecoveryStore(tmp_path / "r"), credentials)
    qtbot.addWidget(session.window)
    try:
        with qtbot.waitSignal(session.client.modelReady, timeout=WAIT_MS):
            start_engine(session)
        assert session.remote is not None and not session.remote.active
        assert settings.engine_url() == ""
    finally:
        session.client.close()


def test_the_server_killed_mid_draft_shows_the_banner_and_loses_nothing(
    qtbot, session: Session, tmp_path: Path, tiny_folder: Path, credentials
) -> None:
    doomed = start_server(tmp_path / "doomed", tiny_folder)
    assert session.remote is not None
    session.remote._credentials = credentials
    try:
        connect_from_picker(qtbot, session, doomed)
        session.edits.settings = SamplerSettings(steps=6, block_length=0, seed=GATE_SEED)
        session.window.editor.load_text(DOC)
        with qtbot.waitSignal(session.client.frame, timeout=WAIT_MS):
            ask(qtbot, session, "tighter")  # parked before step 2 on the server
        with qtbot.waitSignal(session.client.failed, timeout=WAIT_MS) as died:
            doomed.kill()
        failure = died.args[0]
        assert isinstance(failure, Failed) and failure.kind == "worker-died"
        banner = session.window.banner
        qtbot.waitUntil(banner.isVisible)
        action = next(b for b in banner.findChildren(QPushButton) if b.text() == "Reconnect")
        assert "text is safe" in banner.message()
        assert session.window.editor.plain_text() == DOC
        assert not session.window.overlay.isVisible()
        with qtbot.waitSignal(session.client.failed, timeout=WAIT_MS) as again:
            action.click()  # nobody listens any more: said again, nothing breaks
        assert "Could not reach" in again.args[0].message
        assert session.window.editor.plain_text() == DOC
    finally:
        doomed.kill()


# --- the command line ------------------------------------------------------------------------


def rewrite_args(path: Path) -> list[str]:
    sampler = ["--seed", "3", "--steps", "6", "--block-length", "0"]
    return ["rewrite", str(path), "--range", "0:44", "--lock", "brown fox", "--json", *sampler]


def test_cli_engine_gives_the_local_proposal(
    capsys, tmp_path: Path, engine: ServerProcess, tiny_folder: Path
) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("The quick brown fox jumps over the lazy dog.\n")
    tokens = token_file(tmp_path)
    remote_args = ["--engine", engine.url, "--token-file", str(tokens)]
    assert cli_main(rewrite_args(doc) + remote_args) == 0
    remote = json.loads(capsys.readouterr().out)
    assert cli_main([*rewrite_args(doc), "--model", str(tiny_folder), "--device", "cpu"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert remote["text"] == local["text"] and remote["diff"] == local["diff"]
    assert remote["locks"] == ["brown fox"] and "127.0.0.1" in remote["model"]


def test_cli_engine_refusals_exit_with_a_clear_message(
    capsys, monkeypatch, tmp_path: Path, engine: ServerProcess
) -> None:
    doc = tmp_path / "doc.md"
    doc.write_text("The quick brown fox jumps over the lazy dog.\n")
    monkeypatch.delenv("SETTLE_TOKEN", raising=False)
    assert cli_main([*rewrite_args(doc), "--engine", engine.url]) == 2
    assert "SETTLE_TOKEN" in capsys.readouterr().err
    monkeypatch.setenv("SETTLE_TOKEN", "a-wrong-token-of-some-length")
    assert cli_main([*rewrite_args(doc), "--engine", engine.url]) == 4
    assert "token is not right" in capsys.readouterr().err
    assert cli_main([*rewrite_args(doc), "--engine", "http://x"]) == 2
    assert "ws://HOST:PORT" in capsys.readouterr().err
    assert doc.read_text() == "The quick brown fox jumps over the lazy dog.\n"


def test_serve_refuses_a_network_address_without_tls(capsys) -> None:
    assert cli_main(["serve", "--listen", "0.0.0.0:8765"]) == 2
    assert "--insecure" in capsys.readouterr().err
    assert cli_main(["serve", "--tls-cert", "c.pem"]) == 2
    assert "both --tls-cert and --tls-key" in capsys.readouterr().err
