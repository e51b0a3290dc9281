"""The template-values task: tables and JSON templates nobody here shipped, filled and checked.

Cases are in ``resources/eval/<split>/`` (``tables.json``, ``templates.json``, ``relations.json``,
and further sets as ``values-*.json`` holding all three; ``test`` is held out, ``dev`` is for
tuning). Every cell that was empty (or added) and every
JSON value the template did not give is judged by its column's or field's check
(:mod:`.value_checks`); labelled relations are checked where the fill wrote one of their
values; relation detection is scored on the labelled tables. ``--baseline DIR`` also fills
the same tables with the engine checked out in ``DIR`` (say ``main``), in a subprocess of this
run, so fill times before and after are measured on the same machine at the same time.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from engine.core.protocol import Fill, FillKind, Span
from engine.structured.markdown import find_tables
from tools.eval import value_checks
from tools.eval.cases import EVAL_DIR

CELL_TOKENS = 12  # as the structured task and the window use
SPLITS = ("test", "dev")
BASELINE_SCRIPT = Path(__file__).with_name("baseline_fill.py")
DAYS_PER_YEAR = 365.2425
KINDS_OF_CASE = ("tables", "templates", "relations")
EXTRA_SETS = "values-"  # a further set of all three kinds: values-heldout.json…


def load_split(split: str, folder: Path = EVAL_DIR) -> dict[str, list[dict[str, Any]]]:
    """The split's tables, templates and labelled relation tables."""
    if split not in SPLITS:
        raise ValueError(f"Unknown split {split!r}; splits: {', '.join(SPLITS)}")
    found: dict[str, list[dict[str, Any]]] = {}
    for name in KINDS_OF_CASE:
        path = folder / split / f"{name}.json"
        found[name] = json.loads(path.read_text("utf-8"))["cases"] if path.is_file() else []
    for path in sorted((folder / split).glob(f"{EXTRA_SETS}*.json")):
        extra = json.loads(path.read_text("utf-8"))
        named = path.stem.removeprefix(EXTRA_SETS)
        for name in KINDS_OF_CASE:
            found[name] += [case | {"set": named} for case in extra.get(name, [])]
    return found


def table_document(case: dict[str, Any]) -> str:
    return case.get("before", "") + case["table"] + "\n" + case.get("after", "")


def fill_table(backend: Any, case: dict[str, Any], settings: Any) -> dict[str, Any]:
    from engine.structured.slots import Filled
    from engine.structured.tables import run_table

    doc = table_document(case)
    span = find_tables(doc)[0].span
    fill = Fill(1, FillKind.TABLE, doc, span, add_rows=case.get("add_rows", 0),
                cell_tokens=CELL_TOKENS, settings=settings)  # fmt: skip
    started = time.perf_counter()
    done = [e for e in run_table(backend, fill) if isinstance(e, Filled)]
    seconds = time.perf_counter() - started
    return {"name": case["name"], "seconds": seconds, "text": done[0].value,
            "notes": list(done[0].proposal.notes)}  # fmt: skip


def score_table(case: dict[str, Any], text: str) -> dict[str, Any]:
    """Each empty or added cell by its column's check; each relation where a cell was filled."""
    before, after = find_tables(case["table"])[0], find_tables(text)[0]
    headers = [before.header.cell(c) for c in range(1, before.columns + 1)]
    results: list[tuple[str, bool]] = []
    failed: list[tuple[str, str]] = []
    for number, row in enumerate(after.body):
        old = before.body[number] if number < len(before.body) else None
        for col, header in enumerate(headers, start=1):
            if old is not None and old.cell(col):
                continue
            check = case["checks"][header]
            results.append((check["type"], value_checks.passes(row.cell(col), check)))
            if not results[-1][1]:
                failed.append((f"row {number + 1}, {header}", row.cell(col)))
    relations = table_relations(case, before, after, headers)
    return {
        "checks": results,
        "failed": failed,
        "relations": relations,
        "valid": len(after.body) == len(before.body) + case.get("add_rows", 0),
    }


def table_relations(
    case: dict[str, Any], before: Any, after: Any, headers: list[str]
) -> list[bool]:
    """Whether each labelled relation holds at each place the fill wrote one of its cells."""
    found = []
    labels = [r.cell(1) for r in after.body]
    for relation in case["relations"]:
        lines = [relation["target"], *relation["terms"]]
        if relation["axis"] == "column":
            cols = [headers.index(h) + 1 for h in lines]
            places = [[(r, c) for c in cols] for r in range(len(after.body))]
        else:
            rows = [labels.index(label) for label in lines]
            numeric = [c for c in range(2, len(headers) + 1) if c - 1 < len(headers)]
            places = [[(r, c) for r in rows] for c in numeric]
        for cells in places:
            wrote = any(r >= len(before.body) or not before.body[r].cell(c) for r, c in cells)
            texts = [after.body[r].cell(c) for r, c in cells]
            holds = value_checks.relation_holds(
                relation["kind"], texts[0], texts[1:], places_of(texts[0])
            )
            if wrote:
                found.append(bool(holds))
    return found


