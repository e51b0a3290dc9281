"""The worker loop on a thread and in a spawned process: requests in, events out, errors contained.

Requests are paused at known denoising steps with :class:`StepGate` instead of timing anything.
The spawned-process tests share one tiny model folder and pay the torch import twice (start,
restart).
"""

from __future__ import annotations

import multiprocessing
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
import torch

from engine.core.config import SamplerSettings
from engine.core.errors import ModelLoadError
from engine.core.protocol import (
    Cancelled,
    DraftView,
    Edit,
    Event,
    Failed,
    Frame,
    LoadModel,
    LoadProgress,
    ModelReady,
    Proposal,
    Shutdown,
    Span,
)
from engine.process.client import ThreadWorker, WorkerClient, WorkerHandle
from engine.process.transport import ConnectionInbox
from engine.process.worker import serve
from engine.run.edit_run import run_edit
from tests.helpers.backends import llama_backend
from tests.helpers.worker_models import (
    HookedBackend,
    Loaded,
    StepGate,
    StepHook,
    raise_at,
    save_tiny_llama,
    tiny_info,
    worker_loader,
)

WAIT = 60.0  # seconds; generous, since a spawned worker imports torch and transformers
TEXT = "The quick brown fox jumps over the lazy dog."
LOCK = Span(TEXT.index("brown fox"), TEXT.index("brown fox") + len("brown fox"))
SETTINGS = SamplerSettings(steps=6, block_length=0)


def edit(request_id: int, settings: SamplerSettings = SETTINGS) -> Edit:
    return Edit(request_id, TEXT, Span(0, len(TEXT)), locks=(LOCK,), settings=settings)


def hooked_loader(hooks: dict[str, StepHook]) -> Callable[..., Loaded]:
    """A loader whose model name picks a step hook around the tiny Llama backend."""

    def load(request: LoadModel, progress: Callable[[LoadProgress], None]) -> Loaded:
        if request.model == "missing":
            raise ModelLoadError("There is no model called 'missing'.")
        progress(LoadProgress("loading weights", 1.0))
        backend = HookedBackend(llama_backend(), hooks.get(request.model, lambda _k: None))
        return Loaded(backend, tiny_info(request.model, backend))

    return load


def until_done(client: WorkerClient, request_id: int | None) -> list[Event]:
    """Events up to and including the one that ends ``request_id`` (or the model load)."""
    events: list[Event] = []
    for event in client.events(timeout=WAIT):
        events.append(event)
        if isinstance(event, Proposal | Cancelled | Failed) and event.request_id == request_id:
            return events
        if request_id is None and isinstance(event, ModelReady):
            return events
    raise AssertionError(f"request {request_id} did not finish: {events}")


def load(client: WorkerClient, model: str) -> list[Event]:
    client.send(LoadModel(model))
    return until_done(client, None)


@pytest.fixture
def gate() -> Iterator[StepGate]:
    gate = StepGate(at=2)
    yield gate
    gate.release.set()  # never leave a worker thread parked


@pytest.fixture
def worker(gate: StepGate) -> Iterator[ThreadWorker]:
    hooks = {
        "gated": gate,
        "oom": raise_at(2, lambda: torch.OutOfMemoryError("CUDA out of memory (simulated)")),
        "broken": raise_at(1, lambda: RuntimeError("boom")),
    }
    client = ThreadWorker(loader=hooked_loader(hooks))
    client.start()
    yield client
    client.stop()
    assert not client.alive


def assert_locks_hold(proposal: Proposal) -> None:
    assert proposal.locks == ("brown fox",)
    assert [s.text for s in proposal.segments if s.locked] == ["brown fox"]
    assert "brown fox" in proposal.text


# --- on a thread ----------------------------------------------------------------------------


def test_load_then_edit_streams_frames_then_a_proposal_whose_locks_hold(
    worker: ThreadWorker,
) -> None:
    loading = load(worker, "plain")
    assert isinstance(loading[0], LoadProgress) and isinstance(loading[-1], ModelReady)
    worker.send(edit(1))
    events = until_done(worker, 1)
    frames, proposal = events[:-1], events[-1]
    assert frames and all(isinstance(f, Frame) and f.request_id == 1 for f in frames)
    assert isinstance(proposal, Proposal) and proposal.request_id == 1
    assert_locks_hold(proposal)
    assert worker.running is None


