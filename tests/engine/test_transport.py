"""The worker's sender thread: frames coalesced, nothing overtaken, failures to send reported."""

from __future__ import annotations

from engine.core.protocol import (
    Cancelled,
    DraftView,
    Event,
    Failed,
    Frame,
    TokenState,
    TokenView,
)
from engine.process.transport import Sender

NEVER_DUE = 3600.0  # an interval that never passes inside a test: no timer-driven flushes


def frame(step: int, updates: dict[int, str]) -> Frame:
    views = tuple(TokenView(i, t, TokenState.PROVISIONAL, 0.5) for i, t in updates.items())
    return Frame(1, step, 3, 3, views)


class ListOutbox:
    def __init__(self, refuse: type | None = None) -> None:
        self.events: list[Event] = []
        self.refuse = refuse

    def put(self, event: Event) -> None:
        if self.refuse is not None and isinstance(event, self.refuse):
            raise TypeError(f"cannot pickle {type(event).__name__}")
        self.events.append(event)


def test_held_frames_go_out_merged_before_the_event_that_ends_the_request() -> None:
    outbox = ListOutbox()
    sender = Sender(outbox, NEVER_DUE, clock=lambda: 0.0)
    frames = [frame(0, {0: "", 1: "", 2: ""}), frame(1, {0: "a"}), frame(2, {0: "b", 2: "c"})]
    for f in frames:
        sender.put(f)
    sender.put(Cancelled(1))
    sender.close()
    first, merged, end = outbox.events
    assert first == frames[0] and end == Cancelled(1)
    assert isinstance(merged, Frame) and merged.step == 2
    assert [(u.index, u.text) for u in merged.updates] == [(0, "b"), (2, "c")]
    assert (sender.offered_frames, sender.sent_frames) == (3, 2)
    view = DraftView()
    for f in (first, merged):
        assert isinstance(f, Frame)
        view.apply(f)
    assert view.text() == "bc"


def test_an_event_that_cannot_be_sent_is_replaced_by_a_failure() -> None:
    outbox = ListOutbox(refuse=Cancelled)
    sender = Sender(outbox, NEVER_DUE, clock=lambda: 0.0)
    sender.put(Cancelled(4))
    sender.close()
    [failed] = outbox.events
    assert isinstance(failed, Failed) and failed.request_id == 4 and failed.kind == "internal"
    assert "cannot pickle Cancelled" in failed.message
