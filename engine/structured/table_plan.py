"""How each chosen cell of a table is filled: by the model inside a shape, by choice among
valid values, or computed from the rest of the table (arithmetic, or agreement with its row).

:func:`plan_cells` profiles every column (:mod:`.columns`), finds the table's arithmetic
(:mod:`.relations`) and its vocabulary columns (:mod:`.agreement`), and gives each chosen
cell a :class:`CellPlan`. Cells a relation or the row decides are left out of the model's
canvas; :meth:`TablePlan.complete` writes them once the model's cells are in, and says which
it computed, for the review.
"""

from __future__ import annotations

import math
import statistics
from dataclasses import dataclass, field, replace
from typing import Any

from engine.structured import agreement, columns, relations
from engine.structured.columns import Column
from engine.structured.markdown import CellKey, MarkdownTable
from engine.structured.shapes import Shape

OPERATORS = {"sum": " + ", "difference": " − ", "product": " × "}
AGREEING = ("city", "currency", "language", "timezone", "phone", "email")


@dataclass(frozen=True)
class CellPlan:
    """One chosen cell: ``shape`` (model), ``choice`` (model, among ``texts``), ``text``
    (the column's free-text slot) or ``computed`` (written after the fill)."""

    how: str
    shape: Shape = ()
    texts: tuple[str, ...] = ()
    span: tuple[float, float] = (0.0, 0.0)


@dataclass
class TablePlan:
    markdown: MarkdownTable
    rows: int  # body rows including added ones
    columns: list[Column]
    cells: dict[CellKey, CellPlan]
    found: list[tuple[relations.Relation, list[int]]]  # relation, the lines' columns/rows
    context: agreement.Context
    notes: list[str] = field(default_factory=list)

    def grid(self, values: dict[Any, Any]) -> list[list[str]]:
        """Every body cell's text as it stands with ``values`` written in."""
        out = []
        for row in range(1, self.rows + 1):
            line = []
            for col in range(1, len(self.columns) + 1):
                given = (
                    self.markdown.body[row - 1].cell(col) if row <= len(self.markdown.body) else ""
                )
                line.append(str(values.get((row, col), given)))
            out.append(line)
        return out

    def complete(self, values: dict[Any, Any]) -> list[str]:
        """Write every computed cell into ``values``; the review's notes on what was."""
        computed = {k for k, p in self.cells.items() if p.how == "computed"}
        notes = self.arithmetic(values, computed)
        notes += self.agreement(values, computed)
        notes += self.in_order(values)
        for key in sorted(computed - set(values)):
            values[key] = ""  # nothing decided it: the cell stays as empty as it was
        return notes

    def arithmetic(self, values: dict[Any, Any], computed: set[CellKey]) -> list[str]:
        notes: dict[str, list[str]] = {}
        for _ in range(len(self.found) + 1):  # a total of differences settles in a few passes
            progress = False
            for relation, members in self.found:
                grid = self.grid(values)
                for (line, position), value in relations.solve(
                    relation, self.known_at(relation, members, grid), self.positions(relation)
                ).items():
                    key = self.cell_of(relation, members, line, position)
                    if key in computed and key not in values:
                        values[key] = (
                            self.columns[key[1] - 1].text(value)
                            if self.numeric(key)
                            else f"{value}"
                        )
                        notes.setdefault(self.describe(relation, members), []).append(
                            self.where(key)
                        )
                        progress = True
            if not progress:
                break
        return [f"Computed {rule} ({', '.join(at)})" for rule, at in notes.items()]

    def numeric(self, key: CellKey) -> bool:
        return self.columns[key[1] - 1].kind == "number"

    def positions(self, relation: relations.Relation) -> int:
        return len(self.numeric_columns()) if relation.axis == "row" else self.rows

    def numeric_columns(self) -> list[int]:
        return [c for c, col in enumerate(self.columns, start=1) if col.kind == "number"]

    def cell_of(
        self, relation: relations.Relation, members: list[int], line: int, position: int
    ) -> CellKey:
        if relation.axis == "column":
            return (position + 1, members[line])
        return (members[line], self.numeric_columns()[position])

    def known_at(
        self, relation: relations.Relation, members: list[int], grid: list[list[str]]
    ) -> relations.Known:
        def known(line: int, position: int) -> float | None:
            row, col = self.cell_of(relation, members, line, position)
            text = grid[row - 1][col - 1]
            return float(text) if columns.NUMBER.fullmatch(text) else None

        return known

    def describe(self, relation: relations.Relation, members: list[int]) -> str:
        label = self.label(relation.axis, members[relation.target])
        terms = OPERATORS[relation.kind].join(
            self.label(relation.axis, members[t]) for t in relation.terms
        )
        return f"{label} = {terms}"

    def label(self, axis: str, index: int) -> str:
        if axis == "column":
            return self.markdown.header.cell(index)
        return self.markdown.body[index - 1].cell(1)

    def where(self, key: CellKey) -> str:
        row, col = key
        return f"row {row}, {self.markdown.header.cell(col)}"

    def order_pairs(self) -> list[tuple[int, int]]:
        """(start, end) columns of dates or times: "Start"/"End", "Opened"/"Closed"…"""
        found = []
        for a, first in enumerate(self.columns, start=1):
            for b, second in enumerate(self.columns[a:], start=a + 1):
                same = first.kind == second.kind and first.kind in ("date", "time")
                if (
                    same
                    and columns.names(first.header, "start")
                    and columns.names(second.header, "end")
                ):
                    found.append((a, b))
        return found

    def in_order(self, values: dict[Any, Any]) -> list[str]:
        """An end the model wrote before its row's start moves to the start plus the table's
        usual length (the start, where a start was written after a given end)."""
        notes = []
        for a, b in self.order_pairs():
            first, second = self.columns[a - 1], self.columns[b - 1]
            grid = self.grid(values)
            pairs = [(first.number(r[a - 1]), second.number(r[b - 1])) for r in grid]
            spans = [e - s for s, e in pairs if s is not None and e is not None and e >= s]
            usual = statistics.median(spans) if spans else 0.0
            for row, (start, end) in enumerate(pairs, start=1):
                if start is None or end is None or end >= start:
                    continue
                key = (row, b) if (row, b) in values else (row, a)
                if key not in values:
                    continue
                moved = start + usual if key[1] == b else end - usual
                values[key] = self.columns[key[1] - 1].text(moved)
                notes.append(
                    f"{self.where(key)} moved to {values[key]}: an end is not before its start"
                )
        return notes

    def agreement(self, values: dict[Any, Any], computed: set[CellKey]) -> list[str]:
        notes = []
        kinds = {col.kind: c for c, col in enumerate(self.columns, start=1)}
        for kind in agreement.ORDER:
            col = kinds.get(kind)
            if col is None:
                continue
            column = self.columns[col - 1]
            self.context.used = set(self.grid(values)[r][col - 1] for r in range(self.rows))
            for row in range(1, self.rows + 1):
                key = (row, col)
                if key not in computed or key in values:
                    continue
                known = self.row_known(values, row, kinds)
                found = agreement.derive(kind, known, column.style, row, self.context)
                if found:
                    values[key] = found
                    self.context.used.add(found)
                    notes.append(f"{self.where(key)} agrees with its row: {found}")
        return notes

    def row_known(self, values: dict[Any, Any], row: int, kinds: dict[str, int]) -> dict[str, str]:
        grid = self.grid(values)[row - 1]
        known = {k: grid[c - 1] for k, c in kinds.items() if grid[c - 1]}
        name_col = next(
            (
                c
                for c, col in enumerate(self.columns, 1)
                if columns.names(col.header, "person") or "name" in col.header.lower()
            ),
            None,
        )
        if name_col is not None and grid[name_col - 1]:
            known["name"] = grid[name_col - 1]
        return known


