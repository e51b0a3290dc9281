"""The readers of a day a document names within a month, for :mod:`.told_days`, in the shape
of :mod:`.day_readers`': a weekday or the first or last day of a month ("the second Thursday
of November", "the last day of June", "the first Thursday of the month", "a Saturday in
September"), the end of a month ("by the end of next month"), and a day named only by its
ordinal ("back on Tuesday the 9th", "the 9th of that month", "in February, Tuesday the 9th").

A month is named, or referred to by the days around it ("the month", "that same month", "the
following month": :func:`references`, which weeks use too); a reference to every month ("the
15th of each month") is a series' (:mod:`.series`). Weekday and month names come from the
standard library's ``calendar``; words from ``period_words.json``; months counted by
dateutil's ``relativedelta``. Pure functions.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from functools import cache, lru_cache

from dateutil import rrule
from dateutil.relativedelta import relativedelta, weekday
from lemminflect import getAllLemmas

from engine.language.en.data import word_set
from engine.structured.day_readers import (
    NEXT_WORD,
    WORKDAYS,
    Counted,
    Told,
    anchor,
    bounds,
    is_month,
    iso,
    named_later,
    own_day,
)
from engine.structured.other_days import PAST, clause_tense, clauses
from engine.structured.periods import alternation, listed, phrase_spans
from engine.structured.series import LAST, MONTHS
from engine.structured.series_counts import WEEKDAYS, ordinals

SATURDAY, SUNDAY = WEEKDAYS[calendar.SATURDAY], WEEKDAYS[calendar.SUNDAY]  # a weekend's days
MONTH_DAY = "day"  # "the last day of June": a month's own day, where a weekday would stand
# An ordinal after another and a join: one of a list ("the 2nd and 4th Saturday"), a series.
LISTED = re.compile(r"(?i)\b\w+\s*(?:,|and|or|&)\s*$")

WEEK = "week"  # the one unit "the week before" names by a shift word after it


@cache
def month_references() -> list[str]:
    """ "the month", "every month", "next month", "that same month": a month told by the
    days around it."""
    return references("month")


@cache
def new_year_references() -> list[str]:
    """ "the new year": a ``new_year_references`` noun after "the", in a month's place."""
    return [f"the {noun}" for noun in listed("new_year_references")]


@cache
def references(unit: str) -> list[str]:
    """A ``month_references`` word before a unit, a ``same_words``, ``duration_next`` or
    ``duration_previous`` word between them or not ("that week", "the same week", "the
    following month", "the previous week"), or, for a week, a ``clause_shifts`` word after it
    ("the week before")."""
    leads = listed("month_references")
    between = [*listed("same_words"), *listed("duration_next"), *listed("duration_previous")]
    around = [f"{w} {b} {unit}" for w in leads for b in between]
    # "the week before" (a month so named is a shift's: "the month before the term starts")
    shifted = [f"the {unit} {way}" for way in listed("clause_shifts")] if unit == WEEK else []
    return [f"{w} {unit}" for w in leads] + around + shifted


def recurring(reference: str) -> bool:
    """Whether a reference (:func:`references`) is to every unit ("each month"): a series'."""
    return not set(reference.lower().split()).isdisjoint(listed("recurrence_words"))


def names_next(reference: str) -> bool:
    """Whether a reference (:func:`references`) names the unit after the one told: "next
    month", "the following week", "the week after"."""
    return unit_step(reference) > 0


def unit_step(reference: str) -> int:
    """How many units on from the one told a reference (:func:`references`) names: 1 for
    "next month", "the following week", "the week after"; -1 for "the previous week", "the
    week before"; 0 for "that week"."""
    words = set(reference.lower().split())
    later = [*listed("duration_next"), *listed("duration_after")]
    earlier = [*listed("duration_previous"), *listed("duration_before")]
    return int(not words.isdisjoint(later)) - int(not words.isdisjoint(earlier))


@cache
def month_weekday_pattern() -> re.Pattern[str]:
    """The n-th (or last, or any) weekday of a named month or of "the month": "the second
    Thursday of November", "the last Saturday in April 2028", "a Saturday in September", "the
    fifth working day of next month"."""
    nth = alternation([*ordinals(), *listed("last_day_words"), *listed("duration_one")])
    days = alternation([*WEEKDAYS, MONTH_DAY, *listed("weekend_words"), *working_days()])
    months = alternation([*MONTHS, *month_references(), *new_year_references()])
    return re.compile(
        rf"(?i)\b(?P<nth>{nth})\s+(?P<weekday>{days})\s+(?:of|in)\s+"
        rf"(?P<month>{months})(?:\s+(?P<year>\d{{4}}))?\b"
    )


