"""``docs/quality.md`` from a suite run: one table of both systems, the goals, and samples.

Each row is one measure of one task, with the diffusion value, the AR value and the goal the
issue set for it (met or not), so a reader sees at a glance where the embedded model stands.
"""

from __future__ import annotations

from typing import Any

from tools.eval.report_families import family_section, public_section
from tools.eval.report_values import breakdown

Row = tuple[str, str, str, str]  # measure, diffusion, autoregressive, goal (with its verdict)


def _f(value: Any, digits: int = 2, pct: bool = False) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if pct:
        return f"{100 * value:.0f}%"
    return f"{value:.{digits}f}" if isinstance(value, float) else str(value)


def _goal(text: str, met: bool | None) -> str:
    return text if met is None else f"{text} {'✅' if met else '❌'}"


def _lt(a: Any, b: Any, margin: float = 0.0) -> bool | None:
    return None if a is None or b is None else a <= b + margin


def text_rows(task: str, d: dict[str, Any], a: dict[str, Any]) -> list[Row]:
    return [
        (f"{task}: empty outputs", _f(d["empty"]), _f(a["empty"]), _goal("0", d["empty"] == 0)),
        (
            f"{task}: repeated 3-grams",
            _f(d["repeated_3grams"], pct=True),
            _f(a["repeated_3grams"], pct=True),
            _goal("≤ AR + 2 pts", _lt(d["repeated_3grams"], a["repeated_3grams"], 0.02)),
        ),
        (
            f"{task}: judge NLL (nats/token)",
            _f(d["judge_nll"]),
            _f(a["judge_nll"]),
            _goal("≤ AR + 0.5", _lt(d["judge_nll"], a["judge_nll"], 0.5)),
        ),
        (
            f"{task}: tokens per forward",
            _f(d["tokens_per_forward"]),
            _f(a["tokens_per_forward"]),
            "",
        ),
        (
            f"{task}: median time to settle (s)",
            _f(d["median_seconds"]),
            _f(a["median_seconds"]),
            "",
        ),
    ]


def speedup(d: dict[str, Any], a: dict[str, Any]) -> float | None:
    """How much faster diffusion settles its tokens than AR writes the same number of tokens."""
    if not d["seconds"] or not a["tokens_per_second"]:
        return None
    return (d["tokens"] / a["tokens_per_second"]) / d["seconds"]


def rewrite_rows(d: dict[str, Any], a: dict[str, Any]) -> list[Row]:
    tighter = d["tighter_length_ratio"]
    return [
        (
            "rewrite: judge NLL vs the original paragraph",
            _f(d["judge_nll"]),
            _f(a["judge_nll"]),
            _goal(
                f"≤ original ({_f(d['original_judge_nll'])})",
                _lt(d["judge_nll"], d["original_judge_nll"]),
            ),
        ),
        (
            "rewrite: content words kept",
            _f(d["content_kept"], pct=True),
            _f(a["content_kept"], pct=True),
            _goal("≥ 60%", None if d["content_kept"] is None else d["content_kept"] >= 0.6),
        ),
        (
            "rewrite: locks kept",
            _f(d["locks_kept"], pct=True),
            _f(a["locks_kept"], pct=True),
            _goal("100%", d["locks_kept"] == 1.0),
        ),
        (
            "rewrite: whitespace at lock edges kept",
            _f(d["lock_edges_kept"], pct=True),
            _f(a["lock_edges_kept"], pct=True),
            _goal("100%", d["lock_edges_kept"] == 1.0),
        ),
        (
            "rewrite: original words changed (mean)",
            _f(d.get("words_changed"), pct=True),
            _f(a.get("words_changed"), pct=True),
            "",
        ),
        ("rewrite: median length ratio", _f(d["length_ratio"]), _f(a["length_ratio"]), ""),
        (
            "rewrite: 'tighter' length ratio (median)",
            _f(tighter),
            _f(a["tighter_length_ratio"]),
            _goal("≤ 0.85", None if tighter is None else tighter <= 0.85),
        ),
    ]