def places_of(text: str) -> int:
    return len(text.split(".")[1]) if "." in text else 0


def pointers(value: Any, path: str = "") -> list[str]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in pointers(v, f"{path}/{k}")]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in pointers(v, f"{path}/{i}")]
    return [path]


def fill_template(backend: Any, case: dict[str, Any], settings: Any) -> dict[str, Any]:
    from engine.structured.fill import run_json
    from engine.structured.slots import Filled

    given = case.get("instance")
    template = json.dumps(given, indent=2) if given is not None else ""
    doc = case.get("document", "") + template
    start = len(case.get("document", ""))
    locks = tuple(pointers(given)) if given else ()
    fill = Fill(1, FillKind.JSON, doc, Span(start, len(doc)), schema=json.dumps(case["schema"]),
                locks=locks, settings=settings)  # fmt: skip
    started = time.perf_counter()
    done = [e for e in run_json(backend, fill) if isinstance(e, Filled)]
    seconds = time.perf_counter() - started
    return {"name": case["name"], "seconds": seconds, "value": done[0].value,
            "notes": list(done[0].proposal.notes), "locks": list(locks)}  # fmt: skip


def expand(pattern: str, instance: Any) -> list[str]:
    """The pointers a check's pattern names (``*``: every array item)."""
    found = [""]
    for part in [p for p in pattern.split("/") if p]:
        grown = []
        for path in found:
            node = resolve(instance, path)
            if part == "*" and isinstance(node, list):
                grown += [f"{path}/{i}" for i in range(len(node))]
            elif isinstance(node, dict) and part in node:
                grown.append(f"{path}/{part}")
        found = grown
    return found


def resolve(instance: Any, pointer: str) -> Any:
    node = instance
    for part in [p for p in pointer.split("/") if p]:
        node = node[int(part)] if isinstance(node, list) else node[part]
    return node


def score_template(case: dict[str, Any], value: Any, locks: list[str]) -> dict[str, Any]:
    """Each generated value by its field's check; each labelled relation (``*`` items paired)."""
    from jsonschema import Draft202012Validator

    results = []
    failed = []
    for pattern, check in case["checks"].items():
        for pointer in expand(pattern, value):
            if pointer not in locks:
                got = resolve(value, pointer)
                results.append((check["type"], value_checks.passes(got, check)))
                failed += [] if results[-1][1] else [(pointer, got)]
    relations = [template_relation(r, value) for r in case["relations"]]
    valid = Draft202012Validator(case["schema"]).is_valid(value)
    return {"checks": results, "failed": failed, "valid": valid,
            "relations": [h for held in relations for h in held]}  # fmt: skip


def template_relation(relation: dict[str, Any], value: Any) -> list[bool]:
    target = expand(relation["target"], value)
    if relation["kind"] == "sum" and len(relation["terms"]) == 1:
        terms = [[resolve(value, p) for p in expand(relation["terms"][0], value)]]
    else:
        terms = [[resolve(value, p) for p in expand(t, value)] for t in relation["terms"]]
    found = []
    for index, pointer in enumerate(target):
        got = resolve(value, pointer)
        if relation["kind"] == "age":
            found.append(age_fits(got, terms[0][0]))
            continue
        parts = (
            terms[0]
            if len(relation["terms"]) == 1 and relation["kind"] == "sum"
            else [t[index if len(t) == len(target) else 0] for t in terms]
        )
        found.append(bool(value_checks.relation_holds(relation["kind"], got, parts)))
    return found


def age_fits(age: Any, birth: Any) -> bool:
    """An age within a year of the one a birth date gives today."""
    try:
        born = dt.date.fromisoformat(str(birth))
    except ValueError:
        return False
    years = (dt.date.today() - born).days / DAYS_PER_YEAR
    return isinstance(age, int) and abs(age - years) <= 1


def detection(backend_free_cases: list[dict[str, Any]]) -> dict[str, int]:
    """Relations found / missed / wrongly found by the engine's detector on labelled tables."""
    from engine.structured.table_plan import plan_cells

    found = missed = false_found = in_none = 0
    for case in backend_free_cases:
        table = find_tables(case["table"])[0]
        plan = plan_cells(table, (), 0, "")
        got = {describe(plan, r, m) for r, m in plan.found}
        want = {(r["kind"], r["axis"], r["target"], tuple(r["terms"])) for r in case["relations"]}
        found += len(got & want)
        missed += len(want - got)
        false_found += len(got - want)
        in_none += not want and bool(got)
    return {"labelled": sum(len(c["relations"]) for c in backend_free_cases), "found": found,
            "missed": missed, "false_found": false_found,
            "tables_without": sum(not c["relations"] for c in backend_free_cases),
            "found_in_tables_without": in_none}  # fmt: skip


