"""Days written in numbers: "03/11/2027", "3.11.27", and ranges, "7-9.6.2027".

A date in numbers is read only where the document shows which part is the day
(:func:`numeric_order`: dots, a part above 12, or the date order of the countries it names,
from CLDR by babel), never guessed: 3/11 is 3 November in Lyon and March 11 in Denver, and a
wrong guess would be a wrong date, not a missing one. A two-digit year is read as strptime's
``%y`` reads it. Pure functions over text.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from functools import cache

import babel

from engine.structured import vocab
from engine.structured.named_days import Periods
from engine.structured.periods import DAY, ordinal

# A date written in numbers, day and month in either order, its year in four digits or two
# ("03/11/2027", "3.11.2027", "3.11.27"); never inside a word or a version ("v1.12.10").
NUMERIC_DAY = re.compile(
    r"(?<![\w/.])(?P<a>[0-3]?\d)(?P<sep>[/.])(?P<b>[0-3]?\d)(?P=sep)"
    r"(?P<y>(?:1[89]|20)\d\d|\d\d)(?![\d/]|\.\d)"
)
SHORT_YEAR = "%y"  # a two-digit year as strptime reads it: 69-99 the 1900s, 00-68 the 2000s
# A day range written in numbers, the range in its days: "7-9.6.2027", "6–8/9/2027", and the
# start with its month too, "21.09.–24.09.2027" or "5/7–9/7/2027" (a day-first habit: the
# month first cannot hold a range of days there), its separator the end's.
NUMERIC_SPAN = re.compile(
    r"(?<![\d/.])(?P<first>[0-3]?\d)(?:(?P<first_sep>[/.])(?P<first_month>[01]?\d)\.?|\.)?\s*[-–]\s*"
    r"(?P<a>[0-3]?\d)(?P<sep>[/.])(?P<b>[01]?\d)(?P=sep)(?P<y>(?:1[89]|20)\d\d)(?![\d/]|\.\d)"
)
MONTHS = 12
ABBREVIATED = 3  # the letters of a weekday's shortest written form ("Tue")


def cut_short(name: str) -> str:
    """A weekday's name cut short anywhere after its first three letters, as a pattern:
    "tue", "tues", "tuesday" (the standard library's abbreviations have three letters only,
    and people write "Tues" and "Thurs" too)."""
    rest = name[ABBREVIATED:]
    return name[:ABBREVIATED] + "".join(f"(?:{c}" for c in rest) + ")?" * len(rest)


# A weekday, whole or cut short, right before a date ("Wed 1/4/26", "Tues 6/3/25",
# "Tuesday, 3.11.27")
WEEKDAY_BEFORE = re.compile(
    rf"(?i)\b({'|'.join(cut_short(d.lower()) for d in calendar.day_name)})\.?,?\s+$"
)
DAY_FIRST, MONTH_FIRST = "day first", "month first"


def numeric_spans(document: str) -> Periods:
    """The day ranges ``document`` writes in numbers (:data:`NUMERIC_SPAN`), where its dates
    write the day first (:func:`numeric_order`); a start with a month of its own writes it
    as the end does ("5/7–9/7/2027", "5.7.–9.7.2027", never "5.7–9/7/2027"), one without may
    keep its ordinal dot ("9.–11.11.2027")."""
    return tuple(span for _, _, span in numeric_span_phrases(document))


def numeric_span_phrases(document: str) -> list[tuple[int, int, tuple[int, float, float]]]:
    """Where each range :func:`numeric_spans` reads starts and ends, and the range."""
    found = list(NUMERIC_SPAN.finditer(document))
    if not found or numeric_order(document, numeric_matches(document)) != DAY_FIRST:
        return []
    spans = []
    for match in found:
        if match["first_month"] and match["sep"] != match["first_sep"]:
            continue
        end_month, year = int(match["b"]), int(match["y"])
        start_month = int(match["first_month"] or end_month)
        start = ordinal(year, start_month, int(match["first"])) if start_month <= MONTHS else None
        end = ordinal(year, end_month, int(match["a"])) if end_month <= MONTHS else None
        if start is not None and end is not None and start <= end:
            spans.append((match.start(), match.end(), (DAY, start, end)))
    return spans


def numeric_days(document: str) -> tuple[float, ...]:
    """The days ``document`` writes in numbers, in the order :func:`numeric_order` reads;
    none when it cannot tell the day from the month (3/11 is 3 November in Lyon and March 11
    in Denver, and a wrong guess would be a wrong date, not a missing one)."""
    return tuple(day for _, _, day in numeric_phrases(document))


def numeric_phrases(document: str) -> list[tuple[int, int, float]]:
    """Where each day :func:`numeric_days` reads starts and ends, and the day."""
    found = numeric_matches(document)
    order = numeric_order(document, found) if found else None
    if order is None:  # "Sat 5/5/29" is 5 May in either order
        found, order = [m for m in found if int(m["a"]) == int(m["b"])], DAY_FIRST
    days = []
    for match in found:
        first, second = int(match["a"]), int(match["b"])
        day, month = (first, second) if order == DAY_FIRST else (second, first)
        when = ordinal(full_year(match["y"]), month, day) if month <= MONTHS else None
        days += [] if when is None else [(match.start(), match.end(), when)]
    return days


def numeric_matches(document: str) -> list[re.Match[str]]:
    """The numbers ``document`` writes as a date (:data:`NUMERIC_DAY`) whose day and month
    can be told apart: one part is a month ("21/22/23 May" lists days, not a date)."""
    found = NUMERIC_DAY.finditer(document)
    return [m for m in found if min(int(m["a"]), int(m["b"])) in range(1, MONTHS + 1)]


def full_year(written: str) -> int:
    """A numeric date's year: four digits as written, two as strptime reads them."""
    return dt.datetime.strptime(written, SHORT_YEAR).year if len(written) == 2 else int(written)


