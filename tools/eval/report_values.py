"""The template-values section's breakdowns (issue 28): checks per kind, and each further set.

The split's own files and each further set (``values-*.json``, say the fresh held-out set) are
reported side by side, so a set written after the others were looked at is read on its own.
"""

from __future__ import annotations

from typing import Any


def share_text(pair: list[int] | None) -> str:
    if not pair or not pair[1]:
        return "–"
    return f"{pair[0]}/{pair[1]} ({pair[0] / pair[1]:.0%})"


def detection_text(found: dict[str, int]) -> str:
    return (
        f"{found['found']}/{found['labelled']} found, {found['false_found']} wrongly found "
        f"({found['found_in_tables_without']} of {found['tables_without']} tables with none)"
    )


def kind_rows(summary: dict[str, Any], sets: dict[str, dict[str, Any]]) -> list[str]:
    """One row per check kind: the whole split, then each further set."""
    names = sorted(sets)
    kinds = sorted(set(summary["by_kind"]).union(*(s["by_kind"] for s in sets.values())))
    lines = ["| check kind | whole split | " + " | ".join(names) + " |",
             "|---|---:|" + "---:|" * len(names)]  # fmt: skip
    for kind in kinds:
        cells = [share_text(summary["by_kind"].get(kind))]
        cells += [share_text(sets[n]["by_kind"].get(kind)) for n in names]
        lines.append(f"| {kind} | " + " | ".join(cells) + " |")
    for label, key in (("all checks", "checks"), ("labelled relations hold", "relations")):
        cells = [share_text(summary[key])] + [share_text(sets[n][key]) for n in names]
        lines.append(f"| **{label}** | " + " | ".join(cells) + " |")
    return lines


def set_lines(sets: dict[str, dict[str, Any]]) -> list[str]:
    """Each further set's detection and fill time, on its own."""
    lines = []
    for name, summary in sorted(sets.items()):
        before, after = summary["median_table_s_before"], summary["median_table_s"]
        speed = f"{after:.2f} s" if after is not None else "n/a"
        if before and after:
            speed += f" after, {before:.2f} s before ({after / before:.2f}×)"
        lines.append(f"- **{name}** ({summary['tables']} tables, {summary['templates']} "
                     f"templates): detection {detection_text(summary['detection'])}; "
                     f"median table fill {speed}; valid {summary['valid']}/"
                     f"{summary['tables'] + summary['templates']}")  # fmt: skip
    return lines


def failures(task: dict[str, Any], most: int = 40) -> list[str]:
    """The values that failed their check, case by case (the first ``most``)."""
    found = [f"- {r['name']}: {where} = `{got}`" for r in task["tables"] + task["templates"]
             for where, got in r.get("failed", [])]  # fmt: skip
    if not found:
        return []
    extra = [f"- … and {len(found) - most} more"] if len(found) > most else []
    return ["", "Values that failed their check:", "", *found[:most], *extra]


def breakdown(task: dict[str, Any]) -> list[str]:
    sets = task.get("sets", {})
    lines = ["", "Checks by kind:", "", *kind_rows(task["summary"], sets)]
    if sets:
        lines += ["", *set_lines(sets)]
    return lines + failures(task)
