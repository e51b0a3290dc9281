"""Days a document writes by a holiday's name: "Christmas Eve", "Boxing Day 2025", "Good
Friday", "open again after New Year's Day".

A reader knows which day "Boxing Day" is without a date beside it; a fill that does not read the
name dates nothing, or dates the holiday by another day the document writes. The names and their
days come from the python-holidays library: the calendars of the countries whose holiday names
are English by default (:func:`english_calendars`), every category each publishes (public,
bank, unofficial: "Halloween" and "Valentine's Day" are in the American one's). A name's day in a
year is the one most of those calendars give it: "Christmas Eve" is 24 December, though one
lists it on 6 January; "Labor Day" the first Monday of September. A day a holiday is observed
on (moved off a weekend) is no name's day. A name also reads without its last word
"Day": one word only before a year and never a month's name ("Christmas 2025", not "May
2027" or "to Australia"), more not before a word that may be a noun they modify ("New
Year's plans"). Its year is the one written right after it, else
the year of the last day written before it, rolled on when the holiday would fall more than
half a year before that day ("on duty Christmas Eve … open again after New Year's Day": 1 January
of the next year), else the first year the document writes; a document that writes no year dates
no holiday. Pure functions over text.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
import warnings
from collections import Counter
from functools import cache, lru_cache

import holidays

from engine.language.en.forms import NOUN_CLASS, readings
from engine.structured.other_days import Phrase
from engine.structured.periods import YEAR as YEAR_PERIOD

ENGLISH = (None, "en_US", "en_GB")  # a calendar's default language whose names are English
OBSERVED = "("  # "Christmas Day (observed)", "Christmas Eve (from 1pm)": no name's own day
DAY_WORD = " day"  # the last word a name may be written without
HALF_YEAR = 183  # a holiday this far before the day written before it is the next year's
YEAR = re.compile(r"\b(?:19|20)\d\d\b")
YEAR_AFTER = re.compile(r"[\s,]+(?P<year>(?:19|20)\d\d)\b")
NEXT_WORD = re.compile(r"\s+([A-Za-z]+)")
APOSTROPHE = "'’"  # "New Year's Eve" is written with either


@cache
def english_calendars() -> tuple[tuple[str, tuple[str, ...]], ...]:
    """The two-letter codes of python-holidays' countries whose names are English, each with
    every category of holiday it publishes."""
    found = []
    for code in holidays.list_supported_countries():
        kind = holidays.country_holidays(code).__class__
        if len(code) == 2 and getattr(kind, "default_language", None) in ENGLISH:
            found.append((code, tuple(getattr(kind, "supported_categories", ("public",)))))
    return tuple(sorted(found))


@lru_cache(maxsize=32)
def holiday_days(year: int) -> dict[str, float]:
    """Each holiday's name (lower case) and the day most English calendars give it in
    ``year``."""
    votes: dict[str, Counter[dt.date]] = {}
    with warnings.catch_warnings():  # a calendar that starts later says so; it has no day
        warnings.simplefilter("ignore")
        named = [
            (day, name)
            for code, categories in english_calendars()
            for day, name in holidays.country_holidays(
                code, years=year, categories=categories
            ).items()
        ]
    for day, names in named:
        for name in names.split("; "):
            if OBSERVED not in name:
                votes.setdefault(name.lower(), Counter())[day] += 1
    return {name: float(days.most_common(1)[0][0].toordinal()) for name, days in votes.items()}


@lru_cache(maxsize=32)
def name_pattern(year: int) -> re.Pattern[str]:
    """The names of ``year``'s holidays, longest first, and each without its last word
    "Day" (the ``short`` group)."""
    names = sorted(holiday_days(year), key=len, reverse=True)
    shorter = sorted({n.removesuffix(DAY_WORD) for n in names if n.endswith(DAY_WORD)}, key=len)
    full = "|".join(name_regex(n) for n in names)
    short = "|".join(name_regex(n) for n in reversed(shorter))
    return re.compile(rf"(?i)\b(?:(?P<full>{full})|(?P<short>{short}))(?![\w'’])")


def name_regex(name: str) -> str:
    """A name as a pattern that takes either apostrophe and "St" for "Saint"."""
    pattern = re.escape(name).replace("'", f"[{APOSTROPHE}]")
    return re.sub(r"\bsaint\\ ", r"(?:saint|st\\.?)\\ ", pattern)


def holiday_phrases(text: str, spans: list[Phrase]) -> list[Phrase]:
    """``spans`` (the days and periods ``text`` writes, in order) with the holidays it names
    among them, each in place of any phrase inside it ("Boxing Day 2025" holds "2025")."""
    years = YEAR.findall(text)
    if not years:
        return spans
    found: list[Phrase] = []
    for match in name_pattern(int(years[0])).finditer(text):
        if match["short"] and not short_name_day(text, match):
            continue  # "the Christmas party", "in May"
        before = sorted((s for s in [*spans, *found] if s[1] <= match.start()), key=lambda s: s[1])
        dated = holiday_day(text, match, before, years)
        if dated is not None:
            found.append(dated)
    kept = [s for s in spans if not any(a <= s[0] < b or s[0] <= a < s[1] for a, b, _ in found)]
    return sorted([*kept, *found], key=lambda phrase: phrase[0])


def holiday_day(
    text: str, match: re.Match[str], before: list[Phrase], years: list[str]
) -> Phrase | None:
    """The phrase of one holiday's name and its day: in the year written right after it,
    else in that of the last day written before it (the next, where it would fall more than
    half a year before that day), else in the document's first year."""
    name = (match["full"] or f"{match['short']}{DAY_WORD}").lower()
    name = re.sub(r"^st\.? ", "saint ", name.replace("’", "'"))
    after = YEAR_AFTER.match(text, match.end())
    if after is not None:
        day = holiday_days(int(after["year"])).get(name)
        return None if day is None else (match.start(), after.end(), day)
    last = last_day(before[-1]) if before else None
    year = dt.date.fromordinal(int(last)).year if last is not None else int(years[0])
    day = holiday_days(year).get(name)
    if day is not None and last is not None and day < last - HALF_YEAR:
        day = holiday_days(year + 1).get(name)
    return None if day is None else (match.start(), match.end(), day)


def last_day(phrase: Phrase) -> float | None:
    """The last day of a phrase: the day it writes, or its period's last; a whole year's
    first ("Spring fair 2027 … on Easter Monday" is in 2027, not rolled on from its end)."""
    what = phrase[2]
    if isinstance(what, float):
        return what
    return what[1] if what[0] == YEAR_PERIOD else what[2]


def short_name_day(text: str, match: re.Match[str]) -> bool:
    """Whether a name written without its "Day" names the holiday: one word only before a
    year ("Christmas 2025"; "May", "Australia" name other things), more words not before a
    noun they only modify ("New Year's plans")."""
    if " " not in match["short"].strip():
        month = match["short"].lower() in calendar_words()
        return not month and YEAR_AFTER.match(text, match.end()) is not None
    return not modifies(text, match.end())


@cache
def calendar_words() -> frozenset[str]:
    """The month and weekday names (the standard library's ``calendar``): "May 2027" is a
    month, not "May Day" written short."""
    return frozenset(n.lower() for n in (*calendar.month_name, *calendar.day_name) if n)


def modifies(text: str, end: int) -> bool:
    """Whether the word after ``end`` may be a noun a name before it only modifies ("the
    Christmas cover", "Thanksgiving dinner")."""
    after = NEXT_WORD.match(text, end)
    return after is not None and NOUN_CLASS in {r.part for r in readings(after[1].lower())}
