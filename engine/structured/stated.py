"""What a document states about when, as :class:`~engine.structured.periods.Reading`: its own
phrases (:mod:`.periods`: "6-22 March 2027", "issued 2026-11-20"), and what a sentence counts
from the one day it writes.

A sentence that writes exactly one day may go on to state a period from it without writing a
second date: a duration ("a four-day fair opening on 9 May", "home ten days later",
"registration opens a week earlier"; one that counts later or earlier also in the sentence
after; :mod:`.counted_days`), or another day named only by its weekday or its ordinal
(:mod:`.named_days`). Both
count only beside exactly one written day, so neither is ever counted from the wrong one. The
words come from ``period_words.json``.

Days written in numbers ("03/11/2027") are read only where the document shows which part is
the day (:func:`numeric_order`), never guessed.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache, lru_cache

import babel
from text_to_num import alpha2digit

from engine.structured import datelines, vocab
from engine.structured.counted_days import duration_pattern, durations, shifted, spanned
from engine.structured.named_days import (
    SENTENCE_END,
    Periods,
    later_days,
    numbered_days,
    sentence_phrases,
    weekday_programme,
    written_as,
)
from engine.structured.periods import (
    DAY,
    NUMBER_LANGUAGE,
    Reading,
    in_digits,
    ordinal,
    read_phrases,
)

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
# "the" and an ordinal in words, one or two words ("the ninth", "the twenty-first"), and what
# text2num must make of it to be a day: "the 9th"
ORDINAL_WORDS = re.compile(r"(?i)\bthe\s+(?:[a-z]+[- ])?[a-z]+(?:st|nd|rd|th)\b")
DAY_ORDINAL = re.compile(r"(?i)the\s+[0-3]?\d(?:st|nd|rd|th)")
MONTHS = 12
DAY_FIRST, MONTH_FIRST = "day first", "month first"


@lru_cache(maxsize=16)  # a table's columns each read the same document
def read(document: str) -> Reading:
    """The periods and dates ``document`` states, each phrase read once (finest first), the
    periods and days its durations give (:func:`durations`), and the periods a later weekday
    or ordinal bounds (:func:`~engine.structured.named_days.later_days`), in the text
    :func:`prepared` gives."""
    document = prepared(document)
    phrases = read_phrases(document)
    periods, points = durations(document)
    numeric = numeric_days(document)
    spans = numeric_spans(document)
    return Reading(
        phrases.periods + periods + later_days(document) + programmes(document) + spans,
        phrases.points + points + numeric,
    )


@lru_cache(maxsize=16)  # read again by one_day, lasting and the cued span
def prepared(document: str) -> str:
    """``document`` as its days are read: ordinals in digits, and named days counted from its
    dateline, the dateline itself blanked (:func:`engine.structured.datelines.about`)."""
    return datelines.about(ordinals_in_digits(document))


def programmes(document: str) -> Periods:
    """The periods a programme that dates only its first day spans: numbered days or
    weekday labels (:func:`~engine.structured.named_days.numbered_days`,
    :func:`~engine.structured.named_days.weekday_programme`)."""
    return weekday_programme(document) + numbered_days(document)


def ordinals_in_digits(document: str) -> str:
    """``document`` with each day-sized ordinal in words after "the" in digits ("the twelfth
    of August" → "the 12th of August", "on the nineteenth"), by text2num; other numbers in
    words stay as written (a duration reads them itself)."""

    def digits(match: re.Match[str]) -> str:
        try:
            written = str(alpha2digit(match[0], NUMBER_LANGUAGE))
        except ValueError:  # text2num refuses some inputs: the words stay
            return match[0]
        return written if DAY_ORDINAL.fullmatch(written) else match[0]

    return ORDINAL_WORDS.sub(digits, document)


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
    if order is None:
        return []
    days = []
    for match in found:
        first, second = int(match["a"]), int(match["b"])
        day, month = (first, second) if order == DAY_FIRST else (second, first)
        when = ordinal(full_year(match["y"]), month, day) if month <= MONTHS else None
        days += [] if when is None else [(match.start(), match.end(), when)]
    return days


def numeric_matches(document: str) -> list[re.Match[str]]:
    """The numbers ``document`` writes as a date (:data:`NUMERIC_DAY`) whose day and month
    can be told apart: one part is a month ("14/15/16 October" lists days, not a date)."""
    found = NUMERIC_DAY.finditer(document)
    return [m for m in found if min(int(m["a"]), int(m["b"])) in range(1, MONTHS + 1)]


def full_year(written: str) -> int:
    """A numeric date's year: four digits as written, two as strptime reads them."""
    return dt.datetime.strptime(written, SHORT_YEAR).year if len(written) == 2 else int(written)


def numeric_order(document: str, found: list[re.Match[str]]) -> str | None:
    """Whether a document's numeric dates write the day first: dots always do (3.11.2027);
    a first part above 12 says day first and a second part above 12 month first; else the
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
    places = [vocab.country_of_city(city) for city in vocab.named_cities(document)]
    places += vocab.named_countries(document)
    orders = {territory_order(p.alpha_2) for p in places if p is not None} - {None}
    if len(orders) == 1:
        return orders.pop()
    # a range whose start writes its own month ("5/7–9/7/2027") a month-first habit writes too
    days_only = any(not m["first_month"] for m in NUMERIC_SPAN.finditer(document))
    return DAY_FIRST if not orders and days_only else None


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


def lasting(document: str) -> float | None:
    """How many days after its first the last day of what ``document`` is about falls, when
    it states that only as a length ("the trial lasts four days": 2) in sentences that
    write no day, all of them agreeing; ``None`` otherwise. What a template's own start is
    then counted from."""
    found = set()
    for sentence in SENTENCE_END.split(prepared(document)):
        if sentence_phrases(sentence).points or sentence_phrases(sentence).periods:
            continue
        for match in duration_pattern().finditer(in_digits(sentence)):
            length = None if shifted(match) else spanned(match)
            found |= {length[1]} if length else set()
    return next(iter(found)) if len(found) == 1 else None


def one_day(document: str) -> float | None:
    """The day of a one-day thing: the one day ``document`` writes, with no period verb before
    it ("the meetup is on 19 March"; "starts on 19 March" leaves its end open, "closes on" its
    start), where it states no period of days and no length. Nothing says the thing goes on,
    so its end is that day too; ``None`` otherwise."""
    reading = read(document)
    days = set(reading.points)
    goes_on = (lasting(document) or 0.0) > 0  # a length within its day ("two hours") is 0
    if len(days) != 1 or goes_on:
        return None
    day = days.pop()
    if any(p[0] == DAY and p[1:] != (day, day) for p in reading.periods):
        return None
    for sentence in SENTENCE_END.split(prepared(document)):
        if day in sentence_phrases(sentence).points:
            return day if written_as(sentence, day) is None else None
    return None
