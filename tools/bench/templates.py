"""Structured fills at the speed of one rewrite: the eight templates, a 40-property schema and
the real-world collection, each filled with the model the bench loaded.

For every template the table reports the forwards, the forwards per slot, the seconds to a
validated result, the rounds and the slots repaired to a default; the invoice and the
40-property schema carry the issue's targets (at most 12 forwards and 5 s; at most 20 s), and
the table says whether they held (wall time; the CPU time is reported beside it, since on a
shared machine the wall time also counts other processes). Fills use the CLI's default
settings (the fill's own round budgets and threshold apply,
:func:`engine.structured.fill.round_settings`). One invoice fill
runs first and is reported apart (``first_fill_s``): it pays for building the per-tokenizer
allowed sets that every later fill of the process reuses.

The collection (``resources/schemas``) reports how many schemas were filled validly, refused
by name or (never) invalid, the share filled and the median seconds per fill.

``python -m tools.bench.templates`` runs just this part and prints the table.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from engine.backends.base import Backend
from engine.core.config import SamplerSettings
from engine.core.protocol import Fill, FillKind, Span
from tools.bench.common import median

RESOURCES = Path(__file__).resolve().parents[2] / "resources"
TEMPLATES = RESOURCES / "templates"
LARGE = RESOURCES / "schemas" / "crm-account-40.schema.json"
INVOICE = "invoice.schema.json"
TARGETS = {INVOICE: (12, 5.0), LARGE.name: (None, 20.0)}  # (forwards, seconds) at most
CELL_TOKENS = 24
# As the templates' README runs them: the meeting notes get two new rows (they have no empty cell).
TABLE_OPTIONS: dict[str, dict[str, Any]] = {"meeting-notes.md": {"add_rows": 2}}


def template_fills(backend: Backend, quick: bool = False) -> dict[str, Any]:
    """Every template (and the 40-property schema), filled once; the invoice twice."""
    first = fill_one(backend, TEMPLATES / INVOICE)
    rows = {path.name: fill_one(backend, path) for path in template_paths(quick)}
    instances = {name: row.pop("instance") for name, row in rows.items()}
    return {
        "first_fill_s": first["settle_s"],
        "invoice_instance": instances.get(INVOICE),
        "rows": rows,
    }


def template_paths(quick: bool) -> list[Path]:
    tables = sorted(p for p in TEMPLATES.glob("*.md") if p.name != "README.md")
    paths = sorted(TEMPLATES.glob("*.schema.json")) + tables
    return [TEMPLATES / INVOICE] if quick else [*paths, LARGE]


def fill_one(backend: Backend, path: Path) -> dict[str, Any]:
    """One fill of a template: its numbers, and whether its targets held."""
    from engine.structured.slots import Filled

    text = path.read_text(encoding="utf-8")
    fill, runner = request_for(path, text)
    started, cpu = time.perf_counter(), time.process_time()
    filled = next(e for e in runner(backend, fill) if isinstance(e, Filled))
    seconds = time.perf_counter() - started
    stats = filled.stats
    row: dict[str, Any] = {
        "settle_s": seconds,
        "cpu_s": time.process_time() - cpu,
        "forwards": stats.forwards,
        "slots": stats.slots,
        "forwards_per_slot": stats.forwards / max(stats.slots, 1),
        "rounds": stats.rounds,
        "repaired": len(stats.repaired),
        "repaired_slots": list(stats.repaired),
        "settled_by": settled_by_kind(stats.settled_at, kinds_of(path, text)),
        "instance": filled.value,
    }
    most_forwards, most_s = TARGETS.get(path.name, (None, None))
    if most_s is not None:
        row["target_met"] = seconds <= most_s and stats.forwards <= (most_forwards or 10**9)
    return row


def request_for(path: Path, text: str) -> tuple[Fill, Any]:
    """The fill a template asks for (a JSON schema, or a document's first table) and its runner."""
    from engine.structured.fill import run_json
    from engine.structured.tables import find_tables, run_table

    settings = SamplerSettings()
    if path.suffix != ".md":
        return Fill(1, FillKind.JSON, "", Span(0, 0), schema=text, settings=settings), run_json
    span = find_tables(text)[0].span
    extra = TABLE_OPTIONS.get(path.name, {})
    fill = Fill(1, FillKind.TABLE, text, span, cell_tokens=CELL_TOKENS, settings=settings, **extra)
    return fill, run_table


def kinds_of(path: Path, text: str) -> dict[str, str]:
    """Each JSON value's kind (its format, else string / integer / number / choice)."""
    if path.suffix == ".md":
        return {}
    from engine.structured.compiler import compile_json

    return {str(v.path): v.leaf.fmt or v.leaf.kind for v in compile_json(json.loads(text)).leaves()}


def settled_by_kind(settled: dict[str, int], kinds: dict[str, str]) -> str:
    """``choice 1 · date 4 · string 6``: by which forward each kind of value had settled (the
    slowest value of that kind); table cells are all ``cell``."""
    slowest: dict[str, int] = {}
    for key, forward in settled.items():
        kind = kinds.get(key, "cell")
        slowest[kind] = max(slowest.get(kind, 0), forward)
    return " · ".join(f"{k} {n}" for k, n in sorted(slowest.items(), key=lambda kv: kv[1]))


def coverage(backend: Backend, quick: bool = False) -> dict[str, Any]:
    """The real-world collection: valid / refused / invalid, share filled, median seconds."""
    from jsonschema import Draft202012Validator, FormatChecker

    from engine.structured.fill import run_json
    from engine.structured.schema import Refusal, Unsatisfiable
    from engine.structured.slots import Filled

    paths = sorted((RESOURCES / "schemas").glob("*.schema.json"))[: 4 if quick else None]
    counts = {"valid": 0, "refused": 0, "invalid": 0}
    seconds: list[float] = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        fill = Fill(1, FillKind.JSON, "", Span(0, 0), schema=text, settings=SamplerSettings())
        started = time.perf_counter()
        try:
            filled = next(e for e in run_json(backend, fill) if isinstance(e, Filled))
        except (Refusal, Unsatisfiable):
            counts["refused"] += 1
            continue
        seconds.append(time.perf_counter() - started)
        checker = Draft202012Validator(json.loads(text), format_checker=FormatChecker())
        counts["valid" if checker.is_valid(filled.value) else "invalid"] += 1
    return {
        "schemas": len(paths),
        **counts,
        "share_filled": counts["valid"] / max(len(paths), 1),
        "median_s": median(seconds),
        "max_s": max(seconds, default=float("nan")),
    }


def templates_section(section: Any, collection: Any) -> list[str]:
    """The report's table (a section that failed says so in its place)."""
    from tools.bench.markdown import failed, fmt, table

    lines = ["## Structured templates", ""]
    problem = failed("templates", section)
    if problem:
        return lines + problem
    keys = ["forwards", "forwards_per_slot", "settle_s", "cpu_s", "slots", "rounds", "repaired"]
    keys.append("settled_by")
    rows = [[name] + [row.get(k) for k in keys] + [row.get("target_met", "")] for
            name, row in section["rows"].items()]  # fmt: skip
    lines += table(["template", *keys, "target met"], rows)
    lines += [
        "Targets: the invoice at most 12 forwards and 5 s, the 40-property schema at most 20 s "
        f"(CLI default settings). The process's first fill took {fmt(section['first_fill_s'])} s "
        "(it builds the per-tokenizer allowed sets every later fill reuses). *cpu_s* is the "
        "process's CPU time: with one torch thread, what the fill costs on an idle core when the "
        "machine is shared (wall time then runs longer). *settled_by*: the forward by which every "
        "value of a kind had all its positions settled, in the first round.",
        "",
    ]
    problem = failed("coverage", collection)
    if problem:
        return lines + problem
    c = collection
    return [
        *lines,
        f"Real-world schemas (`resources/schemas`, {c['schemas']}): {c['valid']} valid, "
        f"{c['refused']} refused by name, {c['invalid']} invalid; {c['share_filled']:.0%} filled, "
        f"median {fmt(c['median_s'])} s per fill (slowest {fmt(c['max_s'])} s).",
        "",
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.templates", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="the invoice, four schemas")
    parser.add_argument("--out", type=Path, help="also write the results as JSON here")
    args = parser.parse_args(argv)
    from engine.core.protocol import LoadModel
    from engine.models.loading import load
    from engine.process.runtime import configure_threads

    configure_threads()
    backend = load(LoadModel("embedded", device="cpu"), lambda _: None).backend
    results = {"templates": template_fills(backend, args.quick)}
    results["coverage"] = coverage(backend, args.quick)
    print("\n".join(templates_section(results["templates"], results["coverage"])))
    if args.out:
        args.out.write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
