"""The model reading a passage causally, to price the words a shorter rewrite drops.

"Make it tighter" gives a rewrite fewer positions than the original had, and the seed is the
original minus whole words (:func:`engine.passes.shorten.drop_words`). Which words go decides how
the
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

import math
from collections.abc import Sequence
from typing import Any

import torch

from engine.backends.masked.prefix_cache import PrefixCache

# Tokens after a cut whose NLL is read again: the damage of dropping a word shows in the next
# few tokens (the noun after a dropped article, the verb after a dropped subject).
LOOKAHEAD = 4
# Candidates read per forward: bounds the repeated keys and values (30 layers of the prefix).
BATCH = 16


class PassageReader:
    """Reads passages after ``context`` with ``model``, causally: the masked family's
    :class:`~engine.backends.base.Reader`. :meth:`read` reads any variants of a passage (the
    proofread and reread passes); :meth:`read_cuts` prices a shorter rewrite's cuts."""

    def __init__(self, model: Any, start_id: int, device: torch.device | str = "cpu") -> None:
        self.model = model
        self.start_id = start_id
        self.device = torch.device(device)
        self.forwards = 0  # model calls so far (tests and benchmarks read the cost here)
        # The context is the same in every round of one request and mostly in the next edit's:
        # encoded once, kept, and cut back where it changes (causal, so exact).
        self.context_cache = PrefixCache()

    def read_cuts(
        self,
        context: list[int],
        original: list[int],
        rows: Sequence[Sequence[int]],
        following: Sequence[int] = (),
    ) -> list[list[float]]:
        """NLL of every kept token of each row (indices into ``original``); ``rows[0]`` is read
        whole, the others from where they first differ from it, for :data:`LOOKAHEAD` tokens.

        ``following`` is the text after the passage (the lock a gap runs into): it is read
        after every row, and its NLL is charged to the row's last kept token, because a cut
        just before a lock shows its damage there ("going to be on Friday afternoon" once
        "away" went, priced as free when the reader stopped at "on")."""
        tail = list(range(len(original), len(original) + len(following)))
        text = [*original, *following]
        current = [*rows[0], *tail]
        cuts = [_cut(current, [*row, *tail]) for row in rows[1:]]
        # A swap's new tokens are read whatever their number, then the lookahead after them.
        held = set(current)
        reach = [LOOKAHEAD + sum(i not in held for i in rest) for _, rest in cuts]
        variants = [
            (at, [text[i] for i in rest[:n]]) for (at, rest), n in zip(cuts, reach, strict=True)
        ]
        base, fresh = self.read(context, [text[i] for i in current], variants)
        was = dict(zip(current, base, strict=True))
        answers = [base]
        for (at, rest), nlls in zip(cuts, fresh, strict=True):
            answers.append(base[:at] + nlls + [was[i] for i in rest[len(nlls) :]])
        return [_charge_following(nlls, len(tail)) for nlls in answers]

    @torch.inference_mode()
    def read(
        self,
        context: list[int],
        tokens: list[int],
        variants: Sequence[tuple[int, list[int]]],
        prune: float = math.inf,
    ) -> tuple[list[float], list[list[float]]]:
        """NLL of each of ``tokens`` after ``context``, and of each variant's tail: a variant
        ``(at, tail)`` is ``tokens[:at]`` followed by ``tail`` (only the tail is read).

        A variant whose first token reads more than ``prune`` nats worse than the token it
        replaces is not read on (its tail costs a forward of its own in the batch) and is
        answered ``[inf]``: a proofreader's candidate forms are mostly ones the sentence
        does not take ("olds", "painting"), and the first token already says so."""
        prefix = [self.start_id, *context]
        # The prefix's last row stays out of the kept cache: it predicts the first token.
        kept = torch.tensor(prefix[:-1], dtype=torch.long, device=self.device)
        encoded = self.context_cache.encoded_tokens
        cache = self.context_cache.holding(self.model, kept) if len(kept) else None
        self.forwards += int(self.context_cache.encoded_tokens > encoded)
        seq = torch.tensor([[prefix[-1], *tokens]], device=self.device)
        try:
            out = self.model(input_ids=seq, cache=cache, use_cache=True, is_causal=True)
            self.forwards += 1
            # Row k predicts tokens[k]; the last row, what would follow them all.
            logp = out.logits[0].float().log_softmax(-1)
            base = [-float(logp[k, token]) for k, token in enumerate(tokens)]
            pruned = [_pruned(v, tokens, base, logp, prune) for v in variants]
            reading = [v for v, skip in zip(variants, pruned, strict=True) if not skip]
            read: list[list[float]] = []
            for first in range(0, len(reading), BATCH):
                chunk = reading[first : first + BATCH]
                read += self._read_tails(out.cache, len(prefix), logp, chunk)
        finally:
            self.context_cache.forget_beyond_prefix()
        answers = iter(read)
        fresh = [[math.inf] if skip else next(answers) for skip in pruned]
        return base, fresh

    def _repeated(self, cache: Any, times: int) -> Any:
        """A copy of ``cache`` with its one row repeated ``times`` (the original is untouched)."""
        from transformers import DynamicCache

        copy = DynamicCache(config=self.model.config)
        for layer, found in enumerate(cache.layers):
            keys = found.keys.expand(times, -1, -1, -1).contiguous()
            copy.update(keys, found.values.expand(times, -1, -1, -1).contiguous(), layer)
        return copy

    def _read_tails(
        self,
        cache: Any,
        offset: int,
        logp: torch.Tensor,
        variants: Sequence[tuple[int, list[int]]],
    ) -> list[list[float]]:
        """One batched forward: each variant's tail after the kept rows before its ``at``."""
        width = max(1, max(len(tail) for _, tail in variants))
        ids = torch.full((len(variants), width), self.start_id, device=self.device)
        positions = torch.zeros((len(variants), width), dtype=torch.long, device=self.device)
        for n, (at, tail) in enumerate(variants):
            if tail:
                ids[n, : len(tail)] = torch.tensor(tail, device=self.device)
            positions[n] = offset + at + torch.arange(width, device=self.device)
        mask = cut_mask([offset + at for at, _ in variants], cache.get_seq_length(), width)
        read = self.model(
            input_ids=ids, position_ids=positions, cache=self._repeated(cache, len(variants)),
            attention_mask=mask.to(self.device), use_cache=True,
        )  # fmt: skip
        self.forwards += 1
        later = read.logits.float().log_softmax(-1)
        answers = []
        for n, (at, tail) in enumerate(variants):
            nlls = [-float(logp[at, tail[0]])] if tail else []
            nlls += [-float(later[n, j, tail[j + 1]]) for j in range(len(tail) - 1)]
            answers.append(nlls)
        return answers


