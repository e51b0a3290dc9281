"""The model side of ``settle serve``: the worker loop on a thread, its events on the server's loop.

The server process *is* the worker: :func:`engine.process.worker.serve` runs unchanged on a thread
(the same code as the spawned local worker, so the same seed gives the same proposal), fed
one request at a time by the server's fair queue. Its events come back to the server's asyncio
loop through ``call_soon_threadsafe``, in the order the worker's sender wrote them.
"""

from __future__ import annotations

import asyncio
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any

from engine.core.protocol import Cancel, Event, Request, Shutdown
from engine.process.coalesce import FRAME_INTERVAL_S
from engine.process.transport import Outbox
from engine.process.worker import Loader, serve

log = logging.getLogger(__name__)


class LoopOutbox:
    """The worker's outbox: hands each event to ``callback`` on ``loop``'s thread."""

    def __init__(self, loop: asyncio.AbstractEventLoop, callback: Callable[[Event], None]) -> None:
        self.loop = loop
        self.callback = callback

    def put(self, event: Event) -> None:
        try:
            self.loop.call_soon_threadsafe(self.callback, event)
        except RuntimeError:  # the loop is closed: the server is shutting down
            log.debug("dropping %s after shutdown", type(event).__name__)


class EngineThread:
    """Owns the worker loop's thread and its inbox."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        on_event: Callable[[Event], None],
        loader: Loader | None = None,
        frame_interval_s: float = FRAME_INTERVAL_S,
        wrap_outbox: Callable[[Outbox], Outbox] | None = None,
    ) -> None:
        """``wrap_outbox`` lets a benchmark see each event as the worker writes it."""
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.outbox = LoopOutbox(loop, on_event)
        outbox: Outbox = wrap_outbox(self.outbox) if wrap_outbox else self.outbox
        self.thread = threading.Thread(
            target=serve,
            args=(self.inbox, outbox, loader),
            kwargs={"frame_interval_s": frame_interval_s},
            name="settle-engine",
            daemon=True,
        )

    def start(self) -> None:
        self.thread.start()

    def submit(self, request: Request) -> None:
        self.inbox.put(request)

    def cancel(self, global_id: int) -> None:
        """Stop the request before its next step (the worker's reader records it at once)."""
        self.inbox.put(Cancel(global_id))

    def stop(self, timeout: float = 5.0) -> None:
        self.inbox.put(Shutdown())
        self.thread.join(timeout)
