"""Loaders and backend wrappers for worker tests.

:class:`HookedBackend` wraps a real backend and calls a hook before every denoising step, so a
test can pause a request at a known step (to cancel it, supersede it or kill the process there)
or make a step fail, without timing anything. :func:`worker_loader` is a picklable loader for the
spawned worker: a folder loads the real way (``engine.models.loading.load``), and a few ``tiny:...``
names build the tiny Llama with a hook.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from engine.backends.base import Backend, StepResult
from engine.core.canvas import Canvas
from engine.core.config import SamplerSettings
from engine.core.errors import ModelLoadError
from engine.core.protocol import LoadModel, LoadProgress, ModelInfo

StepHook = Callable[[int], None]


class HookedBackend:
    """A backend that runs ``hook(k)`` before computing its step ``k`` (1-based)."""

    def __init__(self, inner: Backend, hook: StepHook) -> None:
        self.inner = inner
        self.hook = hook
        self.family = inner.family
        self.table = inner.table
        self.max_canvas_tokens = inner.max_canvas_tokens
        self.reader = inner.reader

    def denoise(self, canvas: Canvas, settings: SamplerSettings) -> Iterator[StepResult]:
        steps = self.inner.denoise(canvas, settings)
        try:
            for k in itertools.count(1):
                self.hook(k)
                result = next(steps, None)
                if result is None:
                    return
                yield result
        finally:
            close = getattr(steps, "close", None)
            if close is not None:
                close()


class StepGate:
    """A hook that stops at step ``at``: it says so (``reached``) and waits for ``release``."""

    def __init__(self, at: int = 1) -> None:
        self.at = at
        self.reached = threading.Event()
        self.release = threading.Event()

    def __call__(self, step: int) -> None:
        if step == self.at:
            self.reached.set()
            self.release.wait()


def raise_at(step: int, make_error: Callable[[], BaseException]) -> StepHook:
    def hook(k: int) -> None:
        if k == step:
            raise make_error()

    return hook


@dataclass
class Loaded:
    backend: Backend
    info: ModelInfo


def tiny_info(model_id: str, backend: Backend) -> ModelInfo:
    return ModelInfo(model_id, "tiny test model", backend.family, "cpu", 0)


def save_tiny_llama(folder: Path) -> Path:
    """The tiny Llama and its tokenizer as a model folder (safetensors), as a user would have."""
    from tests.helpers.tiny import tiny_llama, tiny_tokenizer

    folder.mkdir(parents=True, exist_ok=True)
    tiny_llama().save_pretrained(folder, safe_serialization=True)
    tiny_tokenizer().save_pretrained(folder)
    return folder


def load_folder(request: LoadModel, progress: Callable[[LoadProgress], None]) -> Loaded:
    """Load a model folder the way the app does."""
    from engine.models.loading import load

    loaded = load(request, progress)
    return Loaded(loaded.backend, loaded.info)


_NEVER = threading.Event()


def worker_loader(request: LoadModel, progress: Callable[[LoadProgress], None]) -> Loaded:
    """Picklable loader for the spawned worker.

    ``tiny:hang`` is the tiny Llama stuck before its first step (for killing the process
    mid-request); ``tiny:slow`` takes 40 ms a step and a second to load (so a kill lands mid-load
    or mid-draft); ``tiny:fail`` raises :class:`ModelLoadError`; anything else is a folder.
    """
    if request.model == "tiny:fail":
        raise ModelLoadError("There is no model called 'tiny:fail'.")
    if request.model == "tiny:slow":
        from tests.helpers.backends import llama_backend

        for share in (0.0, 0.5):
            progress(LoadProgress("loading weights", share, "Reading the tiny weights…"))
            time.sleep(0.5)
        backend = HookedBackend(llama_backend(), lambda _step: time.sleep(0.04))
        return Loaded(backend, tiny_info(request.model, backend))
    if request.model == "tiny:hang":
        from tests.helpers.backends import llama_backend

        backend = HookedBackend(llama_backend(), lambda _step: _NEVER.wait())
        return Loaded(backend, tiny_info(request.model, backend))
    return load_folder(request, progress)


def gated_loader(gate: StepGate) -> Callable[[LoadModel, Callable[[LoadProgress], None]], Loaded]:
    """A loader (for a :class:`ThreadWorker`) of the tiny Llama held by ``gate`` at its step."""

    def load(request: LoadModel, progress: Callable[[LoadProgress], None]) -> Loaded:
        from tests.helpers.backends import llama_backend

        progress(LoadProgress("loading weights", 1.0))
        backend = HookedBackend(llama_backend(), gate)
        return Loaded(backend, tiny_info(request.model, backend))

    return load