def test_coalesced_frames_rebuild_exactly_the_draft_of_every_step(gate: StepGate) -> None:
    """With an interval that never passes, only the first frame and the flushed last one
    arrive, and they still add up to the same overlay as all frames would."""
    client = ThreadWorker(loader=hooked_loader({}), frame_interval_s=3600.0)
    client.start()
    try:
        load(client, "plain")
        client.send(edit(1))
        events = until_done(client, 1)
    finally:
        client.stop()
    delivered = [e for e in events if isinstance(e, Frame)]
    every = [e for e in run_edit(llama_backend(), edit(1)) if isinstance(e, Frame)]
    assert len(delivered) == 2 < len(every)
    assert delivered[-1].step == every[-1].step
    view_all, view_delivered = DraftView(), DraftView()
    for f in every:
        view_all.apply(f)
    for f in delivered:
        view_delivered.apply(f)
    assert view_delivered.tokens == view_all.tokens


def test_cancel_mid_request_ends_it_cancelled_and_the_next_request_works(
    worker: ThreadWorker, gate: StepGate
) -> None:
    load(worker, "gated")
    worker.send(edit(1))
    assert gate.reached.wait(WAIT)
    worker.cancel(1)
    gate.release.set()
    events = until_done(worker, 1)
    assert events[-1] == Cancelled(1)
    assert not any(isinstance(e, Proposal) for e in events)
    worker.send(edit(2))
    proposal = until_done(worker, 2)[-1]
    assert isinstance(proposal, Proposal)
    assert_locks_hold(proposal)


class TracedInbox(queue.Queue):  # type: ignore[type-arg]
    """Counts ``get`` calls: the reader calling for request n+1 has finished with request n."""

    def __init__(self) -> None:
        super().__init__()
        self.calls = 0
        self.changed = threading.Condition()

    def get(self, block: bool = True, timeout: float | None = None) -> object:
        with self.changed:
            self.calls += 1
            self.changed.notify_all()
        return super().get(block, timeout)

    def wait_calls(self, n: int) -> None:
        with self.changed:
            assert self.changed.wait_for(lambda: self.calls >= n, WAIT)


def test_a_new_edit_cancels_the_running_one_and_then_runs(gate: StepGate) -> None:
    inbox, outbox = TracedInbox(), queue.Queue()  # type: ignore[var-annotated]
    loop = threading.Thread(target=serve, args=(inbox, outbox, hooked_loader({"g": gate})))
    loop.start()
    try:
        inbox.put(LoadModel("g"))
        inbox.put(edit(1))
        assert gate.reached.wait(WAIT)
        inbox.put(edit(2))
        inbox.wait_calls(4)  # LoadModel, edit 1 and edit 2 have been read and recorded
        gate.release.set()
        ends = []
        while len(ends) < 2:
            event = outbox.get(timeout=WAIT)
            if isinstance(event, Proposal | Cancelled | Failed):
                ends.append(event)
    finally:
        inbox.put(Shutdown())
        loop.join(WAIT)
    assert ends[0] == Cancelled(1)
    assert isinstance(ends[1], Proposal) and ends[1].request_id == 2


def test_an_edit_before_any_model_fails_as_a_bad_request(worker: ThreadWorker) -> None:
    worker.send(edit(1))
    [failed] = until_done(worker, 1)
    assert isinstance(failed, Failed) and failed.kind == "bad-request"
    assert "No model is loaded" in failed.message


def test_a_failed_load_is_reported_and_the_worker_keeps_serving(worker: ThreadWorker) -> None:
    worker.send(LoadModel("missing"))
    failed = worker.poll(WAIT)
    assert failed == Failed(None, "model-load", "There is no model called 'missing'.")
    load(worker, "plain")
    worker.send(edit(1))
    assert isinstance(until_done(worker, 1)[-1], Proposal)


def test_out_of_memory_and_internal_errors_become_failures_and_serving_goes_on(
    worker: ThreadWorker,
) -> None:
    load(worker, "oom")
    worker.send(edit(1))
    oom = until_done(worker, 1)[-1]
    assert isinstance(oom, Failed) and oom.kind == "out-of-memory"
    assert "smaller" in oom.message and "simulated" in oom.detail
    load(worker, "broken")
    worker.send(edit(2))
    internal = until_done(worker, 2)[-1]
    assert isinstance(internal, Failed) and internal.kind == "internal"
    assert "boom" in internal.message
    assert "Traceback" in internal.detail and "RuntimeError: boom" in internal.detail
    load(worker, "plain")
    worker.send(edit(3))
    assert isinstance(until_done(worker, 3)[-1], Proposal)


