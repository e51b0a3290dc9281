"""The frame coalescer: fewer frames, same picture (times are passed in; no wall clock)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.protocol import DraftView, Frame, TokenState, TokenView
from engine.process.coalesce import FrameCoalescer

LENGTH = 6


def frame(step: int, updates: dict[int, str], request_id: int = 1, length: int = LENGTH) -> Frame:
    views = tuple(TokenView(i, t, TokenState.PROVISIONAL, 0.5) for i, t in updates.items())
    return Frame(request_id, step, 10, length, views, forwards=step, elapsed_s=step / 100)


def view_of(frames: list[Frame]) -> list[TokenView]:
    view = DraftView()
    for f in frames:
        view.apply(f)
    return view.tokens


def test_first_frame_goes_out_at_once_and_later_ones_wait_for_the_interval() -> None:
    c = FrameCoalescer(interval_s=0.016)
    first = frame(0, {i: "" for i in range(LENGTH)})
    assert c.offer(first, now=10.0) == [first]
    assert c.offer(frame(1, {0: "a"}), now=10.005) == []
    assert c.due_in(now=10.010) == pytest.approx(0.006)
    assert c.offer(frame(2, {1: "b"}), now=10.012) == []
    [sent] = c.offer(frame(3, {0: "c"}), now=10.016)
    assert [(u.index, u.text) for u in sent.updates] == [(0, "c"), (1, "b")]
    assert (sent.step, sent.forwards, sent.elapsed_s) == (3, 3, 0.03)
    assert c.due_in(now=10.02) is None


def test_a_held_frame_falls_due_and_flush_restarts_the_interval() -> None:
    c = FrameCoalescer(interval_s=0.016)
    c.offer(frame(0, {0: "x"}), now=0.0)
    c.offer(frame(1, {2: "y"}), now=0.001)
    assert c.holding
    assert c.due_in(now=0.5) == 0.0  # overdue: the sender flushes now
    flushed = c.flush(now=0.5)
    assert flushed is not None and [u.text for u in flushed.updates] == ["y"]
    assert not c.holding and c.flush() is None
    assert c.offer(frame(2, {3: "z"}), now=0.51) == []  # 10 ms after the flush: held
    assert c.due_in(now=0.51) is not None


def test_a_new_request_sends_the_old_ones_held_frame_first_then_its_own_at_once() -> None:
    c = FrameCoalescer(interval_s=0.016)
    c.offer(frame(0, {0: "a"}, request_id=1), now=0.0)
    c.offer(frame(1, {0: "b"}, request_id=1), now=0.001)
    out = c.offer(frame(0, {0: "n"}, request_id=2), now=0.002)
    assert [(f.request_id, f.updates[0].text) for f in out] == [(1, "b"), (2, "n")]


updates_st = st.dictionaries(st.integers(0, LENGTH - 1), st.sampled_from(["a", "b", "c", "d"]))
gaps_st = st.floats(min_value=0.0, max_value=0.05, allow_nan=False)


@given(st.lists(st.tuples(updates_st, gaps_st), min_size=1, max_size=40))
def test_the_client_ends_with_exactly_the_uncoalesced_draft(steps: list) -> None:
    interval = 0.016
    frames = [frame(0, {i: "" for i in range(LENGTH)})]
    frames += [frame(k + 1, updates) for k, (updates, _) in enumerate(steps)]
    times = [0.0]
    for _, gap in steps:
        times.append(times[-1] + gap)
    c = FrameCoalescer(interval_s=interval)
    sent: list[tuple[float, Frame]] = []
    for f, now in zip(frames, times, strict=True):
        sent += [(now, out) for out in c.offer(f, now)]
    spacing = [b - a for (a, _), (b, _) in itertools.pairwise(sent)]
    assert all(gap >= interval for gap in spacing)
    last = c.flush()
    delivered = [f for _, f in sent] + ([last] if last is not None else [])
    assert view_of(delivered) == view_of(frames)
    assert delivered[-1].step == frames[-1].step  # the last frame always arrives
    assert len(delivered) <= len(frames)
