"""The worker's client side, without Qt: start it, send requests, poll events, survive its death.

:class:`WorkerHandle` runs :func:`engine.process.worker.serve` in a process started with the
``multiprocessing`` "spawn" context, so a crash, a CUDA out-of-memory or the OOM killer takes
down only the worker, never the editor. :class:`ThreadWorker` runs the same loop on a daemon
thread in-process (tests, and the fault helpers that type into a window) behind the same
interface; the headless CLI needs no worker and runs :func:`engine.run.edit_run.run_edit` itself.
The app's async client wraps either.

When the worker dies, :meth:`poll` returns one ``Failed(kind="worker-died")`` naming the edit that
was running (or ``None``), exactly once; :meth:`restart` starts a fresh worker and, by default,
reloads the last model. Importing this module imports no torch.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import queue
import signal
import threading
import traceback
from abc import ABC, abstractmethod
from collections.abc import Iterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Any

from engine.core.protocol import (
    Cancel,
    Cancelled,
    Edit,
    Event,
    Failed,
    Fill,
    LoadModel,
    Proposal,
    Request,
    Shutdown,
)
from engine.process.coalesce import FRAME_INTERVAL_S
from engine.process.worker import Loader, process_main, serve

WORKER_DIED = "The engine stopped unexpectedly. Your text is safe; restart the engine to continue."


_CRASHED = object()


class WorkerGone(Exception):
    """Raised by a transport's receive when the worker can no longer answer."""


class WorkerClient(ABC):
    """What both workers share: request tracking, cancel, the one-time death report.

    One thread may poll (say, an executor thread blocking in ``poll``) while another sends and
    cancels (the GUI thread); the bookkeeping they share is locked.
    """

    def __init__(self, loader: Loader | None = None, frame_interval_s: float = FRAME_INTERVAL_S):
        self.loader = loader
        self.frame_interval_s = frame_interval_s
        self.running: int | None = None  # the edit whose result we still expect
        self.last_load: LoadModel | None = None
        self._started = False
        self._exiting = False  # a Shutdown was sent: the worker ending is no death
        self._death_reported = False
        self._lock = threading.Lock()

    # --- what a transport provides ---------------------------------------------------------
    @abstractmethod
    def _spawn(self) -> None: ...

    @abstractmethod
    def _transmit(self, request: Request) -> None: ...

    @abstractmethod
    def _receive(self, timeout: float | None) -> Event | None:
        """The next event, None on timeout; raises :class:`WorkerGone` once the worker is."""

    @abstractmethod
    def _halt(self, timeout: float) -> None: ...

    @abstractmethod
    def _death_detail(self) -> str: ...

    def _death_message(self) -> str:
        """What the user reads when the worker is gone (a remote client names the host)."""
        return WORKER_DIED

    @property
    @abstractmethod
    def alive(self) -> bool: ...

    # --- the interface ---------------------------------------------------------------------
    def start(self) -> None:
        if self._started:
            raise RuntimeError("the worker is already started")
        self.running = None
        self._exiting = False
        self._death_reported = False
        self._spawn()
        self._started = True

    def send(self, request: Request) -> None:
        """Queue a request. A dead worker's refusal is reported by :meth:`poll`, not raised."""
        if not self._started:
            raise RuntimeError("start the worker first")
        with self._lock:
            if isinstance(request, Edit | Fill):
                self.running = request.request_id  # latest wins: an older one ends Cancelled
            elif isinstance(request, LoadModel):
                self.last_load = request
            elif isinstance(request, Shutdown):
                self._exiting = True
        # A closed pipe means the worker is gone; poll() reports that, once.
        with contextlib.suppress(OSError, EOFError, ValueError):
            self._transmit(request)

    def poll(self, timeout: float | None = 0.0) -> Event | None:
        """The next event within ``timeout`` seconds (None: wait), or None when there is none."""
        if not self._started or self._death_reported:
            return None
        try:
            event = self._receive(timeout)
        except WorkerGone:
            self._death_reported = True
            if self._exiting:
                return None
            detail = self._death_detail()
            return Failed(self.running, "worker-died", self._death_message(), detail=detail)
        with self._lock:
            if (
                isinstance(event, Proposal | Cancelled | Failed)
                and event.request_id == self.running
            ):
                self.running = None
        return event

    def events(self, timeout: float | None = None) -> Iterator[Event]:
        """Yield events as they come; stop once ``timeout`` seconds pass without one."""
        while (event := self.poll(timeout)) is not None:
            yield event

    def cancel(self, request_id: int) -> None:
        """Cancel a request: the worker's reader records it at once, and the running edit stops
        before its next step (a request that already ended is left alone)."""
        self.send(Cancel(request_id))

    def stop(self, timeout: float = 5.0) -> None:
        """Ask the worker to shut down; force it after ``timeout`` seconds."""
        if not self._started:
            return
        with self._lock:
            self._exiting = True  # a poll() on another thread must not take this for a death
        self._started = False
        self._halt(timeout)

    def restart(self, reload: bool = True) -> None:
        """Stop (or clean up after) the worker and start a fresh one; reload the last model."""
        self.stop(timeout=2.0)
        self.start()
        if reload and self.last_load is not None:
            self.send(self.last_load)


