"""The periods a document states and the dates it writes, as spans of day ordinals.

A document sets the era of new dates in two ways: it states a period ("4-20 March 2027",
"7 September to 18 December", "March to May", "the second quarter of 2026", "autumn 2026",
"August 2026 to May 2027", a bare year) or it writes dates ("issued 2026-11-20"). :func:`read`
finds both. A stated period bounds new dates; written dates only anchor them (the caller
gives them slack). Of the periods, the most precise kind the document states is the one that
counts (a term's "7 September to 18 December" over its "Autumn term 2026", "March to May" over
"spring"); a year is a period only when nothing finer is written. A day or month without its
year takes the nearest year the document names, and a range's start that would come after its
end is in the year before ("November to March 2027"). Month names come from :mod:`calendar`;
seasons, quarters, parts of a month and range words from ``period_words.json``.
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from text_to_num import alpha2digit

WORDS_FILE = Path(__file__).with_name("period_words.json")
DAY, PART, MONTH, SEASON, YEAR = range(5)  # how precise a stated period is, finest first
Span = tuple[float, float]
LAST_MONTH_DAY = 31  # a part's last day; the month's own length caps it
NUMBER_LANGUAGE = "en"  # the language text2num reads numbers in words in
HYPHENED_UNIT = re.compile(r"-(?=(?:year|month|day|night|week|hour)s?\b)", re.IGNORECASE)
# A month-first day with no year, only where it cannot be a count ("March 4th", "by May 5."
# but not "in March 2 teams"): an ordinal suffix, or punctuation or the end after it.
US_DAY = r"(?P<d1>[0-3]?\d)(?:(?:st|nd|rd|th)\b|(?=[,.;:)]|\s*$))"
# A month-first day with no year after a ``month_day_cues`` word ("reply by June 9 if …"): a
# count after a month is no day only where it counts things ("in March 2 teams"), which such a
# word does not lead.
CUED_DAY = r"(?P<d1>[0-3]?\d)(?![\d%]|[-/.:]\d)"
# Month names and their three-letter forms, as the calendar module writes them
MONTH_WORDS = tuple(m for m in (*calendar.month_name, *calendar.month_abbr) if m)
# Words that name a month or a weekday: never a city's or a thing's name
CALENDAR_WORDS = frozenset((*MONTH_WORDS, *calendar.day_name, *calendar.day_abbr))
HYPHENED_HALF = re.compile(r"-(?=and-a-half\b)|(?<=\band)-(?=a-half\b)|(?<=\band-a)-(?=half\b)")


@dataclass(frozen=True)
class Reading:
    """What a document says about when: stated periods (with their precision) and dates."""

    periods: tuple[tuple[int, float, float], ...]
    points: tuple[float, ...]

    def period(self) -> Span | None:
        """The span the document's finest stated periods cover, its written dates included
        (a year only when it writes no date); ``None`` when it states none."""
        finer = [p for p in self.periods if p[0] < YEAR]
        chosen = finer or ([] if self.points else list(self.periods))
        if not chosen:
            return None
        level = min(p[0] for p in chosen)
        ends = [e for p in chosen if p[0] == level for e in p[1:]] + list(self.points)
        return min(ends), max(ends)

    def written_span(self) -> Span | None:
        """The span of the days the document writes itself: its day ranges and durations
        ("9 to 12 March", "a three-day festival from 18 June"; a deadline written beside
        them is another day), else its first and last date when it writes two or more;
        ``None`` when it writes fewer days than that (a month, a season or a week of a month
        is not a day the document names)."""
        ranges = [e for p in self.periods if p[0] == DAY for e in p[1:]]
        days = sorted(set(ranges or self.points))
        return (days[0], days[-1]) if len(days) > 1 else None

    def days(self) -> list[float]:
        """Every day the document writes or ends a period on."""
        return [*self.points, *(e for p in self.periods for e in p[1:])]


@cache
def words() -> dict[str, object]:
    return dict(json.loads(WORDS_FILE.read_text(encoding="utf-8")))


@cache
def month_numbers() -> dict[str, int]:
    """Month spellings (full names, abbreviations, the data file's extras) → their number."""
    found = {calendar.month_name[m]: m for m in range(1, 13)}
    found |= {calendar.month_abbr[m]: m for m in range(1, 13)}
    extras = words()["extra_months"]
    assert isinstance(extras, dict)
    return found | {k.capitalize(): int(v) for k, v in extras.items()}


def alternation(names: list[str]) -> str:
    return "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))


def listed(key: str) -> list[str]:
    entry = words()[key]
    assert isinstance(entry, dict | list)
    return list(entry)


def month(n: str) -> str:
    """A month's name or abbreviation, whole: "Apr" of "Aprons" is none."""
    return rf"(?P<{n}>(?:{alternation(list(month_numbers()))})(?:\.|\b))"


def cued() -> str:
    """Right after a ``month_day_cues`` word and one space (a lookbehind for each)."""
    return "(?:" + "|".join(rf"(?<=\b{re.escape(w)}\s)" for w in listed("month_day_cues")) + ")"


def day(n: str) -> str:
    return rf"(?P<{n}>[0-3]?\d)(?:st|nd|rd|th)?(?!\d)"


def year(n: str) -> str:
    return rf"(?P<{n}>(?:1[89]|20)\d\d)(?!\d)"


def iso(n: str) -> str:
    """An ISO 8601 day, with the time of day it may carry ("2027-02-06T22:00"): the day counts."""
    clock = r"(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?"
    return rf"(?P<{n}>\d{{4}}-\d{{2}}-\d{{2}}){clock}"


def part(n: str) -> str:
    ordinals, divisions = alternation(listed("quarters")), alternation(listed("month_divisions"))
    counted = rf"(?:{ordinals})\s+(?:{divisions})"
    return rf"(?:(?P<{n}>(?i:{alternation(listed('month_parts'))}|{counted}))\s*)"


def joined(joins: list[str]) -> str:
    """Two ends' join: a mark with any space around it ("9–11", "9 - 11"), or a word with
    space on both sides ("9 to 11")."""
    words, marks = [j for j in joins if j.isalpha()], [j for j in joins if not j.isalpha()]
    return rf"(?:\s*(?:{alternation(marks)})\s*|\s+(?:{alternation(words)})\s+)"


def dash() -> str:
    """A range's join, and the weekday a day after it may carry ("Tue 12 – Thu 14 Oct"): the
    day before a join is read without its weekday, which stands before it."""
    weekday = rf"(?:(?:{alternation([*calendar.day_name, *calendar.day_abbr])})\.?,?\s+)?"
    return rf"{joined(listed('range_joins'))}{weekday}"


@cache
def patterns() -> list[tuple[re.Pattern[str], Callable[[re.Match[str], int], Found]]]:
    """The phrasings, most specific first: each match is masked before the next is tried."""
    to, m1, m2, d1, d2 = dash(), month("m1"), month("m2"), day("d1"), day("d2")
    # the days between: "3, 4 and 5", "3 and 4 and 5", "Thursday 4, Friday 5 and Saturday 6"
    weekday = rf"(?:(?:{alternation([*calendar.day_name, *calendar.day_abbr])})\.?\s+)?"
    listed_days = rf"(?:(?:,\s*|\s+and\s+){weekday}[0-3]?\d(?:st|nd|rd|th)?(?!\d))*,?"
    y1, y2 = rf"(?:,?\s+{year('y1')})?", rf"(?:,?\s+{year('y2')})?"
    season = rf"(?P<season>(?i:{alternation(listed('seasons'))}))"
    # a short end closes its phrase ("2027-04-12 to 15," or "... 15 in Lyon"), not a count's
    # ("to 15 people"), as a later ordinal does (named_days: "later_day_followers")
    followers = alternation(listed("later_day_followers"))
    phrase_end = rf"(?=\s*(?:[,;:)!?]|\.(?!\d)|$)|\s+(?:{followers})\b)"
    quarter = rf"(?:Q(?P<q>[1-4])|(?P<qw>(?i:{alternation(listed('quarters'))}))\s+quarter)"
    table: list[tuple[str, Callable[[re.Match[str], int], Found]]] = [
        (rf"\b{iso('a')}(?:{to}|/){iso('b')}\b", iso_range),  # 2026-12-01 to 2026-12-05
        (rf"\b{iso('a')}/(?P<b>(?:\d{{2}}-)?\d{{2}})\b(?!-)", iso_short_range),  # 2027-04-12/15
        (rf"\b{iso('a')}{to}(?P<b>\d{{2}}){phrase_end}", iso_short_range),  # 2027-04-12 to 15
        (rf"\b{iso('a')}\b", iso_point),
        (rf"\b{d1}\s+{m1}{y1}{to}{d2}\s+{m2}{y2}", day_range),  # 7 September to 18 December
        (
            rf"\b(?:the\s+)?{d1}{listed_days}{to}(?:the\s+)?{d2}\s+of\s+{m2}{y2}",
            day_range,
        ),  # the 9th to the 11th of May; 9th - 11th of May; the 3rd, 4th and 5th of May
        (
            rf"\b{d1}\.?{listed_days}{to}{d2}\.?\s+{m2}{y2}",
            day_range,
        ),  # 4-20 March 2027; 3, 4 and 5 March; 4.–6. March (a day-first habit's dots)
        (rf"\b{d1}(?:,\s*[0-3]?\d(?!\d))+,\s*{d2}\s+{m2}{y2}", day_range),  # 3, 4, 5 March
        (rf"\b{d1}(?:/[0-3]?\d)*/{d2}\s+{m2}{y2}", day_range),  # 14/15/16 October
        (rf"\b{m1}\s+{d1}{to}(?:the\s+)?(?:{m2}\s+)?{d2}{y2}", day_range),  # March 4-20, 2027
        (rf"\b{m1}\s+{d1}{listed_days}{to}{d2}{y2}", day_range),  # March 4, 5 and 6, 2027
        (rf"\b{d1}\s+{m1}{y1}\b", day_point),  # 3 June 2025, 15 March
        (rf"\bthe\s+{d1}\s+of\s+{m1}{y1}\b", day_point),  # the 3rd of June
        (rf"\b{m1}\s+{d1},?\s+{year('y1')}", day_point),  # March 4, 2027
        (rf"\b{m1}\s+{US_DAY}", day_point),  # March 4th, March 4. (the nearest year's)
        (rf"{cued()}{m1}\s+{CUED_DAY}", day_point),  # reply by June 9 if …
        (rf"\b{part('p1')}?{m1}{y1}{to}{part('p2')}?{m2}{y2}\b", month_range),  # March to May
        (rf"\b{part('p1')}{m1}{y1}\b", month_range),  # early January 2027
        (rf"\b{m1}{y1}\b", month_range),  # May 2026, June
        (rf"\b{quarter}(?:\s+of)?(?:\s+{year('y1')})?", quarter_span),  # Q4 2026
        (rf"\b{season}(?:\s+[a-z]+)?(?:\s+of)?\s+{year('y1')}", season_span),  # autumn 2026
        (rf"\b{year('y1')}\s*[/–-]\s*(?P<y2>\d\d)(?!\d)", year_span),  # 2025/26
        (rf"\b{year('y1')}\b", year_span),
    ]
    return [(re.compile(text), handler) for text, handler in table]


Found = tuple[int, float, float] | float | None  # a period, a written day, or nothing
Near = Callable[[int], int | None]  # the nearest year the document names to a position


def read_phrases(document: str) -> Reading:
    """The periods and dates ``document``'s own phrases state."""
    found = [what for _, what in phrases_at(document)]
    periods = tuple(f for f in found if isinstance(f, tuple))
    return Reading(periods, tuple(f for f in found if not isinstance(f, tuple)))


def phrases_at(document: str) -> list[tuple[int, tuple[int, float, float] | float]]:
    """Each period or date ``document``'s own phrases state, with where its phrase starts."""
    return [(start, what) for start, _, what in phrase_spans(document)]


def phrase_spans(
    document: str, numeric: tuple[tuple[int, int, int], ...] = ()
) -> list[tuple[int, int, tuple[int, float, float] | float]]:
    """Each period or date ``document``'s own phrases state, with where its phrase starts and
    ends. ``numeric``: the days a caller read in numbers (start, end, year; :mod:`.stated`),
    whose phrases are no others' and whose years date the phrases around them ("23/12/27 …
    refunds until 12 January": January 2028)."""
    years = [(m.start(), int(m[0])) for m in re.finditer(r"\b(?:1[89]|20)\d\d\b", document)]
    years = sorted([*years, *((start, year) for start, _, year in numeric)])
    found: list[tuple[int, int, tuple[int, float, float] | float]] = []
    text = masked(document, [(start, end) for start, end, _ in numeric])
    for pattern, handler in patterns():
        read_spans: list[tuple[int, int]] = []
        for match in pattern.finditer(text):
            year = stepped_year(text, match.end(), years) or nearest(years, match.start())
            what = handler(match, year or 0)
            if what is None:
                continue
            found.append((match.start(), match.end(), what))
            read_spans.append(match.span())
        text = masked(text, read_spans)
    return found


def stepped_year(text: str, end: int, years: list[tuple[int, int]]) -> int | None:
    """The year a phrase ending at ``end`` is told in by a step from the year the text last
    wrote before it ("our fete was on 5 September 2027 … the end of May next year": 2028;
    "10 February of the year after", "in May last year"); ``None`` where none follows."""
    said = relative_year_pattern().match(text, end)
    written = [year for at, year in years if at < end]
    if said is None or not written:
        return None
    return written[-1] + year_step(said["step"].lower())


def year_step(word: str) -> int:
    """How many years on a ``relative_year_pattern`` word counts: the next, the previous, this."""
    if word in listed("duration_next"):
        return 1
    return -1 if word in listed("duration_previous") or word == LAST else 0


LAST = "last"  # "last year": the one before, as "last week" is (a word of many senses elsewhere)


@cache
def relative_year_pattern() -> re.Pattern[str]:
    """A year named by its step from the one the text last wrote: "next year", "the following
    year", "last year", "this year"."""
    steps = [*listed("duration_next"), *listed("duration_previous"), *listed("present_references")]
    return re.compile(
        rf"(?i)\s+(?:of\s+)?(?:the\s+)?(?P<step>{alternation([*steps, LAST])})\s+year\b"
    )


def day_starts(document: str, day: float) -> int | None:
    """Where the first phrase writing ``day`` starts in ``document``; ``None`` when none does."""
    return min((at for at, what in phrases_at(document) if what == day), default=None)


def masked(text: str, spans: list[tuple[int, int]]) -> str:
    """``text`` with the phrases already read blanked out (same length, so positions hold)."""
    if not spans:
        return text
    pieces, at = [], 0
    for start, end in spans:
        pieces += [text[at:start], " " * (end - start)]
        at = end
    return "".join([*pieces, text[at:]])


def nearest(years: list[tuple[int, int]], at: int) -> int | None:
    return min(years, key=lambda y: abs(y[0] - at))[1] if years else None


def ordinal(year: int, month: int, day: int) -> float | None:
    try:
        return float(dt.date(year, month, day).toordinal())
    except ValueError:
        return None


def month_of(match: re.Match[str], name: str) -> int:
    return month_numbers()[match[name].rstrip(".")]


def given(match: re.Match[str], name: str) -> str | None:
    return match.groupdict().get(name)


def iso_day(text: str) -> float | None:
    year, month, day = (int(p) for p in text.split("-"))
    return ordinal(year, month, day)


def iso_point(match: re.Match[str], year: int) -> Found:
    return iso_day(match["a"])


def iso_short_range(match: re.Match[str], year: int) -> Found:
    """ISO 8601's interval with its end cut short: "2027-04-12/15" ends on the 15th,
    "2027-04-28/05-02" on 2 May; the end takes what it leaves out from the start."""
    start = match["a"]
    return iso_span(start, start[: len(start) - len(match["b"])] + match["b"])


def iso_range(match: re.Match[str], year: int) -> Found:
    return iso_span(match["a"], match["b"])


def iso_span(start: str, end: str) -> Found:
    """The days from one ISO day to another, ``None`` when either is no day or they run back."""
    low, high = iso_day(start), iso_day(end)
    return (DAY, low, high) if low is not None and high is not None and low <= high else None


def day_point(match: re.Match[str], year: int) -> Found:
    """A day of a month: in its written year, else in the nearest year the document names, or
    the year before or after it where only that one falls on the weekday written right before
    it ("shuts on Wednesday 23 December and opens on Tuesday 5 January 2027": 2026's)."""
    named = int(given(match, "y1") or year)
    if not named:
        return None
    month, number = month_of(match, "m1"), int(match["d1"])
    weekday = None if given(match, "y1") else weekday_before(match)
    if weekday is not None and not falls_on(named, month, number, weekday):
        named = next((y for y in (named - 1, named + 1) if falls_on(y, month, number, weekday)),
                     named)  # fmt: skip
    return ordinal(named, month, number)


def weekday_before(match: re.Match[str]) -> int | None:
    """The weekday (0 for Monday) written right before a day ("Wed 23 December", "Friday, the
    3rd of May"), or ``None``."""
    said = WEEKDAY_BEFORE.search(match.string, max(match.start() - WEEKDAY_REACH, 0), match.start())
    if said is None:
        return None
    name = said["weekday"][:3].lower()
    return next(i for i, abbr in enumerate(calendar.day_abbr) if abbr.lower() == name)


def falls_on(year: int, month: int, number: int, weekday: int) -> bool:
    day = ordinal(year, month, number)
    return day is not None and dt.date.fromordinal(int(day)).weekday() == weekday


WEEKDAY_REACH = 16  # "Wednesday, the ": the longest a weekday and its joiners stand before a day
WEEKDAY_BEFORE = re.compile(
    rf"(?i)\b(?P<weekday>{'|'.join(calendar.day_name)}|{'|'.join(calendar.day_abbr)})"
    r"\.?,?\s+(?:the\s+)?$"
)


def day_range(match: re.Match[str], year: int) -> Found:
    """ "4-20 March 2027", "7 September to 18 December", "March 4-20, 2027"."""
    end_month = month_of(match, "m2") if given(match, "m2") else month_of(match, "m1")
    start_month = month_of(match, "m1") if given(match, "m1") else end_month
    end_year = int(given(match, "y2") or given(match, "y1") or year)
    start_year = int(given(match, "y1") or end_year)
    start = ordinal(start_year, start_month, int(match["d1"]))
    end = ordinal(end_year, end_month, int(match["d2"]))
    if start is not None and end is not None and start > end and not given(match, "y1"):
        start = ordinal(start_year - 1, start_month, int(match["d1"]))
    if not end_year or start is None or end is None or start > end:
        return None
    return DAY, start, end


def month_range(match: re.Match[str], year: int) -> Found:
    """ "March to May", "August 2026 to May 2027", "early January 2027", "June"."""
    alone = not given(match, "m2") and not given(match, "y1") and not given(match, "p1")
    if alone and match["m1"].rstrip(".") in calendar.month_abbr[1:]:
        return None  # "May", "Jan", "Mar" alone are as often a word or a name
    last = "m2" if given(match, "m2") else "m1"
    end_year = int(given(match, "y2") or given(match, "y1") or year)
    start_year = int(given(match, "y1") or end_year)
    if not end_year:
        return None
    start_month, end_month = month_of(match, "m1"), month_of(match, last)
    if (start_year, start_month) > (end_year, end_month):
        start_year -= 1
    first_day, _ = part_days(given(match, "p1"))
    _, last_day = part_days(given(match, "p2") if last == "m2" else given(match, "p1"))
    end_day = min(last_day, calendar.monthrange(end_year, end_month)[1])
    start, end = ordinal(start_year, start_month, first_day), ordinal(end_year, end_month, end_day)
    if start is None or end is None:
        return None
    precise = given(match, "p1") and last == "m1"
    return (PART if precise else MONTH), start, end


def part_days(part: str | None) -> tuple[int, int]:
    """The first and last day of a part of a month ("early": 1-10); the whole month else."""
    kinds = ("month_parts", "month_divisions", "quarters")
    parts, divisions, ordinals = (words()[kind] for kind in kinds)
    assert isinstance(parts, dict) and isinstance(divisions, dict) and isinstance(ordinals, dict)
    said = " ".join((part or "").lower().split())
    ordinal, _, division = said.partition(" ")
    if division in divisions:
        return division_days(int(ordinals[ordinal]), int(divisions[division]))
    first, last = parts.get(said, (1, 31))
    return int(first), int(last)


def division_days(number: int, size: int) -> tuple[int, int]:
    """The days of the ``number``-th division of ``size`` days of a month; the last one a
    month holds runs to its end (the second half of a month is days 16-31)."""
    number = min(number, LAST_MONTH_DAY // size)  # "the last half": the second
    first = (number - 1) * size + 1
    last = LAST_MONTH_DAY if first + 2 * size > LAST_MONTH_DAY + 1 else number * size
    return first, last


def quarter_span(match: re.Match[str], year: int) -> Found:
    named = int(given(match, "y1") or year)
    quarters = words()["quarters"]
    assert isinstance(quarters, dict)
    number = int(match["q"]) if given(match, "q") else int(quarters[match["qw"].lower()])
    if not named:
        return None
    last = 3 * number
    start = ordinal(named, last - 2, 1)
    end = ordinal(named, last, calendar.monthrange(named, last)[1])
    return (SEASON, start, end) if start is not None and end is not None else None


def season_span(match: re.Match[str], year: int) -> Found:
    """ "Autumn 2026", "summer of 2026", "Spring season 2027"; winter runs into the next year."""
    seasons = words()["seasons"]
    assert isinstance(seasons, dict)
    first, last = (int(m) for m in seasons[match["season"].lower()])
    start_year = int(match["y1"])
    end_year = start_year + (1 if last < first else 0)
    start = ordinal(start_year, first, 1)
    end = ordinal(end_year, last, calendar.monthrange(end_year, last)[1])
    return (SEASON, start, end) if start is not None and end is not None else None


def year_span(match: re.Match[str], year: int) -> Found:
    """A year (1 January to 31 December), or a season written across two ("2025/26"): the
    twelve months from ``season_across_years``' month of the first, as a school year or a
    league season runs, not two whole years."""
    if in_code(match):
        return None
    first = int(match["y1"])
    last = int(match["y1"][:2] + match["y2"]) if given(match, "y2") else first
    if last < first:
        return None
    start, end = ordinal(first, 1, 1), ordinal(last, 12, 31)
    if last == first + 1:
        opens = int(str(words()["season_across_years"]))
        start, end = ordinal(first, opens, 1), ordinal(last, opens, 1)
        end = end - 1 if end is not None else None
    return (YEAR, start, end) if start is not None and end is not None else None


def in_code(match: re.Match[str]) -> bool:
    """Whether a year is part of a reference ("claim ref C/2027/5521", "invoice INV-2027-0093"):
    a letter joined right before it, or a longer number that is no year joined right after."""
    text = match.string
    return bool(CODE_BEFORE.search(text, 0, match.start()) or CODE_AFTER.match(text, match.end()))


CODE_BEFORE = re.compile(r"[A-Za-z][/-]$")
CODE_AFTER = re.compile(r"[/-](?!(?:1[89]|20)\d\d\b)\d{3,}")


def in_digits(document: str) -> str:
    """``document`` with its numbers in words written in digits ("a ten-year-old" → "a 10
    year-old", "a three-day" → "a 3 day"), by text2num; a hyphen before "year" or a
    duration's unit is a space first, which it needs."""
    spaced = HYPHENED_HALF.sub(" ", HYPHENED_UNIT.sub(" ", document))
    try:
        return str(alpha2digit(spaced, NUMBER_LANGUAGE, threshold=0))
    except ValueError:  # text2num refuses some inputs; the digits already there still count
        return document
