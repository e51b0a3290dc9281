"""Prose guards: constraints on free text that live outside the sampler, as Dream-style hooks.

A masked sampler left alone lets the filler token win the confidence race (it is the easiest
prediction at a 135M model's scale), so drafts came back empty and rewrites as a few words; it
also let loops through ("The\\n\\nThe\\n\\nThe"). These hooks run inside every step of the
masked backend, on the eligible rows only, and know nothing of models:

* :meth:`ProseGuards.adjust` bans, per position, the filler unless it would extend a filler
  *tail* (the segment's last position, or the position after it already holds filler), and any
  token that would repeat a 3-gram already committed in the canvas;
* :meth:`ProseGuards.rank` ranks filler predictions after every content prediction, so content
  is committed first and the filler only ever fills what is left at the end of a segment.

Locked positions and structured slots are untouched: a slot's filler rules are the compiler's.
"""

from __future__ import annotations

from collections import defaultdict

import torch

from engine.backends.base import BANNED
from engine.canvas import Canvas, Kind

FILLER_RANK_PENALTY = 2.0  # confidences are in [0, 1]: minus 2 ranks below any content


class ProseGuards:
    """The guards of one request over its canvas; cheap to build, stateless between steps."""

    def __init__(self, canvas: Canvas, filler_id: int) -> None:
        self.filler_id = filler_id
        kinds = canvas.kinds
        self.free = torch.tensor([k is Kind.FREE for k in kinds], dtype=torch.bool)
        last = [
            i == len(kinds) - 1 or canvas.segment_of[i + 1] != canvas.segment_of[i]
            for i in range(len(kinds))
        ]
        self.segment_end = torch.tensor(last, dtype=torch.bool)

    def adjust(
        self, positions: torch.Tensor, logits: torch.Tensor, ids: torch.Tensor, masked: torch.Tensor
    ) -> torch.Tensor:
        """``logits`` of the rows at ``positions`` with the filler and repeat bans applied."""
        logits = logits.clone()
        tail_ok = self.filler_tail_allowed(ids, masked)[positions]
        free = self.free.to(positions.device)[positions]
        logits[free & ~tail_ok, self.filler_id] = BANNED
        for row, token in repeat_bans(positions, ids, masked, self.free, self.filler_id):
            logits[row, token] = BANNED
        return logits

    def filler_tail_allowed(self, ids: torch.Tensor, masked: torch.Tensor) -> torch.Tensor:
        """Where filler may go: a segment's last position, or just before committed filler."""
        committed_filler = (ids == self.filler_id) & ~masked
        next_is_filler = torch.zeros_like(committed_filler)
        next_is_filler[:-1] = committed_filler[1:]
        end = self.segment_end.to(ids.device)
        return end | (next_is_filler & ~end)

    def rank(self, confidence: torch.Tensor, guess: torch.Tensor) -> torch.Tensor:
        """Confidences for choosing what to commit: any filler ranks below any content."""
        is_filler = (guess == self.filler_id) & self.free.to(guess.device)
        return confidence - FILLER_RANK_PENALTY * is_filler.to(confidence.dtype)


def repeat_bans(
    positions: torch.Tensor,
    ids: torch.Tensor,
    masked: torch.Tensor,
    free: torch.Tensor,
    filler_id: int,
) -> list[tuple[int, int]]:
    """(row, token) pairs that would repeat a committed 3-gram of the canvas.

    Only free positions whose two predecessors are committed content are checked; the 3-grams
    are those of committed content in the whole canvas, so a loop cannot start anywhere.
    """
    values, open_ = ids.tolist(), masked.tolist()
    is_free = free.tolist()
    seen: defaultdict[tuple[int, int], set[int]] = defaultdict(set)
    for i in range(2, len(values)):
        window = values[i - 2 : i + 1]
        if not any(open_[i - 2 : i + 1]) and filler_id not in window:
            seen[(window[0], window[1])].add(window[2])
    bans = []
    for row, position in enumerate(positions.tolist()):
        if position < 2 or not is_free[position] or any(open_[position - 2 : position]):
            continue
        for token in seen.get((values[position - 2], values[position - 1]), ()):
            bans.append((row, token))
    return bans
