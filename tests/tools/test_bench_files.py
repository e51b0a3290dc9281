"""The file-size edit-cost benchmark runs the CLI's path and keeps every byte outside the edit."""

from __future__ import annotations

from pathlib import Path

from engine.core.config import SamplerSettings
from tests.helpers.backends import llama_backend
from tools.bench.files import TARGET_CHARS, file_cost, file_edit, make_file


def test_file_edit_rewrites_only_the_target(tmp_path: Path) -> None:
    path, target = make_file(tmp_path, 20_000)
    before = path.read_text(encoding="utf-8")
    assert len(target) == TARGET_CHARS and before[target.start - 2 : target.start] == "\n\n"
    file_edit(llama_backend(), path, target, SamplerSettings(steps=2, seed=0))
    after = path.read_text(encoding="utf-8")
    assert after.startswith(before[: target.start])
    assert after.endswith(before[target.end :])


def test_file_cost_reports_every_size_and_the_ratio() -> None:
    result = file_cost(llama_backend(), sizes=(4_000, 50_000), steps=2, repeats=2)
    assert result["sizes"] == [4_000, 50_000]
    assert all(len(result["rows"][k]["runs_s"]) == 2 for k in ("4000", "50000"))
    rows = result["rows"]
    assert 0 < rows["4000"]["model_sees_tokens"] <= rows["50000"]["model_sees_tokens"]
    assert result["ratio_last_to_first"] == rows["50000"]["edit_s"] / rows["4000"]["edit_s"]
    assert result["cpu_ratio_last_to_first"] == rows["50000"]["cpu_s"] / rows["4000"]["cpu_s"]