class WorkerHandle(WorkerClient):
    """The worker in a spawned process, talking over two one-way pipes."""

    def __init__(self, loader: Loader | None = None, frame_interval_s: float = FRAME_INTERVAL_S):
        super().__init__(loader, frame_interval_s)
        self.process: BaseProcess | None = None
        self._requests: Connection | None = None
        self._events: Connection | None = None
        # Requests leave from a thread of their own: pickling a 20 MB document into the pipe
        # takes a good part of a second, which must not be the window's.
        self._outgoing: queue.SimpleQueue[Request | None] = queue.SimpleQueue()
        self._sender: threading.Thread | None = None

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    @property
    def alive(self) -> bool:
        return self.process is not None and self.process.is_alive()

    def _spawn(self) -> None:
        ctx = multiprocessing.get_context("spawn")
        request_reader, self._requests = ctx.Pipe(duplex=False)
        self._events, event_writer = ctx.Pipe(duplex=False)
        args = (request_reader, event_writer, self.loader, self.frame_interval_s)
        # daemon: should the client exit without stop(), multiprocessing ends the worker too.
        self.process = ctx.Process(
            target=process_main, args=args, name="settle-worker", daemon=True
        )
        self.process.start()
        # Only the child may hold these ends: its death must read as end-of-file here.
        request_reader.close()
        event_writer.close()
        self._outgoing = queue.SimpleQueue()
        self._sender = threading.Thread(
            target=_send_all, args=(self._requests, self._outgoing), name="settle-requests"
        )
        self._sender.daemon = True
        self._sender.start()

    def _transmit(self, request: Request) -> None:
        if self._requests is None:
            raise OSError("the worker was stopped")
        self._outgoing.put(request)

    def _receive(self, timeout: float | None) -> Event | None:
        events, process = self._events, self.process
        if events is None or process is None:
            raise WorkerGone
        try:
            if events.poll(timeout):
                event: Event = events.recv()
                return event
        except (EOFError, OSError) as exc:
            raise WorkerGone from exc
        if not process.is_alive():
            raise WorkerGone
        return None

    def _death_detail(self) -> str:
        if self.process is None:
            return ""
        self.process.join(1.0)  # the pipe closes a moment before the exit code is known
        code = self.process.exitcode
        if code is not None and code < 0:
            return f"worker exit: signal {signal.Signals(-code).name}"
        return f"worker exit code: {code}"

    def _halt(self, timeout: float) -> None:
        process = self.process
        if process is not None:
            with contextlib.suppress(OSError, ValueError):
                self._transmit(Shutdown())
            process.join(timeout)
            if process.is_alive():
                process.terminate()
                process.join(2.0)
            if process.is_alive():
                process.kill()
                process.join()
        self._outgoing.put(None)  # the sender ends once what was queued is out (or unsendable)
        if self._sender is not None:
            self._sender.join(2.0)
        for conn in (self._requests, self._events):
            if conn is not None:
                conn.close()
        self._requests = self._events = None


def _send_all(conn: Connection, outgoing: queue.SimpleQueue[Request | None]) -> None:
    """Send queued requests in order until ``None``; a closed pipe means the worker is gone,
    which :meth:`WorkerClient.poll` reports."""
    while (request := outgoing.get()) is not None:
        try:
            conn.send(request)
        except (OSError, EOFError, ValueError):
            return


class ThreadWorker(WorkerClient):
    """The same worker loop on a daemon thread of this process (tests; the CLI needs no worker)."""

    def __init__(self, loader: Loader | None = None, frame_interval_s: float = FRAME_INTERVAL_S):
        super().__init__(loader, frame_interval_s)
        self.thread: threading.Thread | None = None
        self._inbox: queue.Queue[Request] = queue.Queue()
        self._outbox: queue.Queue[Any] = queue.Queue()
        self._crash = ""

    @property
    def alive(self) -> bool:
        return self.thread is not None and self.thread.is_alive()

    def _spawn(self) -> None:
        self._inbox, self._outbox = queue.Queue(), queue.Queue()
        self._crash = ""
        self.thread = threading.Thread(target=self._serve, name="settle-worker", daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        try:
            serve(
                self._inbox,
                self._outbox,
                self.loader,
                frame_interval_s=self.frame_interval_s,
            )
        except BaseException:
            self._crash = traceback.format_exc()
            self._outbox.put(_CRASHED)  # wakes a poll() that waits without a timeout
            raise

    def _transmit(self, request: Request) -> None:
        self._inbox.put(request)

    def _receive(self, timeout: float | None) -> Event | None:
        try:
            item = self._outbox.get(timeout=timeout)
        except queue.Empty:
            if not self.alive:
                raise WorkerGone from None
            return None
        if item is _CRASHED:
            raise WorkerGone
        event: Event = item
        return event

    def _death_detail(self) -> str:
        return self._crash

    def _halt(self, timeout: float) -> None:
        if self.thread is not None:
            self._inbox.put(Shutdown())
            self.thread.join(timeout)
