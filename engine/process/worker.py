"""The worker loop: owns the model, runs requests one at a time, streams events back.

:func:`serve` is transport-agnostic. Its ``inbox`` needs only ``get()`` (raising ``EOFError`` or
``OSError`` when the other side is gone), its ``outbox`` only ``put(event)``: :mod:`multiprocessing`
pipes in a spawned process (:func:`process_main`) and ``queue.Queue`` on a thread in-process both
fit. Cancel has one mechanism: a ``Cancel`` request, which the reader records in
:class:`Control` as soon as it arrives (it never waits behind a running request).

Three threads share the work, so neither reading requests nor writing events ever waits on a
forward pass:

* a *reader* drains the inbox into a local queue and decides, as each request arrives, what it
  cancels: a newer ``Edit``/``Fill`` or a ``LoadModel`` supersedes the running one (latest
  request wins), a ``Cancel`` names one, ``Shutdown`` ends everything; a spelling menu's
  ``RankSuggestions`` cancels nothing, but a newer one drops an older one still waiting;
* the *main* loop runs one request at a time; the pipeline checks :meth:`Control.superseded`
  before every denoising step;
* a *sender* (:class:`~engine.process.transport.Sender`) coalesces frames (at most one per ~16 ms)
and
  writes events out.

Heavy imports (torch via :mod:`engine.run.edit_run`, transformers via the loader) happen inside the
worker, at the first request that needs them, never when this module is imported.
"""

from __future__ import annotations

import gc
import logging
import multiprocessing.util as mp_util
import os
import queue
import sys
import threading
import time
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from typing import TYPE_CHECKING, Protocol

from engine.core.errors import BadRequest, SettleError
from engine.core.protocol import (
    Cancel,
    Cancelled,
    Edit,
    Failed,
    Fill,
    LoadModel,
    LoadProgress,
    ModelInfo,
    ModelReady,
    RankSuggestions,
    Request,
    Shutdown,
)
from engine.process.coalesce import FRAME_INTERVAL_S
from engine.process.load_progress import quiet_progress_bars
from engine.process.transport import ConnectionInbox, ConnectionOutbox, Inbox, Outbox, Sender

if TYPE_CHECKING:
    from engine.backends.base import Backend

log = logging.getLogger(__name__)

NO_MODEL = "No model is loaded yet. Pick a model first, then try again."
OOM_ADVICE = (
    "The model needs more memory than this device has free. Try a shorter selection, a "
    "smaller context (fewer context tokens), fewer steps, or a smaller model."
)


class Loaded(Protocol):
    """What a loader returns (``engine.models.registry.LoadedModel``)."""

    @property
    def backend(self) -> Backend: ...

    @property
    def info(self) -> ModelInfo: ...


Loader = Callable[[LoadModel, Callable[[LoadProgress], None]], Loaded]


@dataclass
class Control:
    """What the reader decided and the main loop obeys; every field is guarded by ``lock``."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    latest_edit: Edit | Fill | None = None  # the only edit allowed to run; identity, not id
    # The only ranking worth running: a menu asks again for each word it opens on.
    latest_rank: RankSuggestions | None = None
    live: set[int] = field(default_factory=set)  # ids of edits received and not yet finished
    cancelled: set[int] = field(default_factory=set)
    stopping: bool = False

    def superseded(self, edit: Edit | Fill) -> bool:
        with self.lock:
            return (
                self.stopping or self.latest_edit is not edit or edit.request_id in self.cancelled
            )

    def rank_wanted(self, request: RankSuggestions) -> bool:
        with self.lock:
            return not self.stopping and self.latest_rank is request

    def finished(self, edit: Edit | Fill) -> None:
        with self.lock:
            self.live.discard(edit.request_id)
            self.cancelled.discard(edit.request_id)


def read_requests(inbox: Inbox, local: queue.Queue[Request], control: Control) -> None:
    """Reader thread: forward requests to the main loop, recording what each one cancels."""
    while True:
        try:
            request = inbox.get()
        except (EOFError, OSError):  # the client is gone: nobody to serve
            request = Shutdown()
        except Exception:
            # An unreadable message must not leave the main loop waiting forever on a dead
            # reader: end the worker, which the client reports as died and can restart.
            log.exception("unreadable request; shutting the worker down")
            request = Shutdown()
        with control.lock:
            if isinstance(request, Edit | Fill):
                control.latest_edit = request
                control.live.add(request.request_id)
            elif isinstance(request, RankSuggestions):
                control.latest_rank = request  # cancels nothing: a ranking is one short read
            elif isinstance(request, LoadModel):
                control.latest_edit = None  # an edit on the old model is no longer wanted
            elif isinstance(request, Cancel):
                if request.request_id in control.live:
                    control.cancelled.add(request.request_id)
                continue
            elif isinstance(request, Shutdown):
                control.stopping = True
        local.put(request)
        if isinstance(request, Shutdown):
            return


class Worker:
    """The main loop's state: the loaded backend and the request being run."""

    def __init__(self, sender: Sender, control: Control, loader: Loader) -> None:
        self.sender = sender
        self.control = control
        self.loader = loader
        self.backend: Backend | None = None

    def handle(self, request: Request) -> None:
        request_id = (
            request.request_id if isinstance(request, Edit | Fill | RankSuggestions) else None
        )
        try:
            if isinstance(request, LoadModel):
                self.load(request)
            elif isinstance(request, Edit | Fill):
                self.edit(request)
            elif isinstance(request, RankSuggestions):
                self.rank(request)
            else:
                raise BadRequest(f"The worker does not understand {type(request).__name__}.")
        except Exception as exc:  # every failure becomes an event; the loop keeps serving
            self.sender.put(failure(exc, request_id))
        finally:
            if isinstance(request, Edit | Fill):
                self.control.finished(request)

    def load(self, request: LoadModel) -> None:
        if self.control.stopping:
            return
        # Drop the old model first: two models at once may not fit on the device. So after a
        # failed load no model is loaded, and edits fail with NO_MODEL until one is.
        self.backend = None
        release_memory()
        loaded = self.loader(request, self.sender.put)
        self.backend = loaded.backend
        self.sender.put(ModelReady(loaded.info))

    def edit(self, edit: Edit | Fill) -> None:
        """Run an edit or a structured fill (answered alike: frames, then a proposal)."""
        from engine.run.edit_run import run_edit  # torch: only inside the worker
        from engine.structured.fill import run_fill

        if self.control.superseded(edit):
            self.sender.put(Cancelled(edit.request_id))
            return
        if self.backend is None:
            self.sender.put(Failed(edit.request_id, "bad-request", NO_MODEL))
            return

        def cancelled() -> bool:
            return self.control.superseded(edit)

        events = (
            run_fill(self.backend, edit, cancelled=cancelled)
            if isinstance(edit, Fill)
            else run_edit(self.backend, edit, cancelled=cancelled)
        )
        for event in events:
            self.sender.put(event)

    def rank(self, request: RankSuggestions) -> None:
        """Answer a spelling menu's ranking, unless a newer one came while it waited (that
        menu is gone: ``Cancelled``); a menu opened during an edit is answered after it."""
        from engine.run.suggestions import rank_suggestions  # torch: only inside the worker

        if not self.control.rank_wanted(request):
            self.sender.put(Cancelled(request.request_id))
            return
        if self.backend is None:
            self.sender.put(Failed(request.request_id, "bad-request", NO_MODEL))
            return
        self.sender.put(rank_suggestions(self.backend, request))


