"""The benchmark report's chart: quality against latency, diffusion and autoregressive, per task.

Drawn with Qt (``QImage`` + ``QPainter`` under an offscreen ``QGuiApplication``) so the project
needs no plotting library; the engine never imports Qt, so the chart lives here. Reads
``docs/benchmarks.json`` and writes ``docs/benchmarks.png``.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
from pathlib import Path
from typing import Any

from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QFont, QGuiApplication, QImage, QPainter, QPen

from ui import palette

PANEL_W, PANEL_H, MARGIN = 560, 400, 60
DIFFUSION, AUTOREGRESSIVE = palette.CHART_DIFFUSION, palette.CHART_AUTOREGRESSIVE
TASKS = ("compare_rewrite", "compare_draft")

Series = list[tuple[float, float]]


def series(section: dict[str, Any]) -> tuple[Series, Series, list[str]]:
    """(diffusion sweep points, autoregressive curve, sweep labels), latency in seconds."""
    points = sorted((v["settle_s"], v["accuracy"], k) for k, v in section["diffusion"].items())
    ar = [(t, acc) for t, acc in section["autoregressive_curve"]]
    return [(t, a) for t, a, _ in points], ar, [k for _, _, k in points]


def short(label: str) -> str:
    """ "steps=32, threshold=0.9" as "s32 t0.9": sweep labels sit next to their points."""
    return label.replace("steps=", "s").replace(", threshold=", " t")


def draw_panel(p: QPainter, box: QRectF, title: str, section: dict[str, Any]) -> None:
    diffusion, ar, labels = series(section)
    x_max = max(t for t, _ in diffusion + ar) * 1.25  # room for the rightmost label
    y_max = max(0.05, max(a for _, a in diffusion + ar) * 1.2)
    plot = box.adjusted(MARGIN, 30, -20, -MARGIN)

    def at(t: float, a: float) -> QPointF:
        return QPointF(
            plot.left() + plot.width() * t / x_max, plot.bottom() - plot.height() * a / y_max
        )

    p.setPen(QPen(Qt.GlobalColor.black, 1))
    p.drawRect(plot)
    p.drawText(QRectF(box.left(), box.top(), box.width(), 24), Qt.AlignmentFlag.AlignCenter, title)
    for k in range(5):
        t, a = x_max * k / 4, y_max * k / 4
        p.drawText(at(t, 0) + QPointF(-12, 18), f"{t:.1f}")
        p.drawText(at(0, a) + QPointF(-48, 4), f"{a:.1%}")
    p.drawText(
        QRectF(plot.left(), plot.bottom() + 24, plot.width(), 20),
        Qt.AlignmentFlag.AlignCenter,
        "latency to settled result (s)",
    )
    for color, points, name in (
        (DIFFUSION, diffusion, "diffusion (sweep)"),
        (AUTOREGRESSIVE, ar, "autoregressive (accuracy final by t)"),
    ):
        p.setPen(QPen(color, 2))
        for first, second in itertools.pairwise(points):
            p.drawLine(at(*first), at(*second))
        for point in points:
            p.drawEllipse(at(*point), 3, 3)
        legend = 0 if color == DIFFUSION else 1
        p.drawText(QPointF(plot.left() + 8, plot.top() + 16 + 16 * legend), name)
    p.setPen(QPen(DIFFUSION, 1))
    for (t, a), label in zip(diffusion, labels, strict=True):
        p.drawText(at(t, a) + QPointF(5, -5), short(label))


def render(results: dict[str, Any], path: Path) -> None:
    sections = [(n, results[n]) for n in TASKS if n in results and "diffusion" in results[n]]
    image = QImage(PANEL_W * max(len(sections), 1), PANEL_H, QImage.Format.Format_RGB32)
    image.fill(palette.CHART_PAPER)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.setFont(QFont("DejaVu Sans", 9))
    for i, (_name, section) in enumerate(sections):
        box = QRectF(i * PANEL_W, 0, PANEL_W, PANEL_H)
        title = f"{section['task']}: token accuracy against latency"
        draw_panel(painter, box, title, section)
    if not sections:
        painter.drawText(20, 40, "no diffusion/autoregressive comparison in these results")
    painter.end()
    if not image.save(str(path)):
        raise OSError(f"could not write {path}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.chart", description=__doc__)
    parser.add_argument("--results", type=Path, default=Path("docs/benchmarks.json"))
    parser.add_argument("--out", type=Path, default=Path("docs/benchmarks.png"))
    args = parser.parse_args(argv)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    _app = QGuiApplication.instance() or QGuiApplication([])
    render(json.loads(args.results.read_text(encoding="utf-8")), args.out)
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
