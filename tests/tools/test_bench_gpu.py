"""The GPU benchmark's code on the CPU with a tiny configuration, and its clean skip."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
import torch

from tools.bench import gpu, gpu_models, gpu_parts, gpu_report


def test_meta_build_matches_a_normal_build_in_shape_and_rotary_tables() -> None:
    from transformers import Gemma4ForCausalLM, Gemma4TextConfig

    device = torch.device("cpu")
    model = gpu_models.build_autoregressive(gpu_models.TINY_TEXT, device, torch.float32)
    config = Gemma4TextConfig(**gpu_models.TINY_TEXT, **gpu_models.IDS)
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


def test_roofline_bytes_count_weights_and_the_kv_cache_a_forward_reads() -> None:
    model = gpu_models.build_autoregressive(
        gpu_models.TINY_TEXT, torch.device("cpu"), torch.float32
    )
    params = gpu_models.counts(model, gpu_models.TINY_TEXT)
    assert params["active"] < params["total"]  # top-2 of 4 experts
    assert gpu_models.experts_touched(gpu_models.TINY_TEXT, 1) == 0.5
    assert gpu_models.experts_touched(gpu_models.TINY_TEXT, 256) == pytest.approx(1.0)
    assert gpu_models.weight_bytes(params, 1.0) == 2 * params["total"]
    layers = gpu_models.kv_layers(model)  # a sliding (window 64), a full layer
    assert layers == [(64, 64), (64, None)]
    assert gpu_models.kv_bytes(layers, 100) == 2 * 64 * (64 + 100)  # window caps it


def test_the_full_vocabulary_table_tokenizes_any_text_and_decodes_it_back() -> None:
    table = gpu_parts.vocab_table(1000)
    assert len(table.tokenizer) == 1000
    text = "Ada wrote 1843 notes, café!"
    assert table.decode(table.encode(text)) == text
    assert table.specials.filler_id == table.tokenizer.convert_tokens_to_ids("<fill>")


def test_the_whole_run_on_the_cpu_writes_every_part_and_the_page(tmp_path, monkeypatch) -> None:
    from tests.helpers.backends import llama_backend

    monkeypatch.setattr(gpu_parts, "load_embedded", lambda device, adapter: (llama_backend(), "t"))
    real = gpu_parts.Run.autoregressive

    def broken(self, deadline):  # one part fails: recorded, the others still run
        raise RuntimeError("out of memory (simulated)")

    monkeypatch.setattr(gpu_parts.Run, "autoregressive", broken)
    args = ["--tiny", "--device", "cpu", "--prompts", "8,24", "--canvas", "16", "--repeats", "1",
            "--embedded", "--out-dir", str(tmp_path)]  # fmt: skip
    assert gpu.main(args) == 0
    results = json.loads((tmp_path / "gpu.json").read_text())
    parts = results["parts"]
    assert set(parts) == {"bandwidth", "diffusion", "settle_overhead", "autoregressive", "embedded"}
    assert "simulated" in parts["autoregressive"]["error"]
    assert "Traceback" in parts["autoregressive"]["trace"]
    for prompt in ("8", "24"):
        step = parts["diffusion"]["prompts"][prompt]
        assert step["kv_bytes"] > 0 and step["weight_bytes"] > 0 and step["roofline_ms"] > 0
        assert step["tokens_per_s"]["20"] == pytest.approx(2 * step["tokens_per_s"]["10"])
    assert (
        parts["diffusion"]["prompts"]["24"]["kv_bytes"]
        > parts["diffusion"]["prompts"]["8"]["kv_bytes"]
    )
    settle = parts["settle_overhead"]
    assert settle["vocab"] == gpu_models.TINY_TEXT["vocab_size"]
    assert [e["settle_forwards"] for e in settle["by_steps"].values()] == [2, 6]
    # A per-step cost is a difference of two timings: on a loaded CPU the stock loop's can come
    # out zero or negative, and the measure is then not a number, never a made-up one.
    assert math.isfinite(settle["overhead_per_step"]) or settle["stock_step_ms"] <= 0
    assert parts["embedded"]["forwards"] >= 1 and parts["embedded"]["settle_s"] > 0
    assert results["machine"]["torch"] == torch.__version__
    assert set(results["headline"]["step_over_roofline"]) == {"8", "24"}
    page = (tmp_path / "benchmarks-gpu.md").read_text()
    assert "Settle's overhead per step: **" in page and "failed: `RuntimeError" in page
    # the AR part on its own, then the report command rebuilding the page from the JSON
    run = gpu_parts.Run(gpu_models.TINY_TEXT, torch.device("cpu"), (8,), 16, 1, True)
    ar = real(run, deadline=float("inf"))
    assert ar["prompts"]["8"]["token_ms"] and ar["prompts"]["8"]["kv_bytes"] > 0
    parts["autoregressive"] = ar
    results["headline"] = gpu_parts.headline(parts)
    (tmp_path / "gpu.json").write_text(json.dumps(results))
    out = tmp_path / "page.md"
    assert gpu_report.main(["--json", str(tmp_path / "gpu.json"), "--out", str(out)]) == 0
    assert "Diffusion / AR tokens/s, prompt 8" in out.read_text()


def test_a_short_budget_skips_parts_with_their_reason(tmp_path) -> None:
    args = ["--tiny", "--device", "cpu", "--budget-s", "0.2", "--out-dir", str(tmp_path)]
    assert gpu.main(args) == 0
    parts = json.loads((tmp_path / "gpu.json").read_text())["parts"]
    assert set(parts) == {"bandwidth", "diffusion", "settle_overhead", "autoregressive"}
    assert all("budget left" in part["skipped"] for part in parts.values())
    assert "skipped: " in (tmp_path / "benchmarks-gpu.md").read_text()


def test_runs_of_some_parts_each_merge_into_one_page(tmp_path, monkeypatch) -> None:
    from tests.helpers.backends import llama_backend

    monkeypatch.setattr(gpu_parts, "load_embedded", lambda device, adapter: (llama_backend(), "t"))
    common = ["--tiny", "--device", "cpu", "--prompts", "8", "--canvas", "16", "--repeats", "1"]
    first, second = tmp_path / "first", tmp_path / "second"
    assert gpu.main([*common, "--only", "bandwidth,diffusion", "--out-dir", str(first)]) == 0
    only = ["--only", "embedded", "--embedded", "--out-dir", str(second)]
    assert gpu.main([*common, *only]) == 0
    assert set(json.loads((second / "gpu.json").read_text())["parts"]) == {"embedded"}
    out = tmp_path / "page.md"
    jsons = [str(first / "gpu.json"), str(second / "gpu.json")]
    assert gpu_report.main(["--json", *jsons, "--out", str(out)]) == 0
    merged = gpu_report.merged([json.loads(Path(j).read_text()) for j in jsons])
    assert set(merged["parts"]) == {"bandwidth", "diffusion", "embedded"}
    assert "8" in merged["headline"]["step_over_roofline"]


def test_without_a_gpu_it_skips_with_a_message(capsys, tmp_path) -> None:
    if torch.cuda.is_available():
        pytest.skip("a GPU is present")
    assert gpu.main(["--out-dir", str(tmp_path)]) == 0
    assert "no CUDA GPU" in capsys.readouterr().out
    assert not (tmp_path / "gpu.json").exists()