def _pruned(
    variant: tuple[int, list[int]],
    tokens: Sequence[int],
    base: Sequence[float],
    logp: torch.Tensor,
    prune: float,
) -> bool:
    """Whether the variant's first token reads more than ``prune`` nats worse than the token
    it replaces (a variant that only drops tokens, or only adds them at the end, is read)."""
    at, tail = variant
    if math.isinf(prune) or not tail or at >= len(tokens):
        return False
    return -float(logp[at, tail[0]]) - base[at] > prune


def cut_mask(kept: list[int], cached: int, width: int) -> torch.Tensor:
    """``(N, 1, width, cached + width)`` bool: row ``n`` sees the first ``kept[n]`` cached rows
    (the text before its cut) and its own new tokens causally."""
    keys = torch.arange(cached)
    old = keys[None, :] < torch.tensor(kept)[:, None]  # (N, cached)
    new = torch.ones(width, width, dtype=torch.bool).tril()
    return torch.cat(
        [old[:, None, :].expand(-1, width, -1), new[None].expand(len(kept), -1, -1)], dim=2
    )[:, None]


def _charge_following(nlls: list[float], following: int) -> list[float]:
    """The row's own NLLs, the text after it added to its last one."""
    if not following:
        return nlls
    own = nlls[:-following]
    return [*own[:-1], own[-1] + sum(nlls[-following:])] if own else own


def _cut(current: Sequence[int], row: Sequence[int]) -> tuple[int, list[int]]:
    """Where ``row`` first differs from ``current``, and the indices it keeps from there."""
    at = 0
    while at < min(len(current), len(row)) and current[at] == row[at]:
        at += 1
    return at, list(row[at:])
