"""Semi-autoregressive blocks of the masked sampler, and what the overlay shows of them.

:func:`choose_masked` picks which generated positions start masked (the rewrite strength),
:func:`plan_blocks` splits the canvas into blocks finished left to right, each with its share of
the step budget, :class:`Block` is the block one step works in, and :func:`position_states` names
each position's state for the overlay. Pure tensor and list code: no model, no tokenizer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import torch

from engine.backends.masked.schedule import transfer_schedule
from engine.core.protocol import TokenState


@dataclass(frozen=True)
class Block:
    """The semi-autoregressive block a step works in: its mask, its rows, what is still open."""

    mask: torch.Tensor  # bool, per canvas position
    rows: torch.Tensor  # the block's canvas positions (fixed while the block runs)
    rows_list: list[int]  # the same, on the host
    open: list[int]  # the block's positions still masked, from the host mirror


def choose_masked(
    generated: torch.Tensor,
    fits: torch.Tensor,
    strength: float,
    generator: torch.Generator,
    first: torch.Tensor | None = None,
) -> torch.Tensor:
    """Which generated positions start masked: all at strength 1, else a random ``strength`` share.

    The rest keep their seed token (SDEdit-style rewriting: a low strength polishes the
    original instead of replacing it). At least one position is renoised, so a request always
    has work to do; seeds that do not ``fit`` their position are renoised regardless. Positions
    in ``first`` (the joins a shortened seed left) take the share before any other.
    """
    if strength >= 1.0:
        return generated.clone()
    candidates = generated.nonzero().flatten()
    count = max(1, round(strength * len(candidates))) if len(candidates) else 0
    order = torch.randperm(len(candidates), generator=generator, device=generated.device)
    if first is not None:
        later = (~first[candidates[order]]).to(torch.int8)
        order = order[torch.sort(later, stable=True).indices]
    masked = torch.zeros_like(generated)
    masked[candidates[order[:count]]] = True
    return masked | (generated & ~fits)


def plan_blocks(
    masked: torch.Tensor, block_length: int, steps: int
) -> list[tuple[torch.Tensor, int]]:
    """Semi-autoregressive blocks that hold masked positions, each with its share of ``steps``.

    Blocks are ``block_length`` canvas positions (0: the whole canvas) finished left to right.
    ``steps`` is a budget for the whole request, so with more blocks than steps neighbouring
    blocks are merged until each gets at least one step.
    """
    n = len(masked)
    size = block_length or n
    blocks = [torch.zeros_like(masked) for _ in range(0, n, size)]
    for number, block in enumerate(blocks):
        block[number * size : (number + 1) * size] = True
    active = [block for block in blocks if bool((block & masked).any())]
    if len(active) > steps:
        groups = transfer_schedule(len(active), steps)  # blocks per merged block
        bounds = [sum(groups[:i]) for i in range(len(groups) + 1)]
        active = [_union(active[a:b]) for a, b in pairwise(bounds)]
    shares = transfer_schedule(steps, len(active))  # steps per block, spread evenly
    # A block never needs more forwards than it has masked positions.
    return [
        (block, min(share, int((block & masked).sum())))
        for block, share in zip(active, shares, strict=True)
    ]


def _union(blocks: list[torch.Tensor]) -> torch.Tensor:
    return torch.stack(blocks).any(dim=0)


def position_states(
    locked: Sequence[bool], masked: Sequence[bool], block: Sequence[bool]
) -> list[TokenState]:
    """Overlay states: locked, committed, guessed in the current block, or untouched noise."""
    states = []
    for is_locked, is_masked, in_block in zip(locked, masked, block, strict=True):
        if is_locked:
            states.append(TokenState.LOCKED)
        elif not is_masked:
            states.append(TokenState.SETTLED)
        else:
            states.append(TokenState.PROVISIONAL if in_block else TokenState.NOISE)
    return states
