"""Arithmetic a table already obeys, found and kept: totals, differences, products.

A *line* is a numeric column (its positions are the rows) or a labelled numeric row (its
positions are the numeric columns). :func:`detect` finds, for each line, whether it is the sum
of two or more other lines, the difference of two, or the product of two, at every position
where all of them are filled: at least ``MIN_EVIDENCE`` positions and none against, or one
when the line's label names a result ("Total", "Margin") and its terms are all the other
lines. Small numbers agree by chance, and many relations are tried at once, so positions are
also weighed (:func:`chance`): a relation is kept only when the coincidences expected over
every relation tried on the axis stay below ``CHANCE_LIMIT``. Were the lines unrelated, the
relation would hold at a position only where one line happens to land on the one value the
others leave it, so the chance there is that line's tolerance over the width its values spread
across, for the line that spreads widest (a column of years or of constant 72s is no evidence by
its size, a widely varying term held exactly in check is); a position where a term is the
identity (``+ 0``, ``× 1``) or the result is zero is no evidence. Of relations over the same
lines the one whose target is named as a result, else the last line, is kept (Margin =
Revenue − Costs, not Revenue = Margin + Costs).

:func:`solve` then fills a relation's open cells by arithmetic: the target from its terms, or
the one open term from the target and the others; the model writes the rest.
:func:`table_relations` makes a Markdown table's numeric columns and labelled rows into lines.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

from engine.structured import columns
from engine.structured.columns import Column, names
from engine.structured.markdown import MarkdownTable

MIN_EVIDENCE = 2  # positions where a relation holds, with no label to support it
MAX_TERMS = 4  # a sum of more lines than this is not looked for (but "all others" is)
KINDS = ("sum", "difference", "product")
# Coincidences expected over all the relations tried on an axis above which agreement is taken
# for chance: small counts (2 + 3 = 5 twice among dozens of combinations) are not evidence.
CHANCE_LIMIT = 0.05
IDENTITY = {"sum": 0.0, "difference": 0.0, "product": 1.0}  # a term that leaves the other as is


@dataclass(frozen=True)
class Line:
    """A numeric row or column: its label and its value at each position (nan: empty)."""

    label: str
    values: tuple[float, ...]
    decimals: int


@dataclass(frozen=True)
class Relation:
    """``target`` = sum / difference / product of ``terms`` (indices into the axis's lines)."""

    kind: str
    axis: str  # "row" or "column": what the lines are
    target: int
    terms: tuple[int, ...]

    def value(self, terms: list[float]) -> float:
        if self.kind == "sum":
            return math.fsum(terms)
        if self.kind == "difference":
            return terms[0] - terms[1]
        return terms[0] * terms[1]

    def solve_term(self, index: int, target: float, terms: list[float]) -> float | None:
        """The value term ``index`` must have for the relation to hold (``None``: none)."""
        others = [t for i, t in enumerate(terms) if i != index]
        if self.kind == "sum":
            return target - math.fsum(others)
        if self.kind == "difference":
            return target + others[0] if index == 0 else terms[0] - target
        return target / others[0] if others[0] else None


def holds(relation: Relation, lines: list[Line], position: int) -> bool | None:
    """Whether it holds at ``position`` (``None``: a value there is missing)."""
    target = lines[relation.target]
    values = [lines[t].values[position] for t in relation.terms]
    expected = target.values[position]
    if math.isnan(expected) or any(math.isnan(v) for v in values):
        return None
    tolerance = 0.5 * 10.0**-target.decimals + 1e-9
    return abs(relation.value(values) - expected) <= tolerance


def candidates(axis: str, lines: list[Line], target: int) -> list[Relation]:
    """Every relation worth testing with ``target`` as its result."""
    others = [i for i in range(len(lines)) if i != target]
    found = [
        Relation("difference", axis, target, pair) for pair in itertools.permutations(others, 2)
    ]
    found += [Relation("product", axis, target, pair) for pair in itertools.combinations(others, 2)]
    for size in range(2, min(MAX_TERMS, len(others)) + 1):
        found += [Relation("sum", axis, target, c) for c in itertools.combinations(others, size)]
    if len(others) > MAX_TERMS:
        found.append(Relation("sum", axis, target, tuple(others)))
    return found


def width(line: Line) -> float:
    """How widely the line's values spread: their range, widened for how few they are (the
    range of ``n`` draws covers about ``(n - 1) / (n + 1)`` of what they are drawn from); a
    line that never varies says nothing of its spread, so its size stands in for it."""
    filled = [v for v in line.values if not math.isnan(v)]
    if len(set(filled)) < 2:
        return max((abs(v) for v in filled), default=0.0)
    return (max(filled) - min(filled)) * (len(filled) + 1) / (len(filled) - 1)


def tolerance(relation: Relation, lines: list[Line], member: int, position: int) -> float:
    """The window ``member``'s value must land in for the relation to hold at ``position``:
    the result's unit (seen through a product's other factor), or its own unit if coarser."""
    target = lines[relation.target]
    unit = 10.0**-target.decimals
    if relation.kind == "product" and member != relation.target:
        other = next(t for t in relation.terms if t != member)
        unit /= abs(lines[other].values[position]) or 1.0
    return max(unit, 10.0 ** -lines[member].decimals)


def chance(relation: Relation, lines: list[Line], position: int) -> float:
    """How likely the relation holds at ``position`` by coincidence (1: a zero result, or a
    term that is the identity): its window over the spread of the line that varies most."""
    expected = lines[relation.target].values[position]
    terms = [lines[t].values[position] for t in relation.terms]
    if expected == 0 or IDENTITY[relation.kind] in terms:
        return 1.0
    windows = {
        m: tolerance(relation, lines, m, position) for m in (relation.target, *relation.terms)
    }
    return min(window / (width(lines[m]) + window) for m, window in windows.items())


def supported(relation: Relation, lines: list[Line], tried: int = 1) -> bool:
    """Enough positions agree and none disagree (one is enough for a named total of all), and
    their agreement is more than chance over the ``tried`` relations tested beside it; a
    tally's sum (Played = Won + Drawn + Lost) needs only the positions, as its label already
    says it is one."""
    results = [holds(relation, lines, p) for p in range(len(lines[0].values))]
    if False in results:
        return False
    agreeing = [p for p, held in enumerate(results) if held]
    label = lines[relation.target].label
    everything = len(relation.terms) == len(lines) - 1
    if agreeing and everything and names(label, "result"):
        return True
    if relation.kind == "sum" and names(label, "tally") and len(agreeing) >= MIN_EVIDENCE:
        return True  # the label says what it is: its small counts need not beat chance
    odds = math.prod(chance(relation, lines, p) for p in agreeing)
    return len(agreeing) >= MIN_EVIDENCE and tried * odds <= CHANCE_LIMIT


def tested_for(axis: str, lines: list[Line], target: int) -> list[Relation]:
    """The relations tried with ``target`` as result: only sums for a line named as a tally
    of the others (games played, votes cast: won + drawn + lost, yes + no)."""
    found = candidates(axis, lines, target)
    if names(lines[target].label, "tally"):
        return [r for r in found if r.kind == "sum"]
    return found


def detect(axis: str, lines: list[Line]) -> list[Relation]:
    """The relations the lines obey, one per set of lines, no line the target of two."""
    tested = [r for t in range(len(lines)) for r in tested_for(axis, lines, t)]
    found = [r for r in tested if supported(r, lines, len(tested))]
    found.sort(key=lambda r: preference(r, lines))
    kept: list[Relation] = []
    for relation in found:
        members = {relation.target, *relation.terms}
        clash = any(members == {k.target, *k.terms} or relation.target == k.target for k in kept)
        if not clash:
            kept.append(relation)
    return kept


def preference(relation: Relation, lines: list[Line]) -> tuple[int, int, int, int]:
    """A result-named target first, then fewer terms, then the later target; of relations
    over the same lines, the kind the target's name says (a "Total" adds, a "Margin"
    subtracts: 2 × 2 is 2 + 2 too, and one place cannot tell them apart)."""
    label = lines[relation.target].label
    said = "sum" if names(label, "tally") or names(label, "sum_result") else ""
    said = said or ("difference" if names(label, "difference_result") else "")
    named = names(label, "result")
    kind = 0 if relation.kind == said else 1
    return (0 if named else 1, len(relation.terms), -relation.target, kind)


Known = Callable[[int, int], float | None]  # (line, position) → the value there, or None


def solve(relation: Relation, known: Known, positions: int) -> dict[tuple[int, int], float]:
    """Values the relation determines at positions with exactly one value missing."""
    found: dict[tuple[int, int], float] = {}
    for position in range(positions):
        target = known(relation.target, position)
        terms = [known(t, position) for t in relation.terms]
        missing = [i for i, t in enumerate(terms) if t is None]
        if target is None and not missing:
            found[(relation.target, position)] = relation.value([t for t in terms if t is not None])
        elif target is not None and len(missing) == 1:
            filled = [0.0 if t is None else t for t in terms]
            value = relation.solve_term(missing[0], target, filled)
            if value is not None:
                found[(relation.terms[missing[0]], position)] = value
    return found


def table_relations(
    markdown: MarkdownTable, profiles: list[Column], texts: list[list[str]]
) -> list[tuple[Relation, list[int]]]:
    """The relations of the numeric columns and of the labelled rows across the numeric
    columns; a year column found in a column relation becomes a number column (``profiles``
    is updated), since what adds up is a quantity, not a date."""
    lined = [c for c, p in enumerate(profiles, start=1) if may_be_line(c, p, texts[c - 1])]
    lines = [
        Line(profiles[c - 1].header, values(texts[c - 1]), profiles[c - 1].decimals) for c in lined
    ]
    found = [(r, lined) for r in detect("column", lines)]
    for relation, members in found:
        for c in (members[i] for i in (relation.target, *relation.terms)):
            if profiles[c - 1].kind == "year":
                profiles[c - 1] = columns.as_number(profiles[c - 1], texts[c - 1])
    numeric = [c for c, p in enumerate(profiles, start=1) if p.kind == "number" and c > 1]
    labelled = [r for r in range(1, len(markdown.body) + 1) if markdown.body[r - 1].cell(1)]
    if profiles[0].kind != "number" and len(numeric) >= 2 and len(labelled) >= 3:
        rows = []
        for r in labelled:
            cells = [texts[c - 1][r - 1] for c in numeric]
            places = max((len(v.split(".")[1]) for v in cells if "." in v), default=0)
            rows.append(Line(markdown.body[r - 1].cell(1), values(cells), places))
        found += [(rel, labelled) for rel in detect("row", rows)]
    return found


def may_be_line(col: int, column: Column, cells: list[str]) -> bool:
    """Whether a column may take part in a column relation: a number column, or four-digit
    numbers read as years (1215 seconds, 2507 votes); the first column only when its numbers
    do not just count the rows up (1, 2, 3 or 2021, 2022: labels, not quantities)."""
    if column.kind not in ("number", "year"):
        return False
    filled = [v for v in values(cells) if not math.isnan(v)]
    return col > 1 or any(b <= a for a, b in itertools.pairwise(filled))


def values(cells: list[str]) -> tuple[float, ...]:
    """Each cell's number (nan: empty, or not a number)."""
    return tuple(float(v) if columns.NUMBER.fullmatch(v) else math.nan for v in cells)