def plan_cells(
    markdown: MarkdownTable, chosen: tuple[CellKey, ...], add_rows: int, document: str
) -> TablePlan:
    """Profile the columns, find the arithmetic, and decide how each chosen cell is filled."""
    rows = len(markdown.body) + add_rows
    texts = [
        [row.cell(c) for row in markdown.body] + [""] * add_rows
        for c in range(1, markdown.columns + 1)
    ]
    profiles = [
        columns.profile(markdown.header.cell(c), texts[c - 1], document)
        for c in range(1, markdown.columns + 1)
    ]
    kinds = {p.kind: c for c, p in enumerate(profiles, start=1)}
    person = [
        t
        for c, p in enumerate(profiles, 1)
        if p.kind in ("person", "text")
        for t in texts[c - 1]
        if c == 1
    ]
    context = agreement.Context(
        document, texts[kinds["email"] - 1] if "email" in kinds else [], person,
        texts[kinds["phone"] - 1] if "phone" in kinds else [],
    )  # fmt: skip
    found = relations.table_relations(markdown, profiles, texts)
    plan = TablePlan(markdown, rows, profiles, {}, found, context)
    computed = relation_cells(plan, set(chosen)) | agreeing_cells(profiles, texts, chosen)
    for key in chosen:
        plan.cells[key] = CellPlan("computed") if key in computed else model_plan(plan, key, texts)
    return plan


def row_column(plan: TablePlan, row: int, texts: list[list[str]]) -> Column | None:
    """A row's numbers as a column of their own (its range, the table's decimals there)."""
    cells = [texts[c - 1][row - 1] for c in plan.numeric_columns()]
    along = columns.profile(plan.label("row", row), cells)
    return replace(along, known=()) if along.kind == "number" else None


