"""The days and periods a text writes, in words and in numbers, in the order it writes them,
each yearless day in the year a reader gives it.

A day written without its year takes the year written nearest it (:mod:`.periods`), and the
year of a date written in numbers counts (:mod:`.numeric_dates`); but a yearless day more than
half a year before the dated day written before it falls the next year, unless its clause is
told in the past: an order placed in late December that may be sent back "until 12 January"
means the January after. :mod:`.stated` and :mod:`.told_days` read the same days from here.
Pure functions over text.
"""

from __future__ import annotations

import datetime as dt
import re

from dateutil.relativedelta import relativedelta

from engine.structured.holiday_days import holiday_phrases
from engine.structured.numeric_dates import (
    NUMERIC_SPAN,
    full_year,
    numeric_matches,
    numeric_phrases,
    numeric_span_phrases,
)
from engine.structured.other_days import PAST, Phrase, clause_tense, clauses
from engine.structured.periods import phrase_spans

DAYS_PER_YEAR = 365
# A phrase that writes its year: in four digits, or two after a numeric date's day and month
WITH_YEAR = re.compile(r"\b(?:1[89]|20)\d\d\b|\d[/.]\d\d\b")


def written_phrases(text: str) -> list[Phrase]:
    """The days and periods ``text``'s phrases write (:func:`.periods.phrase_spans`), with
    the ranges and days it writes in numbers where it shows their order ("7-9.6.2027",
    "14/10/2026": :mod:`.stated`). The year of a date written in numbers is no period of its
    own, even where the order is unknown ("03/04/2026" is no day read, not all of 2026), but
    it dates the phrases around it as a written year does."""
    ranges = numeric_span_phrases(text)
    days = [d for d in numeric_phrases(text) if not any(a <= d[0] < b for a, b, _ in ranges)]
    numeric: list[Phrase] = [*ranges, *days]
    matches = (*NUMERIC_SPAN.finditer(text), *numeric_matches(text))
    written = sorted((m.start(), m.end(), full_year(m["y"])) for m in matches)
    rest = phrase_spans(text, tuple(written))
    spans = sorted([*rest, *numeric], key=lambda found: found[0])
    return forward_years(text, holiday_phrases(text, spans))


def forward_years(text: str, spans: list[Phrase]) -> list[Phrase]:
    """Each day written without its year that falls more than half a year before the last
    day written with one before it, moved to the next year, unless its clause is told in the
    past: "receipt dated 23 December 2027 … exchanges until 15 January" ends on 15 January
    2028 (the year written nearest is the receipt's)."""
    moved: list[Phrase] = []
    dated: float | None = None  # the last single day written with its year
    for start, end, what in spans:
        if isinstance(what, float):
            if WITH_YEAR.search(text, start, end):
                dated = what
            elif dated is not None:
                what = year_on(text, start, what, dated)
        moved.append((start, end, what))
    return moved


def year_on(text: str, start: int, day: float, dated: float) -> float:
    """A yearless ``day`` written at ``start``, a year later when it falls more than half a
    year before the ``dated`` day written before it and its clause is not told in the past."""
    if dated - day <= DAYS_PER_YEAR / 2 or told_past(text, start):
        return day
    return float((dt.date.fromordinal(int(day)) + relativedelta(years=1)).toordinal())


def told_past(text: str, at: int) -> bool:
    """Whether the clause holding ``at`` is told in the past (:func:`.other_days.clause_tense`)."""
    start, end = next((s, e) for s, e in clauses(text) if s <= at <= e)
    return clause_tense(text[start:end]) == PAST
