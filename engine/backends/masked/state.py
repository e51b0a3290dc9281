"""One masked-diffusion request's mutable state, and the step result read off it.

Every tensor is indexed by canvas position; the ``host_*`` lists mirror the canvas on the host,
refreshed by the one read-back each step makes, so every decision the host takes (what is still
open, the guards' bans, the frame) is made from them and a step never waits on the device for
anything else. The sampler (:mod:`.backend`) and the verifying passes over a canvas
(:mod:`.verified_draft`, :mod:`.verified_values`) all change a request through this one type
and report it with :func:`result`.

A step of the sampler is a :class:`Turn`: the positions it needs predicted. The sampler's steps
are a generator of turns that is sent each turn's logits (:data:`Turns`), so one driver runs a
request's forwards one after another (:func:`driven`) and another runs several requests' in one
batch (:mod:`.batch`), through the same per-request step.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Iterator
from dataclasses import dataclass, field

import torch

from engine.backends.base import StepResult
from engine.backends.masked.blocks import position_states
from engine.backends.masked.locked_kv import LockedKV
from engine.decode.guards import ProseGuards
from engine.decode.processors import DecodeProcessors, StepView


@dataclass
class Denoising:
    """One request's mutable state; every tensor is indexed by canvas position."""

    seq: torch.Tensor  # (L,) the model's input; the canvas part holds the mask id where masked
    start: int  # index of canvas position 0 in ``seq``
    locked: torch.Tensor  # bool
    masked: torch.Tensor  # bool: not yet committed
    guess: torch.Tensor  # what the overlay shows: committed token, latest prediction, or mask
    confidence: torch.Tensor  # float: at commit time, else of the latest prediction (or 0)
    processors: DecodeProcessors  # the allowed sets and the prose guards (engine.decode)
    forwards: int = 0
    kv: LockedKV | None = None  # kept keys and values (``plan.cache_locked``, ``kv_cache``)
    refresh_per_block: bool = False  # free text's store is recomputed when a block starts
    host_locked: list[bool] = field(default_factory=list)
    host_masked: list[bool] = field(default_factory=list)
    host_ids: list[int] = field(default_factory=list)
    host_guess: list[int] = field(default_factory=list)
    host_confidence: list[float] = field(default_factory=list)

    @property
    def bias(self) -> torch.Tensor:
        """``(n, vocab)`` the allowed sets as an additive bias."""
        return self.processors.bias

    @property
    def guards(self) -> ProseGuards | None:
        """Filler-tail and repeat bans (free text), word bans (slots); none without either."""
        return self.processors.guards

    @property
    def ids(self) -> torch.Tensor:
        """The canvas part of ``seq`` (a view: writing to it updates the model's input)."""
        return self.seq[self.start : self.start + len(self.masked)]


def step_view(state: Denoising, positions: torch.Tensor, rows: list[int]) -> StepView:
    """What the decode processors see of a step predicting ``positions`` (``rows`` on the host)."""
    return StepView(positions, state.ids, state.masked, (rows, state.host_ids, state.host_masked))


def result(state: Denoising, in_block: list[bool], total: int) -> StepResult:
    """The step as host values, from the host mirror (nothing is read from the device)."""
    return StepResult(
        max_steps=total,
        ids=list(state.host_ids),
        draft_ids=list(state.host_guess),
        states=position_states(state.host_locked, state.host_masked, in_block),
        confidence=list(state.host_confidence),
        forwards=state.forwards,
        done=not any(state.host_masked),
    )


@dataclass(frozen=True)
class Turn:
    """One step of a request waiting for its forward: the canvas positions to predict, and
    what its :class:`StepResult` reports once the step has committed (the block, the budget)."""

    state: Denoising
    positions: torch.Tensor
    in_block: list[bool]
    total: int

    def result(self) -> StepResult:
        """The step's result, read after it committed."""
        return result(self.state, self.in_block, self.total)


# A request's steps: each yields the turn it needs and is sent that turn's logits.
Turns = Generator[Turn, torch.Tensor, None]
Predict = Callable[[Denoising, torch.Tensor], torch.Tensor]


def advance(turns: Turns, logits: torch.Tensor) -> Turn | None:
    """Send a turn's logits: the step commits, and the next turn comes back (``None``: done)."""
    try:
        return turns.send(logits)
    except StopIteration:
        return None


def driven(turns: Turns, predict: Predict) -> Iterator[StepResult]:
    """Run ``turns`` one forward at a time through ``predict``: a result per step. Nothing runs
    before the first ``next``."""
    turn = next(turns, None)
    while turn is not None:
        with torch.inference_mode():
            logits = predict(turn.state, turn.positions)
        following = advance(turns, logits)
        yield turn.result()
        turn = following
