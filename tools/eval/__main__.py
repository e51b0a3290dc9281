"""``python -m tools.eval``: run the quality suite and write ``docs/quality.{md,json}``.

``--split`` picks the cases: ``test`` (the default) is what the suite reports, ``dev`` what
it is tuned on (and the tuning half of the public data). ``--set key=value`` changes one
sampler setting for the whole run (the ablations the defaults are chosen from); ``--tasks``
runs a subset (``jfleg``, ``spelling`` and ``menu``, the public data, only when named: they
are slow); ``--systems`` the writers; ``--limit`` caps the cases per task (a smoke run). The
contamination check runs on both splits every time, whichever is run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import fields
from pathlib import Path
from typing import Any

from tools.eval.cases import REPORTED_SPLIT, SPLITS, Cases, load_split, overlaps

TASKS = ("cloze", "draft", "rewrite", "structured", "values")
PUBLIC_TASKS = ("jfleg", "spelling", "menu")
SYSTEMS = ("diffusion", "autoregressive")


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


def contamination(splits: dict[str, Cases]) -> str:
    """Which cases of each split share an 8-word run with the training data (corpus and
    synthetic docs)."""
    from tools.adapt import corpus

    texts = [doc.text for doc in corpus.synthetic_docs(0, corpus.SYNTHETIC_TRAIN)]
    where = "the synthetic training documents"
    if corpus_path().is_file():
        texts += [doc.text for doc in corpus.read(corpus_path())]
        where = "the training corpus and " + where
    found = {name: overlaps(cases, texts) for name, cases in splits.items()}
    counts = ", ".join(f"{len(hits)} of {name}" for name, hits in found.items())
    named = [hit for hits in found.values() for hit in hits]
    return f"cases sharing an 8-word run with {where}: {counts}" + (f": {named}" if named else "")


def leaks(splits: dict[str, Cases]) -> dict[str, Any]:
    """Engine strings that quote a case (a word 3-gram) or name a reported misspelling."""
    from tools.eval import leaks as scan
    from tools.eval.public import DATA_DIR, SPELLING_FILE
    from tools.eval.spelling import pairs

    strings = list(scan.engine_strings())
    found: dict[str, Any] = {"shared_3grams": scan.shared_grams(splits.values(), strings)}
    if (DATA_DIR / SPELLING_FILE).is_file():
        wrongs = [wrong for _, wrong in pairs("report")]
        found["report_misspellings"] = scan.named_misspellings(wrongs, strings)
    return found


def corpus_path() -> Path:
    from engine.models.registry import embedded

    return embedded.cache_dir() / "adapt" / "corpus" / "train.jsonl"


def values_options(parser: argparse.ArgumentParser) -> None:
    """The template-values task's options (tools/eval/values.py)."""
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
    parser.add_argument("--split", choices=SPLITS, default=REPORTED_SPLIT)
    parser.add_argument("--tasks", default=",".join(TASKS), help=f"of {TASKS + PUBLIC_TASKS}")
    parser.add_argument("--systems", default=",".join(SYSTEMS), help=f"of {SYSTEMS}")
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

    tasks = chosen(args.tasks, TASKS + PUBLIC_TASKS, "tasks")
    systems = tuple(chosen(args.systems, SYSTEMS, "systems"))
    splits = {name: load_split(name) for name in SPLITS}
    cases = splits[args.split]
    if "cloze" in tasks and not cases.cloze:  # the test split has no gaps: nothing to run
        print(f"[eval] the {args.split} split has no cloze cases: cloze skipped", file=sys.stderr)
        tasks.remove("cloze")
    started = time.perf_counter()
    contaminated = contamination(splits)
    engine_leaks = leaks(splits)

    def save(results: dict[str, Any]) -> None:
        results["meta"]["contamination"] = contaminated
        results["meta"]["engine_leaks"] = engine_leaks
        results["meta"]["wall_s"] = time.perf_counter() - started
        write(results, args.out, args.name)

    settings = parse_settings(args.set)
    save(
        run_suite(
            cases,
            tasks,
            settings,
            args.limit,
            args.adapter,
            save,
            args.split,
            systems,
            args.baseline,
        )
    )
    return 0


def chosen(given: str, known: tuple[str, ...], what: str) -> list[str]:
    names = [name for name in given.split(",") if name]
    unknown = set(names) - set(known)
    if unknown or not names:
        raise SystemExit(f"Unknown or no {what} {sorted(unknown)}; {what}: {', '.join(known)}")
    return names


def write(results: dict[str, Any], out: Path, name: str) -> None:
    from tools.eval.report import markdown

    out.mkdir(parents=True, exist_ok=True)
    (out / f"{name}.json").write_text(json.dumps(results, indent=2, default=str) + "\n", "utf-8")
    (out / f"{name}.md").write_text(markdown(results), "utf-8")
    print(f"wrote {out / (name + '.md')} and {out / (name + '.json')}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
