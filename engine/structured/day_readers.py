"""The readers of a day a document tells by the days around it, for
:mod:`engine.structured.told_days`: the following weekday and the day after ("the next
afternoon"), and what every reader shares: a told day (:class:`Told`), the day a phrase counts
from (the last told, the last written, the document's own, the day of the thing it names) and
moving a day by a count of units; the readers of a shift are :mod:`.shift_days`', of a day
within a month :mod:`.month_days`', of a length :mod:`.length_days`'.

Each reader takes its phrase's match, the days told before it (:class:`Told`, in the order
they are told) and its sentence's bounds, and gives the day with how it was counted, or
``None`` when the days before say nothing. Weekday and month names come from the standard
library's ``calendar`` (:mod:`.series`); words from ``period_words.json``; months counted by
dateutil's ``relativedelta``. Pure functions.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, lru_cache

import inflect
from dateutil import rrule
from dateutil.relativedelta import relativedelta

from engine.structured.counted_days import unit_days
from engine.structured.counted_meetings import meeting_ahead
from engine.structured.other_days import clauses, phrase_days
from engine.structured.periods import alternation, listed, words
from engine.structured.series_counts import WEEKDAYS
from engine.structured.thing_anchor import (
    dates_thing,
    day_ahead,
    past_since,
    purpose_of,
    thing_words,
)
from engine.structured.written_days import written_phrases


@dataclass(frozen=True)
class Told:
    """A day (or a period: ``first`` to ``last``) a phrase at ``start``-``end`` tells, and
    how it was counted (``how``: empty for a day the document writes)."""

    start: int
    end: int
    first: float
    last: float
    how: str = ""
    deadline: bool = False  # written right after a deadline word: "must reach us by 1 March"
    lasting: bool = False  # the last day of a length ("valid for 14 days"), not its thing's day
    closing: bool = False  # a period's last day named alone ("the final morning" of a stay)
    limit: bool = False  # the most a thing may take: "within two days of the visit"


def period_end(told: Told) -> bool:
    """Whether a told day stands for the end of a period whose first day is told before it
    (a length's last day, or a last day named alone): a shift back counts from that first."""
    return told.lasting or told.closing


# A reader gives the day and how it was counted, or a period's first and last day and how.
Counted = tuple[float, str] | tuple[float, float, str]
Reader = Callable[[re.Match[str], list[Told], tuple[int, int]], Counted | None]


def bounds(what: tuple[int, float, float] | float) -> tuple[float, float]:
    days = phrase_days(what)
    return days[0], days[-1]


@cache
def calendar_units() -> dict[str, int]:
    """Units counted on the calendar, in months ("a month before"), not in days."""
    found = words()["calendar_units"]
    assert isinstance(found, dict)
    return {str(k): int(v) for k, v in found.items()}


@cache
def unit_words() -> str:
    """The units a count of days or months is in ("week", "fortnight", "month"), as a
    pattern's alternation."""
    return alternation([*listed("duration_units"), *calendar_units(), *listed("working_day_units")])


@cache
def shift_words() -> list[str]:
    """The words that shift a day later or earlier ("later", "after", "earlier", "before")."""
    return [*listed("duration_after"), *listed("duration_before")]


@cache
def shift_ways() -> frozenset[str]:
    """The words a shift ends on ("after", "before", "from"): what follows may name its thing."""
    return frozenset([*shift_words(), *listed("thing_shifts")])


def anchor(before: list[Told]) -> Told | None:
    """The last day or period told before a phrase, not a whole month ("in June" says
    when only roughly): what a shift counts from, forward from its last day and back from
    its first ("18 and 19 September … entries close a fortnight before")."""
    return next((t for t in reversed(before) if not (is_month(t) or thing_of(t, before))), None)


def thing_of(told: Told, before: list[Told]) -> bool:
    """Whether a written day is the thing of a day counted right before it ("the Friday
    before New Year's Day"): that phrase tells the counted day, not this one."""
    return not told.how and any(t.how and t.end <= told.start <= t.end + 1 for t in before)


def undated_thing_origin(text: str, end: int, before: list[Told]) -> Told | None:
    """What a shift counts from whose thing, named after ``end``, the text dates nowhere
    ("two days prior to the gathering"): the last day told before it that is not itself
    counted back from another (a tasting "the Monday before" is a lead-up to the event, not
    the event); ``None`` where no such thing is named."""
    thing = thing_words(text, end) - set(listed("pointing_words")) - set(listed("today_words"))
    if not thing:
        return None
    return anchor([t for t in before if not counted_back(t)])


def started_origin(text: str, end: int, before: list[Told]) -> Told | None:
    """What a shift back counts from whose thing is a ``start_nouns`` noun the text dates
    nowhere ("papers three weeks before departure"): the last day the text writes, not one it
    counts on from it (a return "nine days later" is no departure) nor a lead-up counted back
    ("the day before we sail"); ``None`` otherwise."""
    if thing_words(text, end).isdisjoint(listed("start_nouns")):
        return None
    return anchor([t for t in before if not (counted_on(t, before) or counted_back(t))])


def counted_on(told: Told, before: list[Told]) -> bool:
    """Whether a day is counted on from a day written before it, within a stay's reach (a
    return "nine days later"): a later day of the thing that day starts, not its start."""
    written = [t.first for t in before if not t.how and t.start < told.start]
    return bool(told.how) and any(0 < told.first - day <= STAY_REACH for day in written)


def fallback_origin(text: str, end: int, before: list[Told], back: bool) -> Told | None:
    """What a shift counts from when no day names its thing: the last day that is no
    lead-up where it names an undated thing (:func:`undated_thing_origin`), else the last day
    told, back, or the last not counted back, onward (:func:`onward`)."""
    found = started_origin(text, end, before) if back else None
    found = found or undated_thing_origin(text, end, before)
    said = NEXT_WORD.match(text, end)
    # "the Monday after that": the day just told, a lead-up too, not the thing it counts from
    pointed = said is not None and said[1].lower() in listed("pointing_words")
    return found or anchor(before if back or pointed else onward(before))


def onward(before: list[Told]) -> list[Told]:
    """The days a shift onward may count from: none counted back from another, where any
    other is told ("free cancellation until two days before the meeting … a follow-up the
    Thursday after": after the meeting, not after the cancellation's last day)."""
    return [t for t in before if not counted_back(t)] or before


def counted_back(told: Told) -> bool:
    """Whether a told day was counted back from another ("3 days before 2026-05-04", "the
    Monday before …": how the review tells it)."""
    return f" {BACK_NOTE} " in f" {told.how} "


def last_written(before: list[Told]) -> Told | None:
    """The last single day written (not counted) before a phrase: what "results within five
    working days" counts from, not "the evening before" told after the test's day."""
    return next((t for t in reversed(before) if not t.how and t.first == t.last), None)


def own_day(before: list[Told], text: str = "") -> Told | None:
    """The document's own day: the day ``text`` writes right after naming itself ("this
    letter is dated 17.01.25", "Email sent 5 Feb 2029"), or right after "today" set off
    ("within five days of today (11 June 2027)"), wherever it writes it ("ten days of the
    date of this letter, 12 May 2027"); else the first day or period it writes before
    (a letter's date, a note's heading), not one it counts."""
    written = [t for t in before if not t.how]
    named = (
        t for t in written if self_named().search(text, max(t.start - NAMING_REACH, 0), t.start)
    )
    return next(named, None) or named_later(text) or next(iter(written), None)


@lru_cache(maxsize=16)  # each reader of one text that counts from its own day asks
def named_later(text: str) -> Told | None:
    """The first day ``text`` writes right after naming itself or "today" (:func:`self_named`),
    told anywhere in it; ``None`` where it names none so."""
    for start, end, what in written_phrases(text):
        if self_named().search(text, max(start - NAMING_REACH, 0), start):
            return Told(start, end, *bounds(what))
    return None


@cache
def self_named() -> re.Pattern[str]:
    """An ``own_document_words`` word and the words up to a day right after it, or a
    ``today_words`` word and a bracket or a comma right before the day."""
    own, today = alternation(listed("own_document_words")), alternation(listed("today_words"))
    return re.compile(rf"(?i)(?:\bthis\s+(?:{own})\b[^.;]*|\b(?:{today})\s*[(,]\s*)$")


def named_origin(text: str, end: int, before: list[Told], guessed: bool = True) -> Told | None:
    """The latest day told before a shift whose words just before it name the thing the
    words after the shift's ``end`` name (:mod:`.thing_anchor`), or the origin of an earlier
    shift that named the same thing ("ten days after the fall … six weeks after the fall"),
    even one it only took as the day told last (not where ``guessed`` is false: the text
    then dates the thing nowhere, and a member named for it may), or a counted day told as
    what its thing is for ("notice to cancel": the cancellation's day); ``None`` when they
    name none. A day written right after the thing is its own
    (:func:`.thing_anchor.day_ahead`), as is a meeting of a series counted right after it
    ("the Sunday after the last one", :func:`.counted_meetings.meeting_ahead`)."""
    # a meeting counted in digits ("before the 1st meeting") has no thing's words of its own
    thing, ahead = thing_words(text, end), meeting_ahead(text, end)
    if not thing and ahead is None:
        return None
    ahead = ahead or day_ahead(text, end)
    if ahead is not None:
        return Told(ahead[0], ahead[1], ahead[2], ahead[2])
    # "2 months' notice to cancel …, within 3 days after the cancellation"
    purposed = [t for t in before if t.how and purpose_of(text, t.end, thing)]
    if purposed:
        return purposed[-1]
    sentences = clauses(text)
    for at in range(len(before) - 1, -1, -1):
        told = before[at]
        start = next((s for s, e in sentences if s <= told.start <= e), 0)
        # the words before a day name its thing only up to the day told before it
        start = max(start, before[at - 1].end if at else 0)
        if not is_month(told) and dates_thing(text, told.start, start, thing):
            return told
        # a shift's thing follows its "after"; a limit's its "of" ("up to 4 weeks from the
        # adoption date … within 21 days of adoption" both count from the adoption)
        shift_end = past_since(text, told.end)
        # "from today" names no thing of an earlier shift's: "… after today's meeting"
        if told.how and thing & thing_words(text, shift_end) - set(listed("today_words")):
            named = named_origin(text, shift_end, before[:at], guessed)
            return named or (anchor(before[:at]) if guessed else None)
    return None


NEXT_WORD = re.compile(r"\s*(\w+)")  # the word right after a phrase
BACK_NOTE = "before"  # the word the review's note of a day counted back says
DAYS_PER_YEAR = 365  # a told period this long or longer is a year's frame
STAY_REACH = 31  # days: a day counted this soon after a written one is a later day of its stay
NAMING_REACH = 30  # "this letter is dated 17.01.25": how far before its day a document names itself
WORKDAYS = (rrule.MO, rrule.TU, rrule.WE, rrule.TH, rrule.FR)  # the days a working day is


def overnight(unit: str) -> bool:
    """Whether a length's unit is a stay's night, which runs into the next day (no hour)."""
    said = unit.lower().removesuffix("s")
    return said in listed("overnight_units") and said not in listed("hour_units")


def yearlong(told: Told) -> bool:
    """Whether a told period is a year or more ("the 2027 spring show", "2026/27"): the
    frame a member's day falls in, never the day a word beside it dates."""
    return told.last - told.first >= DAYS_PER_YEAR - 1


def is_period(told: Told) -> bool:
    """Whether a told period runs over several days and is no whole month or year (a frame)."""
    return told.first < told.last and not is_month(told) and not yearlong(told)


def is_month(told: Told) -> bool:
    first, last = (dt.date.fromordinal(int(d)) for d in (told.first, told.last))
    return first.day == 1 and (last + dt.timedelta(days=1)).day == 1 and first.month == last.month


@cache
def next_weekday_pattern() -> re.Pattern[str]:
    """ "the following Monday", "the next Friday", "the Saturday straight after it" (or "the
    first Saturday after it", as read: "1st"), "the Friday before" (or "beforehand"), "the
    Friday immediately following the last class" (a ``duration_next`` word after the
    weekday, before a ``meeting_owners`` word and its thing)."""
    nexts = alternation(listed("duration_next"))
    days = alternation([*WEEKDAYS, *listed("weekend_words")])
    back = [w for w in listed("duration_before") if " " not in w]  # "the Friday beforehand"
    ways = alternation([*listed("clause_shifts"), *back])
    owners = alternation(listed("meeting_owners"))
    return re.compile(
        rf"(?i)\bthe\s+(?:{nexts})\s+(?P<weekday>{days})\b"
        rf"|\bthe\s+(?:1st\s+)?(?P<beside>{days})\s+(?:[a-z]+\s+)?"
        rf"(?P<way>{ways}|(?:{nexts})(?=\s+(?:{owners})\b))\b"
    )


def next_weekday(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> Counted | None:
    """The first such weekday (a weekend: its Saturday and Sunday) after the last day told
    before it (before its first day, for "the Friday before": a length's last day stands
    for a period whose first is the day it counts from, as in :func:`shifted_day`)."""
    backward = bool(match["way"]) and match["way"].lower() in listed("duration_before")
    before = [t for t in before if not (backward and period_end(t))]
    base = named_origin(match.string, match.end(), before) if match["way"] else None
    base = base or fallback_origin(match.string, match.end(), before, backward)
    if base is None:
        return None
    name = (match["weekday"] or match["beside"]).lower()
    # "the weekend after": its Saturday and Sunday; "the weekend before": both before the day
    weekend = name in listed("weekend_words")
    said = name if weekend else name.title()
    if backward:
        weekday = calendar.SUNDAY if weekend else WEEKDAYS.index(name)
        start = dt.date.fromordinal(int(base.first))
        day = base.first - ((start.weekday() - weekday - 1) % 7 + 1)
        first, how = day - weekend, f"the {said} before {iso(base.first)}"
    else:
        weekday = calendar.SATURDAY if weekend else WEEKDAYS.index(name)
        start = dt.date.fromordinal(int(base.last))
        first = base.last + (weekday - start.weekday() - 1) % 7 + 1
        how = f"the {said} after {iso(base.last)}"
    return (first, first + 1, how) if weekend else (first, how)


@cache
def next_day_pattern() -> re.Pattern[str]:
    """ "the next afternoon", "the following night", "the following business day", "the very
    next day": a ``duration_next`` word (a ``next_stress`` word before it at most) before a
    one-day unit, a ``day_parts`` or a working-day word (a longer unit, a week, is a period,
    not a day)."""
    one_day = [u for u in listed("duration_units") if unit_days(u, 1) == 1]
    parts = alternation([*one_day, *listed("day_parts"), *listed("working_day_units")])
    nexts, stress = alternation(listed("duration_next")), alternation(listed("next_stress"))
    return re.compile(rf"(?i)\bthe\s+(?:(?:{stress})\s+)?(?:{nexts})\s+(?P<unit>{parts})\b")


def next_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The day after the last day told before it (a ferry sailing late on 8 October that
    docks the next afternoon arrives on the 9th), or the working day after it ("the
    following business day")."""
    base = anchor(before)
    if base is None:
        return None
    unit = match["unit"].lower()
    if unit in listed("working_day_units"):  # a Friday's following business day: Monday
        return working_days(base.last, 1, back=False), f"{match[0]} after {iso(base.last)}"
    return base.last + 1, f"{match[0]} after {iso(base.last)}"


def moved(day: float, count: int, unit: str, back: bool) -> float:
    """``day`` moved ``count`` units on, or back: months on the calendar, working days over
    the weekdays Monday to Friday (:func:`working_days`), others in days."""
    if unit in listed("working_day_units"):
        return working_days(day, count, back)
    if unit in calendar_units():
        months = count * calendar_units()[unit]
        when = dt.date.fromordinal(int(day)) + relativedelta(months=-months if back else months)
        return float(when.toordinal())
    return day - unit_days(unit, count) if back else day + unit_days(unit, count)


def working_days(day: float, count: int, back: bool) -> float:
    """The ``count``-th weekday (Monday to Friday) after ``day``, or before it; public
    holidays are not counted out, as the document names no country's."""
    start = dt.date.fromordinal(int(day))
    if back:  # rrule counts forward: the last ``count`` weekdays from far enough before
        first, until = start - dt.timedelta(days=2 * count + 7), start - dt.timedelta(days=1)
        found = list(rrule.rrule(rrule.DAILY, dtstart=first, until=until, byweekday=WORKDAYS))
        return float(found[-count].date().toordinal())
    after = start + dt.timedelta(days=1)
    found = list(rrule.rrule(rrule.DAILY, dtstart=after, count=count, byweekday=WORKDAYS))
    return float(found[-1].date().toordinal())


def count_and_unit(match: re.Match[str]) -> tuple[int, str]:
    """The count and the unit a length's or a shift's phrase says ("ten days", "a week": a
    ``duration_one`` word counts one), from its ``count`` and ``unit`` groups (or ``size``
    and ``kind``: "a 2 year warranty")."""
    groups = match.groupdict()
    said, unit = (
        groups.get("count") or groups.get("size") or "",
        groups.get("unit") or groups.get("kind") or "",
    )
    return (int(said) if said.isdigit() else 1), unit.lower()


def units(count: int, unit: str) -> str:
    """A count of a unit as the review writes it: "1 year", "2 years" (inflect's plural)."""
    return f"{count} {spelling().plural(unit, count)}"


@cache
def spelling() -> inflect.engine:
    return inflect.engine()


def iso(day: float) -> str:
    return dt.date.fromordinal(int(day)).isoformat()
