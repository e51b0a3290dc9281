"""What the remote engine adds: first frame and per-frame delivery, remote (loopback) vs local.

The same edits run on the same model twice: through the local worker loop (on a thread of this
process: the window's worker minus its pipe, so the baseline is if anything flattering) and
through ``settle serve``'s server in its own process on 127.0.0.1, with a
:class:`~engine.remote.client.RemoteWorker` here. In both, the worker's sender stamps every
frame as it writes it (after coalescing) and the client stamps it on arrival; the difference is
the frame's delivery time, measured directly rather than inferred from totals that model steps
(hundreds of milliseconds on a CPU) would drown. ``time.perf_counter`` is the system-wide
monotonic clock on Linux, so the server process's stamps (written to a file when it stops)
compare with this process's.

``python -m tools.bench.remote`` runs just this part on the embedded model and prints it;
``--serve MODEL --stamps FILE`` is the server side it starts.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import secrets
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.backends.base import Backend
from engine.core.config import SamplerSettings
from engine.core.protocol import (
    Edit,
    Event,
    Frame,
    LoadModel,
    ModelInfo,
    ModelReady,
    Proposal,
    Shutdown,
    Span,
)
from engine.process.transport import Outbox
from engine.process.worker import serve
from tools.bench.common import median

ROOT = Path(__file__).resolve().parents[2]
TOKEN_ENV = "SETTLE_BENCH_TOKEN"
GOAL_MS = 5.0  # the budget: under 5 ms added per frame
TEXT = (
    "Ada Lovelace wrote the first published program for Babbage's Analytical Engine in 1843. "
    "Her notes explain how the machine could follow a sequence of operations on numbers, and "
    "she saw that it might act on other things than numbers, such as music."
)


@dataclass
class Loaded:
    backend: Backend
    info: ModelInfo


class StampedOutbox:
    """An outbox that notes when each frame is written (the worker's side of a delivery)."""

    def __init__(self, inner: Outbox) -> None:
        self.inner = inner
        self.sent: list[float] = []

    def put(self, event: Event) -> None:
        if isinstance(event, Frame):
            self.sent.append(time.perf_counter())
        self.inner.put(event)


def edits(repeats: int) -> list[Edit]:
    settings = SamplerSettings(steps=16, block_length=0, seed=0)
    return [Edit(n + 1, TEXT, Span(0, len(TEXT)), settings=settings) for n in range(repeats)]


def run_edits(
    send: Callable[[Edit], None], events: Callable[[], Iterator[Event]], jobs: list[Edit]
) -> tuple[list[float], list[float]]:
    """(first-frame latencies, frame arrival times) over ``jobs``, one after another."""
    firsts: list[float] = []
    arrivals: list[float] = []
    for edit in jobs:
        started = time.perf_counter()
        send(edit)
        first = None
        for event in events():
            now = time.perf_counter()
            if isinstance(event, Frame):
                arrivals.append(now)
                first = first if first is not None else now - started
            elif isinstance(event, Proposal) and event.request_id == edit.request_id:
                break
        firsts.append(first if first is not None else float("nan"))
    return firsts, arrivals


def summary(firsts: list[float], sent: list[float], arrivals: list[float]) -> dict[str, Any]:
    delays = sorted((a - s) * 1000 for s, a in zip(sent, arrivals, strict=False))
    return {
        "first_frame_ms": median([f * 1000 for f in firsts]),
        "frames": len(delays),
        "delivery_median_ms": median(delays),
        "delivery_p95_ms": delays[min(len(delays) - 1, int(0.95 * len(delays)))],
        "delivery_max_ms": delays[-1],
    }


# --- the local worker loop -------------------------------------------------------------------


def local_path(loaded: Loaded, jobs: list[Edit]) -> dict[str, Any]:
    inbox: queue.Queue[Any] = queue.Queue()
    outbox: queue.Queue[Any] = queue.Queue()
    stamped = StampedOutbox(outbox)
    loop = threading.Thread(target=serve, args=(inbox, stamped, lambda _r, _p: loaded), daemon=True)
    loop.start()
    inbox.put(LoadModel("bench"))
    while not isinstance(outbox.get(), ModelReady):
        pass

    def events() -> Iterator[Event]:
        while True:
            yield outbox.get()

    firsts, arrivals = run_edits(inbox.put, events, jobs)
    inbox.put(Shutdown())
    loop.join()
    return summary(firsts, stamped.sent, arrivals)


# --- the remote engine ---------------------------------------------------------------------


def remote_path(model: str, jobs: list[Edit]) -> dict[str, Any]:
    """Start ``settle serve``'s server for ``model`` in a process, run ``jobs`` through it."""
    from engine.remote.client import RemoteWorker

    token = secrets.token_urlsafe(24)
    with tempfile.TemporaryDirectory(prefix="settle-bench-") as folder:
        stamps = Path(folder) / "stamps.json"
        server = start_server(model, stamps, token)
        try:
            worker = RemoteWorker(server_url(server), token)
            worker.start()
            worker.send(LoadModel(""))
            while not isinstance(worker.poll(None), ModelReady):
                pass
            firsts, arrivals = run_edits(worker.send, lambda: worker.events(timeout=None), jobs)
            worker.stop()
        finally:
            server.send_signal(signal.SIGTERM)
            server.wait(120)
        sent = json.loads(stamps.read_text(encoding="utf-8"))
    return summary(firsts, sent, arrivals)


def start_server(model: str, stamps: Path, token: str) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "tools.bench.remote", "--serve", model, "--stamps"]
    env = dict(os.environ, **{TOKEN_ENV: token})
    return subprocess.Popen(
        [*command, str(stamps)], cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True
    )


