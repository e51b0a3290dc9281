"""How requests and events travel between the client and the worker loop.

The worker loop (:func:`engine.process.worker.serve`) sees only two small interfaces: an
:class:`Inbox`
with ``get()`` and an :class:`Outbox` with ``put(event)``. ``queue.Queue`` satisfies both on a
thread in-process; in a spawned process the pipe adapters below do. Pipes rather than
``multiprocessing.Queue``: when a process dies its pipe ends close, so the other side gets a clean
``EOFError`` instead of waiting forever, in both directions.

:class:`Sender` is the worker's outgoing side: a thread that coalesces frames and writes events,
so a forward pass never waits on a slow reader (a blocked pipe just means more coalescing).
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any, Protocol

from engine.core.protocol import Event, Failed, Frame
from engine.process.coalesce import FrameCoalescer

log = logging.getLogger(__name__)


class Inbox(Protocol):
    def get(self) -> Any:
        """The next request; raises ``EOFError``/``OSError`` when the client is gone."""
        ...


class Outbox(Protocol):
    def put(self, event: Event) -> None: ...


class ConnectionInbox:
    """Requests from a pipe; ``recv`` raises ``EOFError`` once the client process is gone."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def get(self) -> Any:
        return self.conn.recv()


class ConnectionOutbox:
    """Events into a pipe. Only the sender thread writes, so no lock is needed."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def put(self, event: Event) -> None:
        self.conn.send(event)


_STOP = object()


class Sender:
    """A thread that writes events to ``outbox``, coalescing frames to one per ``interval_s``.

    A held frame goes out when it falls due even if no newer frame comes (a slow step), and
    always before any other event, so a proposal never overtakes its last draft frame.
    """

    def __init__(self, outbox: Outbox, interval_s: float, clock: Callable[[], float]) -> None:
        self.outbox = outbox
        self.clock = clock
        self.coalescer = FrameCoalescer(interval_s)
        self.sent_frames = 0
        self.offered_frames = 0
        self._local: queue.Queue[Any] = queue.Queue()
        self._broken = False
        self._thread = threading.Thread(target=self._run, name="settle-sender", daemon=True)
        self._thread.start()

    def put(self, event: Event) -> None:
        """Queue an event; never blocks."""
        self._local.put(event)

    def close(self, timeout: float = 5.0) -> None:
        """Send everything queued, then stop the thread."""
        self._local.put(_STOP)
        self._thread.join(timeout)

    def _run(self) -> None:
        while True:
            try:
                item = self._local.get(timeout=self.coalescer.due_in(self.clock()))
            except queue.Empty:  # a held frame fell due
                self._write(self.coalescer.flush(self.clock()))
                continue
            if item is _STOP:
                self._write(self.coalescer.flush())
                return
            if isinstance(item, Frame):
                self.offered_frames += 1
                for frame in self.coalescer.offer(item, self.clock()):
                    self._write(frame)
            else:
                self._write(self.coalescer.flush(self.clock()))
                self._write(item)

    def _write(self, event: Event | None) -> None:
        if event is None or self._broken:
            return
        if isinstance(event, Frame):
            self.sent_frames += 1
        try:
            self.outbox.put(event)
        except (OSError, EOFError):
            # The client is gone (broken pipe): the reader sees the same and shuts the loop
            # down; keep draining so the main loop never blocks on us.
            log.warning("event channel closed; dropping further events")
            self._broken = True
        except Exception as exc:  # e.g. an event that does not pickle: say so, don't vanish
            log.exception("could not send %s", type(event).__name__)
            if not isinstance(event, Failed):
                request_id = getattr(event, "request_id", None)
                message = (
                    f"Settle's engine could not send its result ({type(exc).__name__}: {exc})."
                )
                self._write(Failed(request_id, "internal", message))
