"""The ages a document gives a person and the birth days they allow: "aged 9", "9 years old",
"a ten-year-old" (in years, counted on the document's latest date by
:func:`engine.structured.json_values.document_births`), and a baby's or a puppy's age in weeks
or months ("six weeks old"), counted on the day its own sentence writes. Words from
``period_words.json`` (``ages``). Pure functions over text.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from functools import lru_cache

from dateutil.relativedelta import relativedelta

from engine.structured.periods import Span, alternation, in_digits, phrases_at, words

YOUNG_WEEK = "week"  # of the "young_units": weeks, else months, counted on the calendar
SENTENCE_STOP = re.compile(r"[.!?](?:\s+|$)")  # where a sentence ends, for an age's day
OLDEST = 130  # an age above this is not a person's ("aged 999" is a typo or a code)


@lru_cache(maxsize=16)
def ages(document: str) -> tuple[int, ...]:
    """The ages in years ``document`` gives a person ("aged 9", "9 years old", "34-year-old"),
    up to ``OLDEST``."""
    said = words()["ages"]
    assert isinstance(said, dict)
    before = alternation([w.strip() for w in said["before"]])
    after = alternation([w.strip("-") for w in said["after"]])
    pattern = rf"(?i:\b(?:{before})\s+(?P<a>\d{{1,3}})\b|\b(?P<b>\d{{1,3}})(?:\s+|-)(?:{after})\b)"
    found = (int(m["a"] or m["b"]) for m in re.finditer(pattern, in_digits(document)))
    return tuple(age for age in found if age <= OLDEST)


def young_births(document: str) -> list[Span]:
    """The birth days an age in weeks or months gives ("when he was six weeks old" in a
    sentence that writes 9 June 2027: 22 to 28 April), counted on the one day its own
    sentence writes; none for an age whose sentence writes no day or several."""
    said = words()["ages"]
    assert isinstance(said, dict)
    units, after = alternation(said["young_units"]), alternation(said["young_after"])
    text = in_digits(document)
    found = []
    for match in re.finditer(
        rf"(?i)\b(?P<n>\d{{1,2}})\s+(?P<unit>{units})s?\s+(?:{after})\b", text
    ):
        start = max((m.end() for m in SENTENCE_STOP.finditer(text, 0, match.start())), default=0)
        stop = next((m.start() for m in SENTENCE_STOP.finditer(text, match.end())), len(text))
        days = [what for _, what in phrases_at(text[start:stop]) if isinstance(what, float)]
        if len(days) == 1:
            found.append(young_span(int(match["n"]), match["unit"].lower(), days[0]))
    return found


def young_span(count: int, unit: str, on: float) -> Span:
    """The birth days of someone ``count`` weeks or months old on day ``on``: after the day
    one unit more before, up to the day ``count`` units before."""
    day = dt.date.fromordinal(int(on))
    step = relativedelta(weeks=1) if unit == YOUNG_WEEK else relativedelta(months=1)
    youngest = day - step * count
    oldest = day - step * (count + 1) + dt.timedelta(days=1)
    return float(oldest.toordinal()), float(youngest.toordinal())


def birth_span(age: int, on: float) -> Span:
    """The birth days of someone ``age`` years old on day ``on``: after the day ``age + 1``
    years before, up to the day ``age`` years before."""
    day = dt.date.fromordinal(int(on))
    youngest = years_before(day, age)
    oldest = min(years_before(day, age + 1) + dt.timedelta(days=1), youngest)
    return float(oldest.toordinal()), float(youngest.toordinal())


def years_before(day: dt.date, years: int) -> dt.date:
    """The same day ``years`` earlier (29 February falls on the 28th in a common year), or
    the first year's when that would come before the calendar's first."""
    year = max(day.year - years, dt.MINYEAR)
    return day.replace(year=year, day=min(day.day, calendar.monthrange(year, day.month)[1]))
