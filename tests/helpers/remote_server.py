"""``settle serve`` for tests: the real flags, server and worker loop, with a gated loader.

Run as ``python -m tests.helpers.remote_server [settle serve flags]``. The model folder loads the
real way; requests whose seed is :data:`GATE_SEED` pause before their denoising step 2 until
the file named by ``$SETTLE_TEST_GATE`` exists, so a test can act mid-draft (cancel, kill a
client, kill the server) at a known point without timing anything. Every other seed runs freely.
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from engine.core.protocol import LoadModel, LoadProgress
from tests.helpers.worker_models import HookedBackend, Loaded, load_folder

GATE_SEED = 4242


def wait_for_gate(step: int) -> None:
    if step != 2:
        return
    gate = Path(os.environ["SETTLE_TEST_GATE"])
    while not gate.exists():
        time.sleep(0.005)


class SeedGate:
    """A backend that runs gated (:func:`wait_for_gate`) when the request's seed asks for it."""

    def __init__(self, inner: Any) -> None:
        self.inner = inner

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def denoise(self, canvas: Any, settings: Any) -> Iterator[Any]:
        if settings.seed == GATE_SEED:
            return HookedBackend(self.inner, wait_for_gate).denoise(canvas, settings)
        steps: Iterator[Any] = self.inner.denoise(canvas, settings)
        return steps


def gated_loader(request: LoadModel, progress: Callable[[LoadProgress], None]) -> Loaded:
    loaded = load_folder(request, progress)
    return Loaded(SeedGate(loaded.backend), loaded.info)  # type: ignore[arg-type]


def main(argv: list[str]) -> int:
    from app.cli import build_parser
    from app.serve_cli import run_serve

    return run_serve(build_parser().parse_args(["serve", *argv]), loader=gated_loader)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
