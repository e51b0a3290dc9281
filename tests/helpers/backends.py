"""Masked-diffusion backends over the tiny test models, built once per test session.

``llama_backend`` runs the tiny Llama the way the embedded default runs (shifted logits, forced
bidirectional attention); ``modernbert_backend`` runs a native masked LM (unshifted). Both share
the tiny tokenizer's table, whose mask and filler are ``<mask>`` and ``<fill>``.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from types import SimpleNamespace

import torch

from engine.backends.masked.backend import MaskedBackend
from engine.core.tokens import TokenTable, special_tokens
from tests.helpers.tiny import tiny_llama, tiny_modernbert, tiny_tokenizer


@cache
def tiny_table() -> TokenTable:
    tok = tiny_tokenizer()
    specials = special_tokens(
        tok, len(tok), mask_candidates=("<mask>",), filler_candidates=("<fill>",)
    )
    return TokenTable(tok, specials)


@cache
def llama_backend() -> MaskedBackend:
    return MaskedBackend(tiny_llama(), tiny_table(), shifted=True, force_bidirectional=True)


@cache
def modernbert_backend() -> MaskedBackend:
    return MaskedBackend(tiny_modernbert(), tiny_table(), shifted=False, force_bidirectional=False)


BACKENDS = {"llama": llama_backend, "modernbert": modernbert_backend}


class ForwardCounter:
    """Counts a model's forward passes (a forward hook, removed when the ``with`` ends)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, *_: object) -> None:
        self.count += 1


@contextmanager
def counting_forwards(model: torch.nn.Module) -> Iterator[ForwardCounter]:
    counter = ForwardCounter()
    handle = model.register_forward_hook(counter)
    try:
        yield counter
    finally:
        handle.remove()


class RowEcho(torch.nn.Module):
    """A fake model that predicts token ``FIRST + r`` with certainty at sequence row ``r``.

    Which token lands at a canvas position therefore says which logit row the sampler read:
    how the shifted/unshifted alignment is tested without trusting a random model.
    """

    FIRST = 20

    def __init__(self, vocab_size: int = 400, positions: int = 1024) -> None:
        from transformers import PretrainedConfig

        super().__init__()
        self.config = PretrainedConfig(vocab_size=vocab_size, max_position_embeddings=positions)

    def forward(self, input_ids: torch.Tensor, **_: object) -> SimpleNamespace:
        rows = torch.arange(input_ids.shape[1])
        return SimpleNamespace(logits=self._logits(rows))

    def _logits(self, rows: torch.Tensor) -> torch.Tensor:
        logits = torch.full((1, len(rows), self.config.vocab_size), -30.0)
        logits[0, torch.arange(len(rows)), self.FIRST + rows] = 30.0
        return logits


class RowEchoKeeping(RowEcho):
    """The same fake, taking ``logits_to_keep`` (row indices) like transformers' causal LMs."""

    def forward(  # type: ignore[override]
        self, input_ids: torch.Tensor, logits_to_keep: torch.Tensor | int = 0, **_: object
    ) -> SimpleNamespace:
        rows = torch.arange(input_ids.shape[1])
        kept = rows[logits_to_keep] if isinstance(logits_to_keep, torch.Tensor) else rows
        return SimpleNamespace(logits=self._logits(kept))
