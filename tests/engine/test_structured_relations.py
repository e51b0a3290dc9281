"""Arithmetic between columns found by the numbers alone (issue 28): differences, sums of
several columns and products under headers that name no result, chance-weighted so tables
without a relation get none, and the cells such a relation decides computed by it."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured import relations
from engine.structured.markdown import find_tables
from engine.structured.table_plan import plan_cells
from tests.helpers.fills import md, rows, table_fill

# Header words that name no result, so only the numbers can tell what adds up.
PLAIN_HEADERS = ("Lap", "Oak", "North", "Blue", "Morning", "Shelf", "Kiln", "Pier", "Ward")
WIDE = 500  # how far a generated column's values spread at least
OPERATIONS = {"sum": math.fsum, "difference": lambda t: t[0] - t[1], "product": math.prod}


def line(label: str, *values: float | None, decimals: int = 0) -> relations.Line:
    return relations.Line(label, tuple(math.nan if v is None else v for v in values), decimals)


def found(doc: str) -> list[tuple[str, str, tuple[str, ...]]]:
    plan = plan_cells(find_tables(doc)[0], (), 0, "")
    label = lambda r, m, i: plan.label(r.axis, m[i])  # noqa: E731
    return [
        (r.kind, label(r, m, r.target), tuple(label(r, m, i) for i in r.terms))
        for r, m in plan.found
    ]


def test_a_small_difference_beside_a_constant_is_found_by_its_spread() -> None:
    golf = md(["Player", "Strokes", "Par", "To par"], [["A", "74", "72", "2"],
              ["B", "69", "72", "-3"], ["C", "71", "72", "-1"], ["D", "76", "", ""]])  # fmt: skip
    assert found(golf) == [("difference", "To par", ("Strokes", "Par"))]


def test_four_digit_counts_that_add_up_are_quantities_not_years() -> None:
    laps = md(["Runner", "Lap 1", "Lap 2", "Lap 3", "Race"], [
        ["Ines", "412", "398", "405", "1215"], ["Lea", "389", "402", "396", "1187"],
        ["Mo", "455", "447", "460", "1362"], ["Karl", "430", "441", "", ""]])  # fmt: skip
    assert found(laps) == [("sum", "Race", ("Lap 1", "Lap 2", "Lap 3"))]
    karl = rows(table_fill(laps).value)[3]
    assert int(karl[4]) == sum(map(int, karl[1:4]))


def test_the_first_column_counts_when_it_holds_quantities_not_a_numbering() -> None:
    visitors = md(["Morning", "Afternoon", "Evening", "Day"], [["120", "340", "210", "670"],
                  ["95", "280", "175", "550"], ["110", "305", "190", "605"]])  # fmt: skip
    assert found(visitors) == [("sum", "Day", ("Morning", "Afternoon", "Evening"))]
    years = md(["Year", "Births", "Deaths"], [["2021", "812", "745"], ["2022", "790", "771"],
               ["2023", "768", "752"]])  # fmt: skip
    assert found(years) == []


def test_chance_is_the_window_over_the_widest_spread() -> None:
    rule = relations.Relation("sum", "column", 2, (0, 1))
    lines = [line("A", 10, 30, 50), line("B", 5, 5, 5), line("C", 15, 35, 55)]
    # A and C spread over 40 (widened to 80 for three values); one unit of 81.
    assert math.isclose(relations.chance(rule, lines, 0), 1 / 81)
    constant = [line("A", 72, 72), line("B", 72, 72), line("C", 144, 144)]
    # Lines that never vary say nothing of their spread: their size stands in (C: 144).
    assert math.isclose(relations.chance(rule, constant, 0), 1 / 145)


@st.composite
def related_table(draw: st.DrawFn) -> tuple[str, list[str], list[list[int]]]:
    """Terms that vary widely, a result by one of the three operations (never zero, which is
    no evidence), plain headers."""
    kind = draw(st.sampled_from(sorted(OPERATIONS)))
    count = 3 if kind == "sum" else 2
    size = draw(st.integers(4, 6))  # two complete rows at least beside the two open cells
    column = st.lists(st.integers(10, 3000), min_size=size, max_size=size, unique=True).filter(
        lambda v: max(v) - min(v) >= WIDE
    )
    terms = [draw(column) for _ in range(count)]
    if kind == "difference":  # the first term the larger, by a varying amount
        terms[0] = [b + gap for b, gap in zip(terms[1], terms[0], strict=True)]
    names = draw(st.lists(st.sampled_from(PLAIN_HEADERS), min_size=count + 1,
                          max_size=count + 1, unique=True))  # fmt: skip
    body = [[*(t[r] for t in terms), round(OPERATIONS[kind]([t[r] for t in terms]))]
            for r in range(size)]  # fmt: skip
    return kind, names, body


@given(related_table(), st.integers(0, 3))
@settings(max_examples=30, deadline=None)
def test_a_computed_cell_always_equals_its_formula(
    case: tuple[str, list[str], list[list[int]]], seed: int
) -> None:
    kind, names, body = case
    cells = [["r" + str(i), *map(str, row)] for i, row in enumerate(body)]
    cells[0][-1] = ""  # the result open: computed from the terms
    cells[-1][1] = ""  # a term open: solved, or written and its result computed
    filled = rows(table_fill(md(["Item", *names], cells), seed).value)
    for row in filled:
        *terms, result = (float(v) for v in row[1:])
        assert math.isclose(OPERATIONS[kind](terms), result, abs_tol=0.5)
