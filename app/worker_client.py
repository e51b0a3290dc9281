"""The window's side of the worker: an asyncio pump that turns worker events into Qt signals.

It wraps an :class:`engine.process.client.WorkerClient` (the spawned :class:`WorkerHandle` in the
app,
a :class:`ThreadWorker` in some tests). Waiting for events happens on an executor thread, so
the GUI thread never blocks; every event is re-emitted on the GUI thread as a typed signal.
A dead worker arrives as ``failed`` with ``kind == "worker-died"``; :meth:`restart` brings a
fresh one up and reloads the last model. :meth:`switch` swaps the engine (the local worker for a
remote one, or back) without blocking the GUI thread: connecting happens on the executor.
A remote engine adds ``queued`` (queue position) and ``link`` (host and round trip) signals.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from concurrent.futures import ThreadPoolExecutor

from PySide6.QtCore import QObject, Signal

from engine.core.protocol import (
    Cancelled,
    Edit,
    EngineLink,
    Event,
    Failed,
    Fill,
    Frame,
    LoadModel,
    LoadProgress,
    ModelReady,
    Proposal,
    Queued,
    RankSuggestions,
    SuggestionsRanked,
)
from engine.process.client import WorkerClient

POLL_S = 0.05  # how long one executor wait lasts: bounds how late a stop is noticed


class AsyncWorkerClient(QObject):
    """Signals carry the engine.core.protocol event objects unchanged."""

    loadProgress = Signal(LoadProgress)
    modelReady = Signal(ModelReady)
    frame = Signal(Frame)
    proposal = Signal(Proposal)
    ranked = Signal(SuggestionsRanked)
    failed = Signal(Failed)
    cancelled = Signal(Cancelled)
    queued = Signal(Queued)
    link = Signal(EngineLink)

    def __init__(self, worker: WorkerClient, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.worker = worker
        self._ids = itertools.count(1)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="settle-events")
        self._pump: asyncio.Task[None] | None = None
        self.dead = False

    def next_request_id(self) -> int:
        return next(self._ids)

    def start(self) -> None:
        self.worker.start()
        self.dead = False
        self._pump = asyncio.get_event_loop().create_task(self._run())

    def load(self, model: str, device: str = "auto", allow_remote_code: bool = False) -> None:
        self.worker.send(LoadModel(model, device, allow_remote_code))

    def edit(self, edit: Edit | Fill) -> None:
        self.worker.send(edit)

    def rank(self, request: RankSuggestions) -> None:
        """Ask for a spelling menu's suggestions in the model's order (answered ``ranked``)."""
        self.worker.send(request)

    def cancel(self, request_id: int) -> None:
        self.worker.cancel(request_id)

    async def restart(self) -> None:
        await self.stop()
        loop = asyncio.get_event_loop()
        await loop.run_in_executor(self._executor, self.worker.restart)
        self.dead = False
        self._pump = loop.create_task(self._run())

    async def switch(self, worker: WorkerClient) -> None:
        """Stop the current engine and start ``worker`` in its place (connecting off-thread)."""
        await self.stop()
        self.worker = worker
        loop = asyncio.get_event_loop()
        await loop.run_in_executor(self._executor, worker.start)
        self.dead = False
        self._pump = loop.create_task(self._run())

    async def stop(self) -> None:
        pump, self._pump = self._pump, None
        if pump is not None:
            pump.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await pump
        await asyncio.get_event_loop().run_in_executor(self._executor, self.worker.stop)

    def close(self) -> None:
        """Stop without awaiting (application exit): the worker is told to shut down."""
        if self._pump is not None:
            self._pump.cancel()
            self._pump = None
        self.worker.stop(timeout=2.0)
        self._executor.shutdown(wait=False, cancel_futures=True)

    async def _run(self) -> None:
        loop = asyncio.get_event_loop()
        while True:
            event = await loop.run_in_executor(self._executor, self.worker.poll, POLL_S)
            if event is not None:
                self._dispatch(event)
                if isinstance(event, Failed) and event.kind == "worker-died":
                    self.dead = True
                    return

    def _dispatch(self, event: Event) -> None:
        if isinstance(event, Frame):
            self.frame.emit(event)
        elif isinstance(event, Proposal):
            self.proposal.emit(event)
        elif isinstance(event, SuggestionsRanked):
            self.ranked.emit(event)
        elif isinstance(event, LoadProgress):
            self.loadProgress.emit(event)
        elif isinstance(event, ModelReady):
            self.modelReady.emit(event)
        elif isinstance(event, Cancelled):
            self.cancelled.emit(event)
        elif isinstance(event, Failed):
            self.failed.emit(event)
        elif isinstance(event, Queued):
            self.queued.emit(event)
        elif isinstance(event, EngineLink):
            self.link.emit(event)
