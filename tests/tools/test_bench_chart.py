"""The benchmark chart: drawn with Qt from the results JSON, one panel per task."""

from __future__ import annotations

import json

from PySide6.QtGui import QColor, QImage

from tools.bench.chart import AUTOREGRESSIVE, DIFFUSION, main


def section(task: str) -> dict:
    return {
        "task": task,
        "diffusion": {
            "steps=4": {"settle_s": 0.5, "accuracy": 0.05},
            "steps=16": {"settle_s": 1.5, "accuracy": 0.12},
        },
        "autoregressive_curve": [[0.5, 0.02], [1.0, 0.06], [2.0, 0.1]],
    }


def colours(image: QImage) -> set[str]:
    return {
        QColor(image.pixel(x, y)).name()
        for x in range(0, image.width(), 2)
        for y in range(0, image.height(), 2)
    }


def test_chart_has_a_panel_per_task_with_both_systems(tmp_path, qapp) -> None:
    results = tmp_path / "benchmarks.json"
    results.write_text(
        json.dumps({"compare_rewrite": section("rewrite"), "compare_draft": section("draft")})
    )
    out = tmp_path / "chart.png"
    assert main(["--results", str(results), "--out", str(out)]) == 0
    image = QImage(str(out))
    assert image.width() == 2 * image.height() * 560 // 400
    seen = colours(image)
    assert DIFFUSION.name() in seen and AUTOREGRESSIVE.name() in seen


def test_chart_without_comparisons_says_so(tmp_path, qapp) -> None:
    results = tmp_path / "benchmarks.json"
    results.write_text(json.dumps({"compare_rewrite": {"error": "boom"}}))
    out = tmp_path / "chart.png"
    assert main(["--results", str(results), "--out", str(out)]) == 0
    assert not QImage(str(out)).isNull()
