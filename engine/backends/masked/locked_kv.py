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

Free text uses the same store (``SamplerSettings.kv_cache``, Fast-dLLM's dual cache): the
backend calls :meth:`LockedKV.refresh` when a semi-autoregressive block starts, so the block is
predicted against keys and values computed after the previous block settled, and each step
inside it runs only the block's open rows and the rows committed since. The first forward may
continue a causally encoded prefix (:class:`~engine.backends.masked.prefix_cache.PrefixCache`): the
store then holds the prefix's exact keys and values and the canvas side's approximate ones.
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

    def ready(self, seq: torch.Tensor) -> bool:
        """Whether the store covers ``seq`` (else the next prediction must :meth:`fill` it)."""
        return self.computed is not None and len(self.computed) == len(seq)

    def refresh(self) -> None:
        """Recompute everything at the next prediction (a new block: the old values are stale)."""
        self.computed = None

    def predict(
        self, model: Any, seq: torch.Tensor, rows: torch.Tensor, kwargs: dict[str, Any]
    ) -> torch.Tensor:
        """Logits ``(len(rows), vocab)`` of the sequence rows ``rows`` (sorted, unique)."""
        computed = self.computed
        if computed is None or len(computed) != len(seq):
            return self.fill(model, seq, rows, kwargs)
        stale = (seq != computed).nonzero().flatten()
        run = torch.unique(torch.cat([rows, stale]))  # sorted
        keep = torch.ones(len(seq), dtype=torch.bool, device=seq.device)
        keep[run] = False
        cache = self._cache(model, keep.nonzero().flatten())
        out = model(
            input_ids=seq[run].unsqueeze(0), position_ids=run.unsqueeze(0), cache=cache,
            use_cache=True, logits_to_keep=torch.searchsorted(run, rows), **kwargs,
        )  # fmt: skip
        self._write_back(out.cache, run, len(run))
        computed[run] = seq[run]
        self.rows_run += len(run)
        return out.logits[0]

    def fill(
        self,
        model: Any,
        seq: torch.Tensor,
        rows: torch.Tensor,
        kwargs: dict[str, Any],
        prefix: Any = None,
        prefix_length: int = 0,
    ) -> torch.Tensor:
        """Run ``seq`` whole (after a cached ``prefix`` of ``prefix_length`` rows) and store it.

        The stored tensors are copies: a prefix cache shares its storage with what this forward
        appended to it, and cuts that back afterwards.
        """
        out = model(
            input_ids=seq[prefix_length:].unsqueeze(0), cache=prefix, use_cache=True,
            logits_to_keep=rows - prefix_length, **kwargs,
        )  # fmt: skip
        self.keys = [layer.keys[:, :, : len(seq)].clone() for layer in out.cache.layers]
        self.values = [layer.values[:, :, : len(seq)].clone() for layer in out.cache.layers]
        self.computed = seq.clone()
        self.rows_run += len(seq) - prefix_length
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
