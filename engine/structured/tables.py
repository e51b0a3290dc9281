"""Layout-frozen Markdown tables: pipes, header and delimiter row locked, chosen cells as slots.

Tables are found with markdown-it-py (GFM tables); each row's cells are then cut at unescaped
pipes, which is how GFM splits them, so every cell has an exact character span. A cell slot can
hold no pipe, backslash or line break. A column whose filled cells are all numbers, all ISO
dates, or a few repeated values gets a matching slot (digits, date characters, one of those
values); its repair is the column's first such value. The result is re-parsed and must have
the same rows and columns, with the header, the delimiter row and every untouched cell
byte-identical; an empty cell the model left empty simply stays empty.
"""

from __future__ import annotations

import datetime
import math
import re
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from engine.backends.base import Backend
from engine.core.errors import BadRequest, InvariantViolation
from engine.core.plan import ExcludingConstraint, Locked, Segment, Slot
from engine.core.protocol import Fill, Proposal, SegmentText, Span
from engine.core.tokens import TokenTable, charset
from engine.run.pipeline import RunContext, never
from engine.structured.columns import default as column_default
from engine.structured.columns import fits
from engine.structured.formats import STRICT, format_shape
from engine.structured.markdown import CellKey, MarkdownTable, chosen_cells, find_tables
from engine.structured.render import literal_slot
from engine.structured.shapes import Part, Run, Shape, positions
from engine.structured.slots import Filled, FillEvents, Layout, SlotStats, fill_events
from engine.structured.table_plan import plan_cells
from engine.structured.values import NOTHING
from engine.structured.words import word_shape

# A cell's value never holds a run of spaces: the model padded cells with them ("Done      done").
CELL_SAFE = ExcludingConstraint("table-cell", frozenset("|\\\n\r\ufffd"), single_spaces=True)
# A text column none of whose cells holds a digit is a column of words (names, decisions):
# its empty cells get words too, not the digit-and-dash runs a small model copies from a date
# column beside it ("EGER02--0--00").
DIGITS = "0123456789"
CELL_WORDS = ExcludingConstraint(
    "table-cell-words", CELL_SAFE.banned | frozenset(DIGITS), single_spaces=True
)
# Marks a text cell may use only when a filled cell of its column does.
CELL_MARKS = "-_=*#~+<>[]{}():;/"
CELL_LEAD = " "  # what a text cell's first token starts with (see TableProblem.writes_space)
NUMBER = re.compile(r"-?[0-9]+([.,][0-9]+)*")
DATE = STRICT["date"]  # ISO dates, as the JSON format checks them
MAX_CHOICES = 6  # a column with more distinct values than this is free text
TEXT_TOKENS = 4  # a text cell's budget at least (a column with no value yet gets this)
TEXT_SLACK = 1.5  # a text cell's budget over the column's longest cell, in tokens


