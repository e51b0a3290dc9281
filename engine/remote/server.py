"""``settle serve``'s network side: WebSocket clients, a fair queue, one engine.

Each connection is a client with its own request ids. Requests are checked on arrival
(:mod:`engine.remote.wire`); a bad one is answered with a ``Failed(kind="bad-request")`` event
and the connection stays usable. Accepted edits and fills wait in a :class:`FairQueue` and run
one at a time on the :class:`EngineThread` under engine-wide ids; their events are routed back to
the client that asked, under its own ids. Each client hears its queue position (``Queued``; 0:
running now) whenever it changes.

Cancel works while queued (the request leaves the queue) and while running (the worker stops
before its next step). A client that disconnects loses only its own work: its running request is
cancelled. Loads: a client may ask what is loaded (``LoadModel("")`` or the loaded model's
name); switching to another model is queued like an edit only when the operator allowed it
(``--allow-model-switch``). A switch that fails leaves the old model serving: the worker drops a
model before loading the next (two may not fit), so the server loads the old one again before
anything else runs. The limits (message size, requests in flight per client, clients, idle time,
bytes waiting to be sent to a client) are in :class:`ServerConfig`.

What reaches a client is meant for it: an internal failure is a plain message and an error id,
its traceback goes to the server's log under that id; a client whose unsent messages pass
``max_outgoing_bytes`` is not reading them, and its connection is dropped.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import itertools
import logging
import ssl
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

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
    RankSuggestions,
    SuggestionsRanked,
)
from engine.process.coalesce import FRAME_INTERVAL_S
from engine.process.transport import Outbox
from engine.process.worker import Loader
from engine.remote.auth import Listen
from engine.remote.clients import MAX_OUTGOING_BYTES, Client, for_client, internal_failure
from engine.remote.engine_thread import EngineThread
from engine.remote.fairqueue import FairQueue, Job
from engine.remote.guard import Gatekeeper
from engine.remote.wire import (
    MAX_MESSAGE_BYTES,
    PING,
    PONG,
    REQUESTS,
    Link,
    WireError,
    decode,
)

log = logging.getLogger("settle.serve")

ERROR_ID_BYTES = 4  # 8 hex digits: enough to find one failure in a day's log


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
    max_outgoing_bytes: int = MAX_OUTGOING_BYTES


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
        self.authorize = Gatekeeper(
            config.token, lambda: len(self.clients) < config.max_clients, config.max_clients
        )
        self._restoring = False  # reloading the served model after a failed switch

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

    # --- connections (the HTTP checks before them: self.authorize, engine.remote.guard) ------
    async def handle(self, ws: ServerConnection) -> None:
        client = Client(next(self._numbers), ws, self.config.max_outgoing_bytes)
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
            if not client.dropped:
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
        """Answer one message; nothing it holds can end the connection or reach it as a trace."""
        try:
            request = decode(message, REQUESTS)
        except WireError as exc:
            text = f"The engine refused a message: {exc}"
            client.send(Failed(exc.request_id, "bad-request", text))
            return
        try:
            self._dispatch(client, request)
        except Exception as exc:  # a bug of ours: the client hears an id, the log the trace
            request_id = getattr(request, "request_id", None)
            client.send(internal_failure(request_id, exc=exc))

    def _dispatch(self, client: Client, request: Any) -> None:
        if isinstance(request, Link):
            if request.kind == PING:
                client.send(Link(PONG, request.stamp))
        elif isinstance(request, Cancel):
            self.cancel(client, request.request_id)
        elif isinstance(request, LoadModel):
            self.load(client, request)
        else:
            self.submit(client, request)

    def submit(self, client: Client, request: Edit | Fill | RankSuggestions) -> None:
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
        if isinstance(request, Edit | Fill | RankSuggestions):
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
        self.info, self._restoring = event.info, False
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
        if self._loaded is not None and not self._loaded.done():
            self._loaded.set_exception(RuntimeError(event.message))
        elif job is not None and self.info is not None and not self._restoring:
            # the worker dropped the old model before trying the new one: load it again first
            event = dataclasses.replace(
                event,
                message=f"{event.message} This engine goes on serving {self.info.display_name}.",
            )
            self._restoring = True
            restore = LoadModel(self.model_name, self.config.device, self.config.allow_remote_code)
            self.queue.add(Job(0, None, next(self._global_ids), restore), first=True)
        elif job is not None:
            if self._restoring:  # every client thought the old model was still there
                self._broadcast(for_client(event))
            self.info, self._restoring = None, False
        owner = self.clients.get(job.client) if job else None
        if owner is not None:
            owner.send(for_client(event))
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
        if isinstance(event, Failed):
            event = for_client(event)
        if owner is not None:
            owner.send(dataclasses.replace(event, request_id=job.local_id))
        if isinstance(event, Proposal | SuggestionsRanked | Cancelled | Failed):
            del self.jobs[job.global_id]
            if owner is not None and job.local_id is not None:
                owner.positions.pop(job.local_id, None)
            if self.queue.running is job:
                self.queue.finish()
            self._advance()

    def _broadcast(self, event: Event) -> None:
        for client in self.clients.values():
            client.send(event)
