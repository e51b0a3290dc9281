"""The model reading a passage causally, to price the words a shorter rewrite drops.

"Make it tighter" gives a rewrite fewer positions than the original had, and the seed is the
original minus whole words (:func:`engine.shorten.drop_words`). Which words go decides how the
rewrite reads: without its articles a sentence reads telegraphic ("working on new login page"),
without a hedge it reads fine. The adapted model still reads text before its canvas causally
(it was adapted prefix-causal), and read so it is a language model as good as its base on prose
(the quality suite's paragraphs: 2.77 nats per token against the base's 2.85 on the first).
So it can tell which cut hurts the words after it least.

Pricing every one-word-shorter candidate by reading it whole would cost a forward of the whole
passage per word. A cut only changes the tokens after it, and mostly the next few: so the
current passage is read once, its keys and values kept, and each candidate reads only the
:data:`LOOKAHEAD` tokens after its cut, attending to the kept rows before the cut (a 4-D mask
per candidate, all candidates in one batch). Tokens further on keep the current passage's NLL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import torch

# Tokens after a cut whose NLL is read again: the damage of dropping a word shows in the next
# few tokens (the noun after a dropped article, the verb after a dropped subject).
LOOKAHEAD = 4
# Candidates read per forward: bounds the repeated keys and values (30 layers of the prefix).
BATCH = 16


class PassageReader:
    """Reads passages after ``context`` with ``model``, causally; callable as a
    :data:`~engine.canvas.PassageReader`."""

    def __init__(self, model: Any, start_id: int, device: torch.device | str = "cpu") -> None:
        self.model = model
        self.start_id = start_id
        self.device = torch.device(device)
        self.forwards = 0  # model calls so far (tests and benchmarks read the cost here)

    def __call__(self, context: list[int], original: list[int]) -> Any:
        def costs(rows: Sequence[Sequence[int]]) -> list[list[float]]:
            return self.read(context, original, rows)

        return costs

    @torch.inference_mode()
    def read(
        self, context: list[int], original: list[int], rows: Sequence[Sequence[int]]
    ) -> list[list[float]]:
        """NLL of every kept token of each row (indices into ``original``); ``rows[0]`` is read
        whole, the others from where they first differ from it, for :data:`LOOKAHEAD` tokens."""
        prefix = [self.start_id, *context]
        current = [original[i] for i in rows[0]]
        seq = torch.tensor([[*prefix, *current]], device=self.device)
        out = self.model(input_ids=seq, use_cache=True, is_causal=True)
        self.forwards += 1
        logp = out.logits[0, len(prefix) - 1 :].float().log_softmax(-1)  # row k predicts token k
        base = [-float(logp[k, token]) for k, token in enumerate(current)]
        answers = [base]
        cuts = [self._cut(rows[0], row, original) for row in rows[1:]]
        for first in range(0, len(cuts), BATCH):
            chunk = cuts[first : first + BATCH]
            answers += self._read_cuts(out.cache, len(prefix), logp, chunk, base, rows[0])
        return answers

    def _cut(
        self, current: Sequence[int], row: Sequence[int], original: list[int]
    ) -> tuple[int, list[int], list[int]]:
        """(where ``row`` leaves ``current``, its kept indices from there, their tokens)."""
        at = 0
        while at < min(len(current), len(row)) and current[at] == row[at]:
            at += 1
        rest = list(row[at:])
        return at, rest, [original[i] for i in rest]

    def _repeated(self, cache: Any, times: int) -> Any:
        """A copy of ``cache`` with its one row repeated ``times`` (the original is untouched)."""
        from transformers import DynamicCache

        copy = DynamicCache(config=self.model.config)
        for layer, found in enumerate(cache.layers):
            keys = found.keys.expand(times, -1, -1, -1).contiguous()
            copy.update(keys, found.values.expand(times, -1, -1, -1).contiguous(), layer)
        return copy

    def _read_cuts(
        self,
        cache: Any,
        offset: int,
        logp: torch.Tensor,
        cuts: list[tuple[int, list[int], list[int]]],
        base: list[float],
        current: Sequence[int],
    ) -> list[list[float]]:
        """One batched forward: each cut's next :data:`LOOKAHEAD` tokens after its kept rows."""
        width = max(1, min(LOOKAHEAD, max(len(tokens) for _, _, tokens in cuts)))
        ids = torch.full((len(cuts), width), self.start_id, device=self.device)
        positions = torch.zeros((len(cuts), width), dtype=torch.long, device=self.device)
        for n, (at, _, tokens) in enumerate(cuts):
            head = tokens[:width]
            ids[n, : len(head)] = torch.tensor(head, device=self.device)
            positions[n] = offset + at + torch.arange(width, device=self.device)
        mask = cut_mask([offset + at for at, _, _ in cuts], cache.get_seq_length(), width)
        read = self.model(
            input_ids=ids, position_ids=positions, cache=self._repeated(cache, len(cuts)),
            attention_mask=mask.to(self.device), use_cache=True,
        )  # fmt: skip
        self.forwards += 1
        later = read.logits.float().log_softmax(-1)
        was = dict(zip(current, base, strict=True))
        answers = []
        for n, (at, rest, tokens) in enumerate(cuts):
            fresh = [-float(logp[at, tokens[0]])] if tokens else []
            fresh += [
                -float(later[n, j, tokens[j + 1]]) for j in range(min(width, len(tokens)) - 1)
            ]
            answers.append(base[:at] + fresh + [was[i] for i in rest[len(fresh) :]])
        return answers


def cut_mask(kept: list[int], cached: int, width: int) -> torch.Tensor:
    """``(N, 1, width, cached + width)`` bool: row ``n`` sees the first ``kept[n]`` cached rows
    (the text before its cut) and its own new tokens causally."""
    keys = torch.arange(cached)
    old = keys[None, :] < torch.tensor(kept)[:, None]  # (N, cached)
    new = torch.ones(width, width, dtype=torch.bool).tril()
    return torch.cat(
        [old[:, None, :].expand(-1, width, -1), new[None].expand(len(kept), -1, -1)], dim=2
    )[:, None]
