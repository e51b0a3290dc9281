"""The template-values task's cases and checks (tools/eval/values.py, value_checks.py)."""

from __future__ import annotations

import pytest

from engine.structured.markdown import find_tables
from tools.eval import value_checks, values


@pytest.mark.parametrize("split", values.SPLITS)
def test_every_case_loads_and_every_open_cell_has_a_check(split: str) -> None:
    cases = values.load_split(split)
    assert cases["tables"] and cases["templates"] and cases["relations"]
    for case in cases["tables"]:
        table = find_tables(values.table_document(case))[0]
        for row in table.body:
            for col in range(1, table.columns + 1):
                if not row.cell(col):
                    assert table.header.cell(col) in case["checks"], case["name"]
        for check in case["checks"].values():
            assert check["type"] in value_checks.CHECKS


def test_the_held_out_split_is_as_large_as_the_issue_asks() -> None:
    cases = values.load_split("test")
    assert len(cases["tables"]) >= 30 and len(cases["templates"]) >= 20
    assert any(c["relations"] for c in cases["relations"])
    assert any(not c["relations"] for c in cases["relations"])


def test_further_sets_are_read_beside_the_split_files() -> None:
    cases = values.load_split("test")
    names = [c["name"] for kind in values.KINDS_OF_CASE for c in cases[kind]]
    assert len(names) == len(set(names))
    assert {"hardware-invoice", "purchase-order", "room-area"} <= set(names)


def test_a_set_of_templates_alone_is_reported_on_its_own() -> None:
    cases = values.load_split("test")
    found = values.further_sets(cases["relations"], cases["tables"], cases["templates"])
    assert {"heldout", "heldout2"} <= found
    assert values.further_sets([], [], [{"name": "a", "set": "fresh"}, {"name": "b"}]) == {"fresh"}


def test_an_unknown_split_or_check_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="Unknown split"):
        values.load_split("train")
    with pytest.raises(ValueError, match="Unknown check type"):
        value_checks.passes("x", {"type": "colour"})
    with pytest.raises(ValueError, match="Unknown relation kind"):
        value_checks.relation_holds("ratio", "1", ["1", "2"])


@pytest.mark.parametrize(
    ("value", "check", "ok"),
    [
        ("1040", {"type": "year", "min": 1, "max": 2026}, True),
        ("Japan", {"type": "year", "min": 1, "max": 2026}, False),
        ("0.7", {"type": "number", "min": 0.1, "max": 40, "decimals": 1}, True),
        ("0.75", {"type": "number", "min": 0.1, "max": 40, "decimals": 1}, False),
        (2.0, {"type": "number", "min": 0, "max": 9}, True),
        ("2026-12-06", {"type": "date", "min": "2026-11-15", "max": "2027-01-31"}, True),
        ("2024-05-01", {"type": "date", "min": "2026-11-15", "max": "2027-01-31"}, False),
        ("RK", {"type": "country"}, False),
        ("Czechia", {"type": "country"}, True),
        ("NO", {"type": "country", "code": "alpha_2"}, True),
        ("Norway", {"type": "country", "code": "alpha_2"}, False),
        ("Belgium", {"type": "country", "is": "BE"}, True),
        ("Netherlands", {"type": "country", "is": "BE"}, False),
        ("PLN", {"type": "currency"}, True),
        ("Zloty", {"type": "currency"}, False),
        ("Polish", {"type": "language"}, True),
        ("+9001000", {"type": "phone"}, False),
        ("+33 6 12 34 58 38", {"type": "phone"}, True),
        ("anna@lumen.se", {"type": "email", "domain": "lumen.se"}, True),
        ("anna@elsewhere.se", {"type": "email", "domain": "lumen.se"}, False),
        ("Europe/Oslo", {"type": "timezone"}, True),
        ("Europe/Narnia", {"type": "timezone"}, False),
        ("", {"type": "text"}, False),
    ],
)
def test_checks_judge_values_with_the_libraries(value: object, check: dict, ok: bool) -> None:
    assert value_checks.passes(value, check) is ok


def test_relations_are_checked_to_the_targets_precision() -> None:
    assert value_checks.relation_holds("product", "21.60", ["18", "1.20"], 2)
    assert not value_checks.relation_holds("sum", "10", ["4", "5"], 0)
    assert value_checks.relation_holds("difference", "-32", ["450", "482"], 0)
    assert value_checks.relation_holds("not-before", "2026-03-04", ["2026-03-02"])
    assert value_checks.relation_holds("sum", "x", ["1"]) is None


def test_detection_scores_found_missed_and_false_found() -> None:
    cases = [
        {"name": "a", "table": "| r | x | y | t |\n|---|---|---|---|\n| 1 | 12 | 31 | 43 |\n"
         "| 2 | 40 | 47 | 87 |\n", "relations": [{"kind": "sum", "axis": "column",
                                               "target": "t", "terms": ["x", "y"]}]},
        {"name": "b", "table": "| r | x | y |\n|---|---|---|\n| 1 | 2 | 9 |\n| 2 | 7 | 1 |\n",
         "relations": []},
    ]  # fmt: skip
    scored = values.detection(cases)
    assert scored["found"] == 1 and scored["missed"] == 0 and scored["false_found"] == 0
    assert scored["tables_without"] == 1 and scored["found_in_tables_without"] == 0


def test_a_scored_table_names_its_failed_cells_and_the_report_counts_them_by_kind() -> None:
    from tools.eval.report_values import breakdown

    head = "| City | Founded |\n|---|---|\n| Oslo | 1040 |\n"
    year = {"type": "year", "min": 1, "max": 2026}
    case = {"name": "t", "table": head + "| Rome |  |", "checks": {"Founded": year}}
    case["relations"] = []
    scored = values.score_table(case, head + "| Rome | Italy |")
    assert scored["checks"] == [("year", False)]
    assert scored["failed"] == [("row 2, Founded", "Italy")]
    result = {"name": "t", "seconds": 1.0, "notes": [], "set": "heldout"} | scored
    detected = values.detection([case])
    task = {"tables": [result], "templates": [],
            "summary": values.summarize([result], [], detected),
            "sets": {"heldout": values.summarize([result], [], detected)}}  # fmt: skip
    lines = breakdown(task)
    assert "| year | 0/1 (0%) | 0/1 (0%) |" in lines
    assert "- t: row 2, Founded = `Italy`" in lines
