"""The window's side of the benchmarks: event-loop stalls while the worker generates, and memory.

A Qt event loop (an offscreen ``QGuiApplication``, as in the app) runs a 16 ms timer and records
every gap between its ticks while the worker *process*
(:class:`engine.process.client.WorkerHandle`, the
app's own transport) loads the model and runs rewrites; a 5 ms timer polls the worker without
blocking, as the app's client does. Measured: the longest tick gap during generation, the time
from sending a request to receiving its first frame (and its first denoised frame), and the peak
resident memory of this process and of the worker. Run by ``make bench`` before
``python -m tools.bench``, which merges the JSON this writes.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from PySide6.QtCore import QCoreApplication, QTimer
from PySide6.QtGui import QGuiApplication

from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, Event, Failed, Frame, LoadModel, ModelReady, Proposal, Span
from engine.process.client import WorkerHandle

TICK_MS = 16
POLL_MS = 5
TEXT = (
    "Charles Babbage designed the Analytical Engine in the 1830s as a general-purpose mechanical "
    "computer. It had a store for numbers and a mill that worked on them, and it read its "
    "instructions from punched cards borrowed from the Jacquard loom.\n\n"
    "Ada Lovelace translated an article about the engine and added notes longer than the article "
    "itself. One of them set out, step by step, how the engine could compute Bernoulli numbers, "
    "which is why she is often called the first programmer.\n\n"
    "The engine was never finished. Babbage kept redesigning it, funding ran out, and the "
    "machining of its thousands of parts was beyond what the workshops of the time could do."
)


@dataclass
class Probe:
    """What the event loop saw: tick gaps while a request ran, and request timings."""

    worker: WorkerHandle
    edits: int
    settings: SamplerSettings
    gaps_ms: list[float] = field(default_factory=list)
    first_frame_ms: list[float] = field(default_factory=list)
    first_step_ms: list[float] = field(default_factory=list)
    settle_ms: list[float] = field(default_factory=list)
    load_s: float = 0.0
    error: str = ""
    _sent: float = 0.0
    _last_tick: float = 0.0
    _running: bool = False
    _seen_frame: bool = False
    _seen_step: bool = False
    _done: int = 0

    def tick(self) -> None:
        now = time.perf_counter()
        if self._running and self._last_tick:
            self.gaps_ms.append(1000 * (now - self._last_tick))
        self._last_tick = now

    def poll(self) -> None:
        while (event := self.worker.poll(0.0)) is not None:
            self.handle(event, time.perf_counter())

    def handle(self, event: Event, now: float) -> None:
        if isinstance(event, ModelReady):
            self.load_s = now - self._sent
            self.send_edit()
        elif isinstance(event, Frame):
            if not self._seen_frame:
                self._seen_frame = True
                self.first_frame_ms.append(1000 * (now - self._sent))
            if event.step >= 1 and not self._seen_step:
                self._seen_step = True
                self.first_step_ms.append(1000 * (now - self._sent))
        elif isinstance(event, Proposal):
            self.settle_ms.append(1000 * (now - self._sent))
            self._running = False
            self._done += 1
            if self._done < self.edits:
                self.send_edit()
            else:
                QCoreApplication.quit()
        elif isinstance(event, Failed):
            self.error = f"{event.kind}: {event.message} {event.detail}"
            QCoreApplication.quit()

    def load(self, model: str) -> None:
        self._sent = time.perf_counter()
        self.worker.send(LoadModel(model, device="cpu"))

    def send_edit(self) -> None:
        start = TEXT.index("Ada Lovelace")
        end = TEXT.index("\n\n", start)
        settings = self.settings.with_changes(seed=self._done)
        self._seen_frame = self._seen_step = False
        self._running, self._last_tick = True, 0.0
        self._sent = time.perf_counter()
        self.worker.send(Edit(self._done + 1, TEXT, Span(start, end), settings=settings))


def worker_peak_rss_mb(pid: int | None) -> float | None:
    """The worker's peak resident memory (VmHWM), read before it is stopped (Linux only)."""
    status = Path(f"/proc/{pid}/status")
    if pid is None or not status.is_file():
        return None
    for line in status.read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return None


def measure(model: str, edits: int, settings: SamplerSettings, limit_s: float) -> dict[str, Any]:
    """Start the worker process, load ``model``, run ``edits`` rewrites; return the numbers."""
    app = QGuiApplication.instance() or QGuiApplication([])
    worker = WorkerHandle()
    worker.start()
    probe = Probe(worker, edits, settings)
    timers = [QTimer(), QTimer()]
    for timer, interval, slot in zip(
        timers, (TICK_MS, POLL_MS), (probe.tick, probe.poll), strict=True
    ):
        timer.timeout.connect(slot)
        timer.start(interval)
    QTimer.singleShot(int(limit_s * 1000), QCoreApplication.quit)
    probe.load(model)
    app.exec()
    worker_rss = worker_peak_rss_mb(worker.pid)
    worker.stop()
    return summary(probe, edits, worker_rss)


def summary(probe: Probe, edits: int, worker_rss: float | None) -> dict[str, Any]:
    if probe.error or len(probe.settle_ms) < edits:
        return {"error": probe.error or f"only {len(probe.settle_ms)} of {edits} edits finished"}
    gaps = sorted(probe.gaps_ms)
    return {
        "edits": edits,
        "steps": probe.settings.steps,
        "tick_interval_ms": TICK_MS,
        "longest_stall_ms": gaps[-1],
        "p99_tick_gap_ms": gaps[int(0.99 * (len(gaps) - 1))],
        "median_tick_gap_ms": gaps[len(gaps) // 2],
        "first_frame_ms": sorted(probe.first_frame_ms)[len(probe.first_frame_ms) // 2],
        "first_denoised_frame_ms": sorted(probe.first_step_ms)[len(probe.first_step_ms) // 2],
        "settled_ms": sorted(probe.settle_ms)[len(probe.settle_ms) // 2],
        "worker_start_and_load_s": probe.load_s,
        "gui_peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
        "worker_peak_rss_mb": worker_rss,
        "gui_imported_torch": "torch" in __import__("sys").modules,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.gui", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs/benchmarks-gui.json"))
    parser.add_argument("--model", default="embedded")
    parser.add_argument("--edits", type=int, default=3)
    parser.add_argument("--steps", type=int, default=16)
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    result = measure(args.model, args.edits, SamplerSettings(steps=args.steps), limit_s=600)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
