"""Finding GFM tables in Markdown and cutting their rows into cells, with exact spans.

Light on purpose (markdown-it-py only, no torch): the window uses it to find the table under
the cursor, the engine (:mod:`engine.structured.tables`) to lay tables out and to re-parse
what it filled. Rows are cut at unescaped pipes, which is how GFM splits cells. Only the table
being filled must have one cell per column in every row: another table of the document, ragged
or not, never stands in the way. Which cells a
fill takes (`empty`, `all`, `R,C;R,C`) is decided here too, so the CLI refuses bad cells early.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from dataclasses import dataclass

from markdown_it import MarkdownIt

from engine.core.errors import BadRequest
from engine.core.protocol import Fill, Span

CellKey = tuple[int, int]  # (body row from 1, column from 1)


@dataclass(frozen=True)
class Row:
    start: int  # offset of the line in the document
    line: str
    cells: tuple[tuple[int, int], ...]  # raw cell spans (between pipes), relative to the line

    def cell(self, col: int) -> str:
        a, b = self.cells[col - 1]
        return self.line[a:b].strip()


@dataclass(frozen=True)
class MarkdownTable:
    span: Span  # from the header line's start to the last row's end (no final newline)
    header: Row
    delimiter: Row
    body: tuple[Row, ...]

    @property
    def columns(self) -> int:
        return len(self.header.cells)


def find_tables(text: str) -> list[MarkdownTable]:
    """Every GFM table in ``text``, in order (``BadRequest`` if one of them is ragged)."""
    return [_regular(text, rows) for rows in _table_rows(text)]


def table_spans(text: str) -> list[Span]:
    """Where each GFM table of ``text`` lies, ragged ones included (no row is checked)."""
    return [_span(rows) for rows in _table_rows(text)]


def _table_rows(text: str) -> Iterator[list[Row]]:
    """Each GFM table's rows, as markdown-it finds them, whatever their cell counts."""
    md = MarkdownIt("commonmark").enable("table")
    starts = line_starts(text)
    for token in md.parse(text):
        if token.type == "table_open" and token.map:
            first, last = token.map
            yield [row_at(text, starts, n) for n in range(first, last)]


def _span(rows: list[Row]) -> Span:
    return Span(rows[0].start, rows[-1].start + len(rows[-1].line))


def _regular(text: str, rows: list[Row]) -> MarkdownTable:
    """The table, if every row has one cell per column; else a refusal naming the odd row."""
    columns = len(rows[0].cells)
    odd = next((row for row in rows if len(row.cells) != columns), None)
    if odd is not None:
        line = text.count("\n", 0, odd.start) + 1
        if "|" not in odd.line:  # GFM reads a line right below a table as one more row
            problem = f"Line {line} reads as one more row of the table: put a blank line before it."
        else:
            problem = (
                f"Line {line} does not have one cell per column "
                f"(the header: {columns}, that row: {len(odd.cells)})."
            )
        raise BadRequest(f"{problem} Settle fills tables with one cell per column in every row.")
    return MarkdownTable(_span(rows), rows[0], rows[1], tuple(rows[2:]))


def line_starts(text: str) -> list[int]:
    starts = [0]
    starts += [m.end() for m in re.finditer("\n", text)]
    return starts


def row_at(text: str, starts: list[int], number: int) -> Row:
    start = starts[number]
    end = starts[number + 1] - 1 if number + 1 < len(starts) else len(text)
    line = text[start:end].rstrip("\r")
    return Row(start, line, split_cells(line))


def split_cells(line: str) -> tuple[tuple[int, int], ...]:
    """Raw cell spans: text between unescaped pipes, outer pipes optional."""
    pipes = [m.start() for m in re.finditer(r"(?<!\\)\|", line)]
    bounds = [-1, *pipes, len(line)]
    spans = [(a + 1, b) for a, b in itertools.pairwise(bounds)]
    if spans and not line[: spans[0][1]].strip():
        spans = spans[1:]  # leading pipe
    if spans and not line[spans[-1][0] :].strip():
        spans = spans[:-1]  # trailing pipe
    return tuple(spans)


def table_at(text: str, position: int) -> MarkdownTable | None:
    """The table containing character ``position`` (or whose end it touches), if any;
    ``BadRequest`` if that table is ragged."""
    for rows in _table_rows(text):
        span = _span(rows)
        if span.start <= position <= span.end:
            return _regular(text, rows)
    return None


def choose_cells(table: MarkdownTable, spec: str, add_rows: int) -> tuple[CellKey, ...]:
    """The cells to fill: ``empty`` (default), ``all``, or ``R,C;R,C`` (body rows from 1)."""
    rows, cols = len(table.body), table.columns
    extra = [(r, c) for r in range(rows + 1, rows + add_rows + 1) for c in range(1, cols + 1)]
    every = [(r, c) for r in range(1, rows + 1) for c in range(1, cols + 1)]
    spec = spec.strip() or "empty"
    if spec == "all":
        return tuple(every + extra)
    if spec == "empty":
        return tuple([k for k in every if not table.body[k[0] - 1].cell(k[1])] + extra)
    chosen = []
    for part in re.split(r"[;\s]+", spec):
        match = re.fullmatch(r"(\d+),(\d+)", part)
        if not match:
            raise BadRequest(
                f"Cells are 'empty', 'all' or ROW,COL pairs such as 1,2;3,1, not {part!r}."
            )
        key = (int(match[1]), int(match[2]))
        if not (1 <= key[0] <= rows and 1 <= key[1] <= cols):
            raise BadRequest(
                f"The table has no body cell {key[0]},{key[1]} ({rows} rows, {cols} columns)."
            )
        chosen.append(key)
    return tuple(dict.fromkeys(chosen + extra))


def chosen_cells(fill: Fill) -> tuple[MarkdownTable, tuple[CellKey, ...]]:
    """The table at the fill's target and the cells to fill: every check needing no model."""
    if fill.add_rows < 0:
        raise BadRequest("The number of rows to add cannot be negative.")
    if fill.cell_tokens < 1:
        raise BadRequest(f"The cell budget must be at least 1 token (got {fill.cell_tokens}).")
    spans = ((rows, _span(rows)) for rows in _table_rows(fill.text))
    found = next(
        (rows for rows, s in spans if s.contains(fill.target) or fill.target.contains(s)), None
    )
    if found is None:
        raise BadRequest("There is no Markdown table there: put the cursor in a table.")
    table = _regular(fill.text, found)
    chosen = choose_cells(table, fill.cells, fill.add_rows)
    if not chosen:
        raise BadRequest("No cell to fill: the table has no empty cell (use all, or cells R,C).")
    return table, chosen