def describe(plan: Any, relation: Any, members: list[int]) -> tuple[str, str, str, tuple[str, ...]]:
    label = lambda i: plan.label(relation.axis, members[i])  # noqa: E731
    return (relation.kind, relation.axis, label(relation.target), tuple(map(label, relation.terms)))


class Baseline:
    """The engine checked out in ``root`` (say ``main``), in a subprocess that fills one table
    when asked: the suite fills each table with both engines in turn, under the same load."""

    def __init__(self, root: Path) -> None:
        command = [sys.executable, str(BASELINE_SCRIPT), str(root)]
        self.process = subprocess.Popen(command, cwd=root, stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True)  # fmt: skip
        if json.loads(self.answer()).get("ready") is not True:
            raise RuntimeError("The baseline engine did not start.")

    def answer(self) -> str:
        assert self.process.stdout is not None
        line = self.process.stdout.readline()
        if not line:
            raise RuntimeError("The baseline engine stopped; see its output above.")
        return line

    def fill(self, case: dict[str, Any]) -> dict[str, Any]:
        assert self.process.stdin is not None
        wanted = {"name": case["name"], "document": table_document(case),
                  "add_rows": case.get("add_rows", 0)}  # fmt: skip
        self.process.stdin.write(json.dumps(wanted) + "\n")
        self.process.stdin.flush()
        return dict(json.loads(self.answer()))

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def median(values: list[float]) -> float | None:
    ordered = sorted(values)
    if not ordered:
        return None
    middle = len(ordered) // 2
    return ordered[middle] if len(ordered) % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def share(results: list[tuple[str, bool]], types: tuple[str, ...] | None = None) -> tuple[int, int]:
    chosen = [ok for kind, ok in results if types is None or kind in types]
    return sum(chosen), len(chosen)


def values_task(
    backend: Any, settings: Any, split: str, limit: int, baseline: Path | None
) -> dict[str, Any]:
    """Fill the split's tables and templates, score them, and time the baseline beside."""
    cases = load_split(split)
    cut = (lambda items: items[:limit]) if limit else (lambda items: items)
    tables, templates = cut(cases["tables"]), cut(cases["templates"])
    before = Baseline(baseline) if baseline else None
    filled = []
    for case in tables:
        print(f"[eval] values table {case['name']}", file=sys.stderr, flush=True)
        result = fill_table(backend, case, settings)
        result["baseline"] = before.fill(case) if before else None
        filled.append(result | score_table(case, result["text"]))
    if before:
        before.close()
    json_filled = []
    for case in templates:
        print(f"[eval] values template {case['name']}", file=sys.stderr, flush=True)
        result = fill_template(backend, case, settings)
        json_filled.append(result | score_template(case, result["value"], result["locks"]))
    labelled = cases["relations"] + [
        {"name": c["name"], "table": c["table"], "relations": c["relations"], "set": c.get("set")}
        for c in cases["tables"]
    ]
    for result, case in zip(filled + json_filled, tables + templates, strict=True):
        result["set"] = case.get("set")
    sets = further_sets(labelled, tables, templates)
    of = lambda items, name: [i for i in items if i.get("set") == name]  # noqa: E731
    by_set = {
        name: summarize(of(filled, name), of(json_filled, name), detection(of(labelled, name)))
        for name in sorted(sets)
    }
    return {"split": split, "tables": filled, "templates": json_filled, "sets": by_set,
            "summary": summarize(filled, json_filled, detection(labelled))}  # fmt: skip


def further_sets(*cases: list[dict[str, Any]]) -> set[str]:
    """Every further set a case of any kind belongs to: a set of templates alone is one too."""
    return {c["set"] for kind in cases for c in kind if c.get("set")}


def summarize(tables: list[dict[str, Any]], templates: list[dict[str, Any]],
              detected: dict[str, int]) -> dict[str, Any]:  # fmt: skip
    checks = [c for r in tables + templates for c in r["checks"]]
    relations = [h for r in tables + templates for h in r["relations"]]
    paired = [r for r in tables if r.get("baseline") and "seconds" in r["baseline"]]
    after_s = [r["seconds"] for r in paired] if paired else [r["seconds"] for r in tables]
    before_s = [r["baseline"]["seconds"] for r in paired]
    refused = [r["name"] for r in tables if r.get("baseline") and "error" in r["baseline"]]
    computed = sum(len(r["notes"]) for r in tables + templates)
    kinds = sorted({kind for kind, _ in checks})
    return {
        "tables": len(tables), "templates": len(templates),
        "by_kind": {kind: share(checks, (kind,)) for kind in kinds},
        "checks": share(checks), "vocab": share(checks, value_checks.VOCAB_TYPES),
        "dates": share(checks, ("date",)), "relations": (sum(relations), len(relations)),
        "valid": sum(bool(r["valid"]) for r in tables + templates),
        "median_table_s": median(after_s), "median_table_s_before": median(before_s),
        "median_template_s": median([r["seconds"] for r in templates]),
        "notes": computed, "detection": detected, "baseline_refused": refused,
    }  # fmt: skip
