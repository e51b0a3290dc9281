"""``python -m tools.eval``: run the quality suite and write ``docs/quality.{md,json}``.

``--set key=value`` changes one sampler setting for the whole run (the ablations the defaults
are chosen from); ``--tasks`` runs a subset; ``--limit`` caps the cases per task (a smoke run).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

from tools.eval.cases import Cases, load_cases, overlaps

TASKS = ("cloze", "draft", "rewrite", "structured", "values")


def parse_settings(pairs: list[str]) -> dict[str, Any]:
    from engine.core.config import LEGACY_NAMES, LEGACY_SWITCHES, SamplerSettings

    types = {f.name: f.type for f in fields(SamplerSettings)} | dict.fromkeys(
        [*LEGACY_SWITCHES, *LEGACY_NAMES]
    )
    changes: dict[str, Any] = {}
    for pair in pairs:
        key, _, raw = pair.partition("=")
        if key not in types:
            raise SystemExit(f"Unknown setting {key!r}; settings: {', '.join(types)}")
        value = None if raw == "none" else json.loads(raw)
        changes[key] = tuple(value) if isinstance(value, list) else value
    return changes


def contamination(cases: Cases) -> str:
    """Which cases share an 8-word run with the training data (corpus and synthetic docs)."""
    from tools.adapt import corpus

    texts = [doc.text for doc in corpus.synthetic_docs(0, corpus.SYNTHETIC_TRAIN)]
    where = "the synthetic training documents"
    if corpus_path().is_file():
        texts += [doc.text for doc in corpus.read(corpus_path())]
        where = "the training corpus and " + where
    found = overlaps(cases, texts)
    return f"{len(found)} cases share an 8-word run with {where}" + (f": {found}" if found else "")


def corpus_path() -> Path:
    from engine.models.registry import embedded

    return embedded.cache_dir() / "adapt" / "corpus" / "train.jsonl"


def values_options(parser: argparse.ArgumentParser) -> None:
    """The template-values task's options (tools/eval/values.py)."""
    parser.add_argument(
        "--split", default="test", help="the values task's cases: test (held out) or dev"
    )
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        help="also fill the values task's tables with the engine checked out here (timing)",
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.eval", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs"))
    parser.add_argument("--name", default="quality", help="file stem of the report")
    parser.add_argument("--tasks", default=",".join(TASKS))
    parser.add_argument("--limit", type=int, default=0, help="cases per task (0: all)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    values_options(parser)
    parser.add_argument(
        "--adapter",
        type=Path,
        default=None,
        help="evaluate this adapter instead of the shipped one",
    )
    args = parser.parse_args(argv)
    from tools.eval.run import run_suite

    tasks = [t for t in args.tasks.split(",") if t]
    unknown = set(tasks) - set(TASKS)
    if unknown:
        raise SystemExit(f"Unknown tasks {sorted(unknown)}; tasks: {', '.join(TASKS)}")
    cases = load_cases()
    started = time.perf_counter()
    contaminated = contamination(cases)

    def save(results: dict[str, Any]) -> None:
        results["meta"]["contamination"] = contaminated
        results["meta"]["wall_s"] = time.perf_counter() - started
        write(results, args.out, args.name)

    settings = parse_settings(args.set)
    values = {"split": args.split, "baseline": args.baseline}
    save(run_suite(cases, tasks, settings, args.limit, args.adapter, done=save, values=values))
    return 0


def write(results: dict[str, Any], out: Path, name: str) -> None:
    from tools.eval.report import markdown

    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(results, indent=2, default=str) + "\n", "utf-8")
    (out / f"{name}.md").write_text(markdown(results), "utf-8")
    print(f"wrote {out / (name + '.md')} and {out / (name + '.json')}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
