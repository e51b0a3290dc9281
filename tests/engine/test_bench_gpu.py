"""The GPU benchmark's code on the CPU with a tiny configuration, and its clean skip."""

from __future__ import annotations

import math

import pytest
import torch

from engine.bench import gpu


def test_meta_build_matches_a_normal_build_in_shape_and_rotary_tables() -> None:
    from transformers import Gemma4ForCausalLM, Gemma4TextConfig

    device = torch.device("cpu")
    model = gpu.build_autoregressive(gpu.TINY_TEXT, device, torch.float32)
    config = Gemma4TextConfig(**gpu.TINY_TEXT, **gpu.IDS)
    reference = Gemma4ForCausalLM(config)
    ours = dict(model.named_buffers())
    for name, buffer in reference.named_buffers():
        if "inv_freq" in name:
            torch.testing.assert_close(ours[name], buffer)
    assert sum(p.numel() for p in model.parameters()) == sum(
        p.numel() for p in reference.parameters()
    )
    logits = model(input_ids=torch.tensor([[3, 4, 5]])).logits
    assert torch.isfinite(logits).all()


def test_measure_reports_times_rooflines_and_parameter_counts() -> None:
    result = gpu.measure(gpu.TINY_TEXT, torch.device("cpu"), (16,), canvas=16, mib=1, repeats=1)
    assert result["copy_gb_s"] > 0 and result["matmul_tflop_s"] > 0
    diffusion, ar = result["diffusion"], result["autoregressive"]
    assert diffusion["decoder"]["total"] <= diffusion["parameters"]["total"]
    assert ar["parameters"]["active"] < ar["parameters"]["total"]  # top-2 of 4 experts
    for entry in (diffusion["prompt_16"], ar["prompt_16"]):
        assert entry["roofline_ms"] > 0
        assert math.isfinite(next(v for k, v in entry.items() if k.endswith("_ms")))


def test_without_a_gpu_it_skips_with_a_message(capsys, tmp_path) -> None:
    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    assert gpu.main(["--out", str(tmp_path / "gpu.json")]) == 0
    assert "no CUDA GPU" in capsys.readouterr().out
    assert not (tmp_path / "gpu.json").exists()