def count_row(name: str, got: str, baseline: str, goal: str, met: bool) -> Row:
    return (name, got, baseline, _goal(goal, met))


def task_rows(name: str, d: dict[str, Any], a: dict[str, Any]) -> list[Row]:
    """The rows of one task, given its diffusion and autoregressive summaries."""
    if name == "cloze":
        right, baseline = f"{d['right']}/{d['cases']}", f"{a['right']}/{a['cases']}"
        return [count_row("cloze: answers right", right, baseline, "> AR", d["right"] > a["right"])]
    if name == "structured":
        return [
            count_row("structured: valid", f"{d['valid']}/{d['templates']}",
                      f"{a['valid']}/{a['templates']}", "100%", d["valid"] == d["templates"]),
            count_row("structured: values sensible", _f(d["sensible_share"], pct=True),
                      _f(a["sensible_share"], pct=True), "≥ 90%", d["sensible_share"] >= 0.9),
        ]  # fmt: skip
    out = text_rows(name, d, a) + (rewrite_rows(d, a) if name == "rewrite" else [])
    if name == "draft" and d.get("repeated_words") is not None:
        out.append(
            (
                "draft: content words said again (for reading, not a goal)",
                _f(d["repeated_words"], pct=True),
                _f(a.get("repeated_words"), pct=True),
                "",
            )
        )
    ratio = speedup(d, a)
    met = None if ratio is None else ratio >= 2
    return [*out, (f"{name}: speed vs AR (same tokens)", f"{_f(ratio)}×", "1×", _goal("≥ 2×", met))]


def rows(results: dict[str, Any]) -> list[Row]:
    """The diffusion-against-AR rows, for the tasks both systems ran."""
    out: list[Row] = []
    for name in ("cloze", "draft", "rewrite", "structured"):
        summary = results["tasks"].get(name, {}).get("summary", {})
        if "diffusion" in summary and "autoregressive" in summary:
            out += task_rows(name, summary["diffusion"], summary["autoregressive"])
            reference = results["tasks"][name].get("tighter_reference")
            if reference and reference["cases"]:
                out.append(
                    reference_row(reference, summary["diffusion"], summary["autoregressive"])
                )
    return out


def reference_row(reference: dict[str, Any], d: dict[str, Any], a: dict[str, Any]) -> Row:
    """The 'tighter' cases' judge NLL beside the originals' and a person's own tighter versions:
    a shorter text keeps fewer easy words, so the per-token NLL of a good cut rises too."""
    return (
        "rewrite: 'tighter' cases' judge NLL (for scale, not a goal)",
        _f(d.get("tighter_judge_nll")),
        _f(a.get("tighter_judge_nll")),
        f"originals {_f(reference['original_judge_nll'])}; a person's tighter versions "
        f"{_f(reference['reference_judge_nll'])} at length ratio "
        f"{_f(reference['reference_length_ratio'])}",
    )


def samples(results: dict[str, Any], count: int = 10) -> list[str]:
    task = results["tasks"].get("rewrite")
    if not task:
        return []
    lines = [f"## Rewrites, verbatim (the first {count} cases, not chosen)", ""]
    for i in range(min(count, len(next(iter(task["cases"].values()))))):
        first = next(iter(task["cases"].values()))[i]
        lines += [f'**{i + 1}. {first.get("family", "")}: "{first["instruction"]}"**', ""]
        for system, records in task["cases"].items():
            lines += [f"{system}:", "", "```text", records[i]["text"], "```", ""]
    return lines


