"""Timed runs of one task by each system: autoregressive ``generate`` and Settle's diffusion loop.

Both produce a :class:`Run`: when the output's tokens became final (the *timeline*, from which
quality at a latency budget is read), the time to the first draft frame and to the first
complete block, the time to the settled result, forwards, revision churn and process CPU
seconds (the CPU's "device seconds"). Quality is positional token accuracy against the text
that was cut out (:func:`tools.bench.common.token_accuracy`); positions not yet final at a
given time count as wrong, so a half-finished output scores by what it has settled.
"""

from __future__ import annotations

import time
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

import torch

from engine.backends.base import Backend, StepResult
from engine.core.canvas import Canvas, Kind
from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, Proposal, TokenState
from engine.run.edit_run import run_edit
from tools.bench.common import token_accuracy

NOT_FINAL = -1  # stands for a position that has no final token yet


@dataclass
class Run:
    """One timed generation of one task by one system at one setting."""

    first_frame_s: float  # first output the user sees (first token / first denoising step)
    first_block_s: float  # first ``block`` tokens final: the "first useful block"
    settle_s: float
    forwards: int
    tokens: int
    churn: float
    cpu_s: float
    accuracy: float
    timeline: list[tuple[float, float]] = field(default_factory=list)  # (s, accuracy so far)

    def accuracy_at(self, budget_s: float) -> float:
        """Accuracy of what was final ``budget_s`` after the request (0 before anything was)."""
        reached = [acc for t, acc in self.timeline if t <= budget_s]
        return reached[-1] if reached else 0.0


class TimingStreamer:
    """A transformers streamer that timestamps every token ``generate`` emits after the prompt."""

    def __init__(self, clock: Any = time.perf_counter) -> None:
        self.clock = clock
        self.prompt_seen = False
        self.tokens: list[int] = []
        self.times: list[float] = []

    def put(self, value: torch.Tensor) -> None:
        if not self.prompt_seen:
            self.prompt_seen = True  # the first put is the prompt itself
            return
        now = self.clock()
        for token in value.reshape(-1).tolist():
            self.tokens.append(int(token))
            self.times.append(now)

    def end(self) -> None:
        pass


@torch.inference_mode()
def autoregressive_run(
    model: Any, prompt: list[int], reference: tuple[int, ...], block: int
) -> Run:
    """Greedy ``generate`` with its KV cache, exactly ``len(reference)`` new tokens."""
    n = len(reference)
    ids = torch.tensor([prompt], dtype=torch.long, device=model.device)
    streamer = TimingStreamer()
    cpu, started = time.process_time(), time.perf_counter()
    model.generate(
        ids,
        attention_mask=torch.ones_like(ids),
        max_new_tokens=n,
        min_new_tokens=n,  # a fixed length, like a canvas: no early end-of-sequence
        do_sample=False,
        streamer=streamer,
        pad_token_id=model.config.pad_token_id,
    )
    settle, cpu_s = time.perf_counter() - started, time.process_time() - cpu
    times = [t - started for t in streamer.times]
    timeline = [
        (t, token_accuracy(streamer.tokens[: k + 1], reference)) for k, t in enumerate(times)
    ]
    return Run(
        first_frame_s=times[0],
        first_block_s=times[min(block, n) - 1],
        settle_s=settle,
        forwards=n,  # one prefill, then one forward per further token
        tokens=n,
        churn=0.0,  # autoregressive output is never revised
        cpu_s=cpu_s,
        accuracy=token_accuracy(streamer.tokens, reference),
        timeline=timeline,
    )


class StepClock:
    """Wraps a backend and keeps the time and result of every step it yields."""

    def __init__(self, inner: Backend) -> None:
        self.inner = inner
        self.family = inner.family
        self.table = inner.table
        self.max_canvas_tokens = inner.max_canvas_tokens
        # The passes read the model through it: the bench's rewrites pay for them as a user's do.
        self.reader = inner.reader
        self.started = 0.0
        self.steps: list[tuple[float, StepResult]] = []
        self.canvas: Canvas | None = None

    def denoise(
        self, canvas: Canvas, settings: SamplerSettings
    ) -> Generator[StepResult, None, None]:
        self.steps, self.canvas = [], canvas
        for result in self.inner.denoise(canvas, settings):
            self.steps.append((time.perf_counter() - self.started, result))
            yield result


def diffusion_run(backend: Backend, edit: Edit, reference: tuple[int, ...], block: int) -> Run:
    """Settle's own loop (:func:`engine.run.edit_run.run_edit`) on ``edit``, timed step by step."""
    clock = StepClock(backend)
    cpu = time.process_time()
    clock.started = time.perf_counter()
    proposal = None
    for event in run_edit(clock, edit):
        if isinstance(event, Proposal):
            proposal = event
    cpu_s = time.process_time() - cpu
    if proposal is None or clock.canvas is None or not clock.steps:
        raise RuntimeError("the diffusion run ended without a proposal")
    filler = backend.table.specials.filler_id
    generated = [i for i, k in enumerate(clock.canvas.kinds) if k is not Kind.LOCKED]
    timeline = [
        (t, token_accuracy(final_ids(r, generated, filler), reference)) for t, r in clock.steps
    ]
    metrics = proposal.metrics
    return Run(
        first_frame_s=clock.steps[0][0],
        first_block_s=first_block_time(clock.steps, generated, block),
        settle_s=metrics.time_to_settle_s,
        forwards=metrics.forwards,
        tokens=metrics.tokens_generated,
        churn=metrics.churn,
        cpu_s=cpu_s,
        accuracy=timeline[-1][1],
        timeline=timeline,
    )


def final_ids(result: StepResult, generated: list[int], filler: int) -> list[int]:
    """The generated positions' committed tokens, fillers dropped (assembly strips them)."""
    out = []
    for i in generated:
        if result.states[i] is not TokenState.SETTLED and not result.done:
            out.append(NOT_FINAL)
        elif result.ids[i] != filler:
            out.append(result.ids[i])
    return out


def first_block_time(
    steps: list[tuple[float, StepResult]], generated: list[int], block: int
) -> float:
    """When the first ``block`` generated positions were all committed."""
    head = generated[:block]
    for t, result in steps:
        if result.done or all(result.states[i] is TokenState.SETTLED for i in head):
            return t
    return steps[-1][0]
