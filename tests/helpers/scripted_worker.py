"""A worker that answers each edit with a proposal the test scripts, alternatives included.

The review loop's window tests need answers a random model cannot promise: a rewrite in three
given versions, a try that comes back with a chosen text, a try that fails, a try held until
the test has looked at the review ("trying again…") and then released or cancelled. The
engine's run is not under test here (tests/engine covers it): only what the window does with
the events, so the worker is a queue and a function.
"""

from __future__ import annotations

import queue
from collections.abc import Callable, Sequence

from engine.core.protocol import (
    Alternative,
    Cancel,
    Cancelled,
    Edit,
    Event,
    Failed,
    Fill,
    Metrics,
    Proposal,
    Request,
    SegmentText,
    Shutdown,
)
from engine.process.client import WorkerClient

Answer = Callable[[Edit], Proposal | Failed]


def metrics(forwards: int) -> Metrics:
    """Numbers for a scripted proposal: only ``forwards`` is read by the tests."""
    return Metrics(0.0, 0.0, forwards, forwards, forwards, 1.0, 0.0, 1.0)


def segments_for(edit: Edit, text: str) -> tuple[SegmentText, ...]:
    """``text`` (a version of the edit's target) cut into segments, each of the edit's locks a
    locked one where it stands next in ``text`` (raises ``ValueError`` when one is missing)."""
    pieces: list[SegmentText] = []
    at = 0
    for lock in edit.locks:
        words = edit.text[lock.start : lock.end]
        found = text.index(words, at)
        pieces += [SegmentText(text[at:found], False), SegmentText(words, True)]
        at = found + len(words)
    pieces.append(SegmentText(text[at:], False))
    return tuple(piece for piece in pieces if piece.text or piece.locked)


def proposal_for(
    edit: Edit, versions: Sequence[str], forwards: int = 8, notes: tuple[str, ...] = ()
) -> Proposal:
    """A proposal of ``versions[0]`` with ``versions[1:]`` as its alternatives."""
    alternatives = tuple(Alternative(text, segments_for(edit, text)) for text in versions[1:])
    first = versions[0]
    locks = tuple(edit.text[lock.start : lock.end] for lock in edit.locks)
    return Proposal(
        edit.request_id,
        edit.target,
        first,
        segments_for(edit, first),
        locks,
        metrics(forwards),
        notes,
        alternatives,
    )


class ScriptedWorker(WorkerClient):
    """Answers every :class:`Edit` with ``answer(edit)``. While ``hold`` is set the answers
    wait for :meth:`release`; a cancel of a held request answers ``Cancelled`` instead."""

    def __init__(self, answer: Answer) -> None:
        super().__init__()
        self.answer = answer
        self.edits: list[Edit] = []
        self.cancels: list[int] = []
        self.hold = False
        self._held: list[Proposal | Failed] = []
        self._outbox: queue.Queue[Event] = queue.Queue()
        self._alive = False

    @property
    def alive(self) -> bool:
        return self._alive

    def _spawn(self) -> None:
        self._alive = True

    def _transmit(self, request: Request) -> None:
        if isinstance(request, Edit):
            self.edits.append(request)
            event = self.answer(request)
            (self._held.append if self.hold else self._outbox.put)(event)
        elif isinstance(request, Fill):
            raise AssertionError("the scripted worker answers edits only")
        elif isinstance(request, Cancel):
            self.cancels.append(request.request_id)
            if any(event.request_id == request.request_id for event in self._held):
                self._held = [e for e in self._held if e.request_id != request.request_id]
                self._outbox.put(Cancelled(request.request_id))
        elif isinstance(request, Shutdown):
            self._alive = False

    def release(self) -> None:
        """Send the held answers."""
        held, self._held = self._held, []
        for event in held:
            self._outbox.put(event)

    def _receive(self, timeout: float | None) -> Event | None:
        try:
            return self._outbox.get(timeout=timeout)
        except queue.Empty:
            return None

    def _halt(self, timeout: float) -> None:
        self._alive = False

    def _death_detail(self) -> str:
        return ""
