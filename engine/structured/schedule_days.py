"""Days a document tells by counting in a schedule: a weekday of a numbered week ("the Sunday
of week 16"), the n-th day of what a day starts ("back on the third day") and a numbered day
of it ("Day 4 is the distillery"); the n-th meeting of a series is :mod:`.counted_meetings`'.

"My 16-week plan starts on Monday 2 February; race day is the Sunday of week 16": the weeks
count from the last day the document writes before the phrase. A reader for
:mod:`.told_days`, in the shape of :mod:`.day_readers`'. Pure functions over text.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache

from engine.structured.counted_days import unit_days
from engine.structured.day_readers import Told, is_month, iso, last_written
from engine.structured.periods import alternation, listed
from engine.structured.series_counts import MOST_COUNTED, WEEKDAYS, spelled_ordinals

DAYS_PER_WEEK = 7


@cache
def week_day_pattern() -> re.Pattern[str]:
    """ "the Sunday of week 16", "the Monday in week 14"."""
    weeks = alternation([u for u in listed("duration_units") if unit_days(u, 1) == DAYS_PER_WEEK])
    return re.compile(
        rf"(?i)\bthe\s+(?P<weekday>{alternation(WEEKDAYS)})\s+(?:of|in)\s+(?:{weeks})\s+"
        r"(?P<week>\d{1,2})\b"
    )


def week_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """That weekday of the numbered week, its first week starting on the last day the
    document writes before it."""
    written = last_written(before)
    if written is None or int(match["week"]) < 1:
        return None  # "week 0" is no week of the plan
    start = written.first
    weekday = WEEKDAYS.index(match["weekday"].lower())
    offset = (weekday - dt.date.fromordinal(int(start)).weekday()) % DAYS_PER_WEEK
    day = start + DAYS_PER_WEEK * (int(match["week"]) - 1) + offset
    return day, f"{match[0]}, week 1 from {iso(start)}"


@cache
def nth_day_pattern() -> re.Pattern[str]:
    """ "on the third day", "by the 2nd day" (ordinals in digits): a day counted within what
    the day written before it starts; not "the third day after" or "of" a thing."""
    nth = alternation(list(spelled_ordinals(MOST_COUNTED)))
    ways = alternation([*listed("clause_shifts"), *listed("span_since")])
    return re.compile(rf"(?i)\bthe\s+(?P<nth>{nth})\s+day\b(?!\s+(?:{ways})\b)")


def nth_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """That day counted from the last day written before it, its first ("collection on
    Saturday 2 October; the hire covers three days, so the van is back on the third day":
    4 October)."""
    start = last_written(before)
    nth = spelled_ordinals(MOST_COUNTED).get(match["nth"].lower())
    if start is None or nth is None:
        return None
    return start.first + nth - 1, f"{match[0]} from {iso(start.first)}"


@cache
def numbered_day_pattern() -> re.Pattern[str]:
    """ "Day 4 is the highlight", "on day 7" (numbers in digits, as read): a day numbered
    within what the days told before it start; not one a written day follows, which it only
    labels ("Day 1, 8 September", "Day 2 (9 June)"), nor one a day is counted "as" ("counting
    the date of examination as day one" says where the count starts)."""
    return re.compile(r"(?i)(?<!\bas\s)\bday\s+(?P<number>\d{1,2})\b(?!\s*[,(:]?\s*\(?\d)(?!\s*-)")


def numbered_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """That day counted from the first day of what the last day told before it starts, day 1
    its first ("the tour sets off on Saturday 24 June … Day 4 is the distillery": 27 June);
    a numbered day told before is no start, its own origin is ("… on the evening of day 7")."""
    pattern, text = numbered_day_pattern(), match.string
    origin = next(
        (t for t in reversed(before)
         if not is_month(t) and not pattern.fullmatch(text, t.start, t.end)),
        None,
    )  # fmt: skip
    number = int(match["number"])
    if origin is None or not 1 <= number <= MOST_COUNTED:
        return None
    return origin.first + number - 1, f"{match[0]} from {iso(origin.first)}"
