"""Int8 weights (engine.quantize): chosen only where they pay, close to the full model, and a
model loaded with them still denoises with every lock held."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from engine import loading
from engine.edit_run import run_edit
from engine.errors import BadRequest
from engine.models import resolve
from engine.protocol import Edit, Proposal, Span
from engine.quantize import check_weights, quantize_int8, wants_int8
from tests.helpers.model_folders import save_tiny
from tests.helpers.tiny import tiny_llama

CPU, CUDA = torch.device("cpu"), torch.device("cuda")


def test_auto_packs_fp32_on_the_cpu_only() -> None:
    assert wants_int8("auto", CPU, torch.float32)
    assert not wants_int8("auto", CPU, torch.bfloat16)  # AMX runs bf16 on matrix units
    assert not wants_int8("auto", CUDA, torch.float32)
    assert wants_int8("int8", CPU, torch.bfloat16)
    assert not wants_int8("full", CPU, torch.float32)


def test_an_unknown_choice_is_a_clear_error() -> None:
    with pytest.raises(BadRequest, match="int4"):
        check_weights("int4")


def test_int8_logits_stay_close_to_the_full_model() -> None:
    full, packed = tiny_llama(), tiny_llama()
    assert quantize_int8(packed) == sum(isinstance(m, torch.nn.Linear) for m in full.modules())
    ids = torch.randint(5, 300, (1, 24), generator=torch.Generator().manual_seed(0))
    with torch.inference_mode():
        want = full(input_ids=ids).logits.softmax(-1)
        got = packed(input_ids=ids).logits.softmax(-1)
    assert (want - got).abs().sum(-1).max() < 0.1  # total variation per row
    assert (want.argmax(-1) == got.argmax(-1)).float().mean() > 0.9


def test_a_model_loaded_as_int8_reports_it_and_keeps_its_locks(tmp_path: Path) -> None:
    folder = save_tiny(tmp_path / "tiny-llama", "llama")
    loaded = loading.load_spec(
        resolve(str(folder)), CPU, lambda _p: None, allow_remote_code=False, weights="int8"
    )
    assert loaded.info.weights == "int8"
    assert loaded.info.parameters > 0  # counted before packing
    text = "Paris is the capital of France and Berlin of Germany."
    lock = text.index("France")
    edit = Edit(1, text, Span(0, len(text)), (Span(lock, lock + len("France")),))
    proposal = next(e for e in run_edit(loaded.backend, edit) if isinstance(e, Proposal))
    assert [s.text for s in proposal.segments if s.locked] == ["France"]
