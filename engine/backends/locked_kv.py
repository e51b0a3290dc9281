"""Keys and values of the text that does not change, kept across the steps of one request.

A structured fill is mostly locked text (keys, quotes, brackets) around short slots, and every
denoising step of the masked backend would otherwise run the whole sequence through the model
again. With :class:`LockedKV` (opt-in per plan: ``EditPlan.cache_locked``) the first step runs
the whole sequence once, bidirectionally, and keeps every layer's keys and values; each later
step runs only the rows it needs (the rows that predict the still-masked positions, plus the
positions whose token changed since they were last computed) and lets them attend to the stored
keys and values of everything else. Rows it runs write their fresh keys and values back.

This is Fast-dLLM's approximate cache applied to scattered slots: the locked text's keys and
values are those of the first step, when the slots still held the mask token, so they do not
see the values chosen since. The slots themselves always see each other fresh. It needs a model
that takes ``cache``, ``position_ids`` and ``logits_to_keep`` and attends both ways when asked
(``is_causal=False``): the causal checkpoints adapted to diffusion, like the embedded default.
"""

from __future__ import annotations

from typing import Any

import torch


class LockedKV:
    """One request's stored keys and values, and the token each stored row was computed with."""

    def __init__(self) -> None:
        self.keys: list[torch.Tensor] = []  # per layer (batch, heads, sequence, head_dim)
        self.values: list[torch.Tensor] = []
        self.computed: torch.Tensor | None = None  # (sequence,) token ids behind the store
        self.rows_run = 0  # sequence rows run through the model so far (the saving shows here)

    def predict(
        self, model: Any, seq: torch.Tensor, rows: torch.Tensor, kwargs: dict[str, Any]
    ) -> torch.Tensor:
        """Logits ``(len(rows), vocab)`` of the sequence rows ``rows`` (sorted, unique)."""
        if self.computed is None or len(self.computed) != len(seq):
            return self._full(model, seq, rows, kwargs)
        stale = (seq != self.computed).nonzero().flatten()
        run = torch.unique(torch.cat([rows, stale]))  # sorted
        keep = torch.ones(len(seq), dtype=torch.bool, device=seq.device)
        keep[run] = False
        cache = self._cache(model, keep.nonzero().flatten())
        out = model(
            input_ids=seq[run].unsqueeze(0), position_ids=run.unsqueeze(0), cache=cache,
            use_cache=True, logits_to_keep=torch.searchsorted(run, rows), **kwargs,
        )  # fmt: skip
        self._write_back(out.cache, run, len(run))
        self.computed[run] = seq[run]
        self.rows_run += len(run)
        return out.logits[0]

    def _full(
        self, model: Any, seq: torch.Tensor, rows: torch.Tensor, kwargs: dict[str, Any]
    ) -> torch.Tensor:
        out = model(input_ids=seq.unsqueeze(0), use_cache=True, logits_to_keep=rows, **kwargs)
        self.keys = [layer.keys for layer in out.cache.layers]
        self.values = [layer.values for layer in out.cache.layers]
        self.computed = seq.clone()
        self.rows_run += len(seq)
        return out.logits[0]

    def _cache(self, model: Any, kept: torch.Tensor) -> Any:
        """A fresh cache holding the stored rows ``kept`` (their rotary positions are baked in)."""
        from transformers import DynamicCache

        cache = DynamicCache(config=model.config)
        for layer, (k, v) in enumerate(zip(self.keys, self.values, strict=True)):
            cache.update(k[:, :, kept], v[:, :, kept], layer)
        return cache

    def _write_back(self, cache: Any, run: torch.Tensor, count: int) -> None:
        for layer, found in enumerate(cache.layers):
            self.keys[layer][:, :, run] = found.keys[:, :, -count:]
            self.values[layer][:, :, run] = found.values[:, :, -count:]
