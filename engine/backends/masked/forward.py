"""How a masked backend's forwards run: one path, chosen once when the backend is built.

A forward predicts some canvas positions (rows of ``state.seq``). Which code runs it depends on
what the model can do and how it was adapted, and is decided here once, from the model's own
signature and the loader's choices, never by flags flipped later:

* ``kept``: the request keeps every row's keys and values (:mod:`.locked_kv`; structured fills
  and free text's dual cache), so a step runs only its open rows against the store;
* ``cached``: the text before the canvas is read causally from a :class:`.PrefixCache` (exact,
  reused across steps and edits; a prefix-causal adaptation keeps one of its own);
* ``causal-mask``: a prefix-causal model without a cache reads the prefix through a 4-D mask;
* ``rows``: the LM head runs on the needed rows only (``logits_to_keep``);
* ``sliced``: the whole sequence, sliced after the fact (models without ``logits_to_keep``).

``kept`` is a property of the request (``state.kv``); the other four are this object's.
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import torch
from transformers import PreTrainedModel

from engine.backends.masked.prefix_cache import PrefixCache
from engine.backends.masked.schedule import shift_logits
from engine.backends.masked.state import Denoising
from engine.core.tokens import TokenTable
from engine.models.adapters import BaseSwitch


class ForwardPath:
    """The model of a masked backend and the one way its forwards run."""

    def __init__(
        self,
        model: PreTrainedModel,
        *,
        shifted: bool,
        force_bidirectional: bool,
        causal_prefix: bool,
        device: torch.device,
        cache_prefix: bool | None = None,
    ) -> None:
        self.model = model
        self.shifted = shifted
        self.force_bidirectional = force_bidirectional
        self.causal_prefix = causal_prefix
        config = model.config.get_text_config()
        parameters = inspect.signature(model.forward).parameters
        # Models that take ``logits_to_keep`` skip the LM head outside the canvas (a large share
        # of a forward at a 49k vocabulary); the others are sliced after the fact.
        self.keeps_rows = "logits_to_keep" in parameters
        # Only causal models adapted to run both ways take a cache and a per-call is_causal;
        # sliding-window caches cannot be cut back (their layers drop old keys).
        self.can_cache_prefix = (
            force_bidirectional
            and self.keeps_rows
            and "cache" in parameters
            and not getattr(config, "sliding_window", None)
        )
        # Adapted with a causal prefix (``tools.adapt``, attention "prefix-causal"): the text
        # before the canvas must be read causally, and its cache is then exact, so it is kept.
        # ``cache_prefix`` overrides that choice (tests compare both paths on one model).
        cache = causal_prefix if cache_prefix is None else cache_prefix
        self.prefix_cache = PrefixCache() if cache and self.can_cache_prefix else None
        # Fixed logits shapes through a block: no per-step reshaping on an accelerator (a
        # CUDA graph needs it); on the CPU the open rows alone are cheaper (same output).
        self.fixed_rows = device.type != "cpu"

    @property
    def name(self) -> str:
        """The path a request without kept keys and values takes (see the module docstring)."""
        if self.prefix_cache is not None and self.can_cache_prefix:
            return "cached"
        if self.causal_prefix:
            return "causal-mask"
        return "rows" if self.keeps_rows else "sliced"

    @contextmanager
    def prefix_cache_swapped(self, cache: PrefixCache | None) -> Iterator[PrefixCache | None]:
        """Run with ``cache`` as the prefix cache for a while (the edit-cost bench measures a
        cold and a warm cache on any model that can cache), then restore the backend's own."""
        previous, self.prefix_cache = self.prefix_cache, cache
        try:
            yield cache
        finally:
            self.prefix_cache = previous

    def predict(self, state: Denoising, positions: torch.Tensor) -> torch.Tensor:
        """Float32 logits ``(len(positions), vocab)`` predicting those canvas positions."""
        at = state.start + positions
        kwargs: dict[str, Any] = {"is_causal": False} if self.force_bidirectional else {}
        if state.kv is not None:
            return self.predict_kept(state, at - int(self.shifted), kwargs).float()
        if self.prefix_cache is not None and self.can_cache_prefix and state.start > 1:
            return self.predict_cached(state, at, kwargs).float()
        if self.causal_prefix:
            kwargs["attention_mask"] = prefix_causal_mask(len(state.seq), state.start - 1)
        if self.keeps_rows:
            # The LM head runs on the needed rows only: in a shifted model, the row before each
            # position (the alignment :func:`shift_logits` gives a whole sequence).
            kwargs["logits_to_keep"] = at - int(self.shifted)
            return self.forward(state.seq, kwargs).float()
        logits = self.forward(state.seq, kwargs)
        return (shift_logits(logits) if self.shifted else logits)[at].float()

    def predict_kept(
        self, state: Denoising, rows: torch.Tensor, kwargs: dict[str, Any]
    ) -> torch.Tensor:
        """Rows ``rows`` of ``state.seq`` through :attr:`Denoising.kv`, filling it when stale.

        A fill reads the text before the canvas as the model was adapted to: from the prefix
        cache when there is one (exact, and shared with the next edit), else through the
        prefix-causal mask. Later steps run only canvas-side rows, which see every row anyway.
        """
        assert state.kv is not None
        if state.kv.ready(state.seq):
            return state.kv.predict(self.model, state.seq, rows, kwargs)
        cut = state.start - 1
        if self.prefix_cache is not None and cut > 0:
            cache = self.prefix_cache.holding(self.model, state.seq[:cut])
            try:
                return state.kv.fill(self.model, state.seq, rows, kwargs, cache, cut)
            finally:
                self.prefix_cache.forget_beyond_prefix()
        if self.causal_prefix:
            kwargs = {**kwargs, "attention_mask": prefix_causal_mask(len(state.seq), cut)}
        return state.kv.fill(self.model, state.seq, rows, kwargs)

    def predict_cached(
        self, state: Denoising, at: torch.Tensor, kwargs: dict[str, Any]
    ) -> torch.Tensor:
        """The same rows with the prefix read from :attr:`prefix_cache` instead of recomputed.

        The row just before the canvas stays out of the cache: a shifted model predicts canvas
        position 0 from it.
        """
        assert self.prefix_cache is not None
        cut = state.start - 1
        cache = self.prefix_cache.holding(self.model, state.seq[:cut])
        try:
            rows = at - cut - int(self.shifted)
            out = self.model(
                input_ids=state.seq[cut:].unsqueeze(0), cache=cache, use_cache=True, **kwargs,
                logits_to_keep=rows,
            )  # fmt: skip
        finally:
            self.prefix_cache.forget_beyond_prefix()
        logits: torch.Tensor = out.logits[0]
        return logits

    def forward(self, seq: torch.Tensor, kwargs: dict[str, Any]) -> torch.Tensor:
        logits: torch.Tensor = self.model(input_ids=seq.unsqueeze(0), **kwargs).logits[0]
        return logits


@dataclass(frozen=True)
class VerifyModels:
    """What the base model's passes over a canvas read with (:mod:`.verified_draft`,
    :mod:`.verified_values`): the adapted model's forward path and prefix cache, the base (the
    same weights with the adapter switched off) and its own cache."""

    path: ForwardPath
    base: BaseSwitch
    base_cache: PrefixCache
    table: TokenTable
    mask_id: int
    device: torch.device

    @property
    def model(self) -> PreTrainedModel:
        return self.path.model


def prefix_causal_mask(length: int, start: int) -> torch.Tensor:
    """``(1, 1, L, L)`` bool: causal before ``start``, both ways among the rows from ``start`` on.

    The row before the canvas (``start``) is on the both-ways side: a shifted model predicts the
    canvas's first token from it, so it must see the canvas, as in training.
    """
    pos = torch.arange(length)
    causal = pos[None, :] <= pos[:, None]
    late = pos >= start
    return (causal | (late[:, None] & late[None, :]))[None, None]
