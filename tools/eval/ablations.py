"""``python -m tools.eval.ablations NAME=RUN.json ...``: one table of several suite runs.

Each run of ``make eval`` (or ``python -m tools.eval --set ... --adapter ...``) writes one
``quality.json``; this puts their headline numbers side by side, one row per variant, so the
model card and the README can show what each recipe or sampler change bought.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tools.eval.report import speedup

COLUMNS = (
    "variant", "cloze right", "draft NLL", "draft rep3", "rewrite NLL", "rewrite rep3",
    "content kept", "words changed", "lock edges", "tighter ratio", "rewrite tok/fwd",
    "rewrite speed vs AR", "templates sensible",
)  # fmt: skip


def _pct(value: Any) -> str:
    return "n/a" if value is None else f"{100 * value:.0f}%"


def _num(value: Any) -> str:
    return "n/a" if value is None else f"{value:.2f}"


def row(name: str, results: dict[str, Any]) -> list[str]:
    tasks = results["tasks"]
    cloze = tasks.get("cloze", {}).get("summary", {}).get("diffusion")
    draft = tasks.get("draft", {}).get("summary", {}).get("diffusion")
    rewrite = tasks.get("rewrite", {}).get("summary", {})
    d, a = rewrite.get("diffusion"), rewrite.get("autoregressive")
    structured = tasks.get("structured", {}).get("summary", {}).get("diffusion")
    limit = results["meta"].get("limit")
    label = f"{name} (first {limit} cases)" if limit else name
    return [
        label,
        f"{cloze['right']}/{cloze['cases']}" if cloze else "n/a",
        _num(draft["judge_nll"]) if draft else "n/a",
        _pct(draft["repeated_3grams"]) if draft else "n/a",
        _num(d["judge_nll"]) if d else "n/a",
        _pct(d["repeated_3grams"]) if d else "n/a",
        _pct(d["content_kept"]) if d else "n/a",
        _pct(d.get("words_changed")) if d else "n/a",  # older runs did not measure it
        _pct(d["lock_edges_kept"]) if d else "n/a",
        _num(d["tighter_length_ratio"]) if d else "n/a",
        _num(d["tokens_per_forward"]) if d else "n/a",
        f"{_num(speedup(d, a))}×" if d and a else "n/a",
        _pct(structured["sensible_share"]) if structured else "n/a",
    ]


def table(runs: list[tuple[str, dict[str, Any]]]) -> str:
    lines = ["| " + " | ".join(COLUMNS) + " |", "|" + "---|" * len(COLUMNS)]
    lines += ["| " + " | ".join(row(name, results)) + " |" for name, results in runs]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.eval.ablations", description=__doc__)
    parser.add_argument("runs", nargs="+", metavar="NAME=PATH", help="a label and a quality.json")
    parser.add_argument("--out", type=Path, default=None, help="write the table here too")
    args = parser.parse_args(argv)
    runs = []
    for item in args.runs:
        name, _, path = item.partition("=")
        runs.append((name, json.loads(Path(path).read_text(encoding="utf-8"))))
    text = table(runs)
    if args.out:
        args.out.write_text(text, encoding="utf-8")
    sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
