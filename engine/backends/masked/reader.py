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
from dataclasses import dataclass
from typing import Any

import torch

from engine.backends.masked.prefix_cache import PrefixCache, cut_to

# Tokens after a cut whose NLL is read again: the damage of dropping a word shows in the next
# few tokens (the noun after a dropped article, the verb after a dropped subject).
LOOKAHEAD = 4
# Rows one forward reads at most: the passage and its candidates' tails packed together, so a
# proofreading round costs one forward (the context not yet kept rides along). More rows than
# this and the passage goes first, and only the candidates pruning keeps follow, as many
# forwards of this size as they need. At 768 rows a forward of the embedded model is a fraction
# of a second on a CPU; the attention mask is 768 x (context + 768) booleans.
PACK_TOKENS = 768
# Tails read with the passage even though pruning might spare them: a forward costs about what
# 80 rows do (the embedded model on this 2-core CPU after 300 tokens of context: 79 ms for 8
# rows, 165 ms for 128, 501 ms for 512), so a second forward pays only when pruning would spare
# more rows than that. A hunk's or a sentence's few candidates go in one forward; a paragraph's
# hundred forms go after the passage, only the ones pruning keeps.
PRUNABLE_ROWS = 96


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
        replaces is answered ``[inf]``: a proofreader's candidate forms are mostly ones the
        sentence does not take ("olds", "painting"), and the first token already says so.

        One forward reads the context not yet kept, the passage and every variant's tail
        together when they fit in :data:`PACK_TOKENS` rows and pruning could spare at most
        :data:`PRUNABLE_ROWS` of them (a pruned tail is read too: a few rows cost less than a
        forward). Otherwise the passage goes first, and only the tails that survive pruning
        follow, packed the same way."""
        prefix = [self.start_id, *context]
        kept = prefix[:-1]  # its last row predicts the first token: read with the passage
        cache, pending = self.context_cache.reusable(kept)
        head = [*pending, prefix[-1], *tokens]
        tail_rows = sum(len(tail) for _, tail in variants)
        fits = len(head) + tail_rows <= PACK_TOKENS
        together = fits and (math.isinf(prune) or tail_rows <= PRUNABLE_ROWS)
        at_once = list(variants) if together else []
        packed = Packed(len(kept) - len(pending), head, len(prefix), at_once)
        try:
            cache, logp, tails = self._packed(cache, packed, len(tokens) + 1)
            base = [-float(logp[k, token]) for k, token in enumerate(tokens)]
            pruned = [_pruned(v, tokens, base, logp, prune) for v in variants]
            reading = reading_of(variants, pruned)
            if together:
                tails = [t for t, skip in zip(tails, pruned, strict=True) if not skip]
            else:
                tails = self._after_passage(cache, len(prefix), len(tokens), reading)
        except BaseException:
            self.context_cache.keep(None, [])  # a forward stopped halfway left rows unknown
            raise
        self.context_cache.keep(cache, kept)
        answers = iter([_tail_nlls(logp, v, t) for v, t in zip(reading, tails, strict=True)])
        fresh = [[math.inf] if skip else next(answers) for skip in pruned]
        return base, fresh

    def _after_passage(
        self, cache: Any, origin: int, length: int, variants: Sequence[tuple[int, list[int]]]
    ) -> list[torch.Tensor]:
        """The tails of ``variants`` read after the passage of ``length`` tokens from
        position ``origin`` (in ``cache``), :data:`PACK_TOKENS` rows a forward; the cache is
        cut back to the passage after each."""
        cached = origin + length
        read: list[torch.Tensor] = []
        for chunk in chunks(variants, PACK_TOKENS):
            if not any(tail for _, tail in chunk):
                read += [torch.empty(0)] * len(chunk)
                continue
            cache, _, tails = self._packed(cache, Packed(cached, [], origin, chunk), 0)
            cut_to(cache, cached)
            read += tails
        return read

    def _packed(self, cache: Any, packed: Packed, head_rows: int) -> tuple[Any, Any, list[Any]]:
        """One forward over ``packed``: the cache it leaves, the log-probabilities of the head's
        last ``head_rows`` rows, and each tail's rows'."""
        widths = [len(tail) for _, tail in packed.variants]
        ids = [*packed.head, *(token for _, tail in packed.variants for token in tail)]
        out = self.model(
            input_ids=torch.tensor([ids], device=self.device),
            position_ids=torch.tensor([packed.positions()], device=self.device),
            attention_mask=packed.mask().to(self.device), cache=cache, use_cache=True,
            logits_to_keep=head_rows + sum(widths),
        )  # fmt: skip
        self.forwards += 1
        logp = out.logits[0].float().log_softmax(-1)
        tails = list(logp[head_rows:].split(widths)) if widths else []
        return out.cache, logp[:head_rows], tails


@dataclass(frozen=True)
class Packed:
    """One forward's rows: ``head`` continues the ``cached`` rows causally; each variant's
    tail then sees the rows before ``origin + at`` (the passage's tokens before its change,
    ``origin`` being the passage's first position) and its own tokens, at the positions it
    would have in its own passage, as tree attention reads a speculative tree."""

    cached: int
    head: list[int]
    origin: int
    variants: Sequence[tuple[int, list[int]]]

    def positions(self) -> list[int]:
        head = range(self.cached, self.cached + len(self.head))
        tails = (self.origin + at + j for at, tail in self.variants for j in range(len(tail)))
        return [*head, *tails]

    def mask(self) -> torch.Tensor:
        """``(1, 1, rows, cached + rows)`` bool: who each row attends to."""
        rows = len(self.head) + sum(len(tail) for _, tail in self.variants)
        keys = torch.arange(self.cached + rows)
        mask = torch.zeros(rows, self.cached + rows, dtype=torch.bool)
        head = torch.arange(len(self.head))
        mask[: len(self.head)] = keys[None, :] <= (self.cached + head)[:, None]
        row, key = len(self.head), self.cached + len(self.head)
        for at, tail in self.variants:
            width = len(tail)
            mask[row : row + width, : self.origin + at] = True
            mask[row : row + width, key : key + width] = torch.ones(width, width).tril().bool()
            row, key = row + width, key + width
        return mask[None, None]


def chunks(
    variants: Sequence[tuple[int, list[int]]], rows: int
) -> list[list[tuple[int, list[int]]]]:
    """``variants`` in order, grouped so that each group's tails hold at most ``rows`` tokens
    (a longer tail goes alone)."""
    groups: list[list[tuple[int, list[int]]]] = []
    size = rows
    for variant in variants:
        if size + len(variant[1]) > rows:
            groups.append([])
            size = 0
        groups[-1].append(variant)
        size += len(variant[1])
    return groups


def reading_of(
    variants: Sequence[tuple[int, list[int]]], pruned: Sequence[bool]
) -> list[tuple[int, list[int]]]:
    return [v for v, skip in zip(variants, pruned, strict=True) if not skip]


def _tail_nlls(
    logp: torch.Tensor, variant: tuple[int, list[int]], rows: torch.Tensor
) -> list[float]:
    """A tail's NLLs: its first token from the passage's row before it, each next from the
    tail's own row before it."""
    at, tail = variant
    if not tail:
        return []
    nlls = [-float(logp[at, tail[0]])]
    return nlls + [-float(rows[j, tail[j + 1]]) for j in range(len(tail) - 1)]


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
