"""Where a native crash leaves its trace: ``faulthandler`` writing into Settle's log folder.

Python's own errors reach the crash handler in :mod:`app.gui`, which rescues the text and says
what happened. A crash below Python (a segfault in Qt or torch, an abort) kills the process
before any handler runs; ``faulthandler`` still writes every thread's Python stack on the way
down. It writes to ``crash.log`` in the log folder, never beside the recovery snapshots: those
are documents the next start offers back, and a log there would be read as one.
"""

from __future__ import annotations

import faulthandler
import os
from pathlib import Path
from typing import TextIO

CRASH_LOG = "crash.log"
_open_log: TextIO | None = None  # kept open for the life of the process: faulthandler needs it


def default_log_dir() -> Path:
    """``$SETTLE_LOG_DIR``, else ``$XDG_STATE_HOME/settle/logs`` (``~/.local/state`` by default)."""
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(os.environ.get("SETTLE_LOG_DIR") or Path(state) / "settle" / "logs")


def enable_native_crash_log(folder: Path | None = None) -> Path | None:
    """Send fatal-signal tracebacks to ``crash.log``; returns its path, or ``None`` if the folder
    cannot be written (the app still starts: this is a diagnostic, not a feature)."""
    global _open_log
    path = (folder or default_log_dir()) / CRASH_LOG
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = path.open("a", encoding="utf-8")
    except OSError:
        return None
    if _open_log is not None:
        _open_log.close()
    _open_log = handle
    faulthandler.enable(file=handle, all_threads=True)
    return path
