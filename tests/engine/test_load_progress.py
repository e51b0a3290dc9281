"""Load progress: transformers' weight bar becomes LoadProgress events, nothing on stderr."""

from __future__ import annotations

from pathlib import Path

import pytest

from engine.core.protocol import LoadModel, LoadProgress
from engine.models.loading import load
from engine.process.load_progress import ReportingBar
from tests.helpers.worker_models import save_tiny_llama


def test_loading_reports_weight_progress_and_writes_no_bar(
    tmp_path: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    folder = save_tiny_llama(tmp_path / "tiny")
    capfd.readouterr()
    reports: list[LoadProgress] = []
    load(LoadModel(str(folder), device="cpu"), reports.append)
    weights = [r.fraction for r in reports if r.stage == "loading weights"]
    assert weights[0] == -1.0 and weights[-1] == 1.0
    assert weights[1:] == sorted(weights[1:]) and len(weights) > 2
    assert "Loading weights" not in capfd.readouterr().err


def test_reporting_bar_counts_updates_and_iterations() -> None:
    reports: list[LoadProgress] = []
    bar = ReportingBar(range(20), progress=reports.append, message="m")
    assert list(bar) == list(range(20))
    assert [r.fraction for r in reports] == [0.05, 0.45, 0.85, 1.0]
    manual = ReportingBar(total=8, progress=reports.append, message="m")
    with manual:
        manual.update(8)
    assert reports[-1].fraction == 1.0