def failure(exc: Exception, request_id: int | None) -> Failed:
    """The event a failed request ends with: user wording for known errors, traceback otherwise."""
    if isinstance(exc, SettleError):
        return Failed(request_id, exc.kind, str(exc))
    if is_out_of_memory(exc):
        release_memory()
        return Failed(request_id, "out-of-memory", OOM_ADVICE, detail=str(exc))
    log.error("request %s failed", request_id, exc_info=exc)
    detail = "".join(traceback.format_exception(exc))
    message = f"Internal error ({type(exc).__name__}: {exc}). The editor is fine; please retry."
    return Failed(request_id, "internal", message, detail=detail)


def is_out_of_memory(exc: BaseException) -> bool:
    if isinstance(exc, MemoryError):
        return True
    torch = sys.modules.get("torch")  # no torch loaded means no torch OOM
    oom = getattr(torch, "OutOfMemoryError", None) if torch is not None else None
    return oom is not None and isinstance(exc, oom)


def release_memory() -> None:
    """Return freed model memory to the system (and the CUDA cache) before loading another."""
    gc.collect()
    torch = sys.modules.get("torch")
    if torch is not None and torch.cuda.is_available() and torch.cuda.is_initialized():
        torch.cuda.empty_cache()


def default_loader(request: LoadModel, progress: Callable[[LoadProgress], None]) -> Loaded:
    from engine.models.loading import load  # transformers: only inside the worker

    result: Loaded = load(request, progress)
    return result


def serve(
    inbox: Inbox,
    outbox: Outbox,
    loader: Loader | None = None,
    *,
    frame_interval_s: float = FRAME_INTERVAL_S,
    clock: Callable[[], float] = time.monotonic,
) -> None:
    """Serve requests until ``Shutdown`` (or until the inbox reports its other end gone)."""
    control = Control()
    local: queue.Queue[Request] = queue.Queue()
    reader = threading.Thread(
        target=read_requests, args=(inbox, local, control), name="settle-reader", daemon=True
    )
    sender = Sender(outbox, frame_interval_s, clock)
    worker = Worker(sender, control, loader or default_loader)
    reader.start()
    try:
        while not isinstance(request := local.get(), Shutdown):
            worker.handle(request)
    finally:
        sender.close()


# --- the spawned process ---------------------------------------------------------------------


def process_main(
    requests: Connection,
    events: Connection,
    loader: Loader | None = None,
    frame_interval_s: float = FRAME_INTERVAL_S,
) -> None:
    """Entry point of the spawned worker process.

    After a clean shutdown it leaves with ``os._exit``: every event has been written by then,
    and tearing down an interpreter that holds torch and transformers took ~1.5 s of the
    window's exit (or a restart) on a 2-core machine. multiprocessing's own exit hook still runs
    first, so semaphores that libraries created here (tqdm's lock) are released, not leaked.
    """
    logging.basicConfig(level=logging.INFO, format="settle-worker %(levelname)s %(message)s")
    from engine.process.runtime import (
        configure_threads,  # imports torch: warm before the first request
    )

    quiet_progress_bars()
    configure_threads()
    serve(
        ConnectionInbox(requests),
        ConnectionOutbox(events),
        loader,
        frame_interval_s=frame_interval_s,
    )
    logging.shutdown()
    mp_util._exit_function()  # type: ignore[attr-defined]  # what Process._bootstrap runs
    sys.stdout.flush()
    sys.stderr.flush()
    events.close()
    os._exit(0)
