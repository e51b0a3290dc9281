"""``settle serve``'s network side: WebSocket clients, a fair queue, one engine.

Each connection is a client with its own request ids. Requests are checked on arrival
(:mod:`engine.remote.wire`); a bad one is answered with a ``Failed(kind="bad-request")`` event
and the connection stays usable. Accepted edits and fills wait in a :class:`FairQueue` and run
one at a time on the :class:`EngineThread` under engine-wide ids; their events are routed back to
the client that asked, under its own ids. Each client hears its queue position (``Queued``; 0:
running now) whenever it changes.

Cancel works while queued (the request leaves the queue) and while running (the worker stops
before its next step). A client that disconnects loses only its own work. Loads: a client may
ask what is loaded (``LoadModel("")`` or the loaded model's name); switching to another model is
queued like an edit only when the operator allowed it (``--allow-model-switch``). The limits
(message size, requests in flight per client, clients, idle time) are in :class:`ServerConfig`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import http
import itertools
import logging
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed
from websockets.http11 import Request as HttpRequest
from websockets.http11 import Response as HttpResponse

from engine.core.protocol import (
    Cancel,
    Cancelled,
    Edit,
    Event,
    Failed,
    Fill,
    LoadModel,
    LoadProgress,
    ModelInfo,
    ModelReady,
    Proposal,
    Queued,
)
from engine.process.coalesce import FRAME_INTERVAL_S
from engine.process.transport import Outbox
from engine.process.worker import Loader
from engine.remote.auth import Listen, token_matches
from engine.remote.engine_thread import EngineThread
from engine.remote.fairqueue import FairQueue, Job
from engine.remote.wire import (
    MAX_MESSAGE_BYTES,
    PING,
    PONG,
    REQUESTS,
    Link,
    WireError,
    decode,
    encode,
)

log = logging.getLogger("settle.serve")


@dataclass(frozen=True)
class ServerConfig:
    model: str
    token: str
    device: str = "auto"
    listen: Listen = field(default_factory=lambda: Listen("127.0.0.1", 8765))
    tls: ssl.SSLContext | None = None
    allow_model_switch: bool = False
    allow_remote_code: bool = False
    max_message_bytes: int = MAX_MESSAGE_BYTES
    max_in_flight: int = 4
    max_clients: int = 32
    idle_timeout_s: float = 600.0
    frame_interval_s: float = FRAME_INTERVAL_S


class Client:
    """One connection: an outgoing queue written by its own task, so events keep their order."""

    def __init__(self, number: int, ws: ServerConnection) -> None:
        self.number = number
        self.ws = ws
        self.outgoing: asyncio.Queue[str] = asyncio.Queue()
        self.positions: dict[int, int] = {}  # last queue position told, per request id

    def send(self, message: Event | Link) -> None:
        self.outgoing.put_nowait(encode(message))

    async def write(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                await self.ws.send(await self.outgoing.get())


class RemoteServer:
    """The clients, the queue and the engine; every method runs on the server's event loop."""

    def __init__(self, config: ServerConfig, loader: Loader | None = None) -> None:
        self.config = config
        self.loader = loader
        self.clients: dict[int, Client] = {}
        self.queue = FairQueue()
        self.jobs: dict[int, Job] = {}  # global id → job, while it runs
        self.info: ModelInfo | None = None
        self.model_name = config.model  # what the last successful load was asked for
        self._numbers = itertools.count(1)
        self._global_ids = itertools.count(1)
        self._loaded: asyncio.Future[ModelInfo] | None = None
        self.engine: EngineThread | None = None
        self.wrap_outbox: Callable[[Outbox], Outbox] | None = None  # benchmarks stamp frames

    # --- start and stop -------------------------------------------------------------------
    async def load_first_model(self) -> ModelInfo:
        """Start the engine and load the configured model (raises RuntimeError if it fails)."""
        loop = asyncio.get_running_loop()
        self.engine = EngineThread(
            loop, self.on_event, self.loader, self.config.frame_interval_s, self.wrap_outbox
        )
        self.engine.start()
        self._loaded = loop.create_future()
        self._enqueue(0, None, LoadModel(self.config.model, self.config.device))
        return await self._loaded

    def close(self) -> None:
        if self.engine is not None:
            self.engine.stop()

    # --- connections ------------------------------------------------------------------------
    def authorize(self, connection: ServerConnection, request: HttpRequest) -> HttpResponse | None:
        """websockets' ``process_request``: refuse before the handshake completes."""
        header = request.headers.get("Authorization", "")
        offered = header[len("Bearer ") :] if header.startswith("Bearer ") else None
        if offered is None:
            return connection.respond(
                http.HTTPStatus.UNAUTHORIZED,
                "This Settle engine needs a token (Authorization: Bearer ...).\n",
            )
        if not token_matches(self.config.token, offered):
            log.warning("refused a connection from %s: wrong token", connection.remote_address)
            return connection.respond(http.HTTPStatus.UNAUTHORIZED, "The token is not right.\n")
        if len(self.clients) >= self.config.max_clients:
            return connection.respond(
                http.HTTPStatus.SERVICE_UNAVAILABLE,
                f"This engine already serves {self.config.max_clients} clients; try later.\n",
            )
        return None

    async def handle(self, ws: ServerConnection) -> None:
        client = Client(next(self._numbers), ws)
        self.clients[client.number] = client
        writer = asyncio.create_task(client.write())
        log.info("client %d connected from %s", client.number, ws.remote_address)
        try:
            await self._read(client)
        finally:
            self._drop(client)
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer

    async def _read(self, client: Client) -> None:
        while True:
            try:
                message = await asyncio.wait_for(client.ws.recv(), self.config.idle_timeout_s)
            except TimeoutError:
                if self.queue.in_flight(client.number):
                    continue  # waiting for its result is not idling
                await client.ws.close(1000, "idle for too long")
                return
            except ConnectionClosed as closed:
                log.info("client %d left (%s)", client.number, closed)
                return
            self.receive(client, message)

    def _drop(self, client: Client) -> None:
        del self.clients[client.number]
        dropped = self.queue.drop_client(client.number)
        running = self.queue.running
        mine = running is not None and running.client == client.number
        if mine and running is not None and running.local_id is not None and self.engine:
            self.engine.cancel(running.global_id)
            dropped.append(running)
        if dropped:
            log.info("client %d: cancelled %d request(s)", client.number, len(dropped))
        self._tell_positions()

    # --- requests ---------------------------------------------------------------------------
    def receive(self, client: Client, message: str | bytes) -> None:
        try:
            request = decode(message, REQUESTS)
        except WireError as exc:
            text = f"The engine refused a message: {exc}"
            client.send(Failed(exc.request_id, "bad-request", text))
            return
        if isinstance(request, Link):
            if request.kind == PING:
                client.send(Link(PONG, request.stamp))
        elif isinstance(request, Cancel):
            self.cancel(client, request.request_id)
        elif isinstance(request, LoadModel):
            self.load(client, request)
        else:
            self.submit(client, request)

    def submit(self, client: Client, request: Edit | Fill) -> None:
        local_id = request.request_id
        problem = self._refusal(client, local_id)
        if problem:
            client.send(Failed(local_id, "bad-request", problem))
            return
        self._enqueue(client.number, local_id, request)

    def _refusal(self, client: Client, local_id: int | None) -> str:
        if local_id is not None and self.queue.holds(client.number, local_id):
            return f"Request {local_id} is already queued or running."
        if self.queue.in_flight(client.number) >= self.config.max_in_flight:
            return (
                f"Too many requests in flight (at most {self.config.max_in_flight} per client): "
                "wait for one to finish, or cancel one."
            )
        return ""

    def load(self, client: Client, request: LoadModel) -> None:
        loaded = self.info is not None and request.model in ("", self.model_name)
        if self.info is not None and (loaded or request.model == self.info.model_id):
            client.send(ModelReady(self.info))
            return
        if request.model == "":  # "whatever the engine serves", and it serves nothing
            client.send(Failed(None, "model-load", "No model is loaded on this engine."))
            return
        if not self.config.allow_model_switch:
            serving = self.info.display_name if self.info else self.model_name
            client.send(
                Failed(
                    None,
                    "bad-request",
                    f"This engine serves {serving}; its operator has not allowed clients to "
                    "switch models (settle serve --allow-model-switch).",
                )
            )
            return
        problem = self._refusal(client, None)
        if problem:
            client.send(Failed(None, "bad-request", problem))
            return
        load = LoadModel(request.model, self.config.device, self.config.allow_remote_code)
        self._enqueue(client.number, None, load)

    def cancel(self, client: Client, local_id: int) -> None:
        if self.queue.remove(client.number, local_id) is not None:
            client.positions.pop(local_id, None)
            client.send(Cancelled(local_id))
            self._tell_positions()
            return
        running = self.queue.running
        if running and (running.client, running.local_id) == (client.number, local_id):
            assert self.engine is not None
            self.engine.cancel(running.global_id)

    def _enqueue(self, client: int, local_id: int | None, request: Any) -> None:
        global_id = next(self._global_ids)
        if isinstance(request, Edit | Fill):
            request = dataclasses.replace(request, request_id=global_id)
        self.queue.add(Job(client, local_id, global_id, request))
        self._advance()

    def _advance(self) -> None:
        job = self.queue.take()
        if job is not None:
            assert self.engine is not None
            self.jobs[job.global_id] = job
            self.engine.submit(job.request)
        self._tell_positions()

    def _tell_positions(self) -> None:
        positions = self.queue.positions()
        running = self.queue.running
        if running is not None and running.local_id is not None:
            positions[(running.client, running.local_id)] = 0
        for (number, local_id), position in positions.items():
            client = self.clients.get(number)
            if client is not None and client.positions.get(local_id) != position:
                client.positions[local_id] = position
                client.send(Queued(local_id, position))

    # --- events from the engine -------------------------------------------------------------
    def on_event(self, event: Event) -> None:
        if isinstance(event, LoadProgress):
            self._broadcast(event)
            log.info("%s %s", event.stage, event.message)
        elif isinstance(event, ModelReady):
            self._model_ready(event)
        elif isinstance(event, Failed) and event.request_id is None:
            self._load_failed(event)
        else:
            self._route(event)

    def _model_ready(self, event: ModelReady) -> None:
        self.info = event.info
        job = self._finish_load()
        if job is not None:
            assert isinstance(job.request, LoadModel)
            self.model_name = job.request.model
        self._broadcast(event)
        if self._loaded is not None and not self._loaded.done():
            self._loaded.set_result(event.info)
        self._advance()

    def _load_failed(self, event: Failed) -> None:
        job = self._finish_load()
        if job is not None:  # the worker dropped the old model before trying the new one
            self.info = None
        owner = self.clients.get(job.client) if job else None
        if owner is not None:
            owner.send(event)
        if self._loaded is not None and not self._loaded.done():
            self._loaded.set_exception(RuntimeError(event.message))
        self._advance()

    def _finish_load(self) -> Job | None:
        running = self.queue.running
        if running is None or not isinstance(running.request, LoadModel):
            return None
        self.jobs.pop(running.global_id, None)
        return self.queue.finish()

    def _route(self, event: Any) -> None:
        job = self.jobs.get(event.request_id)
        if job is None:
            return
        owner = self.clients.get(job.client)
        if owner is not None:
            owner.send(dataclasses.replace(event, request_id=job.local_id))
        if isinstance(event, Proposal | Cancelled | Failed):
            del self.jobs[job.global_id]
            if owner is not None and job.local_id is not None:
                owner.positions.pop(job.local_id, None)
            if self.queue.running is job:
                self.queue.finish()
            self._advance()

    def _broadcast(self, event: Event) -> None:
        for client in self.clients.values():
            client.send(event)
