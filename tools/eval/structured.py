"""The structured task: the eight shipped templates, filled by each system, checked twice.

*Valid* is the schema (or the table's shape); *sensible* is :mod:`tools.eval.plausible`. The
diffusion side is Settle's structured engine, which never offers an invalid result. The AR side
writes JSON after the schema in its prompt, and fills a table's empty cells left to right, row
by row, seeing only what is above and before each cell.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path
from typing import Any

from engine.core.protocol import Fill, FillKind, Span
from engine.structured.markdown import find_tables
from tools.eval import plausible
from tools.eval.systems import Autoregressive

TEMPLATES = Path(__file__).resolve().parents[2] / "resources" / "templates"
AR_JSON_TOKENS = 200
AR_CELL_TOKENS = 12
CELL_TOKENS = 12


def templates() -> list[Path]:
    tables = [path for path in sorted(TEMPLATES.glob("*.md")) if path.name != "README.md"]
    return sorted(TEMPLATES.glob("*.schema.json")) + tables


def diffusion_fill(backend: Any, path: Path, settings: Any) -> dict[str, Any]:
    from engine.structured.fill import run_json
    from engine.structured.slots import Filled
    from engine.structured.tables import run_table

    text = path.read_text(encoding="utf-8")
    if path.suffix == ".json":
        fill = Fill(1, FillKind.JSON, "", Span(0, 0), schema=text, settings=settings)
        runner: Any = run_json
    else:
        table = find_tables(text)[0]
        fill = Fill(1, FillKind.TABLE, text, table.span, cell_tokens=CELL_TOKENS, settings=settings)
        runner = run_table
    started = time.perf_counter()
    filled = [e for e in runner(backend, fill) if isinstance(e, Filled)]
    seconds = time.perf_counter() - started
    if not filled:
        return {"valid": False, "seconds": seconds, "sensible": 0, "values": 0}
    value, metrics = filled[0].value, filled[0].proposal.metrics
    if path.suffix == ".json":
        good, total = plausible.json_values(value, json.loads(text))
    else:
        good, total = table_values(text, value)
    return {
        "valid": True, "seconds": seconds, "forwards": metrics.forwards,
        "sensible": good, "values": total, "output": value,
    }  # fmt: skip


def table_values(original: str, filled: str) -> tuple[int, int]:
    """(sensible, total) over the cells that were empty in the original table."""
    before = find_tables(original)[0]
    after = find_tables(filled)[0]
    good = total = 0
    for row_before, row_after in zip(before.body, after.body, strict=True):
        for col in range(1, before.columns + 1):
            if row_before.cell(col):
                continue
            total += 1
            good += plausible.cell_sensible(row_after.cell(col), before.header.cell(col))
    return good, total


def ar_json(ar: Autoregressive, path: Path) -> dict[str, Any]:
    from jsonschema import Draft202012Validator, FormatChecker

    schema_text = path.read_text(encoding="utf-8")
    prompt = f"JSON Schema:\n{schema_text}\nA JSON instance that satisfies this schema:\n{{"
    out = ar.generate([ar.start_id, *ar.encode(prompt)], AR_JSON_TOKENS, fixed=False)
    try:
        instance, _ = json.JSONDecoder().raw_decode("{" + out.text)
    except json.JSONDecodeError:
        return {"valid": False, "parsed": False, "seconds": out.seconds, "sensible": 0, "values": 0}
    schema = json.loads(schema_text)
    validator = Draft202012Validator(schema, format_checker=FormatChecker())
    good, total = plausible.json_values(instance, schema)
    return {
        "valid": not list(validator.iter_errors(instance)), "parsed": True,
        "seconds": out.seconds, "sensible": good, "values": total, "output": instance,
    }  # fmt: skip


def ar_table(ar: Autoregressive, path: Path) -> dict[str, Any]:
    text = path.read_text(encoding="utf-8")
    table = find_tables(text)[0]
    done = text[: table.body[0].start]  # everything above the first body row, then AR's rows
    seconds, good, total = 0.0, 0, 0
    for row in table.body:
        line, cursor = "", 0
        for col in range(1, table.columns + 1):
            a, b = row.cells[col - 1]
            line += row.line[cursor:a]
            cursor = b
            if row.cell(col):
                line += row.line[a:b]
                continue
            out = ar.generate(
                [ar.start_id, *ar.encode(done + line + " ")], AR_CELL_TOKENS, fixed=False
            )
            cell = out.text.split("|")[0].split("\n")[0].strip()
            seconds += out.seconds
            total += 1
            good += bool(cell) and plausible.cell_sensible(cell, table.header.cell(col))
            line += f" {cell} "
        done += line + row.line[cursor:] + "\n"
    return {"valid": True, "seconds": seconds, "sensible": good, "values": total}


def structured_task(backend: Any, ar: Autoregressive, settings: Any) -> dict[str, Any]:
    cases: dict[str, list[dict[str, Any]]] = {"diffusion": [], "autoregressive": []}
    for path in templates():
        print(f"[eval] structured {path.name}", file=sys.stderr, flush=True)
        cases["diffusion"].append(
            {"template": path.name, **diffusion_fill(backend, path, settings)}
        )
        ar_result = ar_json(ar, path) if path.suffix == ".json" else ar_table(ar, path)
        cases["autoregressive"].append({"template": path.name, **ar_result})
    summary = {name: summarize(rs) for name, rs in cases.items()}
    return {"cases": cases, "summary": summary}


def summarize(rs: list[dict[str, Any]]) -> dict[str, Any]:
    values = sum(r["values"] for r in rs)
    return {
        "templates": len(rs),
        "valid": sum(bool(r["valid"]) for r in rs),
        "sensible_share": sum(r["sensible"] for r in rs) / max(values, 1),
        "values": values,
        "median_seconds": sorted(r["seconds"] for r in rs)[len(rs) // 2] if rs else None,
    }
