"""The remote-engine benchmark row on the tiny model: both paths run and report; no thresholds."""

from __future__ import annotations

from pathlib import Path

from engine.core.protocol import LoadModel
from tests.helpers.worker_models import load_folder, save_tiny_llama
from tools.bench.remote import Loaded, remote_lines, remote_overhead


def test_the_remote_row_measures_both_paths_and_renders(tmp_path: Path) -> None:
    folder = save_tiny_llama(tmp_path / "tiny")
    loaded = load_folder(LoadModel(str(folder), "cpu"), lambda _p: None)
    result = remote_overhead(Loaded(loaded.backend, loaded.info), str(folder), quick=True)
    for path in ("local", "remote"):
        row = result[path]
        assert row["frames"] > 0 and row["delivery_median_ms"] >= 0
        assert row["first_frame_ms"] > 0
    assert set(result) >= {"added_per_frame_ms", "added_first_frame_ms", "goal_ms"}
    text = "\n".join(remote_lines(result))
    assert "remote engine, loopback" in text and "Added per frame" in text
    assert "Not measured: boom" in "\n".join(remote_lines({"error": "boom"}))
