"""The window's remote engine: connect to a ``settle serve`` engine, show the link, go back.

"Remote engine…" in the model picker opens :class:`ui.remote_dialog.RemoteEngineDialog`; the
address is remembered in the settings, the token per host in :class:`CredentialStore` (the
system keyring, or a private file). Connecting swaps the window's worker for a
:class:`~engine.remote.client.RemoteWorker` (off the GUI thread) and asks which model the engine
serves; the status bar then shows the host, the model and the round trip, and a request's
place in the engine's queue. Picking a local model in the picker goes back to the local
worker. A dropped connection is the same ``worker-died`` event as a crashed local worker: the
model controller shows the banner, with "Reconnect".
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QWidget

from app.credentials import CredentialStore
from app.settings import Settings
from app.worker_client import AsyncWorkerClient
from engine.core.protocol import LoadProgress, Queued
from engine.process.client import WorkerClient
from engine.remote.auth import SecurityError
from engine.remote.client import RemoteWorker, engine_host
from ui.dialogs import open_dialog
from ui.remote_dialog import RemoteEngineDialog
from ui.status import EngineStatus


class RemoteController(QObject):
    """Signals: ``message(str)``; ``connected(str host)`` once a remote engine is the worker."""

    message = Signal(str)
    connected = Signal(str)

    def __init__(
        self,
        window: QWidget,
        client: AsyncWorkerClient,
        status: EngineStatus,
        settings: Settings,
        local_worker: WorkerClient,
        credentials: CredentialStore | None = None,
    ) -> None:
        super().__init__(window)
        self.window, self.client, self.status, self.settings = window, client, status, settings
        self.local_worker = local_worker
        self._credentials = credentials
        self.dialog: RemoteEngineDialog | None = None
        self.task: asyncio.Task[None] | None = None
        client.link.connect(status.show_link)
        client.queued.connect(self.on_queued)

    @property
    def credentials(self) -> CredentialStore:
        if self._credentials is None:  # the keyring is asked only once a remote engine is used
            self._credentials = CredentialStore()
        return self._credentials

    @property
    def active(self) -> bool:
        return isinstance(self.client.worker, RemoteWorker)

    @property
    def host(self) -> str:
        worker = self.client.worker
        return worker.host if isinstance(worker, RemoteWorker) else ""

    def ask(self) -> RemoteEngineDialog:
        """Open the dialog (``open()``); the answer arrives through ``connectRequested``."""
        dialog = RemoteEngineDialog(self.window)
        dialog.urlChanged.connect(lambda url: self._fill_token(dialog, url))
        dialog.set_urls(self.settings.engine_urls())
        dialog.connectRequested.connect(self.connect_to)
        self.dialog = dialog
        open_dialog(dialog)
        return dialog

    def _fill_token(self, dialog: RemoteEngineDialog, url: str) -> None:
        try:
            token = self.credentials.token(engine_host(url))
        except SecurityError:
            return
        if token:
            dialog.set_token(token)

    def connect_to(self, url: str, token: str, ca_file: str = "") -> None:
        try:
            host = engine_host(url)
        except SecurityError as error:
            self.message.emit(str(error))
            return
        self.credentials.save(host, token)
        self.settings.set_engine_url(url, ca_file)
        worker = RemoteWorker(url, token, ca_file=Path(ca_file) if ca_file else None)
        self.status.show_loading(LoadProgress("connecting", -1.0, f"Connecting to {host}…"), host)
        self.task = asyncio.get_event_loop().create_task(self._switch(worker))

    async def _switch(self, worker: RemoteWorker) -> None:
        await self.client.switch(worker)
        self.client.load("", "auto")  # "": whatever the engine serves
        self.connected.emit(worker.host)

    def start_saved(self) -> bool:
        """At start-up: reconnect to the engine used last time, if its token is known."""
        url = self.settings.engine_url()
        if not url:
            return False
        try:
            token = self.credentials.token(engine_host(url))
        except SecurityError:
            token = ""
        if not token:
            self.settings.set_engine_url("")
            return False
        self.connect_to(url, token, self.settings.engine_ca_file())
        return True

    async def use_local(self) -> None:
        """Back to the worker process on this machine (the caller loads a model next)."""
        self.settings.set_engine_url("")
        self.status.show_link(None)
        await self.client.switch(self.local_worker)

    def on_queued(self, queued: Queued) -> None:
        self.status.show_queued(queued.position)
