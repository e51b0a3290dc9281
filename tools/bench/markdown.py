"""The Markdown pieces of the benchmark page: tables, number formatting, a section not run.

Shared by :mod:`tools.bench.report` (the page) and the sections that write their own part of it
(:mod:`tools.bench.templates`), so neither imports the other.
"""

from __future__ import annotations

from typing import Any


def table(header: list[str], rows: list[list[Any]]) -> list[str]:
    out = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(fmt(v) for v in row) + " |" for row in rows]
    return [*out, ""]


def fmt(value: Any) -> str:
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 1000 else f"{value:.0f}"
    return str(value)


def failed(name: str, section: Any) -> list[str] | None:
    if section is None:
        return [f"_{name}: not run._", ""]
    if "error" in section:
        return [f"_{name} failed: {section['error']}_", ""]
    if "skipped" in section:
        return [f"_{name} skipped: {section['skipped']}_", ""]
    return None
