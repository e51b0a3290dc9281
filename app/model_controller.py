"""Which model runs, and the engine's health: picker, loading, consent, failures, restart.

Remote-code models (LLaDA, Dream) are loaded only after the user ticked consent for that model
in the picker; the answer is remembered per model. A model that cannot load, or runs out of
memory, is reported in the status bar and a non-modal message; the editor stays usable. When
the worker process dies, the banner says so and one click restarts it (the last model reloads).
With a remote engine (:mod:`app.remote_controller`) the banner offers "Reconnect" instead, and
picking a local model goes back to the local worker first.
"""

from __future__ import annotations

import asyncio

from PySide6.QtCore import QObject, Signal
from PySide6.QtWidgets import QMessageBox, QWidget

from app.remote_controller import RemoteController
from app.settings import Settings
from app.worker_client import AsyncWorkerClient
from engine.core.protocol import Failed, LoadProgress, ModelReady
from engine.models.registry import ModelSpec
from ui.dialogs import open_dialog
from ui.model_dialog import ModelEntry, ModelPicker
from ui.status import EngineBanner, EngineStatus

SOURCES = {"embedded": "embedded", "hf-cache": "Hugging Face cache", "folder": "folder"}


class ModelController(QObject):
    """Signals: ``message(str)``."""

    message = Signal(str)

    def __init__(
        self,
        window: QWidget,
        client: AsyncWorkerClient,
        status: EngineStatus,
        banner: EngineBanner,
        settings: Settings,
    ) -> None:
        super().__init__(window)
        self.window, self.client, self.status = window, client, status
        self.banner, self.settings = banner, settings
        self.loading_name = ""
        self.picker: ModelPicker | None = None
        self.remote: RemoteController | None = None  # set by the session when it is built
        self._switching: asyncio.Task[None] | None = None  # back to the local worker, then load
        self._box: QMessageBox | None = None
        client.loadProgress.connect(self.on_progress)
        client.modelReady.connect(self.on_ready)
        client.failed.connect(self.on_failed)
        banner.restartRequested.connect(self.restart)

    @property
    def message_box(self) -> QMessageBox | None:
        """The message box last shown (a failed load, a consent question), if any."""
        return self._box

    def load_saved(self) -> None:
        model_id, device = self.settings.model()
        self.load(model_id, device, self.settings.remote_code_allowed(model_id))

    def load(self, model_id: str, device: str, allow_remote_code: bool) -> None:
        self.loading_name = model_id
        self.status.show_loading(LoadProgress("starting", -1.0, f"Loading {model_id}…"), model_id)
        self.client.load(model_id, device, allow_remote_code)

    def choose(self) -> None:
        """Open the picker (non-modal ``open()``); the choice arrives through a signal."""
        from engine.models.registry import discover

        picker = ModelPicker(self.window)
        picker.set_models([self._entry(spec) for spec in discover()])
        picker.set_current(*self.settings.model())
        picker.modelRequested.connect(self.on_requested)
        if self.remote is not None:
            picker.remoteRequested.connect(self.remote.ask)
        self.picker = picker
        open_dialog(picker)

    @staticmethod
    def _entry(spec: ModelSpec) -> ModelEntry:
        return ModelEntry(
            id=str(spec.id),
            display_name=str(spec.display_name),
            source=SOURCES.get(str(spec.source), str(spec.source)),
            needs_remote_code=bool(spec.needs_remote_code),
            note=str(getattr(spec, "notes", "") or ""),
        )

    def on_requested(self, model_id: str, device: str, allow_remote_code: bool) -> None:
        if allow_remote_code:
            self.settings.allow_remote_code(model_id)
        allowed = allow_remote_code or self.settings.remote_code_allowed(model_id)
        self.settings.set_model(model_id, device)
        if self.remote is not None and self.remote.active:
            loop = asyncio.get_event_loop()
            self._switching = loop.create_task(self._load_locally(model_id, device, allowed))
            return
        self.load(model_id, device, allowed)

    async def _load_locally(self, model_id: str, device: str, allowed: bool) -> None:
        assert self.remote is not None
        await self.remote.use_local()
        self.load(model_id, device, allowed)

    def on_progress(self, progress: LoadProgress) -> None:
        self.status.show_loading(progress, self.loading_name)

    def on_ready(self, ready: ModelReady) -> None:
        self.status.set_model(ready.info)
        host = self.remote.host if self.remote is not None else ""
        where = f" at {host}" if host else ""
        self.message.emit(f"{ready.info.display_name} is ready on {ready.info.device}{where}.")

    def on_failed(self, event: Failed) -> None:
        if event.kind == "worker-died":
            remote = self.remote is not None and self.remote.active
            self.banner.show_stopped(event.message, "Reconnect" if remote else "Restart engine")
            self.status.set_stopped(event.message)
        elif event.kind in ("model-load", "out-of-memory"):
            self.status.set_model(None)
            self.message.emit(event.message)
            self._inform("The model could not be loaded", event.message)

    def restart(self) -> None:
        self.banner.dismiss()
        host = self.remote.host if self.remote is not None else ""
        again = f"Reconnecting to {host}…" if host else "Restarting the engine…"
        self.status.show_loading(LoadProgress("restarting", -1.0, again))
        asyncio.get_event_loop().create_task(self.client.restart())

    def _inform(self, title: str, text: str) -> None:
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            title,
            f"{text}\n\nThe editor keeps working; pick another model or device.",
            QMessageBox.StandardButton.Ok,
            self.window,
        )
        self._box = box
        open_dialog(box)
