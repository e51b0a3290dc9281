"""The decode processors: every backend family's per-step constraints, as one ordered list.

Like transformers' ``LogitsProcessorList``, a :class:`DecodeProcessors` is a list of small
objects applied in order to one step's logits, outside the sampler; :func:`decode_processors`
builds the same list for every family (the masked backend calls it on the rows it predicts,
DiffusionGemma's ``generate`` through :class:`engine.backends.gemma.hooks.SharedProcessors`):

1. :class:`AllowedSet`: the request's allowed sets as an additive bias (a locked position
   allows only its own token; free text no banned special or structure mark; a slot its
   constraint's set; :mod:`engine.decode.allowed`);
2. :class:`GuardBans`: the prose guards (:mod:`engine.decode.guards`): the filler only as a
   segment's tail, no committed 3-gram said again, no word beside itself, no echo of a lock's
   names beside it (:mod:`engine.decode.lock_echo`), no blank line in a hard-wrapped paragraph,
   no list item opening a line of a prose draft (:mod:`engine.decode.list_marks`).

A processor sees a :class:`StepView`: which canvas positions the logits' rows are, and the canvas
as committed so far (on the device and, for the bans' host work, as lists).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

import torch

from engine.core.canvas import Canvas, Kind
from engine.core.tokens import TokenTable
from engine.decode.allowed import constraint_bias, opens_prose
from engine.decode.guards import HostView, ProseGuards
from engine.decode.list_marks import ListMarkBans, mark_tokens
from engine.decode.lock_echo import echo_bans, glued_word_bans, merge_bans


@dataclass(frozen=True)
class StepView:
    """One step's rows: their canvas positions, and the canvas as committed so far."""

    positions: torch.Tensor  # (rows,) canvas positions, on the logits' device
    ids: torch.Tensor  # (canvas,) every position's token; committed where not ``open``
    open: torch.Tensor  # (canvas,) bool: not yet committed
    host: HostView  # (row positions, ids, open) as host lists: the bans read no device


class DecodeProcessor(Protocol):
    """One constraint on a step's logits (rows as in ``view.positions``)."""

    def __call__(self, view: StepView, logits: torch.Tensor) -> torch.Tensor: ...


class AllowedSet:
    """The allowed sets as an additive bias: 0 where allowed, ``BANNED`` elsewhere."""

    def __init__(self, allowed: torch.Tensor) -> None:
        self.bias = constraint_bias(allowed)

    def __call__(self, view: StepView, logits: torch.Tensor) -> torch.Tensor:
        return logits + self.bias[view.positions]


class GuardBans:
    """The prose guards' bans (see :meth:`ProseGuards.adjust`)."""

    def __init__(self, guards: ProseGuards) -> None:
        self.guards = guards

    def __call__(self, view: StepView, logits: torch.Tensor) -> torch.Tensor:
        return self.guards.adjust(view.positions, logits, view.ids, view.open, view.host)


class DecodeProcessors(list[DecodeProcessor]):
    """Processors applied in order; the request's allowed bias and guards kept at hand for
    the samplers' own use (ranking the filler last, vetoing a doubled word)."""

    def __init__(self, processors: Sequence[DecodeProcessor]) -> None:
        super().__init__(processors)

    def __call__(self, view: StepView, logits: torch.Tensor) -> torch.Tensor:
        for processor in self:
            logits = processor(view, logits)
        return logits

    @property
    def bias(self) -> torch.Tensor:
        return next(p.bias for p in self if isinstance(p, AllowedSet))

    @property
    def guards(self) -> ProseGuards | None:
        return next((p.guards for p in self if isinstance(p, GuardBans)), None)


def decode_processors(canvas: Canvas, table: TokenTable, allowed: torch.Tensor) -> DecodeProcessors:
    """The one list every backend family decodes ``canvas`` with; ``allowed`` is its allowed
    mask (:func:`engine.decode.allowed.allowed_mask`, plus a family's own rows)."""
    guards = prose_guards(canvas, table)
    return DecodeProcessors([AllowedSet(allowed), *([GuardBans(guards)] if guards else [])])


def prose_guards(canvas: Canvas, table: TokenTable) -> ProseGuards | None:
    """The request's prose guards: free text's filler and repeat rules, slots' word rules, and
    the echoes of locks and of a template's own words; none for a canvas of locks only."""
    if Kind.FREE not in canvas.kinds and Kind.SLOT not in canvas.kinds:
        return None
    echoes = merge_bans(
        echo_bans(canvas.kinds, canvas.seed_ids, table.text, table.spellings),
        glued_word_bans(
            canvas.kinds, canvas.segment_of, canvas.plan.template_words, table.glued_spellings
        ),
    )
    list_marks = ListMarkBans(canvas, mark_tokens(table)) if opens_prose(canvas) else None
    return ProseGuards(
        canvas, table.specials.filler_id, table.is_word, echoes, table.is_blank,
        table.breaking_ids(), list_marks,
    )  # fmt: skip