@dataclass
class TableProblem:
    """A table as a slot problem: slots keyed by (row, column), rows from 1."""

    markdown: MarkdownTable  # the Markdown table (``tokens`` is the tokenizer's table)
    chosen: tuple[CellKey, ...]
    add_rows: int
    tokens: TokenTable
    budget: int

    document: str = ""  # the whole document: its dates set a new date column's era

    def __post_init__(self) -> None:
        self.kinds = [column_kind(self.markdown, c) for c in range(1, self.markdown.columns + 1)]
        self.plan = plan_cells(self.markdown, self.chosen, self.add_rows, self.document)
        self.open = tuple(k for k in self.chosen if self.plan.cells[k].how != "computed")
        self.slots: dict[int, tuple[Slot, tuple[str, ...] | None]] = {}
        self.shapes: dict[int, Shape] = {}
        self.choices: dict[CellKey, tuple[Slot, tuple[str, ...] | None]] = {}
        for key in self.open:
            cell = self.plan.cells[key]
            needed = positions(cell.shape)
            if cell.how == "choice":
                slot, firsts = literal_slot(cell.texts, self.tokens)
                self.choices[key] = (replace(slot, min_tokens=1), firsts)
                needed = slot.budget
            if self.budget < needed:
                raise BadRequest(
                    f"The cell budget ({self.budget} tokens) cannot hold this column's "
                    f"values, which need {needed}."
                )
        for col in sorted({col for key in self.open for col in [key[1]] if self.is_text(key)}):
            self.slots[col] = self.column_slot(*self.kinds[col - 1])
            self.shapes[col] = self.column_shape(col, *self.kinds[col - 1])

    def is_text(self, key: CellKey) -> bool:
        return self.plan.cells[key].how == "text"

    def cell_segments(self, key: CellKey) -> list[Segment]:
        """The plan segments of an open cell: its choice, its shape's parts, or its column's."""
        cell = self.plan.cells[key]
        if cell.how == "choice":
            return [self.choices[key][0]]
        if cell.how == "shape" and self.spellable(cell.shape):
            return [part_segment(p) for p in cell.shape]
        if cell.how == "shape":
            return [Slot(charset("number", "0123456789.,-:/"), self.budget, min_tokens=1)]
        shape = self.shapes.get(key[1])
        return [part_segment(p) for p in shape] if shape else [self.slots[key[1]][0]]

    def spellable(self, shape: Shape) -> bool:
        filler = self.tokens.specials.filler_id
        runs = [p for p in shape if isinstance(p, Run)]
        return all(self.tokens.allowed_ids(r.constraint) - {filler} for r in runs)

    def column_shape(self, col: int, kind: str, values: tuple[str, ...]) -> Shape:
        """Dates take the date's shape; text a whole word first (named by the header), within
        about the column's longest cell; other columns their plain slot."""
        if kind == "date":
            shape = format_shape("date")
        elif kind == "text":
            longest = max((len(self.tokens.encode(v)) for v in values), default=TEXT_TOKENS)
            budget = min(self.budget, max(TEXT_TOKENS, math.ceil(TEXT_SLACK * longest)))
            header = self.markdown.header.cell(col)
            shape = word_shape(header, budget, text_safe(values), lead=CELL_LEAD)
        else:
            return ()
        filler = self.tokens.specials.filler_id
        runs = [p for p in shape if isinstance(p, Run)]
        spellable = all(self.tokens.allowed_ids(r.constraint) - {filler} for r in runs)
        return shape if spellable else ()

    def column_slot(
        self, kind: str, values: tuple[str, ...]
    ) -> tuple[Slot, tuple[str, ...] | None]:
        if kind == "choice":
            slot, firsts = literal_slot(values, self.tokens)
            slot = replace(slot, min_tokens=1)  # a chosen cell is filled, never left empty
            needed = slot.budget
        else:
            constraint = {
                "number": charset("number", "0123456789.,-"),
                "date": charset("date", "0123456789-"),
            }
            slot = Slot(constraint.get(kind, text_safe(values)), self.budget, min_tokens=1)
            firsts = None
            needed = max((len(self.tokens.encode(v)) for v in values), default=1)
        if self.budget < needed:
            raise BadRequest(
                f"The cell budget ({self.budget} tokens) cannot hold this column's values, "
                f"which need {needed}."
            )
        return slot, firsts

    def layout(self, accepted: dict[Any, Any]) -> tuple[tuple[Segment, ...], tuple[Any, ...]]:
        """Segments (locked text merged) and each one's open cell (``None``: locked)."""
        out: list[Segment] = []
        owners: list[CellKey | None] = []
        for text, key in self.pieces(accepted):
            if key is not None and key not in accepted:
                for segment in self.cell_segments(key):
                    out.append(segment)
                    owners.append(key)
            elif out and isinstance(out[-1], Locked) and owners[-1] is None:
                out[-1] = Locked(out[-1].text + text)
            else:
                out.append(Locked(text))
                owners.append(None)
        return tuple(out), tuple(owners)

    def pieces(self, values: dict[Any, Any]) -> list[tuple[str, CellKey | None]]:
        """The table as (text, cell) pieces: locked text has no cell; filled cells hold their
        value, open ones nothing."""
        t = self.markdown
        out: list[tuple[str, CellKey | None]] = [(t.header.line + "\n" + t.delimiter.line, None)]
        open_cells = set(self.open) - set(values)
        for number, row in enumerate(t.body, start=1):
            out.append(("\n", None))
            cursor = 0
            for col, (a, b) in enumerate(row.cells, start=1):
                key = (number, col)
                if key not in values and key not in open_cells:
                    continue
                lead, trail = self.padding(row.line[a:b], col)
                if key in open_cells and lead and self.writes_space(col):
                    lead -= 1  # the cell's first token carries it
                out.append((row.line[cursor : a + lead], None))
                out.append((values.get(key, ""), key))
                cursor = b - trail
            out.append((row.line[cursor:], None))
        for extra in range(len(t.body) + 1, len(t.body) + self.add_rows + 1):
            out.append(("\n|", None))
            for col in range(1, t.columns + 1):
                key = (extra, col)
                open_ = key in open_cells and self.writes_space(col)
                out.append(("" if open_ else " ", None))
                owned = key in values or key in open_cells  # a computed cell waits locked
                out.append((values.get(key, ""), key if owned else None))
                out.append((" |", None))
        return out

    def padding(self, raw: str, col: int) -> tuple[int, int]:
        """A cell's locked spaces: its own, or for an empty cell the column's usual ones (an
        empty "| |" would otherwise give "| France|")."""
        if raw.strip():
            return cell_padding(raw)
        filled = [
            cell_padding(row.line[slice(*row.cells[col - 1])])
            for row in self.markdown.body
            if row.cell(col)
        ]
        usual = max(set(filled), key=filled.count) if filled else (1, 1)
        room = len(raw)
        return (min(usual[0], max(room, 1)), min(usual[1], max(room - usual[0], 1)))

    def writes_space(self, col: int) -> bool:
        """Whether an open cell of ``col`` starts with its own space: a shaped text column's
        first word is " Marco", as the model read table cells in training. Locked before the
        cell, the space came out as a lone token and the cell then began with a word piece
        ("| urn. . . .", "| urnace. .")."""
        return bool(self.shapes.get(col)) and self.kinds[col - 1][0] == "text"

    def read(self, key: Any, texts: list[str]) -> Any:
        text = "".join(texts).strip()
        cell = self.plan.cells[key]
        if cell.how == "choice":
            firsts = self.choices[key][1]
            if firsts is not None:
                return cell.texts[firsts.index(text)] if text in firsts else NOTHING
            return text if text in cell.texts else NOTHING
        if cell.how == "shape":
            found = fits(self.plan.columns[key[1] - 1], text, cell.span)
            return NOTHING if found is None else found
        kind, values = self.kinds[key[1] - 1]
        return text if text and fits_kind(kind, values, text) else NOTHING

    def default(self, key: Any, taken: list[Any]) -> Any:
        """A value of the cell's kind inside its span (a choice's first unused option), else
        the cell's original text."""
        cell = self.plan.cells[key]
        if cell.how == "shape":
            column = self.plan.columns[key[1] - 1]
            return column_default(column, key[0] - 1, self.plan.rows, cell.span)
        if cell.how == "choice":
            return next((t for t in cell.texts if t not in taken), cell.texts[0])
        return self.original(key)

    def original(self, key: CellKey) -> str:
        row, col = key
        return self.markdown.body[row - 1].cell(col) if row <= len(self.markdown.body) else ""

    def text(self, values: dict[Any, Any]) -> str:
        return "".join(text for text, _ in self.pieces(values))