def numeric_order(document: str, found: list[re.Match[str]]) -> str | None:
    """Whether a document's numeric dates write the day first: dots always do (3.11.2027);
    a first part above 12 says day first and a second part above 12 month first; else the
    order a weekday written before a date fits ("Wed 1/4/26" is 1 April, a Wednesday); else the
    order the countries it names, or the countries of the cities it names, write dates in
    (CLDR's short date pattern, by babel), when they agree; else day first where it writes a
    day range before the month ("9–11/11/2026", which no month-first habit writes); else
    ``None``."""
    if all(m["sep"] == "." for m in found):
        return DAY_FIRST
    day_first = any(int(m["a"]) > MONTHS for m in found)
    month_first = any(int(m["b"]) > MONTHS for m in found)
    if day_first != month_first:
        return DAY_FIRST if day_first else MONTH_FIRST
    if day_first:
        return None  # both orders at once: not dates this reading can trust
    told = {order for m in found if (order := weekday_order(m)) is not None}
    if len(told) == 1:
        return told.pop()
    places = [vocab.country_of_city(city) for city in vocab.named_cities(document)]
    places += vocab.named_countries(document)
    orders = {territory_order(p.alpha_2) for p in places if p is not None} - {None}
    if len(orders) == 1:
        return orders.pop()
    # a range whose start writes its own month ("5/7–9/7/2027") a month-first habit writes too
    days_only = any(not m["first_month"] for m in NUMERIC_SPAN.finditer(document))
    return DAY_FIRST if not orders and days_only else None


def weekday_order(match: re.Match[str]) -> str | None:
    """The one order in which a numeric date falls on the weekday written right before it
    ("Wed 1/4/26", "Tuesday 3.11.27"); ``None`` with no weekday there, or both or neither
    order fitting."""
    said = WEEKDAY_BEFORE.search(match.string, 0, match.start())
    if said is None:
        return None
    named = weekday_numbers().get(said[1].lower()[:3])
    first, second, year = int(match["a"]), int(match["b"]), full_year(match["y"])
    fits = [
        order
        for order, (day, month) in ((DAY_FIRST, (first, second)), (MONTH_FIRST, (second, first)))
        if month <= MONTHS and (when := ordinal(year, month, day)) is not None
        and dt.date.fromordinal(int(when)).weekday() == named
    ]  # fmt: skip
    return fits[0] if len(fits) == 1 else None


@cache
def weekday_numbers() -> dict[str, int]:
    """Each weekday's first three letters and its number, Monday 0 (``calendar``)."""
    return {name.lower()[:3]: n for n, name in enumerate(calendar.day_name)}


@cache
def territory_order(alpha_2: str) -> str | None:
    """The order a country writes a date's day and month in, from the short date pattern of
    its likeliest locale ("dd/MM/y" in France, "M/d/yy" in the US)."""
    try:
        pattern = babel.Locale.parse(f"und_{alpha_2}").date_formats["short"].pattern
    except (ValueError, babel.UnknownLocaleError):  # a territory CLDR has no locale for
        return None
    day, month = pattern.find("d"), pattern.find("M")
    if day < 0 or month < 0 or pattern.find("y") < min(day, month):
        return None  # a year-first pattern ("y-MM-dd", Canada's) says nothing of 3/11/2027
    return DAY_FIRST if day < month else MONTH_FIRST
