"""Prefix KV reuse in the masked backend: exact against a causal-prefix forward, reused across
steps and edits, cut back at the first changed token, and off unless asked for."""

from __future__ import annotations

import torch

from engine.backends.masked.backend import MaskedBackend
from engine.backends.masked.prefix_cache import PrefixCache, common_length
from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, Proposal, Span
from engine.run.edit_run import run_edit
from tests.helpers.backends import modernbert_backend, tiny_table
from tests.helpers.tiny import tiny_llama

DOC = (
    "Paris is the capital of France. Berlin is the capital of Germany. " * 3
    + "The quick brown fox jumps over the lazy dog."
)
SETTINGS = SamplerSettings(steps=4, block_length=0, seed=3)


def backend(cached: bool) -> MaskedBackend:
    return MaskedBackend(
        tiny_llama(), tiny_table(), shifted=True, force_bidirectional=True, cache_prefix=cached
    )


def rewrite(b: MaskedBackend, text: str, phrase: str = "quick brown fox", **locks: str) -> Proposal:
    start = text.index(phrase)
    lock_spans = tuple(Span(text.index(v), text.index(v) + len(v)) for v in locks.values())
    edit = Edit(1, text, Span(start, start + len(phrase)), lock_spans, settings=SETTINGS)
    return next(e for e in run_edit(b, edit) if isinstance(e, Proposal))


def test_cached_step_equals_a_forward_whose_prefix_is_causal() -> None:
    model = tiny_llama()
    seq = torch.randint(10, 300, (40,), generator=torch.Generator().manual_seed(0))
    cut = 25
    with torch.inference_mode():
        cache = PrefixCache().holding(model, seq[:cut])
        cached = model(input_ids=seq[cut:][None], cache=cache, is_causal=False).logits[0]
        allowed = torch.ones(40, 40, dtype=torch.bool)
        allowed[:cut] = torch.tril(torch.ones(cut, 40, dtype=torch.bool))
        mask = torch.where(allowed, 0.0, float("-inf"))[None, None]
        full = model(input_ids=seq[None], attention_mask=mask).logits[0, cut:]
    torch.testing.assert_close(cached, full, atol=1e-5, rtol=1e-5)


def test_the_next_edit_reuses_the_prefix_and_matches_a_fresh_cache() -> None:
    warm = backend(cached=True)
    first = rewrite(warm, DOC)
    encoded = warm.path.prefix_cache.encoded_tokens
    assert encoded > 0
    again = rewrite(warm, DOC)
    assert warm.path.prefix_cache.encoded_tokens == encoded  # nothing re-encoded: same prefix
    assert again.text == first.text == rewrite(backend(cached=True), DOC).text


def test_a_change_early_in_the_document_invalidates_from_there_only() -> None:
    warm = backend(cached=True)
    rewrite(warm, DOC)
    before = warm.path.prefix_cache.encoded_tokens
    changed = DOC.replace("Berlin", "Madrid", 1)
    result = rewrite(warm, changed)
    assert 0 < warm.path.prefix_cache.encoded_tokens - before < len(warm.path.prefix_cache.ids)
    assert result.text == rewrite(backend(cached=True), changed).text


def test_locks_come_back_exactly_with_the_cache() -> None:
    text = DOC.replace("quick brown fox", "quick brown fox named Ada")
    result = rewrite(backend(cached=True), text, "quick brown fox named Ada", name="Ada")
    assert "Ada" in result.text
    assert result.locks == ("Ada",)


def test_off_by_default_and_ignored_by_models_that_cannot_cache() -> None:
    assert backend(cached=False).path.prefix_cache is None
    plain = modernbert_backend()
    assert not plain.path.can_cache_prefix
    assert backend(cached=True).path.can_cache_prefix


def test_common_length() -> None:
    assert common_length([1, 2, 3], [1, 2, 4]) == 2
    assert common_length([1, 2], [1, 2, 3]) == 2
    assert common_length([], [1]) == 0
