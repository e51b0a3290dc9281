"""The client side of a remote engine: the :class:`WorkerClient` interface over a WebSocket.

:class:`RemoteWorker` is a drop-in for the local :class:`~engine.process.client.WorkerHandle`: the
window's async client and the CLI use it unchanged. It connects with the token in an
``Authorization`` header (TLS for ``wss://`` URLs, verified against the system's certificates or
a CA file), encodes requests with :mod:`engine.remote.wire`, and decodes and validates every
event on arrival; a message it cannot read becomes a ``Failed`` event, never a crash.

What the local worker does by itself, this client keeps doing: a new edit cancels this client's
previous one (latest wins, as before: the server itself queues every client's requests fairly),
and a lost connection is reported once as ``Failed(kind="worker-died")`` naming the host, so the
window shows its banner; :meth:`restart` reconnects. While polling it pings the server every
``ping_every_s`` and reports the round trip as an :class:`~engine.core.protocol.EngineLink` event.
A request too large for the server is refused here, before it is sent. Imports no torch.
"""

from __future__ import annotations

import queue
import threading
import time
from collections import deque
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from engine.core.protocol import (
    Cancel,
    Cancelled,
    Edit,
    EngineLink,
    Event,
    Failed,
    Fill,
    Proposal,
    Request,
    Shutdown,
)
from engine.process.client import WorkerClient, WorkerGone
from engine.remote.auth import SecurityError, client_tls
from engine.remote.wire import (
    EVENTS,
    MAX_MESSAGE_BYTES,
    PING,
    PONG,
    Link,
    WireError,
    decode,
    encode,
)

LOCAL_CHECK_S = 0.25  # how often a long wait looks for refusals made by the sender thread


def engine_host(url: str) -> str:
    """``host:port`` of an engine URL, refusing anything but ``ws://`` and ``wss://``."""
    parts = urlsplit(url)
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        raise SecurityError(
            f"An engine URL looks like ws://HOST:PORT or wss://HOST:PORT, not {url!r}"
        )
    return parts.netloc