def month_weekday(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> Counted | None:
    """The day "the second Thursday of November" names (a weekend: its Saturday and Sunday),
    in the year written, else in the year of the last day told before it; "of the month" is
    that day's month, or the month the sentence names ("the April 2026 meeting"). "A
    Saturday in September" is any of them: the first to the last."""
    word = match["nth"].lower()
    if word in listed("duration_one"):
        return any_weekday(match, before, sentence)
    nth = LAST if word in listed("last_day_words") else ordinals().get(word)
    if nth is None or nth == 0 or nth > 5 or LISTED.search(match.string, 0, match.start()):
        return None  # "the 2nd and 4th Saturday of every month" is a series, not one day
    base = reference_base(match["month"], before, match.string)
    named = MONTHS.get(match["month"].lower())
    month_year = named_month(match, named, base, sentence)
    if month_year is None:
        return None
    first = dt.date(month_year[1], month_year[0], 1)
    weekend, name = is_weekend(match), match["weekday"].lower()
    if name in working_days():  # "the fifth working day of March": Monday to Friday, counted
        day = nth_working_day(first, nth)
    else:
        day = first + month_day(SATURDAY if weekend else name, nth)
    if day.month != first.month:
        return None  # no fifth Thursday that month
    said = match[0] if match[0].lower().startswith("the ") else f"the {match[0]}"
    if weekend:  # "the first weekend of May": its Saturday and the Sunday after
        return float(day.toordinal()), float(day.toordinal() + 1), said
    return float(day.toordinal()), said


def any_weekday(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, float, str] | None:
    """The days from the first to the last weekday of a month that "a Saturday in September
    2026" may be."""
    name = match["weekday"].lower()
    named = MONTHS.get(match["month"].lower())
    month_year = None if name == MONTH_DAY else named_month(match, named, anchor(before), sentence)
    if month_year is None:
        return None
    first = dt.date(month_year[1], month_year[0], 1)
    # "a weekend in May": from its first Saturday to its last Sunday
    names = (SATURDAY, SUNDAY) if is_weekend(match) else (name, name)
    days = [first + month_day(n, nth) for n, nth in zip(names, (1, LAST), strict=True)]
    return float(days[0].toordinal()), float(days[1].toordinal()), match[0]


def is_weekend(match: re.Match[str]) -> bool:
    """Whether a weekday of a month is a weekend ("the first weekend of May")."""
    return match["weekday"].lower() in listed("weekend_words")


@cache
def working_days() -> list[str]:
    """The ``working_day_units`` words and their plurals ("working day", "business days")."""
    return [form for unit in listed("working_day_units") for form in (unit, f"{unit}s")]


def nth_working_day(first: dt.date, nth: int) -> dt.date:
    """A month's ``nth`` (or ``LAST``) working day, Monday to Friday, by rrule's set
    position."""
    start = dt.datetime.combine(first, dt.time())
    days = rrule.rrule(rrule.MONTHLY, dtstart=start, count=1, byweekday=WORKDAYS, bysetpos=nth)
    return next(iter(days)).date()


def month_day(name: str, nth: int) -> relativedelta:
    """How far into a month its ``nth`` weekday named ``name`` is (``LAST``: its last), or
    its first or last day ("the last day of June")."""
    if name == MONTH_DAY:
        return relativedelta(day=31) if nth == LAST else relativedelta(days=nth - 1)
    which = weekday(WEEKDAYS.index(name), nth)
    return relativedelta(day=31, weekday=which) if nth == LAST else relativedelta(weekday=which)


def named_month(
    match: re.Match[str], named: int | None, base: Told | None, sentence: tuple[int, int]
) -> tuple[int, int] | None:
    """The month and year a weekday of a month falls in: the year written, else the last
    day's told before it, as a month alone is read in the year written nearest it (``None``
    when nothing says)."""
    if match["month"].lower() in new_year_references():  # "of the new year"
        return None if base is None else (1, dt.date.fromordinal(int(base.last)).year + 1)
    if named is None:  # "of the month": the sentence's month, else the last day's
        months = [t for t in told_months(match.string) if sentence[0] <= t.start < sentence[1]]
        source = months[0].first if months else base.first if base else None
        if source is None:
            return None
        when = dt.date.fromordinal(int(source))
        # "the first Monday of next month", "of the month before"
        when = when.replace(day=1) + relativedelta(months=unit_step(match["month"]))
        return when.month, when.year
    if match["year"]:
        return named, int(match["year"])
    return None if base is None else (named, dt.date.fromordinal(int(base.first)).year)


@lru_cache(maxsize=16)  # each "of the month" of one text asks
def told_months(text: str) -> list[Told]:
    """The whole months ``text`` writes ("April 2026"), as periods."""
    found = [Told(s, e, *bounds(what)) for s, e, what in phrase_spans(text)]
    return [t for t in found if is_month(t)]


@cache
def month_end_pattern() -> re.Pattern[str]:
    """ "the end of the month", "the end of next month", "the end of June"."""
    months = alternation([*MONTHS, *month_references(), *new_year_references()])
    return re.compile(rf"(?i)\bend\s+of\s+(?P<month>{months})(?:\s+(?P<year>\d{{4}}))?\b")


def month_end(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The last day of the month named, or of the last day's month told before it (the
    month after it for "next month"; the document's own for "this month")."""
    base = reference_base(match["month"], before, match.string)
    said = match["month"].lower()
    named = MONTHS.get(said)
    if named is not None and match["year"]:
        first = dt.date(int(match["year"]), named, 1)
    elif base is None:
        return None
    else:
        when = dt.date.fromordinal(int(base.last))
        first = dt.date(when.year, named or when.month, 1)
        first += relativedelta(months=unit_step(said))
    last = first + relativedelta(day=31)
    return float(last.toordinal()), f"end of {first:%B %Y}"


@cache
def ordinal_day_pattern() -> re.Pattern[str]:
    """A day of the month named only by its ordinal, after a weekday or a word that dates
    ("Tuesday the 9th", "due Friday 30th", "on the 21st"), and not before a noun it counts
    ("the 12th floor")."""
    days, cues = alternation(WEEKDAYS), alternation(listed("ordinal_day_cues"))
    months = alternation(month_references())
    return re.compile(
        rf"(?i)\b(?:(?P<weekday>{days}),?\s+(?:the\s+)?|(?:{cues})\s+the\s+)"
        r"(?P<day>\d{1,2})(?P<suffix>st|nd|rd|th)\b"
        rf"(?:\s+of\s+(?P<month>{months})\b)?"
        # nor before a number it counts, in digits when read ("the third one": "the 3rd 1")
        r"(?!\s+(?:of\b|\d))"
        r"(?!\s*(?:,|and|or|&)\s*\d+(?:st|nd|rd|th)\b)"  # "the 1st and 3rd Tuesday": a list
    )


def counts_noun(match: re.Match[str]) -> bool:
    """Whether a day's ordinal is followed by a word it may count ("the 12th floor", "the
    1st Monday"): any but one that may follow a day ("and", "at", "to", the
    ``present_for_future`` verbs: "on the 9th if you cover") or one lemminflect knows only as
    no noun ("still on the 30th as planned")."""
    after = NEXT_WORD.match(match.string, match.end())
    if after is None:
        return False
    word, lemmas = after[1].lower(), getAllLemmas(after[1].lower())
    return word not in day_followers() and not (lemmas and "NOUN" not in lemmas)


@cache
def day_followers() -> frozenset[str]:
    return frozenset(["and", "at", "to", *word_set("grammar.json", "present_for_future")])


def ordinal_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The first day of that number on or after the last day told before it, on the weekday
    it names when it names one (within a year)."""
    said = f"the {match['day']}{match['suffix']}"
    if counts_noun(match):
        return None
    if before and is_month(before[-1]) and not match["month"]:
        return month_ordinal(before[-1], int(match["day"]), match["weekday"], said)
    # not from the day a length runs out: "guaranteed for 90 days … visit booked for the 20th"
    # a day the text names as its own later on ("… of next month. This letter is dated …")
    base = anchor([t for t in before if not t.lasting]) or named_later(match.string)
    if base is None:  # "this Saturday the 21st (August 2027)": of the month written after
        month = month_after(match, sentence[0])
        day, weekday = int(match["day"]), match["weekday"]
        return None if month is None else month_ordinal(month, day, weekday, said)
    start = dt.date.fromordinal(int(base.last))
    if match["month"]:  # "the 9th of that month": of the month told, before or after
        base = reference_base(match["month"], before, match.string) or base
        return referred_month_day(match, base, said)
    wanted = None if not match["weekday"] else WEEKDAYS.index(match["weekday"].lower())
    earlier = earlier_in_month(match, base, wanted)
    if earlier is not None:
        return earlier, f"{said}, same month as {iso(base.last)}"
    for ahead in range(13):
        month = dt.date(start.year, start.month, 1) + relativedelta(months=ahead)
        day = month + relativedelta(day=int(match["day"]))
        if day.day != int(match["day"]):
            continue  # no 31st that month
        if day >= start and (wanted is None or day.weekday() == wanted):
            return float(day.toordinal()), f"{said} after {iso(base.last)}"
    return None


def earlier_in_month(match: re.Match[str], base: Told, wanted: int | None) -> float | None:
    """The day of that number earlier in the month of the day told before it, where that day
    was told in a clause not in the past: the month the text is about ("our open day is Saturday
    19 June; the marquee goes up on the 16th"); after a past one ("your call on 12 May was
    logged; rent comes out on the 3rd") the next such day is meant. ``None`` otherwise, or
    when the month has no such day or it falls on another weekday than the one written."""
    clause = next(((a, b) for a, b in clauses(match.string) if a <= base.start <= b), None)
    if clause is None or clause_tense(match.string[clause[0] : clause[1]]) == PAST:
        return None
    last = dt.date.fromordinal(int(base.last))
    try:
        day = last.replace(day=int(match["day"]))
    except ValueError:  # no 31st in that month
        return None
    earlier = day < last and (wanted is None or day.weekday() == wanted)
    return float(day.toordinal()) if earlier else None


def month_after(match: re.Match[str], sentence_start: int) -> Told | None:
    """The first whole month the text writes after a day named only by its ordinal, for one
    with no day told before it ("I'll do your Sunday close on the 9th … that's for the Nov
    2025 rota"); none when its sentence names a month before it ("… by the fifth working day
    of the next month and are reimbursed on the 25th": of that month)."""
    opening = match.string[sentence_start : match.start()]
    if re.search(r"(?i)\bmonth\b", opening):  # "… of the next month and are paid on the 25th"
        return None
    later = (Told(s, e, *bounds(w)) for s, e, w in phrase_spans(match.string) if s >= match.end())
    return next((t for t in later if is_month(t)), None)


def reference_base(reference: str, before: list[Told], text: str) -> Told | None:
    """The day a month named by ``reference`` is found from: the document's own day for a
    ``present_references`` one ("the 19th of this month" in minutes of 9 June: June), else
    the last day told before it ("that month")."""
    if reference.lower().split()[0] in listed("present_references"):
        return own_day(before, text) or anchor(before)
    return anchor(before)


def referred_month_day(match: re.Match[str], base: Told, said: str) -> tuple[float, str] | None:
    """The day of the month a reference names ("the 9th of that month": of the month of the
    day told before; "of the following month": of the month after); ``None`` for one of
    every month ("the 15th of each month": a series', :mod:`.series`), or no such day."""
    if recurring(match["month"]):
        return None
    start = dt.date.fromordinal(int(base.last))
    month = dt.date(start.year, start.month, 1) + relativedelta(months=unit_step(match["month"]))
    day = month + relativedelta(day=int(match["day"]))
    if day.day != int(match["day"]):
        return None
    return float(day.toordinal()), f"{said} of {match['month'].lower()} from {iso(base.last)}"


def month_ordinal(
    month: Told, day: int, weekday: str | None, said: str
) -> tuple[float, str] | None:
    """The ``day`` of the whole month told just before ("in February, Tuesday the 9th"),
    on the weekday it names, if it names one; ``None`` when that month has no such day."""
    first = dt.date.fromordinal(int(month.first))
    found = first + relativedelta(day=day)
    wanted = None if not weekday else WEEKDAYS.index(weekday.lower())
    if found.day != day or (wanted is not None and found.weekday() != wanted):
        return None
    return float(found.toordinal()), f"{said} of {first:%B %Y}"
