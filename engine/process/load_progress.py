"""Load progress goes to Settle's own display, never to a terminal bar on the window's stderr.

Libraries report progress with tqdm: transformers' "Loading weights" bar while it reads a
checkpoint. In the worker process those bars would spill onto the window's stderr, and tqdm's
default lock is a multiprocessing semaphore that a killed worker leaks (the "leaked semaphore"
warning on quit). :func:`quiet_progress_bars` turns both off for the process;
:func:`weights_progress` reports transformers' weight-reading loop as
:class:`engine.core.protocol.LoadProgress` events instead, for the status bar's progress display.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable, Iterator, Sized
from contextlib import contextmanager
from typing import Any

from engine.core.protocol import LoadProgress

Progress = Callable[[LoadProgress], None]
STAGE = "loading weights"
REPORT_EVERY = 8  # tensors between two reports: enough for a smooth bar, few events


def quiet_progress_bars() -> None:
    """No tqdm bar writes to stderr, and tqdm's lock is a thread lock, not a semaphore."""
    os.environ["TQDM_DISABLE"] = "1"
    import tqdm

    tqdm.tqdm.set_lock(threading.RLock())


class ReportingBar:
    """Enough of tqdm's interface for transformers' loops: iterate, ``update``, ``close``."""

    def __init__(
        self,
        iterable: Iterable[Any] | None = None,
        *_args: Any,
        progress: Progress,
        message: str,
        total: float | None = None,
        **_kwargs: Any,
    ) -> None:
        self.iterable, self.progress, self.message = iterable, progress, message
        if total is None and isinstance(iterable, Sized):
            total = len(iterable)
        self.total, self.n, self._reported = total, 0, -REPORT_EVERY

    def __iter__(self) -> Iterator[Any]:
        for item in self.iterable or ():
            yield item
            self.update(1)

    def update(self, count: float = 1) -> None:
        self.n += int(count)
        if self.total and (self.n - self._reported >= REPORT_EVERY or self.n >= self.total):
            self._reported = self.n
            share = min(1.0, self.n / self.total)
            self.progress(LoadProgress(STAGE, share, self.message))

    def close(self) -> None:
        """Nothing to tear down (tqdm's interface)."""

    def set_postfix(self, *_args: Any, **_kwargs: Any) -> None:
        """Ignored (tqdm's interface)."""

    def __enter__(self) -> ReportingBar:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()


@contextmanager
def weights_progress(progress: Progress, message: str) -> Iterator[None]:
    """While inside, transformers' weight-loading bar reports to ``progress`` instead."""
    from transformers import core_model_loading

    original = getattr(core_model_loading, "tqdm", None)

    def bar(*args: Any, **kwargs: Any) -> ReportingBar:
        return ReportingBar(*args, progress=progress, message=message, **kwargs)

    setattr(core_model_loading, "tqdm", bar)  # noqa: B010  (a module attribute, swapped)
    try:
        yield
    finally:
        if original is not None:
            setattr(core_model_loading, "tqdm", original)  # noqa: B010
