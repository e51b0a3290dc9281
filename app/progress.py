"""Progress of a long CLI run on stderr: model loading, the passes' reads, denoising steps.

Anything that takes more than a second shows where it is. On a terminal the line is rewritten
in place (every step); in a log or a pipe a line is printed when a stage starts and then at
most once a second, so a 20 MB document's edit shows it is moving without flooding the log.
Quick runs print nothing beyond the stage lines.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import TextIO

from engine.core.protocol import Frame, LoadProgress
from ui.wording import stage_text

QUIET_S = 1.0  # nothing but stage changes before this, and one line per this in a log


class StderrProgress:
    """Prints :class:`LoadProgress` and step :class:`Frame` progress; call :meth:`end` after."""

    def __init__(
        self, stream: TextIO | None = None, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._stream = stream
        self.clock = clock
        self.started = self.last_line = clock()
        self.stage = ""
        self.in_place = False  # a terminal line is waiting for its newline

    def restart(self) -> None:
        """A new run begins: its first second is quiet again."""
        self.started = self.last_line = self.clock()
        self.stage = ""

    @property
    def stream(self) -> TextIO:
        return self._stream or sys.stderr  # looked up late: tests swap sys.stderr

    @property
    def tty(self) -> bool:
        return self.stream.isatty()

    def load(self, progress: LoadProgress) -> None:
        share = f" {progress.fraction:.0%}" if progress.fraction >= 0 else ""
        line = f"# {progress.stage}{share} {progress.message}".rstrip()
        if progress.stage != self.stage:
            self.stage = progress.stage
            self._line(line)
        elif self.tty or self._due():
            self._line(line, in_place=self.tty)

    def step(self, frame: Frame) -> None:
        if self.tty or self._due():
            elapsed = self.clock() - self.started
            doing = stage_text(frame) or f"step {frame.step}/{frame.max_steps}"
            self._line(f"# {doing} ({elapsed:.0f} s)", self.tty)

    def end(self) -> None:
        if self.in_place:
            print(file=self.stream, flush=True)
            self.in_place = False

    def _due(self) -> bool:
        now = self.clock()
        return now - self.started >= QUIET_S and now - self.last_line >= QUIET_S

    def _line(self, text: str, in_place: bool = False) -> None:
        if in_place:
            print(f"\r{text}\x1b[K", end="", file=self.stream, flush=True)
        else:
            self.end()
            print(text, file=self.stream, flush=True)
        self.in_place = in_place
        self.last_line = self.clock()


PROGRESS = StderrProgress()  # the CLI's one reporter (a CLI process runs one request)
