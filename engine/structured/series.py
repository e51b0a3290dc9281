"""The days of a thing a document says recurs: "every Saturday in March 2027", "three Thursday
evenings in a row, starting on 4 February", "fortnightly on Tuesdays for three meetings", "the
first Monday of each month from May to July".

A template with a member per meeting ("first_session", "session_two", "june_meeting") had each
of them on the one day the document writes, or anywhere in its month. A reader counts the
meetings: the second session is the second Thursday. This reads the rule a sentence states (one
weekday; weekly, every other week, or an ordinal weekday of each month; how many times, or
until when) and lets dateutil's ``rrule`` count the days; :func:`series_day` gives a member the
one its name counts or names the month of. Only a document that says one weekday recurs
(:func:`recurs`: "every Tuesday", "on Tuesdays", "the 2nd and 4th Saturday of every month")
has a series; another weekday it names is a day of something else ("the induction is on
Thursday 15 January"). The series runs as many times or until when the document says, else
on from its first day as far as a member's name counts. Words in
``period_words.json`` (``recurrence_words``, ``every_other_words``, ``length_units``); weekday
and month names from the standard library's ``calendar``.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from dateutil import rrule

from engine.structured import stated
from engine.structured.counted_days import unit_days
from engine.structured.named_days import starting_verb
from engine.structured.other_days import clauses, phrase_days
from engine.structured.periods import (
    DAY,
    YEAR,
    Reading,
    alternation,
    listed,
    phrase_spans,
    words,
)
from engine.structured.series_counts import (
    MOST_COUNTED,
    MOST_TIMES,
    WEEKDAYS,
    cardinals,
    count_of,
    ordinal_of,
    ordinals,
)
from engine.structured.series_gaps import skipped
from engine.structured.words import key_parts

MONTHS = {name.lower(): n for n, name in enumerate(calendar.month_name) if name}
LAST = -1  # rrule's "last" weekday of a month
MOST_SKIPPED = 3  # how many meetings past its count a series is read for days it skips
DAYS_PER_WEEK = 7


@lru_cache(maxsize=16)  # each date member of one document asks
def series_days(document: str) -> tuple[float, ...]:
    """The days (ordinals) of the one recurring thing ``document`` states, in order, from
    the first day it writes: as many times or until when it says, else
    :data:`MOST_COUNTED` of them; none when it states no one weekday, or day of each month,
    that recurs."""
    text = document.lower()
    weekday, monthly = recurring_weekday(text), month_day(text)
    apart = days_apart(text) if weekday is None and monthly is None else None
    if (weekday is not None and monthly is not None) or (weekday, monthly, apart) == (None,) * 3:
        return ()
    reading = stated.read(document)
    period, points = reading.period(), sorted(reading.points)
    start = period[0] if period else (points[0] if points else None)
    if start is None:
        return ()
    own = own_period(document, weekday)
    start = first_meeting(reading, max(start, own[0]) if own else start, weekday)
    start = written_meeting(document, start, weekday)
    times, ends = count_of(text), own or series_end(document)
    if ends is not None and ends[1] <= start:
        ends = None  # "from Monday 1 March we meet on alternate Thursdays, starting on the 11th"
    if times is None and ends is None:  # "every other Monday from 5 January": no end told
        times = MOST_COUNTED  # (what open_ended says)
    until = None if times is not None or ends is None else ends[1]
    rule = Rule(weekday, monthly, times, apart)
    return tuple(held(document, text, rule, start, until))


def held(document: str, text: str, rule: Rule, start: float, until: float | None) -> list[float]:
    """The rule's days from ``start`` less those the document says are skipped
    (:mod:`.series_gaps`); a series counted in meetings runs on to hold its count."""
    reach = replace(rule, times=rule.times + MOST_SKIPPED) if rule.times else rule
    gaps = skipped(document, occurrences(text, reach, start, until))
    if not gaps:
        return occurrences(text, rule, start, until)
    if rule.times:
        days = occurrences(text, replace(rule, times=rule.times + len(gaps)), start, until)
    else:  # "a three-week course … that class is cancelled, so it ends a week later"
        days = occurrences(text, rule, start, until)
        step = days[1] - days[0] if len(days) > 1 else 0
        days = occurrences(text, rule, start, None if until is None else until + step * len(gaps))
    return [day for day in days if day not in gaps]


def first_meeting(reading: Reading, start: float, weekday: int | None) -> float:
    """The day a weekly series starts: the first day the document writes on or after
    ``start`` (a date, or an end of a range of days) that falls on its weekday ("from
    Monday 1 March we meet on alternate Thursdays, starting on the 11th": the 11th, which sets
    which Thursdays), else ``start``."""
    if weekday is None:
        return start
    ends = [day for p in reading.periods if p[0] == DAY for day in p[1:]]
    written = sorted(d for d in {*reading.points, *ends} if d >= start)
    return next((d for d in written if dt.date.fromordinal(int(d)).weekday() == weekday), start)


def written_meeting(document: str, start: float, weekday: int | None) -> float:
    """The first day on the series' weekday the document writes in digits or words on or
    after ``start``, where ``start`` is a day it only counts ("lessons start on Sunday 5
    September … pay at least a week before his first lesson": 5 September, not the Sunday a
    week before it); else ``start``."""
    written = sorted(d for _, _, what in phrase_spans(document) for d in phrase_days(what))
    if weekday is None or start in written:
        return start
    later = [d for d in written if d >= start]
    return next((d for d in later if dt.date.fromordinal(int(d)).weekday() == weekday), start)


def open_ended(document: str) -> bool:
    """Whether a document tells neither how many times a thing recurs nor until when."""
    return count_of(document.lower()) is None and series_end(document) is None


def own_period(document: str, weekday: int | None) -> tuple[float, float] | None:
    """The month (or part of one, or season) written in the clause that says a weekday
    recurs ("rehearsals are every Sunday in March", in a document that also writes a day in
    April): the series' days, not the document's; not one it only starts in."""
    if weekday is None:
        return None
    text = document.lower()
    periods = [(at, what) for at, _, what in phrase_spans(document) if isinstance(what, tuple)]
    for start, end in clauses(document):
        if not recurs(text[start:end], weekday):
            continue
        for at, what in periods:
            if start <= at < end and DAY < what[0] < YEAR:
                span = (what[1], what[2])
                return None if starting_month(text, span) else span
    return None


def series_end(document: str) -> tuple[float, float] | None:
    """The period a document states, as what a series runs until; not a whole month it
    only starts in (:func:`starting_month`: "… of each month, beginning in March")."""
    period = stated.read(document).period()
    return None if period is None or starting_month(document.lower(), period) else period


def starting_month(text: str, period: tuple[float, float]) -> bool:
    """Whether the document's period is a whole month written as when a thing starts, after
    a ``period_start_verbs`` verb or a ``month_start_cues`` word ("beginning in March",
    "begins May", "from March"): a series runs on past it, not until its end."""
    first, last = (dt.date.fromordinal(int(d)) for d in period)
    whole = first.day == 1 and (last + dt.timedelta(days=1)).day == 1 and first.month == last.month
    name = calendar.month_name[first.month].lower()
    cue = re.search(rf"\b([a-z]+)\s+(?:in\s+)?{name}\b", text)
    said = None if cue is None else cue[1]
    return (
        whole and said is not None and (starting_verb(said) or said in listed("month_start_cues"))
    )


@dataclass(frozen=True)
class Rule:
    """What recurs (a weekday, a day of each month, or a day so many days after the last) and
    how many times (``None``: until a day)."""

    weekday: int | None
    month_day: int | None
    times: int | None
    apart: int | None = None


def recurring_weekday(text: str) -> int | None:
    """The one weekday the text says recurs; or the one it names, when it says a thing is
    weekly ("six weekly sessions" from Wednesday the 13th)."""
    days = {WEEKDAYS.index(m[1]) for m in weekday_pattern().finditer(text) if not replaced(m)}
    recurring = [d for d in sorted(days) if recurs(text, d)]
    if not recurring and len(days) == 1 and weekly_pattern().search(text):
        return days.pop()
    return recurring[0] if len(recurring) == 1 else None


def replaced(match: re.Match[str]) -> bool:
    """Whether a weekday is named as what a change replaces ("every Tuesday instead of on
    Fridays"): a ``replaced_cues`` phrase at most two words before it."""
    return replaced_pattern().search(match.string, 0, match.start()) is not None


@cache
def replaced_pattern() -> re.Pattern[str]:
    """A ``replaced_cues`` phrase and up to two words, right before where it is searched to."""
    return re.compile(rf"\b(?:{alternation(listed('replaced_cues'))})\s+(?:\w+\s+){{0,2}}$")


def days_apart(text: str) -> int | None:
    """The days between the times a thing recurs on no weekday ("then every 12 days",
    "every 3 weeks", "every fortnight"), a count of whole-day units (or one unit) after a
    ``recurrence_words`` word."""
    found = days_apart_pattern().search(text)
    if found is None:
        return None
    count = 1 if found["one"] else cardinals().get(found["count"])
    return None if count is None else int(unit_days(found["unit"] or found["one"], count))


@cache
def days_apart_pattern() -> re.Pattern[str]:
    each = alternation(listed("recurrence_words"))
    units = words()["duration_units"]
    assert isinstance(units, dict)
    units = alternation(list(units))
    return re.compile(
        rf"\b(?:{each})\s+(?:(?P<count>[\w-]+)\s+(?P<unit>{units})s|(?P<one>{units}))\b"
    )


def month_day(text: str) -> int | None:
    """The day of each month a thing recurs on ("on the 15th of each month")."""
    found = month_day_pattern().search(text)
    return None if found is None else ordinals().get(found["nth"])


def occurrences(text: str, rule: Rule, start: float, until: float | None) -> list[float]:
    """The rule's days from ``start``: a day of each month, the n-th weekday of each month
    where the text says so, else every week or every other week."""
    first, last = moment(start), None if until is None else moment(until)
    if rule.apart is not None:
        counted = rrule.rrule(rrule.DAILY, dtstart=first, interval=rule.apart,
                              count=rule.times, until=last)  # fmt: skip
    elif rule.month_day is not None:
        counted = rrule.rrule(rrule.MONTHLY, dtstart=first, bymonthday=rule.month_day,
                              count=rule.times, until=last)  # fmt: skip
    elif nths := monthly_nths(text, int(rule.weekday or 0)):
        which = [rrule.weekday(int(rule.weekday or 0), n) for n in nths]
        counted = rrule.rrule(rrule.MONTHLY, dtstart=first, byweekday=which,
                              count=rule.times, until=last)  # fmt: skip
    else:
        interval = 2 if every_other_pattern().search(text) else 1
        # from the first such weekday: rrule counts every other week from the start's own
        # week, and would skip a Tuesday that falls in the week after a Friday start
        first += dt.timedelta(days=(int(rule.weekday or 0) - first.weekday()) % DAYS_PER_WEEK)
        counted = rrule.rrule(rrule.WEEKLY, dtstart=first, interval=interval,
                              byweekday=rule.weekday, count=rule.times, until=last)  # fmt: skip
    found: list[float] = []
    for when in counted:
        if len(found) == MOST_TIMES:
            return []
        found.append(float(when.date().toordinal()))
    return found


def moment(day: float) -> dt.datetime:
    """A day ordinal as the midnight rrule counts from."""
    return dt.datetime.combine(dt.date.fromordinal(int(day)), dt.time())


def series_day(days: tuple[float, ...], key: str) -> tuple[float, float] | None:
    """The one day of a series a member's name counts ("second_session", "session_3") or
    names the month of ("june_meeting"); ``None`` when it does neither, or past the last."""
    words = key_parts(key)
    nth = ordinal_of(set(words))
    months = {MONTHS[w] for w in words if w in MONTHS}
    if nth is not None and not months:
        return (days[nth - 1],) * 2 if nth <= len(days) else None
    if len(months) == 1 and nth is None:
        month = months.pop()
        inside = [d for d in days if dt.date.fromordinal(int(d)).month == month]
        return (inside[0],) * 2 if inside else None
    return None


def recurs(text: str, weekday: int) -> bool:
    """Whether the text says its weekday recurs: after a ``recurrence_words`` word ("every
    other Tuesday"), in the plural ("on Tuesdays"), before "in a row", or as the n-th of
    each month. A recurrence word elsewhere ("every evening", "each stall") says nothing of
    the weekday, which then names one day."""
    name = WEEKDAYS[weekday]
    cue = rf"\b(?:{'|'.join(map(re.escape, listed('recurrence_words')))})\s+(?:\w+\s+)?{name}\b"
    beside = rf"\b{name}s\b|\b{name}\s+(?:\w+\s+){{0,2}}in\s+a\s+row\b"
    often = alternation([*listed("weekly_words"), *listed("every_other_words")])
    # "weekly on Tuesday", "on Tuesday evenings": a weekly word before it, a plural day part after
    parts = alternation([*listed("day_parts"), *listed("day_nouns")])
    said = rf"\b(?:{often})\s+on\s+{name}\b|\b{name}\s+(?:{parts})s\b"
    found = re.search(cue, text) or re.search(beside, text) or re.search(said, text)
    return found is not None or bool(monthly_nths(text, weekday))


def monthly_nths(text: str, weekday: int) -> list[int]:
    """The ordinals of "the first Monday of each month", or of "the 2nd and 4th Saturday of
    every month" (``LAST`` for the last); none when the text names no weekday of each month."""
    found = re.search(
        rf"\b((?:\w+\s*(?:,|and|&)\s*)*\w+)\s+{WEEKDAYS[weekday]}s?\s+(?:of|in)\s+"
        r"(?:each|every|the)\s+month",
        text,
    )
    if found is None:
        return []
    words = re.split(r"\s*(?:,|and|&)\s*", found[1])
    nths = [LAST if w in listed("last_day_words") else ordinals().get(w) for w in words]
    return [n for n in nths if n is not None]


@cache
def weekday_pattern() -> re.Pattern[str]:
    return re.compile(rf"\b({'|'.join(WEEKDAYS)})s?\b")


@cache
def weekly_pattern() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, listed('weekly_words')))})\b")


@cache
def month_day_pattern() -> re.Pattern[str]:
    """ "the 15th of each month", "the first day of every month" (its ordinal in digits or
    words)."""
    each = "|".join(map(re.escape, listed("recurrence_words")))
    return re.compile(
        rf"\b(?:the\s+)?(?P<nth>\d{{1,2}}(?:st|nd|rd|th)|[a-z]+)\s+(?:day\s+)?of\s+(?:{each})\s+month"
    )


@cache
def every_other_pattern() -> re.Pattern[str]:
    return re.compile(rf"\b(?:{'|'.join(map(re.escape, listed('every_other_words')))})\b")