def test_shutdown_cancels_the_running_edit_and_ends_the_loop_quietly(
    worker: ThreadWorker, gate: StepGate
) -> None:
    load(worker, "gated")
    worker.send(edit(1))
    assert gate.reached.wait(WAIT)
    worker.send(Shutdown())
    gate.release.set()
    assert until_done(worker, 1)[-1] == Cancelled(1)
    assert worker.thread is not None
    worker.thread.join(WAIT)
    assert not worker.alive
    assert worker.poll(0.1) is None  # an exit we asked for is not a death


def test_the_loop_ends_when_the_client_side_of_the_pipe_closes() -> None:
    """A worker whose window died (its pipe end closed) shuts down instead of lingering."""
    reader, writer = multiprocessing.Pipe(duplex=False)
    outbox: queue.Queue[Event] = queue.Queue()
    loop = threading.Thread(target=serve, args=(ConnectionInbox(reader), outbox))
    loop.start()
    writer.close()
    loop.join(WAIT)
    assert not loop.is_alive()


def test_the_client_module_imports_no_torch() -> None:
    code = "import sys, engine.process.client; assert 'torch' not in sys.modules, 'torch imported'"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).parents[2])


# --- in a spawned process -------------------------------------------------------------------


@pytest.fixture(scope="module")
def tiny_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_tiny_llama(tmp_path_factory.mktemp("models") / "tiny-llama")


@pytest.fixture(scope="module")
def handle() -> Iterator[WorkerHandle]:
    client = WorkerHandle(loader=worker_loader)
    client.start()
    yield client
    client.stop()
    assert not client.alive


def test_the_default_loader_loads_a_model_folder_with_progress(tiny_folder: Path) -> None:
    client = ThreadWorker()  # engine.models.loading.load, imported inside the loop
    client.start()
    try:
        loading = load(client, str(tiny_folder))
        client.send(edit(1))
        proposal = until_done(client, 1)[-1]
    finally:
        client.stop()
    *progress, ready = loading
    assert progress and all(isinstance(p, LoadProgress) for p in progress)
    assert isinstance(ready, ModelReady) and ready.info.family == "masked"
    assert isinstance(proposal, Proposal)
    assert_locks_hold(proposal)


def test_a_spawned_worker_loads_a_model_folder_and_proposes(
    handle: WorkerHandle, tiny_folder: Path
) -> None:
    assert isinstance(load(handle, str(tiny_folder))[-1], ModelReady)
    handle.send(edit(1))
    proposal = until_done(handle, 1)[-1]
    assert isinstance(proposal, Proposal)
    assert_locks_hold(proposal)


def test_a_killed_worker_is_reported_once_and_restart_serves_again(
    handle: WorkerHandle, tiny_folder: Path
) -> None:
    assert isinstance(load(handle, "tiny:hang")[-1], ModelReady)
    handle.send(edit(7))
    first = handle.poll(WAIT)
    assert isinstance(first, Frame) and first.request_id == 7  # the request is running
    assert handle.pid is not None
    os.kill(handle.pid, signal.SIGKILL)
    died = handle.poll(WAIT)
    assert isinstance(died, Failed) and died.kind == "worker-died"
    assert died.request_id == 7 and "SIGKILL" in died.detail
    assert handle.poll(0.1) is None and not handle.alive
    handle.restart(reload=False)
    assert isinstance(load(handle, str(tiny_folder))[-1], ModelReady)
    handle.send(edit(8))
    assert isinstance(until_done(handle, 8)[-1], Proposal)


def test_requests_leave_from_a_thread_of_their_own() -> None:
    """Pickling a 20 MB document into the pipe is never the caller's (the window's) time."""
    handle = WorkerHandle(loader=worker_loader)  # no model: the edit is answered "bad request"
    handle.start()
    senders: list[str] = []
    conn = handle._requests
    assert conn is not None
    original = conn.send

    def spy(request: object) -> None:
        senders.append(threading.current_thread().name)
        original(request)

    conn.send = spy  # type: ignore[method-assign]
    text = "A long document.\n\n" * 1_100_000  # about 20 MB
    handle.send(Edit(7, text, Span(100, 120)))
    try:
        failed = next(e for e in handle.events(timeout=60) if isinstance(e, Failed))
    finally:
        handle.stop()
    assert failed.request_id == 7 and failed.kind == "bad-request"
    assert set(senders) == {"settle-requests"}  # the edit, then the shutdown
