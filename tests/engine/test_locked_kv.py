"""The locked text's keys and values, kept across the steps of a request (plan.cache_locked)."""

from __future__ import annotations

from typing import Any

import torch

from engine.backends.masked.locked_kv import LockedKV
from engine.core.canvas import assemble, build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, ExcludingConstraint, Locked, Slot
from engine.core.protocol import EditMode, Span
from tests.helpers.backends import llama_backend
from tests.helpers.tiny import tiny_llama

BIDIRECTIONAL = {"is_causal": False}


def test_rows_read_against_the_store_equal_a_full_forward_while_nothing_changed() -> None:
    model = tiny_llama()
    seq = torch.randint(5, 300, (40,), generator=torch.Generator().manual_seed(1))
    rows = torch.tensor([10, 11, 12, 30])
    kv = LockedKV()
    with torch.inference_mode():
        full = model(input_ids=seq.unsqueeze(0), **BIDIRECTIONAL).logits[0][rows]
        first = kv.predict(model, seq, rows, BIDIRECTIONAL)
        again = kv.predict(model, seq, rows, BIDIRECTIONAL)
    assert torch.allclose(first, full, atol=1e-5) and torch.allclose(again, full, atol=1e-5)
    assert kv.rows_run == len(seq) + len(rows)  # the second call ran only the rows it needed


def test_a_changed_token_is_run_again_and_its_keys_are_refreshed() -> None:
    model = tiny_llama()
    seq = torch.randint(5, 300, (40,), generator=torch.Generator().manual_seed(2))
    rows = torch.tensor([20, 21])
    kv = LockedKV()
    with torch.inference_mode():
        kv.predict(model, seq, rows, BIDIRECTIONAL)
        changed = seq.clone()
        changed[5] = 7
        kv.predict(model, changed, rows, BIDIRECTIONAL)
        assert kv.computed is not None and int(kv.computed[5]) == 7
        assert kv.rows_run == len(seq) + 3  # rows 20, 21 and the changed position 5
        # With everything up to date again, the rows match a full forward of the new sequence
        # wherever the store was refreshed; the rest is the documented approximation.
        out = kv.predict(model, changed, torch.tensor([5]), BIDIRECTIONAL)
    assert torch.isfinite(out).all()


def test_the_masked_backend_runs_only_the_open_rows_after_its_first_forward() -> None:
    backend = llama_backend()
    slot = Slot(ExcludingConstraint("text", frozenset('"\\')), 6)
    segments = (Locked('{"name": "'), slot, Locked('", "city": "'), slot, Locked('"}'))
    plan = EditPlan(Span(0, 0), segments, "", "", "Fill in", EditMode.REWRITE, cache_locked=True)
    settings = SamplerSettings(steps=4, block_length=0)
    canvas = build_canvas(plan, backend.table, settings, backend.max_canvas_tokens)
    lengths: list[int] = []

    def record(_: Any, args: Any, kwargs: Any) -> None:
        lengths.append(int(kwargs["input_ids"].shape[1]))

    handle = backend.model.register_forward_pre_hook(record, with_kwargs=True)
    try:
        steps = list(backend.denoise(canvas, settings))
    finally:
        handle.remove()
    assert len(lengths) == len(steps) >= 2
    assert all(later < lengths[0] for later in lengths[1:])
    assert max(lengths[1:]) <= 12 + 2  # the open positions and the rows that predict them
    texts = assemble(canvas, steps[-1].ids, backend.table)
    assert [t.text for t in texts if t.locked] == ['{"name": "', '", "city": "', '"}']
