"""The window-side benchmark: a real worker process, a Qt event loop, and the numbers it reports."""

from __future__ import annotations

from engine.core.config import SamplerSettings
from tests.helpers.worker_models import save_tiny_llama
from tools.bench.gui import measure, worker_peak_rss_mb


def test_gui_probe_reports_stalls_first_frames_and_memory(tmp_path, qapp) -> None:
    folder = save_tiny_llama(tmp_path / "tiny")
    result = measure(str(folder), edits=2, settings=SamplerSettings(steps=4), limit_s=120)
    assert "error" not in result, result
    assert result["edits"] == 2
    assert result["longest_stall_ms"] >= result["median_tick_gap_ms"] > 0
    assert 0 < result["first_frame_ms"] <= result["first_denoised_frame_ms"] <= result["settled_ms"]
    assert result["worker_peak_rss_mb"] > 0 and result["gui_peak_rss_mb"] > 0


def test_worker_rss_of_a_missing_process_is_unknown() -> None:
    assert worker_peak_rss_mb(None) is None