def keeps_result_in_span(
    plan: TablePlan, key: CellKey, span: tuple[float, float], texts: list[list[str]]
) -> tuple[float, float]:
    """A term the model writes whose relation's result is computed from it: narrowed so the
    result stays in its own line's range (Revenue beside Costs 101 never makes Margin −1)."""
    value = lambda cell: texts[cell[1] - 1][cell[0] - 1]  # noqa: E731
    for relation, members in plan.found:
        for position in range(plan.positions(relation)):
            cells = [plan.cell_of(relation, members, t, position) for t in relation.terms]
            target = plan.cell_of(relation, members, relation.target, position)
            if key not in cells or value(target) or any(value(c) == "" for c in cells if c != key):
                continue
            others = [float(value(c)) for c in cells if c != key]
            result = result_span(plan, relation, members, target, texts)
            allowed = term_span(relation, cells.index(key), others, result)
            if allowed and max(allowed[0], span[0]) <= min(allowed[1], span[1]):
                span = (max(allowed[0], span[0]), min(allowed[1], span[1]))
    return span


def result_span(
    plan: TablePlan,
    relation: relations.Relation,
    members: list[int],
    target: CellKey,
    texts: list[list[str]],
) -> tuple[float, float]:
    if relation.axis == "row":
        along = row_column(plan, members[relation.target], texts)
        if along is not None:
            return along.low, along.high
    column = plan.columns[target[1] - 1]
    return column.low, column.high


def term_span(
    relation: relations.Relation, index: int, others: list[float], result: tuple[float, float]
) -> tuple[float, float] | None:
    """The values term ``index`` may take for the result to land in ``result``."""
    low, high = result
    if relation.kind == "sum":
        return low - math.fsum(others), high - math.fsum(others)
    if relation.kind == "difference":
        other = others[0]
        return (other + low, other + high) if index == 0 else (other - high, other - low)
    factor = others[0]
    return (low / factor, high / factor) if factor > 0 else None


def row_wise(plan: TablePlan, row: int) -> bool:
    """Whether a row's numbers belong together: a row of a row relation, or a series table."""
    if any(r.axis == "row" and row in members for r, members in plan.found):
        return True
    headers = [plan.markdown.header.cell(c) for c in plan.numeric_columns()]
    return row <= len(plan.markdown.body) and columns.series(headers)


def relation_cells(plan: TablePlan, chosen: set[CellKey]) -> set[CellKey]:
    """The chosen cells arithmetic will write: a relation's open target, else its last open
    term (the model writes the others first)."""
    computed: set[CellKey] = set()
    for relation, members in plan.found:
        for position in range(plan.positions(relation)):
            target = plan.cell_of(relation, members, relation.target, position)
            terms = [plan.cell_of(relation, members, t, position) for t in relation.terms]
            if target in chosen and target not in computed:
                computed.add(target)
            elif target not in chosen:
                open_terms = [t for t in terms if t in chosen and t not in computed]
                if open_terms:
                    computed.add(open_terms[-1])
    return computed


def agreeing_cells(
    profiles: list[Column], texts: list[list[str]], chosen: tuple[CellKey, ...]
) -> set[CellKey]:
    """Chosen vocabulary cells their row decides: a country from a given city, time zone or
    phone number; a city, currency, language or zone from the row's country; every phone
    number (its region from the row); an e-mail address from the row's name."""
    kinds = {p.kind: c for c, p in enumerate(profiles, start=1)}
    found = set()
    for row, col in chosen:
        kind = profiles[col - 1].kind
        if kind == "country":
            known = {k: texts[c - 1][row - 1] for k, c in kinds.items() if k != "country"}
            if agreement.country_from({k: v for k, v in known.items() if v}) is not None:
                found.add((row, col))
        elif kind in ("phone", "email") or (kind in AGREEING and "country" in kinds):
            found.add((row, col))  # a phone's region, an address's name: from the row
    return found


def model_plan(plan: TablePlan, key: CellKey, texts: list[list[str]]) -> CellPlan:
    """A cell the model writes: a shape within its span, a choice, or the column's text."""
    row, col = key
    column = plan.columns[col - 1]
    if column.kind == "number" and row_wise(plan, row):
        column = row_column(plan, row, texts) or column
    if column.kind in ("number", "year", "date", "time"):
        span = columns.cell_span(column, row - 1)
        if column.kind == "number":
            span = keeps_result_in_span(plan, key, span, texts)
        return CellPlan("shape", columns.cell_shape(column, span), span=span)
    if column.kind in ("choice", "person"):
        return CellPlan("choice", texts=column.values)
    if column.kind == "city":
        cities = [
            t for c, p in enumerate(plan.columns, 1) if p.kind == "city" for t in texts[c - 1]
        ]
        options = tuple(
            dict.fromkeys(t for t in cities if t and t not in texts[col - 1][row - 1 : row])
        )
        return CellPlan("choice", texts=options) if len(options) >= 2 else CellPlan("text")
    if column.kind in ("country", "currency", "language", "timezone"):
        used = [t for t in texts[col - 1] if t]
        options = agreement.choices(column.kind, used, column.style, row)
        return CellPlan("choice", texts=options) if options else CellPlan("text")
    shared = columns.shared_values(texts, col - 1, row - 1) if column.kind == "text" else ()
    return CellPlan("choice", texts=shared) if shared else CellPlan("text")
