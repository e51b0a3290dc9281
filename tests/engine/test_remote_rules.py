"""The server's rules that need no model process: idle connections, the client limit, and
switching models (refused by default, queued and announced to everyone when the operator allows
it; a failed switch loads the old model again). The real server runs on a thread of this process
with the tiny Llama behind a test loader.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from engine.core.config import SamplerSettings
from engine.core.errors import ModelLoadError
from engine.core.protocol import (
    Edit,
    Event,
    Failed,
    LoadModel,
    LoadProgress,
    ModelReady,
    Proposal,
    Span,
)
from engine.remote.client import RemoteWorker
from tests.helpers.backends import llama_backend
from tests.helpers.remote import InProcessServer
from tests.helpers.worker_models import Loaded, tiny_info

WAIT = 60.0
TEXT = "Paris is the capital of France."


def until(worker: RemoteWorker, done: Callable[[Event], bool]) -> list[Event]:
    events: list[Event] = []
    deadline = time.monotonic() + WAIT  # pings keep events coming: bound the wait itself
    while time.monotonic() < deadline:
        event = worker.poll(1.0)
        if event is None:
            continue
        events.append(event)
        if done(event):
            return events
    raise AssertionError(f"no matching event: {events}")


def edit(request_id: int) -> Edit:
    settings = SamplerSettings(steps=4, block_length=0)
    return Edit(request_id, TEXT, Span(0, len(TEXT)), settings=settings)


class Recorder:
    """A loader that records what it was asked; ``missing`` fails like an absent model."""

    def __init__(self) -> None:
        self.requests: list[LoadModel] = []

    def __call__(self, request: LoadModel, progress: Callable[[LoadProgress], None]) -> Loaded:
        self.requests.append(request)
        if request.model == "missing":
            raise ModelLoadError("There is no model called 'missing'.")
        progress(LoadProgress("loading weights", 1.0))
        backend = llama_backend()
        return Loaded(backend, tiny_info(request.model, backend))


@pytest.fixture
def loader() -> Recorder:
    return Recorder()


@pytest.fixture
def switching(loader: Recorder) -> Iterator[InProcessServer]:
    server = InProcessServer(loader, allow_model_switch=True)
    yield server
    server.stop()


def test_an_idle_connection_is_closed_cleanly(loader: Recorder) -> None:
    server = InProcessServer(loader, idle_timeout_s=0.2)
    try:
        ws = connect(server.url, additional_headers={"Authorization": f"Bearer {server.token}"},
                     proxy=None, legacy=True)  # fmt: skip
        with pytest.raises(ConnectionClosed) as closed:
            ws.recv(timeout=WAIT)
        assert closed.value.rcvd is not None
        assert (closed.value.rcvd.code, closed.value.rcvd.reason) == (1000, "idle for too long")
    finally:
        server.stop()


def test_one_client_more_than_the_limit_is_refused(loader: Recorder) -> None:
    server = InProcessServer(loader, max_clients=1)
    first, second = RemoteWorker(server.url, server.token), RemoteWorker(server.url, server.token)
    try:
        first.start()
        first.send(LoadModel(""))
        assert isinstance(until(first, lambda e: isinstance(e, ModelReady))[-1], ModelReady)
        second.start()
        refused = second.poll(WAIT)
        assert isinstance(refused, Failed) and "already serves 1 clients" in refused.message
        first.send(edit(1))
        assert isinstance(until(first, lambda e: isinstance(e, Proposal))[-1], Proposal)
    finally:
        first.stop()
        server.stop()


def test_an_allowed_switch_is_announced_to_every_client(switching, loader: Recorder) -> None:
    alice = RemoteWorker(switching.url, switching.token)
    bob = RemoteWorker(switching.url, switching.token)
    alice.start()
    bob.start()
    try:
        alice.send(LoadModel("second", device="cuda", allow_remote_code=True))
        for worker in (alice, bob):
            ready = until(worker, lambda e: isinstance(e, ModelReady))[-1]
            assert isinstance(ready, ModelReady) and ready.info.model_id == "second"
        # the operator's device and consent apply, not the client's
        assert loader.requests[-1] == LoadModel("second", "cpu", False)
        bob.send(edit(1))
        assert isinstance(until(bob, lambda e: isinstance(e, Proposal))[-1], Proposal)
    finally:
        alice.stop()
        bob.stop()


def test_a_failed_switch_is_told_to_its_client_and_the_old_model_serves_on(
    switching, loader: Recorder
) -> None:
    alice = RemoteWorker(switching.url, switching.token)
    bob = RemoteWorker(switching.url, switching.token)
    alice.start()
    bob.start()
    try:
        alice.send(LoadModel("missing"))
        alice.send(edit(1))  # queued behind the switch
        failed = until(alice, lambda e: isinstance(e, Failed))[-1]
        assert isinstance(failed, Failed) and failed.kind == "model-load"
        assert "goes on serving" in failed.message
        served = until(alice, lambda e: isinstance(e, Proposal | Failed))[-1]
        assert isinstance(served, Proposal) and served.request_id == 1
        assert [r.model for r in loader.requests] == ["first", "missing", "first"]
        bob.send(edit(2))
        assert isinstance(until(bob, lambda e: isinstance(e, Proposal | Failed))[-1], Proposal)
        bob.send(LoadModel(""))
        ready = until(bob, lambda e: isinstance(e, ModelReady | Failed))[-1]
        assert isinstance(ready, ModelReady) and ready.info.model_id == "first"
    finally:
        alice.stop()
        bob.stop()


class FailsTwice(Recorder):
    """Fails the switch, and then the reload of the old model too (its files went away)."""

    def __call__(self, request: LoadModel, progress: Callable[[LoadProgress], None]) -> Loaded:
        if len(self.requests) >= 1:
            self.requests.append(request)
            raise ModelLoadError(f"There is no model called {request.model!r}.")
        return super().__call__(request, progress)


def test_when_the_old_model_cannot_load_again_no_model_is_served() -> None:
    loader = FailsTwice()
    server = InProcessServer(loader, allow_model_switch=True)
    alice = RemoteWorker(server.url, server.token)
    alice.start()
    try:
        alice.send(LoadModel("other"))
        switch = until(alice, lambda e: isinstance(e, Failed))[-1]
        assert isinstance(switch, Failed) and "'other'" in switch.message
        reload = until(alice, lambda e: isinstance(e, Failed))[-1]
        assert isinstance(reload, Failed) and "'first'" in reload.message  # told to everyone
        alice.send(LoadModel(""))
        nothing = until(alice, lambda e: isinstance(e, Failed))[-1]
        assert isinstance(nothing, Failed) and "No model is loaded" in nothing.message
        assert [r.model for r in loader.requests] == ["first", "other", "first"]
    finally:
        alice.stop()
        server.stop()
