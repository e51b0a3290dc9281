"""Prefix KV reuse for the masked-diffusion backend: the text before the canvas, encoded once.

:class:`~engine.backends.masked.backend.MaskedBackend` uses a :class:`PrefixCache` when one is set
on it
(opt-in). The prefix is encoded *causally*, so each token's keys and values depend only on the
tokens before it: the cache can be extended with new text and cut back at the first changed
token, and either way holds exactly what encoding the whole prefix at once would. That is what
lets one cache serve every step of an edit and the next edit of the same document.
"""

from __future__ import annotations

from typing import Any

import torch


class PrefixCache:
    """The causally encoded text before the canvas, kept across steps and across edits."""

    def __init__(self) -> None:
        self.ids: list[int] = []
        self.cache: Any = None
        self.encoded_tokens = 0  # prefix tokens run through the model so far (reuse shows here)

    def holding(self, model: Any, prefix: torch.Tensor) -> Any:
        """A cache of exactly ``prefix``: kept up to the first changed token, the rest encoded."""
        ids = prefix.tolist()
        keep = common_length(self.ids, ids) if self.cache is not None else 0
        if keep == 0:
            self.cache = None
        elif keep < len(self.ids):
            self.cache.crop(keep - len(self.ids))  # invalidate from the first changed token
        if keep < len(ids):
            # Causal, so each token's keys depend only on the tokens before it: extending or
            # cutting the cache later gives exactly what encoding the whole prefix would.
            out = model(
                input_ids=prefix[keep:].unsqueeze(0), cache=self.cache, use_cache=True,
                is_causal=True, logits_to_keep=1,
            )  # fmt: skip
            self.cache = out.cache
            self.encoded_tokens += len(ids) - keep
        self.ids = ids
        return self.cache

    def reusable(self, prefix: list[int]) -> tuple[Any, list[int]]:
        """The kept cache cut back to the part ``prefix`` shares, and the ids still to encode:
        for a caller that encodes them in its own forward (:meth:`keep` stores the result)."""
        keep = common_length(self.ids, prefix) if self.cache is not None else 0
        if keep == 0:
            self.cache, self.ids = None, []
        elif keep < len(self.ids):
            cut_to(self.cache, keep)
            self.ids = self.ids[:keep]
        return self.cache, prefix[keep:]

    def keep(self, cache: Any, prefix: list[int]) -> None:
        """Hold ``cache`` as the encoding of ``prefix``: the rows a forward appended after it
        (the passage, the candidates) are dropped. Causal, so what stays is exact."""
        if not prefix or cache is None:
            self.cache, self.ids = None, []
            return
        self.encoded_tokens += len(prefix) - common_length(self.ids, prefix)
        cut_to(cache, len(prefix))
        self.cache, self.ids = cache, list(prefix)

    def forget_beyond_prefix(self) -> None:
        """Drop what a step appended after the prefix (its canvas and suffix rows)."""
        extra = self.cache.get_seq_length() - len(self.ids) if self.cache is not None else 0
        if extra > 0:
            self.cache.crop(-extra)


def cut_to(cache: Any, rows: int) -> None:
    """Cut ``cache`` back to its first ``rows`` rows (transformers crops by the rows to drop)."""
    extra = cache.get_seq_length() - rows
    if extra > 0:
        cache.crop(-extra)


def common_length(a: list[int], b: list[int]) -> int:
    """Length of the longest common prefix of two id lists."""
    n = min(len(a), len(b))
    for i in range(n):
        if a[i] != b[i]:
            return i
    return n