def server_url(server: subprocess.Popen[str]) -> str:
    assert server.stdout is not None
    for line in server.stdout:
        if "listening on " in line:
            server.stdout.close()
            return line.split("listening on ", 1)[1].split()[0]
    raise RuntimeError("the benchmark's engine ended before it listened")


def serve_stamped(model: str, stamps: Path) -> None:
    """The server side: ``settle serve`` on a free loopback port, stamping every frame."""
    import asyncio

    from engine.process.runtime import configure_threads
    from engine.remote.auth import Listen
    from engine.remote.serve import serve_until_signalled
    from engine.remote.server import RemoteServer, ServerConfig

    configure_threads()
    config = ServerConfig(model, os.environ[TOKEN_ENV], "cpu", Listen("127.0.0.1", 0))
    server = RemoteServer(config)
    outboxes: list[StampedOutbox] = []

    def stamp(inner: Outbox) -> Outbox:
        outboxes.append(StampedOutbox(inner))
        return outboxes[-1]

    server.wrap_outbox = stamp
    asyncio.run(serve_until_signalled(server, lambda line: print(line, flush=True)))
    stamps.write_text(json.dumps(outboxes[0].sent if outboxes else []), encoding="utf-8")


# --- both, and the report ------------------------------------------------------------------


def remote_overhead(loaded: Loaded, model: str, quick: bool) -> dict[str, Any]:
    """Both paths on the same model (``model`` is what the server loads); remote minus local."""
    jobs = edits(2 if quick else 5)
    local_path(loaded, jobs[:1])  # warm-up: first-call costs are not the transport's
    local = local_path(loaded, jobs)
    remote = remote_path(model, jobs)
    return {
        "local": local,
        "remote": remote,
        "added_first_frame_ms": remote["first_frame_ms"] - local["first_frame_ms"],
        "added_per_frame_ms": remote["delivery_median_ms"] - local["delivery_median_ms"],
        "added_per_frame_p95_ms": remote["delivery_p95_ms"] - local["delivery_p95_ms"],
        "goal_ms": GOAL_MS,
    }


def remote_lines(result: dict[str, Any] | None) -> list[str]:
    """The report's section (Markdown)."""
    lines = ["## Remote engine on loopback", ""]
    if not result or "error" in result:
        reason = result.get("error", "not run") if result else "not run"
        return [*lines, f"Not measured: {reason}.", ""]
    lines += [
        "| path | first frame ms | frame delivery median ms | p95 ms | max ms | frames |",
        "|---|---|---|---|---|---|",
    ]
    for name, key in (("local worker loop", "local"), ("remote engine, loopback", "remote")):
        row = result[key]
        lines.append(
            f"| {name} | {row['first_frame_ms']:.1f} | {row['delivery_median_ms']:.2f} | "
            f"{row['delivery_p95_ms']:.2f} | {row['delivery_max_ms']:.2f} | {row['frames']} |"
        )
    verdict = "within" if result["added_per_frame_ms"] < GOAL_MS else "over"
    lines += [
        "",
        f"Added per frame: {result['added_per_frame_ms']:.2f} ms median ({verdict} the "
        f"{GOAL_MS:.0f} ms goal), {result['added_per_frame_p95_ms']:.2f} ms p95; added to the "
        f"first frame: {result['added_first_frame_ms']:.1f} ms. Delivery is timed from the "
        "worker's sender to the client's hands; the server runs in its own process.",
        "",
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.remote", description=__doc__)
    parser.add_argument("--serve", metavar="MODEL", help="(internal) the server side")
    parser.add_argument("--stamps", type=Path, help="(internal) where the server writes stamps")
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args(argv)
    if args.serve:
        serve_stamped(args.serve, args.stamps)
        return 0
    from engine.models.loading import load
    from engine.process.runtime import configure_threads

    configure_threads()
    loaded = load(LoadModel("embedded", device="cpu"), lambda _p: None)
    result = remote_overhead(Loaded(loaded.backend, loaded.info), "embedded", args.quick)
    print("\n".join(remote_lines(result)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