def part_segment(part: Part) -> Segment:
    """A shape's part in a cell: its locked characters, or a slot for an open run."""
    if isinstance(part, str):
        return Locked(part)
    return Slot(part.constraint, part.budget, min_tokens=part.least, soft_min=part.soft)


def cell_padding(raw: str) -> tuple[int, int]:
    """Spaces kept locked before and after a cell's content (one, for an empty cell)."""
    if not raw.strip():
        return (1 if raw else 0), (1 if len(raw) > 1 else 0)
    return len(raw) - len(raw.lstrip()), len(raw) - len(raw.rstrip())


def column_kind(markdown: MarkdownTable, col: int) -> tuple[str, tuple[str, ...]]:
    """number, date, choice (a few repeated values) or text, from the column's filled cells."""
    filled = [row.cell(col) for row in markdown.body if row.cell(col)]
    distinct = tuple(dict.fromkeys(filled))
    if filled and all(NUMBER.fullmatch(v) for v in filled):
        return "number", distinct
    if filled and all(DATE.fullmatch(v) and is_date(v) for v in filled):
        return "date", distinct
    if 2 <= len(distinct) <= MAX_CHOICES and len(filled) > len(distinct):
        return "choice", distinct
    return "text", distinct


def text_safe(values: tuple[str, ...]) -> ExcludingConstraint:
    """What a text cell may hold: no digit where the column's filled cells have none, and no
    mark of :data:`CELL_MARKS` that none of them uses (the model copied the separator row's
    dashes into cells: "beta------- done", "urn0--0--00")."""
    if not values:
        return CELL_SAFE
    used = {c for v in values for c in v}
    banned = set(CELL_SAFE.banned) | (set(CELL_MARKS) - used)
    if not used & set(DIGITS):
        return ExcludingConstraint(
            CELL_WORDS.name, frozenset(banned | set(DIGITS)), single_spaces=True
        )
    return ExcludingConstraint("table-cell-text", frozenset(banned), single_spaces=True)


