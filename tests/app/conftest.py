"""App tests run the real window and controllers on a qasync loop, with the worker loop on a
thread in-process (same code as the spawned worker) and a tiny model saved as a folder."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import QSettings
from PySide6.QtWidgets import QApplication

from app.gui import Session, build_session
from app.recovery import RecoveryStore
from app.settings import Settings
from engine.process.client import ThreadWorker
from tests.helpers.worker_models import save_tiny_llama


@pytest.fixture
def qloop(qapp: QApplication) -> Iterator[asyncio.AbstractEventLoop]:
    import qasync

    loop = qasync.QEventLoop(qapp, already_running=True)
    asyncio.set_event_loop(loop)
    yield loop
    asyncio.set_event_loop(None)


@pytest.fixture(scope="session")
def tiny_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_tiny_llama(tmp_path_factory.mktemp("models") / "tiny-llama")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(QSettings(str(tmp_path / "settings.ini"), QSettings.Format.IniFormat))


@pytest.fixture
def session(
    qtbot, qloop, settings: Settings, tmp_path: Path, tiny_folder: Path
) -> Iterator[Session]:
    settings.set_model(str(tiny_folder), "cpu")
    built = build_session(ThreadWorker(), settings, RecoveryStore(tmp_path / "recovery"))
    qtbot.addWidget(built.window)
    built.window.show()
    built.client.start()
    yield built
    built.files.shutdown()
    built.client.close()
