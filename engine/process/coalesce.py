"""Frame coalescing: at most one draft frame per ~16 ms reaches the window.

A fast backend can produce a frame every millisecond or two; the window only repaints at ~60 Hz
and each frame costs a pickle and a pipe write. :class:`FrameCoalescer` holds back frames that
arrive within ``interval_s`` of the last one sent and merges their ``updates`` (latest value per
position wins), so a client that applies every frame it receives to a
:class:`~engine.core.protocol.DraftView` ends in exactly the state it would have reached with all of
them. The class is pure: the caller passes the time in, so tests need no wall clock.
"""

from __future__ import annotations

import math

from engine.core.protocol import Frame, TokenView

FRAME_INTERVAL_S = 1 / 60


class FrameCoalescer:
    """Merges frames of one request that arrive faster than ``interval_s``.

    Call :meth:`offer` for every frame; send what it returns. The first frame of each request
    is sent at once; later ones at most one per ``interval_s``. Call :meth:`due_in` to learn when a
    held frame should go out even if no new frame arrives, and :meth:`flush` then, and before any
    non-frame event (a proposal must never overtake the draft it settles).
    """

    def __init__(self, interval_s: float = FRAME_INTERVAL_S) -> None:
        self.interval_s = interval_s
        self._last_sent = -math.inf
        self._last_request: int | None = None
        self._pending: Frame | None = None
        self._updates: dict[int, TokenView] = {}

    def offer(self, frame: Frame, now: float) -> list[Frame]:
        """Take one frame; return the frames to send now (none, one, or two across requests)."""
        out: list[Frame] = []
        if self._pending is not None and not _same_draft(self._pending, frame):
            # A frame of another request (or another canvas size) cannot absorb this one.
            out += self._take()
        self._merge(frame)
        # A new request's first frame (the whole canvas) goes out at once: it is what makes the
        # draft appear, and it is never a burst.
        if frame.request_id != self._last_request or now - self._last_sent >= self.interval_s:
            out += self._take()
            self._last_sent = now
            self._last_request = frame.request_id
        return out

    def due_in(self, now: float) -> float | None:
        """Seconds until the held frame is due (0 when overdue), or None when nothing is held."""
        if self._pending is None:
            return None
        return max(0.0, self._last_sent + self.interval_s - now)

    def flush(self, now: float | None = None) -> Frame | None:
        """The held frame with every merged update, or None; ``now`` restarts the interval."""
        taken = self._take()
        if taken and now is not None:
            self._last_sent = now
        return taken[0] if taken else None

    @property
    def holding(self) -> bool:
        return self._pending is not None

    def _merge(self, frame: Frame) -> None:
        for update in frame.updates:
            # Re-inserting moves nothing: dict order stays first-seen, and values are replaced.
            self._updates[update.index] = update
        self._pending = frame

    def _take(self) -> list[Frame]:
        if self._pending is None:
            return []
        latest = self._pending
        updates = tuple(sorted(self._updates.values(), key=lambda u: u.index))
        self._pending = None
        self._updates = {}
        return [
            Frame(
                latest.request_id,
                latest.step,
                latest.max_steps,
                latest.length,
                updates,
                latest.forwards,
                latest.elapsed_s,
                latest.stage,
                latest.reads,
            )
        ]


def _same_draft(a: Frame, b: Frame) -> bool:
    return a.request_id == b.request_id and a.length == b.length