class RemoteWorker(WorkerClient):
    """A remote engine behind the worker interface; see the module docstring."""

    def __init__(
        self,
        url: str,
        token: str,
        *,
        ca_file: Path | None = None,
        max_message_bytes: int = MAX_MESSAGE_BYTES,
        ping_every_s: float = 2.0,
        open_timeout_s: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        super().__init__()
        self.host = engine_host(url)
        self.url, self.token, self.ca_file = url, token, ca_file
        self.max_message_bytes = max_message_bytes
        self.ping_every_s, self.open_timeout_s, self.clock = ping_every_s, open_timeout_s, clock
        self.rtt_s: float | None = None
        self._ws: ClientConnection | None = None
        self._local: deque[Event] = deque()  # events made here (refusals), returned first
        self._open_edits: set[int] = set()
        self._edits_lock = threading.Lock()
        self._error = ""  # why connecting failed, when it did
        self._closed: ConnectionClosed | None = None
        self._next_ping = 0.0
        self._outgoing: queue.SimpleQueue[Request | None] = queue.SimpleQueue()
        self._sender: threading.Thread | None = None

    @property
    def alive(self) -> bool:
        return self._ws is not None and self._closed is None

    # --- connecting --------------------------------------------------------------------------
    def _spawn(self) -> None:
        self._ws, self._closed, self._error = None, None, ""
        self._local.clear()
        self._open_edits = set()
        self._next_ping = 0.0
        try:
            self._ws = connect(
                self.url,
                additional_headers={"Authorization": f"Bearer {self.token}"},
                ssl=client_tls(self.url, self.ca_file),
                max_size=self.max_message_bytes,
                open_timeout=self.open_timeout_s,
                close_timeout=2.0,  # closing never holds the window's exit for long
                proxy=None,
                legacy=True,  # a connection object, closed by _halt (not a with block)
            )
        except InvalidStatus as exc:
            body = exc.response.body.decode("utf-8", "replace").strip() if exc.response.body else ""
            self._error = f"The engine at {self.host} refused the connection: {body or exc}"
        except (OSError, InvalidHandshake, TimeoutError, SecurityError) as exc:
            self._error = f"Could not reach the engine at {self.host}: {exc}"
        if self._ws is not None:
            self._start_sender(self._ws)

    def _start_sender(self, ws: ClientConnection) -> None:
        """Requests leave from a thread of their own: encoding and sending a 20 MB document
        takes a good part of a second, which must not be the window's."""
        self._outgoing = queue.SimpleQueue()
        self._sender = threading.Thread(
            target=self._send_all, args=(ws, self._outgoing), name="settle-remote-requests"
        )
        self._sender.daemon = True
        self._sender.start()

    def _halt(self, timeout: float) -> None:
        ws, self._ws = self._ws, None
        self._outgoing.put(None)  # the sender ends once what was queued is out
        if self._sender is not None:
            self._sender.join(min(timeout, 2.0))
        if ws is not None:
            ws.close()

    def _death_message(self) -> str:
        if self._error:
            return self._error
        closed = self._closed
        if closed is not None and closed.rcvd is not None and closed.rcvd.code == 1009:
            return (
                f"The engine at {self.host} closed the connection: a message was larger than "
                "it accepts. Your text is safe; reconnect to continue."
            )
        return (
            f"Lost the connection to the engine at {self.host}. Your text is safe; "
            "reconnect to continue."
        )

    def _death_detail(self) -> str:
        return str(self._closed) if self._closed is not None else self._error

    # --- sending ----------------------------------------------------------------------------
    def _transmit(self, request: Request) -> None:
        if isinstance(request, Shutdown):
            self._halt(0.0)
            return
        if self._ws is None:
            raise OSError("not connected")
        self._outgoing.put(request)

    def _send_all(self, ws: ClientConnection, outgoing: queue.SimpleQueue[Request | None]) -> None:
        """The sender thread: requests in order until ``None``; a closed connection ends it
        (:meth:`poll` reports that)."""
        while (request := outgoing.get()) is not None:
            try:
                self._send_one(ws, request)
            except ConnectionClosed:
                return

    def _send_one(self, ws: ClientConnection, request: Request) -> None:
        text = encode(request)
        if isinstance(request, Edit | Fill):
            if not self._fits(request, text):
                return
            for stale in self._supersede(request.request_id):
                ws.send(encode(Cancel(stale)))
        ws.send(text)

    def _fits(self, request: Edit | Fill, text: str) -> bool:
        size = len(text.encode("utf-8"))
        if size <= self.max_message_bytes:
            return True
        message = (
            f"This document is too large to send to the engine at {self.host} "
            f"({size / 1e6:.1f} MB; it accepts {self.max_message_bytes / 1e6:.1f} MB). "
            "Nothing was changed."
        )
        self._local.append(Failed(request.request_id, "bad-request", message))
        return False

    def _supersede(self, request_id: int) -> set[int]:
        """Latest wins: the edits still open are cancelled before the new one is sent."""
        with self._edits_lock:
            stale, self._open_edits = self._open_edits - {request_id}, {request_id}
        return stale

    # --- receiving --------------------------------------------------------------------------
    def _receive(self, timeout: float | None) -> Event | None:
        if self._local:
            return self._local.popleft()
        ws = self._ws
        if ws is None or self._closed is not None:
            raise WorkerGone
        deadline = None if timeout is None else self.clock() + timeout
        while True:
            self._ping_if_due(ws)
            now = self.clock()
            wait = max(0.0, min(self._next_ping - now, LOCAL_CHECK_S))
            if deadline is not None:
                wait = max(0.0, min(wait, deadline - now))
            try:
                message = ws.recv(timeout=wait)
            except TimeoutError:
                if self._local:  # the sender thread refused a request meanwhile
                    return self._local.popleft()
                if deadline is not None and self.clock() >= deadline:
                    return None
                continue
            except ConnectionClosed as exc:
                self._closed = exc
                raise WorkerGone from exc
            event = self._read(message)
            if event is not None:
                return event

    def _ping_if_due(self, ws: ClientConnection) -> None:
        now = self.clock()
        if now < self._next_ping:
            return
        self._next_ping = now + self.ping_every_s
        try:
            ws.send(encode(Link(PING, now)))
        except ConnectionClosed as exc:
            self._closed = exc
            raise WorkerGone from exc

    def _read(self, message: str | bytes) -> Event | None:
        try:
            event = decode(message, EVENTS)
        except WireError as exc:
            text = f"The engine at {self.host} sent a message Settle cannot read ({exc})."
            return Failed(None, "internal", text)
        if isinstance(event, Link):
            if event.kind != PONG:
                return None
            self.rtt_s = max(0.0, self.clock() - event.stamp)
            return EngineLink(self.host, self.rtt_s)
        if isinstance(event, Proposal | Cancelled | Failed) and event.request_id is not None:
            with self._edits_lock:
                self._open_edits.discard(event.request_id)
        ev: Event = event
        return ev
