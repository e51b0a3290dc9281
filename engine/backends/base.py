"""The contract between the sampler session and a model family.

A backend turns a :class:`~engine.core.canvas.Canvas` into a generator of :class:`StepResult`, one
per
denoising forward pass. The pipeline (:mod:`engine.run.pipeline`) pulls one step at a time and
checks
the cancel flag *before* each pull, so a backend never needs to know about cancellation: when
the session stops early it closes the generator, and the backend's ``finally`` cleans up.

Constraints live outside the sampler, in :mod:`engine.decode` (allowed sets, guards), the same
for every family.
"""

from __future__ import annotations

import math
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Protocol, runtime_checkable

from engine.core.canvas import Canvas, Kind
from engine.core.config import SamplerSettings
from engine.core.protocol import TokenState
from engine.core.tokens import TokenTable


@dataclass
class StepResult:
    """The canvas after one denoising step (one forward pass), as plain host values.

    ``ids`` is the sampler's current canvas (what assembly would use if this were the last step);
    ``draft_ids`` is what the overlay shows (the model's best guess at every position).
    ``forwards`` counts the forward passes so far; it is also the step's number. ``done`` marks
    a backend's last step (every position settled for good); a step before it may show every
    position settled yet still change them (DiffusionGemma's accepted drafts), so it is not
    derived from ``states``.
    """

    max_steps: int
    ids: list[int]
    draft_ids: list[int]
    states: list[TokenState]
    confidence: list[float]
    forwards: int
    done: bool = False

    @property
    def step(self) -> int:
        """The step's number: one step is one forward pass."""
        return self.forwards


class Backend(Protocol):
    """What every model family provides to the pipeline (:mod:`engine.run.pipeline`).

    A new backend needs exactly these:

    * ``family``: a short name shown in the model picker and the metrics (``"masked"``);
    * ``table``: the :class:`~engine.core.tokens.TokenTable` of its tokenizer (specials, the filler,
      allowed ids per constraint), which the pipeline uses to build and assemble canvases;
    * ``max_canvas_tokens``: the longest canvas it takes (a longer one is refused before any
      model work);
    * :meth:`denoise`: a generator of one :class:`StepResult` per forward pass over the canvas,
      the last one with ``done=True``.
      Its plan is ``canvas.plan`` (instruction, context, ``cache_locked``); its settings hold
      the seed, so the same seed gives the same steps. Locked positions must come back holding
      their seed ids, and each position's token must be one :func:`allowed_mask` allows.
      Nothing runs before the first ``next``; the pipeline checks cancel between pulls and
      closes the generator when it stops early, so cleanup goes in a ``finally``.

    * :meth:`reader`: the backend's causal :class:`Reader`, or ``None`` when its model cannot
      read a passage causally. The passes that read the model before and after the canvas
      (proofreading, pricing a shorter rewrite's cuts, rereading a rewrite's changes) use it;
      without one they say so or fall back (cuts go in a fixed order).
    """

    family: str
    table: TokenTable
    max_canvas_tokens: int

    def denoise(
        self, canvas: Canvas, settings: SamplerSettings
    ) -> Generator[StepResult, None, None]:
        """Yield one :class:`StepResult` per forward pass; the last one settles every position."""
        ...

    def reader(self) -> Reader | None:
        """The causal reader of this backend's model, if it has one."""
        ...


@dataclass(frozen=True)
class Stepped:
    """One canvas's step in a round of a batch: which job it is (its index), the step, and
    whether it was that canvas's last."""

    job: int
    result: StepResult
    last: bool


@runtime_checkable
class Batching(Protocol):
    """A backend that can settle several canvases as one batch (a capability, not part of
    :class:`Backend`: the masked family has it, DiffusionGemma settles one canvas at a time).

    :meth:`denoise_together` returns the rounds: each ``next`` runs one round (a forward over
    every canvas still open) and gives each open canvas's step, a canvas that settled dropping
    out; or ``None`` when one of the canvases takes a path the backend does not batch. The same
    seed per job gives each canvas the steps its own :meth:`Backend.denoise` would, up to the
    float rounding of a batched forward. No forward runs before the first ``next``."""

    def denoise_together(
        self, jobs: Sequence[tuple[Canvas, SamplerSettings]]
    ) -> Generator[list[Stepped], None, None] | None: ...


class Reader(Protocol):
    """A model reading token passages causally, as its base was trained to read.

    ``forwards`` counts its model calls (every read is a forward the request pays for).
    """

    forwards: int

    def read(
        self,
        context: list[int],
        tokens: list[int],
        variants: Sequence[tuple[int, list[int]]],
        prune: float = math.inf,
    ) -> tuple[list[float], list[list[float]]]:
        """NLL of each of ``tokens`` after ``context``, and of each variant's tail: a variant
        ``(at, tail)`` is ``tokens[:at]`` followed by ``tail``. A variant whose first token
        reads more than ``prune`` nats worse than the one it replaces answers ``[inf]``."""
        ...

    def read_cuts(
        self,
        context: list[int],
        original: list[int],
        rows: Sequence[Sequence[int]],
        following: Sequence[int] = (),
    ) -> list[list[float]]:
        """NLL of every kept token of each row (indices into ``original``), ``following`` read
        after each and charged to its last kept token: the price of a shorter rewrite's cuts."""
        ...


def locked_states(canvas: Canvas) -> list[TokenState]:
    return [TokenState.LOCKED if k is Kind.LOCKED else TokenState.NOISE for k in canvas.kinds]
