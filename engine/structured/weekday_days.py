"""A day a document names only by its weekday, counted from the day told before it.

"Can you mind the dog the weekend of 20-21 June? We'll bring him the day before and fetch him
Sunday evening." A reader dates the fetching on 21 June: a weekday written alone (no day of
the month, no "every", not plural) is the first such weekday on or after the last day told
before it, and a range of two ("the roofers can come Tuesday to Thursday" in a note of Friday
2 July) the days from the first to the second. After a ``past_weekday_leads`` word ("last
Monday") it is the latest such weekday before that day instead, and after a ``duration_next``
word ("next Friday") the first after it. A weekday the document says
recurs is a series' (:mod:`.series`), one inside a day it writes ("Tuesday 13 January") is
that day's (:func:`engine.structured.told_days.told_days` skips phrases that overlap one),
and "every Sunday" or "a Saturday in September" names no one day; "the same day next week" is
the day a week after the one told before it, and "tomorrow" the day after the document's own.
Readers for
:mod:`.told_days`, in the shape of :mod:`.day_readers`'. Pure functions over text.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache

from engine.structured.day_readers import Told, anchor, bounds, iso, moved, own_day
from engine.structured.length_days import writes_day
from engine.structured.month_days import recurring, references, unit_step
from engine.structured.periods import alternation, listed
from engine.structured.series import recurs
from engine.structured.series_counts import WEEKDAYS
from engine.structured.written_days import written_phrases

DAYS_PER_WEEK = 7
# A weekday the day of its month follows is part of a day the document writes ("Tuesday 13
# January", "Saturday the 9th"), which the written day's own span may not hold; one "of" a
# week or a month is counted there (:mod:`.schedule_days`, :mod:`.day_readers`).
DAY_AFTER = r",?\s+(?:the\s+)?\d|\s+of\b"  # "the Friday of week 12" is counted by its week


@cache
def lone_weekday_pattern() -> re.Pattern[str]:
    """A weekday on its own ("Sunday night", "on Friday"), or two joined as a range
    ("Monday to Wednesday"), with the word before it."""
    days, joins = alternation(WEEKDAYS), alternation(listed("weekday_range_joins"))
    week = rf"\s+(?:of\s+)?(?P<week>{alternation(references('week'))})\b"
    return re.compile(
        rf"(?i)(?:\b(?P<lead>[a-z]+)\s+)?\b(?P<weekday>{days})\b(?:{week}|(?!s\b|'|{DAY_AFTER}))"
        rf"(?:\s*(?:{joins})\s*(?P<until>{days})\b(?!s\b))?"
    )


def lone_weekday(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | tuple[float, float, str] | None:
    """The weekday (or range) on or after the last day told before it (a weekday of a period
    under a week told just before it, that period's own), or, after a ``past_weekday_leads``
    word, the latest one before that day; ``None`` when no day was told before it, or the
    document says the weekday recurs."""
    base = anchor(before)
    name = match["weekday"].lower()
    lead = (match["lead"] or "").lower()
    # "the Tuesday of that week" is one day, whatever the text says recurs on Tuesdays
    said_week = bool(match["week"]) and not recurring(match["week"].lower())
    if base is None or (not said_week and recurs(match.string.lower(), WEEKDAYS.index(name))):
        return None
    if writes_day(match, sentence):  # "The class meets Monday to Thursday, from 7 June"
        return None
    if working_week(match):  # "within 10 working days (Monday to Friday)": no day of its own
        return None
    if lead in listed("recurrence_words") or lead in listed("duration_one"):
        return None  # "every Sunday", or "on a Saturday in September": no one day
    if match["week"]:  # "Wednesday that week": of the week that holds the day told
        week = match["week"].lower()
        # "by Friday of this week" in minutes dated 5 March: the document's own week
        own = week.split()[0] in listed("present_references")
        found = own_day(before) if own else None
        day = found.first if found else base.last
        return None if recurring(week) else week_of(day, name, week)
    if lead in listed("past_weekday_leads"):
        start = dt.date.fromordinal(int(base.first))
        back = (start.weekday() - WEEKDAYS.index(name) - 1) % DAYS_PER_WEEK + 1
        return base.first - back, f"the {name.title()} before {iso(base.first)}"
    # "next Friday" in a note written on a Friday is a week on, not that day
    first = on_or_after(base.last + (lead in listed("duration_next")), name)
    inside = on_or_after(base.first, name)
    short = base.last - base.first < DAYS_PER_WEEK
    if lead not in listed("duration_next") and short and inside <= base.last:
        first = inside  # "the first weekend of May, from Saturday": its own Saturday
    if match["until"] is None:
        return first, f"the {name.title()} from {iso(base.last)}"
    last = on_or_after(first, match["until"].lower())
    return first, last, f"{name.title()} to {match['until'].title()} from {iso(base.last)}"


def working_week(match: re.Match[str]) -> bool:
    """Whether a weekday or range stands right after a ``working_day_units`` unit, perhaps in
    brackets: it says which days the unit counts."""
    units = alternation(listed("working_day_units"))
    return (
        re.search(rf"(?i)\b(?:{units})s?\s*[(:,-]?\s*$", match.string[: match.start()]) is not None
    )


def week_of(day: float, name: str, week: str) -> tuple[float, str]:
    """The weekday ``name`` of the week (Monday first) that holds ``day``, or of the week
    after or before it that ``week`` names ("the following week", "the week before":
    :func:`.month_days.unit_step`)."""
    monday = day - dt.date.fromordinal(int(day)).weekday() + DAYS_PER_WEEK * unit_step(week)
    return monday + WEEKDAYS.index(name), f"the {name.title()} of {week} from {iso(day)}"


def on_or_after(day: float, name: str) -> float:
    """The first day on or after ``day`` that falls on the weekday ``name``."""
    start = dt.date.fromordinal(int(day))
    return day + (WEEKDAYS.index(name) - start.weekday()) % DAYS_PER_WEEK


@cache
def same_day_pattern() -> re.Pattern[str]:
    """ "the same day next week", "the same weekday the following week", "the same day
    next month": the day told before it, a ``duration_next`` word and a calendar unit on."""
    nexts = alternation(listed("duration_next"))
    units = alternation([*listed("duration_units"), *listed("calendar_units")])
    return re.compile(
        rf"(?i)\bthe\s+same\s+(?:week)?day\s+(?:the\s+)?(?:{nexts})\s+(?P<unit>{units})\b"
    )


def same_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The day one week (or month, or year) on from the last day told before "the same day
    next week" ("picked up on Tuesday 12 March … until the same day next week": 19 March)."""
    del sentence
    base = anchor([t for t in before if not t.lasting])
    if base is None:
        return None
    day = moved(base.last, 1, match["unit"].lower(), back=False)
    return day, f"{match[0]} from {iso(base.last)}"


@cache
def that_day_pattern() -> re.Pattern[str]:
    """ "the same day", "that very date": the day told before it, named again. Not
    when a word after it says which other day it means ("the same day as the first payment",
    "the same day of every month", "the same date 2 years later": ``that_day_stops`` or a
    count)."""
    same, nouns = alternation(listed("same_words")), alternation(listed("that_day_nouns"))
    stops = alternation([*listed("that_day_stops"), *listed("duration_next")])
    return re.compile(
        rf"(?i)\b(?:the|that)\s+(?:{same})\s+(?:{nouns})\b"
        rf"(?!\s+(?:(?:{stops})\b|\d))"
    )


def that_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The one day told last before "the same day" ("the boiler serviced on 9 March and the
    flue swept the same day": 9 March); ``None`` when none was, or the last was a period, whose days
    the phrase does not choose between."""
    del sentence
    base = anchor([t for t in before if not t.lasting])
    if base is None or base.first != base.last:
        return None
    return base.last, f"{match[0]} as {iso(base.last)}"


@cache
def next_day_word_pattern() -> re.Pattern[str]:
    """ "tomorrow", "tomorrow's", "yesterday": a day counted from the document's own day."""
    said = alternation([*listed("day_after_words"), *listed("day_before_words")])
    return re.compile(rf"(?i)\b(?P<word>{said})(?:'s)?\b")


def next_day_word(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The day after (or before) the document's own day, its first written day ("Sent
    Wednesday 6 August 2025 … starting tomorrow"), else the first day written after the
    word in its sentence ("starting tomorrow (today's Thursday 5 August 2027)")."""
    base = own_day(before)
    if base is None:
        later = [s for s in written_phrases(match.string) if match.end() <= s[0] < sentence[1]]
        base = Told(later[0][0], later[0][1], *bounds(later[0][2])) if later else None
    if base is None or base.first != base.last:
        return None
    step = 1 if match["word"].lower() in listed("day_after_words") else -1
    return base.first + step, f"{match['word'].lower()} from {iso(base.first)}"
