"""Free text's kept keys and values (``SamplerSettings.kv_cache``): exact where it claims to be,
refreshed per block, and each step inside a block runs only the rows it needs."""

from __future__ import annotations

from typing import Any

import torch

from engine.backends.masked.backend import MaskedBackend
from engine.backends.masked.forward import prefix_causal_mask
from engine.backends.masked.locked_kv import LockedKV
from engine.backends.masked.prefix_cache import PrefixCache
from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, EditMode, Proposal, Span
from engine.run.edit_run import run_edit
from tests.helpers.backends import tiny_table
from tests.helpers.tiny import tiny_llama

DOC = "Paris is the capital of France. Berlin is the capital of Germany. The quick brown fox"
BIDIRECTIONAL = {"is_causal": False}


def prefix_causal_backend() -> MaskedBackend:
    return MaskedBackend(
        tiny_llama(), tiny_table(), shifted=True, force_bidirectional=True, causal_prefix=True
    )


def draft(backend: MaskedBackend, settings: SamplerSettings) -> tuple[Proposal, list[int]]:
    """A draft at the end of DOC, and the number of rows each forward ran."""
    lengths: list[int] = []

    def record(_: Any, args: Any, kwargs: Any) -> None:
        lengths.append(int(kwargs["input_ids"].shape[1]))

    edit = Edit(1, DOC, Span(len(DOC), len(DOC)), mode=EditMode.DRAFT, settings=settings)
    handle = backend.model.register_forward_pre_hook(record, with_kwargs=True)
    try:
        proposal = next(e for e in run_edit(backend, edit) if isinstance(e, Proposal))
    finally:
        handle.remove()
    return proposal, lengths


def test_a_fill_after_a_cached_prefix_equals_a_prefix_causal_forward() -> None:
    model = tiny_llama()
    seq = torch.randint(10, 300, (40,), generator=torch.Generator().manual_seed(4))
    cut, rows = 25, torch.tensor([26, 30, 39])
    kv = LockedKV()
    with torch.inference_mode():
        mask = prefix_causal_mask(len(seq), cut)
        full = model(input_ids=seq[None], attention_mask=mask, **BIDIRECTIONAL).logits[0][rows]
        prefix = PrefixCache()
        filled = kv.fill(model, seq, rows, BIDIRECTIONAL, prefix.holding(model, seq[:cut]), cut)
        prefix.forget_beyond_prefix()
        again = kv.predict(model, seq, rows, BIDIRECTIONAL)  # nothing changed: exact
    torch.testing.assert_close(filled, full, atol=1e-5, rtol=1e-5)
    torch.testing.assert_close(again, full, atol=1e-5, rtol=1e-5)
    assert kv.rows_run == len(seq) - cut + len(rows)  # the prefix was not run again
    assert prefix.cache.get_seq_length() == cut  # the shared prefix cache was cut back


def test_refresh_makes_the_next_prediction_recompute_everything() -> None:
    model = tiny_llama()
    seq = torch.randint(10, 300, (30,), generator=torch.Generator().manual_seed(5))
    kv = LockedKV()
    with torch.inference_mode():
        kv.predict(model, seq, torch.tensor([20]), BIDIRECTIONAL)
        assert kv.ready(seq)
        kv.refresh()
        assert not kv.ready(seq)
        kv.predict(model, seq, torch.tensor([20]), BIDIRECTIONAL)
    assert kv.rows_run == 2 * len(seq)


def test_each_block_starts_with_a_full_forward_and_then_runs_only_its_open_rows() -> None:
    settings = SamplerSettings(steps=12, block_length=4, draft_tokens=12, seed=1, kv_cache=True)
    proposal, lengths = draft(prefix_causal_backend(), settings)
    canvas_side = 12 + 1  # the canvas and the row before it (the prefix is in its own cache)
    prefix_encoding = lengths[0]  # the first forward encodes the prefix cache
    steps = lengths[1:]
    assert prefix_encoding > canvas_side
    assert steps[0::4] == [canvas_side] * 3  # a refresh as each of the three blocks starts
    for inside in (steps[1:4], steps[5:8], steps[9:12]):
        assert all(n <= 4 + 1 for n in inside)  # open rows plus the row committed last
    assert proposal.metrics.forwards == 12


def test_kv_cache_keeps_the_step_schedule_and_the_locks() -> None:
    phrase, lock = "Berlin is the capital", "capital"
    start = DOC.index(phrase)
    at = DOC.index(lock, start)
    for kv_cache in (False, True):
        settings = SamplerSettings(steps=6, block_length=3, seed=2, kv_cache=kv_cache)
        edit = Edit(
            1, DOC, Span(start, start + len(phrase)), (Span(at, at + len(lock)),), settings=settings
        )
        proposal = next(
            e for e in run_edit(prefix_causal_backend(), edit) if isinstance(e, Proposal)
        )
        assert [s.text for s in proposal.segments if s.locked] == [lock]
        assert proposal.metrics.forwards <= 6
