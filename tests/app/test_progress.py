"""CLI progress on stderr: quiet for a quick run, a line a second in a log, stage lines always."""

from __future__ import annotations

import io

from app.progress import StderrProgress
from engine.core.protocol import Frame, LoadProgress


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def frame(step: int) -> Frame:
    return Frame(1, step, 32, 0, ())


def test_a_log_gets_stage_lines_then_one_step_line_a_second() -> None:
    out, clock = io.StringIO(), Clock()
    progress = StderrProgress(out, clock)
    progress.load(LoadProgress("loading weights", -1.0, "Reading…"))
    progress.load(LoadProgress("loading weights", 0.5, "Reading…"))  # same stage, too soon
    progress.step(frame(1))  # the first second is quiet
    clock.now += 1.5
    progress.step(frame(5))
    clock.now += 0.2
    progress.step(frame(6))  # less than a second since the last line
    clock.now += 1.0
    progress.step(frame(9))
    progress.end()
    assert out.getvalue().splitlines() == [
        "# loading weights Reading…",
        "# step 5/32 (2 s)",
        "# step 9/32 (3 s)",
    ]


def test_a_terminal_line_is_rewritten_in_place_and_ended() -> None:
    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    out = Terminal()
    progress = StderrProgress(out, Clock())
    progress.step(frame(1))
    progress.step(frame(2))
    progress.end()
    assert out.getvalue() == "\r# step 1/32 (0 s)\x1b[K\r# step 2/32 (0 s)\x1b[K\n"


def test_a_log_says_what_the_passes_do_before_the_first_step() -> None:
    out, clock = io.StringIO(), Clock()
    progress = StderrProgress(out, clock)
    clock.now += 1.5
    progress.step(Frame(1, 0, 32, 0, (), stage="proofread", reads=2))
    clock.now += 1.5
    progress.step(frame(4))
    assert out.getvalue().splitlines() == ["# proofreading · 2 reads (2 s)", "# step 4/32 (3 s)"]