def is_date(text: str) -> bool:
    try:
        datetime.date.fromisoformat(text)
    except ValueError:
        return False
    return True


def fits_kind(kind: str, values: tuple[str, ...], text: str) -> bool:
    if kind == "number":
        return NUMBER.fullmatch(text) is not None
    if kind == "date":
        return DATE.fullmatch(text) is not None and is_date(text)
    if kind == "choice":
        return text in values
    return "|" not in text and "\n" not in text


def check_table(problem: TableProblem, text: str) -> None:
    """Re-parse the filled table: same shape, header and untouched cells byte-identical."""
    found = find_tables(text)
    old = problem.markdown
    if len(found) != 1 or found[0].span != Span(0, len(text)):
        raise InvariantViolation("The filled table no longer parses as one table.")
    new = found[0]
    if new.header.line != old.header.line or new.delimiter.line != old.delimiter.line:
        raise InvariantViolation("The table's header or delimiter row changed.")
    if len(new.body) != len(old.body) + problem.add_rows or new.columns != old.columns:
        raise InvariantViolation("The filled table has different rows or columns.")
    chosen = set(problem.chosen)
    for number, row in enumerate(old.body, start=1):
        for col in range(1, old.columns + 1):
            if (number, col) not in chosen and new.body[number - 1].cell(col) != row.cell(col):
                raise InvariantViolation(f"Cell {number},{col} changed but was not chosen.")


def run_table(
    backend: Backend,
    fill: Fill,
    cancelled: Callable[[], bool] = never,
    clock: Callable[[], float] = time.perf_counter,
) -> FillEvents:
    """Fill the table at ``fill.target``; frames, then one :class:`Filled` or ``Cancelled``."""
    run = RunContext.starting(fill.request_id, cancelled, clock)
    problem = table_problem(fill, tokens=backend.table)

    def finish(values: dict[Any, Any], stats: SlotStats, run: RunContext) -> Filled:
        notes = tuple(problem.plan.complete(values))
        text = checked_text(problem, values, stats)
        filled = table_filled(fill, problem, values, text, stats, run.elapsed())
        return replace(filled, proposal=replace(filled.proposal, notes=notes))

    layout = Layout(fill.text, problem.markdown.span, "Fill in the table")
    yield from fill_events(backend, fill, problem, layout, finish, run)


def table_problem(fill: Fill, tokens: TokenTable) -> TableProblem:
    markdown, chosen = chosen_cells(fill)
    return TableProblem(markdown, chosen, fill.add_rows, tokens, fill.cell_tokens, fill.text)


def checked_text(problem: TableProblem, values: dict[Any, Any], stats: SlotStats) -> str:
    """The filled table if it re-parses right; cells reverted one by one if it does not."""
    text = problem.text(values)
    try:
        check_table(problem, text)
    except InvariantViolation:
        for key in list(values):
            values[key] = problem.original(key)
            stats.repaired.append(str(key))
        text = problem.text(values)
        check_table(problem, text)
    return text


def table_filled(
    fill: Fill,
    problem: TableProblem,
    values: dict[Any, Any],
    text: str,
    stats: SlotStats,
    elapsed_s: float,
) -> Filled:
    parts = [(t, k) for t, k in problem.pieces(values)]
    segments = tuple(SegmentText(t, locked=k is None) for t, k in parts if t)
    locks = tuple(t for t, k in parts if k is None and t.strip())
    span = problem.markdown.span
    proposal = Proposal(fill.request_id, span, text, segments, locks, stats.metrics(elapsed_s))
    return Filled(proposal, text, stats)
