"""The report's per-family tables (one per system) and the public data's scores.

A family row reads: cases; how many came back changed at all; followed (of the cases its
check measures: "n/a" for a family with no check); meaning kept; Markdown kept; for grammar
and spelling, the corrections made and the other words changed; the judge's NLL; locks
kept; the median time to settle and to the first frame.
"""

from __future__ import annotations

from typing import Any

HEADER = (
    "| family | cases | changed | followed | meaning kept | Markdown kept | fixed (other words "
    "changed) | judge NLL | locks kept | median time (s) | median first frame (ms) |"
)
RULE = "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
MS = 1000


def _share(count: int, total: int) -> str:
    return f"{count}/{total} ({100 * count / total:.0f}%)" if total else "n/a"


def _number(value: float | None, digits: int = 2, scale: float = 1.0) -> str:
    return "n/a" if value is None else f"{value * scale:.{digits}f}"


def family_line(row: dict[str, Any]) -> str:
    cases = row["cases"]
    if "expected" in row:
        fixed = f"{row['fixed']}/{row['expected']} ({row['damaged']})"
    elif "on_topic" in row:
        fixed = f"on topic {row['on_topic']}, register {row['register_kept']}"
        fixed += f", list marks in prose {row['list_marks']}"
    else:
        fixed = ""
    cells = [
        row["family"],
        str(cases),
        _share(row["changed"], cases),
        _share(row["followed"], row["measured"]),
        _share(row["meaning_kept"], cases) if "meaning_kept" in row else "",
        _share(row["markdown_kept"], cases) if "markdown_kept" in row else "",
        fixed,
        _number(row["judge_nll"]),
        _share(row["locks_kept"], cases) if "locks_kept" in row else "",
        _number(row["median_seconds"]),
        _number(row["median_first_frame"], 0, MS),
    ]
    return "| " + " | ".join(cells) + " |"


def family_section(results: dict[str, Any]) -> list[str]:
    rewrite = results["tasks"].get("rewrite", {}).get("summary", {})
    draft = results["tasks"].get("draft", {}).get("summary", {})
    lines: list[str] = []
    for system in dict.fromkeys([*rewrite, *draft]):
        table = list(rewrite.get(system, {}).get("families", []))
        prompted = draft.get(system, {}).get("prompted")
        if prompted:
            table.append(prompted)
        if not table:
            continue
        lines += [f"## Per family: {system}", "", HEADER, RULE]
        lines += [family_line(row) for row in table]
        lines.append("")
    return lines


def public_section(results: dict[str, Any]) -> list[str]:
    """JFLEG dev and the spelling set: scores only, the half the split reads."""
    lines: list[str] = []
    titled = (
        ("jfleg", "JFLEG dev, GLEU"),
        ("spelling", "Misspellings in context"),
        ("menu", "The spelling menu's first suggestion"),
    )
    for task, title in titled:
        summary = results["tasks"].get(task, {}).get("summary", {})
        for system, found in summary.items():
            lines += [f"## {title}: {system}, {found['half']} half", ""]
            if "skipped" in found:
                lines += [found["skipped"], ""]
            elif task == "jfleg":
                lines += [
                    f"- {found['sentences']} sentences, {found['changed']} changed; median "
                    f"{_number(found['median_seconds'])} s each",
                    f"- GLEU {found['gleu']:.2f}; the unedited source {found['source_gleu']:.2f}"
                    f" ({found['source_round_trip_gleu']:.2f} after the tokenization round trip)",
                    "",
                ]
            elif task == "menu":
                lines += menu_lines(found)
            else:
                had = found["placed_in_a_sentence_with_the_word"]
                lines += [
                    f"- {found['pairs']} misspellings ({had} in a sentence that had the word)",
                    f"- fixed {_share(found['fixed'], found['pairs'])}; other words changed "
                    f"{found['other_words_changed_per_20']:.2f} per 20 sentences",
                    "",
                ]
    return lines


def menu_lines(found: dict[str, Any]) -> list[str]:
    """The menu task's counts: listed, first in the dictionary's order and in the model's."""
    listed, pairs = found["listed"], found["pairs"]
    return [
        f"- {pairs} misspellings; the right word listed for {_share(listed, pairs)}",
        f"- listed first: dictionary's order {_share(found['first_dictionary'], listed)}, the "
        f"model's {_share(found['first_model'], listed)}; mean place "
        f"{_number(found['mean_place_dictionary'])} and {_number(found['mean_place_model'])}; "
        f"median {_number(found['median_seconds'])} s a ranking",
        "",
    ]
