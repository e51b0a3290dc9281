"""The ages a document gives a person and the birth days they allow: "aged 9", "9 years old",
"a ten-year-old" (in years, counted on the document's latest date by
:func:`engine.structured.json_values.document_births`), and a baby's or a puppy's age in weeks
or months ("six weeks old"), counted on the day its own sentence writes; and the birth a
document writes outright ("born 28 February 2028", "DOB 14.2.1988"; not "arrived on", said
of a birth and of a newcomer alike). Words from ``period_words.json`` (``ages``). Pure
functions over text.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from functools import lru_cache

from dateutil.relativedelta import relativedelta

from engine.structured.other_days import phrase_days
from engine.structured.periods import Span, alternation, in_digits, listed, phrases_at, words
from engine.structured.written_days import written_phrases

YOUNG_WEEK = "week"  # of the "young_units": weeks, else months, counted on the calendar
SENTENCE_STOP = re.compile(r"[.!?](?:\s+|$)")  # where a sentence ends, for an age's day
OLDEST = 130  # an age above this is not a person's ("aged 999" is a typo or a code)
# A birth word and the day it dates: "born 28 February", "date of birth: 14 Feb 1988", "born
# early on 3 May" (two words between at most).
BIRTH_REACH = 2
WORD = re.compile(r"[A-Za-z0-9'.]+")


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


def told_births(document: str) -> tuple[Span, ...]:
    """The birth days ``document`` writes (:func:`read_births`)."""
    return tuple(dict.fromkeys(span for span, _ in read_births(document)))


def read_births(document: str) -> tuple[tuple[Span, str], ...]:
    """The birth days ``document`` writes, each with how it was counted ("" when written
    outright): each day written at most :data:`BIRTH_REACH` words after a ``birth_cues``
    word, in its sentence, or after a ``turning_words`` word and an age ("turns 5 on 3 March
    2029": born 3 March 2024). A birth the text states outright is the birth date itself,
    where an age only bounds one."""
    return tuple((span, how) for _, span, how in births_at(in_digits(document)))


def birth_phrases(document: str) -> list[tuple[int, int]]:
    """Where the phrases that write a birth day (:func:`read_births`) start and end: no day
    of what the document is about ("Aiko (born 9 Nov 2009) stays from 1 September")."""
    return [phrase for phrase, _, how in births_at(document) if not how]


@lru_cache(maxsize=16)
def births_at(text: str) -> tuple[tuple[tuple[int, int], Span, str], ...]:
    """:func:`read_births`' births in ``text`` as it is, each with where its phrase starts
    and ends."""
    said = words()["ages"]
    assert isinstance(said, dict)
    cues = re.compile(rf"(?i)\b(?:{alternation(said['birth_cues'])})(?![A-Za-z])")
    turns = re.compile(rf"(?i)\b(?:{alternation(listed('turning_words'))})\s+(?P<age>\d{{1,3}})\b")
    found: list[tuple[tuple[int, int], Span, str]] = []
    for start, end, what in written_phrases(text):
        stop = max((m.end() for m in SENTENCE_STOP.finditer(text, 0, start)), default=0)
        cue = [(m.end(), 0) for m in cues.finditer(text, stop, start)]
        cue += [(m.end(), int(m["age"])) for m in turns.finditer(text, stop, start)]
        near = max(cue, default=None)
        if near and len(WORD.findall(text, near[0], start)) <= BIRTH_REACH and near[1] <= OLDEST:
            dates = [dt.date.fromordinal(int(d)) for d in phrase_days(what)]
            days = [float(years_before(d, near[1]).toordinal()) for d in dates]
            how = f"{near[1]} years before {dates[0].isoformat()}" if near[1] else ""
            found.append(((start, end), (days[0], days[-1]), how))
    return tuple(found)


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