def markdown(results: dict[str, Any]) -> str:
    meta = results["meta"]
    split = meta.get("split", "test")
    lines = [
        "# Quality suite",
        "",
        "`make eval` (engine/eval): Settle's diffusion loop on the embedded model beside the",
        "same-size autoregressive SmolLM2-135M-Instruct, on authored cases of the "
        f"**{split}** split (`resources/eval/{split}/`).",
        "",
        f"- model: {meta['model']}; settings: `{meta['settings']}`",
        f"- machine: {meta['machine']}; {meta['wall_s']:.0f} s in all",
        f"- contamination: {meta['contamination']}",
    ]
    leaks = meta.get("engine_leaks")
    if leaks is not None:
        named = leaks.get("report_misspellings")
        lines.append(
            f"- engine strings sharing a word 3-gram with a case: {len(leaks['shared_3grams'])}"
            + ("" if named is None else f"; reported misspellings the engine names: {len(named)}")
        )
    if meta.get("note"):
        lines.append(f"- note: {meta['note']}")
    if meta.get("limit"):
        lines.append(f"- a smoke run: at most {meta['limit']} cases per task")
    table = rows(results)
    if table:
        lines += ["", "| measure | diffusion | autoregressive | goal |", "|---|---:|---:|---|"]
        lines += [f"| {a} | {b} | {c} | {d} |" for a, b, c, d in table]
    lines += ["", *family_section(results), *public_section(results), *samples(results)]
    lines += values_section(results)
    return "\n".join(lines) + "\n"


def _share(pair: list[int]) -> str:
    good, total = pair
    return f"{good}/{total} ({good / total:.0%})" if total else "none"


def _at_least(pair: list[int], goal: float) -> bool | None:
    return None if not pair[1] else pair[0] / pair[1] >= goal


def values_rows(s: dict[str, Any]) -> list[tuple[str, str, str]]:
    """The template-values task's measures beside their goals (issue 28)."""
    d = s["detection"]
    before, after = s["median_table_s_before"], s["median_table_s"]
    ratio = after / before if before and after else None
    speed = f"{_f(after)} s after, {_f(before)} s before ({_f(ratio)}×)"
    total = s["tables"] + s["templates"]
    return [
        ("filled cells and values passing their checks", _share(s["checks"]),
         _goal("≥ 95%", _at_least(s["checks"], 0.95))),
        ("country, currency, language, phone valid", _share(s["vocab"]),
         _goal("100%", _at_least(s["vocab"], 1.0))),
        ("new dates in their span", _share(s["dates"]), _goal("100%", _at_least(s["dates"], 1.0))),
        ("labelled relations holding where the fill wrote", _share(s["relations"]),
         _goal("100%", _at_least(s["relations"], 1.0))),
        ("relation detection: found / labelled",
         f"{d['found']}/{d['labelled']}, {d['false_found']} wrongly found "
         f"({d['found_in_tables_without']} of {d['tables_without']} tables with none)", ""),
        ("median table fill", speed, _goal("≤ 1.3×", None if ratio is None else ratio <= 1.3)),
        ("valid (schema, or the table's shape)", f"{s['valid']}/{total}",
         _goal("all", s["valid"] == total)),
        ("values the fill computed (review notes)", str(s["notes"]), ""),
    ]  # fmt: skip


def values_section(results: dict[str, Any], shown: int = 3) -> list[str]:
    task = results["tasks"].get("values")
    if not task:
        return []
    lines = [f"## Template values ({task['split']} split)", "", "| measure | result | goal |",
             "|---|---|---|"]  # fmt: skip
    lines += [f"| {a} | {b} | {c} |" for a, b, c in values_rows(task["summary"])]
    lines += breakdown(task)
    refused = task["summary"].get("baseline_refused", [])
    if refused:
        lines += ["", f"Times are over the tables both engines filled; the engine before refused "
                  f"{len(refused)}: {', '.join(refused)}."]  # fmt: skip
    with_before = [t for t in task["tables"] if t.get("baseline", {}) and "text" in t["baseline"]]
    fresh = [t for t in with_before if t.get("set")]  # a further set's tables, when there is one
    with_before = (fresh or with_before)[:shown]
    for table in with_before:
        lines += ["", f"**{table['name']}**, before:", "", "```text", table["baseline"]["text"],
                  "```", "", "after:", "", "```text", table["text"], "```"]  # fmt: skip
        lines += [f"- {note}" for note in table["notes"]]
    return ["", *lines]
