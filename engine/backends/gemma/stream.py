"""Streaming DiffusionGemma drafts from ``generate``'s thread to the session, one step at a time.

``generate`` is a blocking call, so it runs on a helper thread and reports each denoising step
through :class:`DraftStreamer` (its ``put_draft`` hook). :class:`LockStep` hands each draft to
the consuming generator and *pauses the model* until the consumer asks for the next step, so the
model never runs ahead of the window and a cancel costs at most the step in flight: closing the
channel makes the paused ``put_draft`` raise :class:`GenerationCancelled`, which unwinds
``generate`` (whose ``end()`` is then never called, hence no cleanup relies on it).

:class:`CanvasView` turns drafts into :class:`~engine.backends.base.StepResult` objects over the
whole plan, which may span several canvases.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass

import torch
from transformers.generation.streamers import BaseStreamer

from engine.backends.base import StepResult, locked_states
from engine.backends.gemma.hooks import RecordingStopper, SeededSampler
from engine.core.canvas import Canvas, Kind
from engine.core.protocol import TokenState


class GenerationCancelled(Exception):
    """Raised inside ``generate`` (from ``put_draft``) once the consumer has gone."""


@dataclass(frozen=True)
class Draft:
    """One denoising step of one canvas, as plain Python values (safe to hand across threads)."""

    canvas: int
    step: int  # cumulative over canvases: one decoder forward each
    argmax: list[int]
    accepted: list[bool]
    confidence: list[float]
    last: bool  # no further forward will run in this call


@dataclass(frozen=True)
class Finished:
    ids: list[int]  # the plan's positions, read from generate's returned sequences


@dataclass(frozen=True)
class Failure:
    error: BaseException


Event = Draft | Finished | Failure


class LockStep:
    """A one-slot handshake: the producer offers an item and waits for :meth:`resume`."""

    def __init__(self) -> None:
        self._events: queue.Queue[Event] = queue.Queue()
        self._go = threading.Semaphore(0)
        self._closed = threading.Event()

    def offer(self, draft: Draft) -> None:
        """Producer: hand over one step and pause until the consumer wants the next one."""
        if self._closed.is_set():
            raise GenerationCancelled
        self._events.put(draft)
        self._go.acquire()
        if self._closed.is_set():
            raise GenerationCancelled

    def finish(self, event: Finished | Failure) -> None:
        """Producer: the last word (never waits: nothing follows it)."""
        self._events.put(event)

    def take(self) -> Event:
        return self._events.get()

    def resume(self) -> None:
        self._go.release()

    def close(self) -> None:
        """Consumer gone: wake a paused producer so it raises and unwinds."""
        self._closed.set()
        self._go.release()


class DraftStreamer(BaseStreamer):
    """The ``streamer`` passed to ``generate``: prompt, then per canvas its drafts and result."""

    def __init__(
        self,
        channel: LockStep,
        sampler: SeededSampler,
        stopper: RecordingStopper,
        steps_per_canvas: int,
        canvases: int,
    ) -> None:
        self.channel = channel
        self.sampler = sampler
        self.stopper = stopper
        self.steps_per_canvas = steps_per_canvas
        self.canvases = canvases
        self.canvas = -1  # the canvas being denoised; the first put() is the prompt
        self.step = 0
        self.step_in_canvas = 0

    def put(self, value: torch.Tensor) -> None:
        """The prompt, then each committed canvas: either way the next canvas starts."""
        self.canvas += 1
        self.step_in_canvas = 0
        if self.canvas < self.canvases:
            self.sampler.select(self.canvas)

    def put_draft(self, value: torch.Tensor) -> None:
        self.step += 1
        self.step_in_canvas += 1
        self.channel.offer(self._draft(value))

    def end(self) -> None:
        """Nothing to flush: the final canvas comes with ``generate``'s return value."""

    def _draft(self, value: torch.Tensor) -> Draft:
        accepted = self.sampler.accepted
        entropy = self.sampler.entropy
        assert accepted is not None and entropy is not None, "a draft before any acceptance"
        final_canvas = self.canvas == self.canvases - 1
        canvas_done = self.step_in_canvas >= self.steps_per_canvas or self.stopper.fired()
        return Draft(
            canvas=self.canvas,
            step=self.step,
            argmax=value[0].tolist(),
            accepted=accepted[0].tolist(),
            # exp(-entropy): 1 for a certain (or forced) position, 1/V for a uniform one
            confidence=torch.exp(-entropy[0].float()).tolist(),
            last=final_canvas and canvas_done,
        )


class CanvasView:
    """The plan's positions as the overlay sees them, updated draft by draft."""

    def __init__(self, canvas: Canvas, canvas_length: int, max_steps: int) -> None:
        self.canvas = canvas
        self.canvas_length = canvas_length
        self.max_steps = max_steps
        self.ids = list(canvas.seed_ids)
        self.states = locked_states(canvas)
        self.confidence = [1.0 if k is Kind.LOCKED else 0.0 for k in canvas.kinds]
        self.active = 0
        self.step = 0

    def apply(self, draft: Draft) -> None:
        start = draft.canvas * self.canvas_length
        if draft.canvas != self.active:
            self._settle(range(0, start))  # earlier canvases are committed
            self.active = draft.canvas
        for offset, position in enumerate(
            range(start, min(start + self.canvas_length, len(self.ids)))
        ):
            self.ids[position] = draft.argmax[offset]
            self.confidence[position] = draft.confidence[offset]
            if self.states[position] is not TokenState.LOCKED:
                settled = draft.accepted[offset]
                self.states[position] = TokenState.SETTLED if settled else TokenState.PROVISIONAL
        self.step = draft.step

    def _settle(self, positions: range) -> None:
        for position in positions:
            if self.states[position] is not TokenState.LOCKED:
                self.states[position] = TokenState.SETTLED

    def result(self, done: bool = False) -> StepResult:
        ids = list(self.ids)
        states, confidence = list(self.states), list(self.confidence)
        return StepResult(self.max_steps, ids, ids, states, confidence, self.step, done)

    def final(self, finished: Finished) -> StepResult:
        """Everything generated is settled; ids are what ``generate`` returned."""
        self.ids = list(finished.ids)
        self._settle(range(len(self.ids)))
        return self.result(done=True)
