"""What a document states about when, as :class:`~engine.structured.periods.Reading`: its own
phrases (:mod:`.periods`: "6-22 March 2027", "issued 2026-11-20"), and what a sentence counts
from the one day it writes.

A sentence that writes exactly one day may go on to state a period from it without writing a
second date: a duration ("a four-day fair opening on 9 May", "home ten days later",
"registration opens a week earlier"; one that counts later or earlier also in the sentence
after), or another day named only by its weekday or its ordinal (:mod:`.named_days`). Both
count only beside exactly one written day, so neither is ever counted from the wrong one. The
words come from ``period_words.json``.

Days written in numbers ("03/11/2027") are read only where the document shows which part is
the day (:func:`numeric_order`), never guessed.
"""

from __future__ import annotations

import math
import re
from functools import cache, lru_cache

import babel
from text_to_num import alpha2digit

from engine.structured import datelines, vocab
from engine.structured.named_days import (
    END,
    SENTENCE_END,
    Periods,
    later_days,
    listed_set,
    lower_words,
    numbered_days,
    only_day,
    sentence_phrases,
    weekday_programme,
    written_as,
)
from engine.structured.periods import (
    DAY,
    NUMBER_LANGUAGE,
    Reading,
    alternation,
    in_digits,
    listed,
    ordinal,
    read_phrases,
    words,
)

# A date written in numbers, day and month in either order ("03/11/2027", "3.11.2027").
NUMERIC_DAY = re.compile(
    r"(?<![\d/.])(?P<a>[0-3]?\d)(?P<sep>[/.])(?P<b>[0-3]?\d)(?P=sep)(?P<y>(?:1[89]|20)\d\d)"
    r"(?![\d/]|\.\d)"
)
# A day range written in numbers, the range in its days: "3-5.6.2027", "6–8/9/2027", and the
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
LABEL = re.compile(r"\s*([A-Za-z]+)\s*:")  # a line's label: "Duration:"
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
    found = list(NUMERIC_SPAN.finditer(document))
    if not found or numeric_order(document, list(NUMERIC_DAY.finditer(document))) != DAY_FIRST:
        return ()
    spans = []
    for match in found:
        if match["first_month"] and match["sep"] != match["first_sep"]:
            continue
        end_month, year = int(match["b"]), int(match["y"])
        start_month = int(match["first_month"] or end_month)
        start = ordinal(year, start_month, int(match["first"])) if start_month <= MONTHS else None
        end = ordinal(year, end_month, int(match["a"])) if end_month <= MONTHS else None
        if start is not None and end is not None and start <= end:
            spans.append((DAY, start, end))
    return tuple(spans)


def numeric_days(document: str) -> tuple[float, ...]:
    """The days ``document`` writes in numbers, in the order :func:`numeric_order` reads;
    none when it cannot tell the day from the month (3/11 is 3 November in Lyon and March 11
    in Denver, and a wrong guess would be a wrong date, not a missing one)."""
    found = list(NUMERIC_DAY.finditer(document))
    order = numeric_order(document, found) if found else None
    if order is None:
        return ()
    days = []
    for match in found:
        first, second = int(match["a"]), int(match["b"])
        day, month = (first, second) if order == DAY_FIRST else (second, first)
        when = ordinal(int(match["y"]), month, day) if month <= MONTHS else None
        days += [] if when is None else [when]
    return tuple(days)


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


@cache
def duration_pattern() -> re.Pattern[str]:
    """A count (digits, perhaps with a half, or "a"), perhaps a word that only stresses it
    ("three whole days") or says it comes after the day ("three more nights"), a unit, an
    optional "long" and an optional shift ("later", "earlier"); or one unit after "the next",
    or before a shift ("the next night", "the week after", "the night before": one unit
    later or earlier). A count after "the next" ("the next two days") counts days after the
    day, as a count of more days does."""
    units = alternation([*listed("duration_units"), *listed("hour_units")])
    one = alternation(listed("duration_one"))
    shifts = alternation([*listed("duration_after"), *listed("duration_before")])
    stress, nexts = alternation(listed("duration_stress")), alternation(listed("duration_next"))
    halves, joins = listed("duration_half"), alternation(listed("duration_half_joins"))
    words = alternation([h for h in halves if h.isalpha()])
    marks = alternation([h for h in halves if not h.isalpha()])
    half = rf"(?P<half>\s+(?:{joins})\s+(?:{words})|{marks})?"
    mores = alternation(listed("duration_more"))
    added = rf"(?:(?P<more>{mores})\s+)?(?:(?:{stress})\s+)?"
    count = rf"(?:(?:(?P<n>\d{{1,3}}){half}|(?P<one>{one}))[\s-]+{added})?"
    ahead = rf"(?:(?P<ahead>(?:the\s+)?(?:{nexts}))\s+(?=\d))?"
    tail = rf"(?P<long>[\s-]+long)?\b(?:\s+(?P<shift>{shifts}))?"
    counted = rf"\b{ahead}{count}(?P<unit>{units})s?{tail}"
    following = rf"\b(?:the\s+)?(?:{nexts})\s+(?P<next>{units})\b"
    beside = rf"\bthe\s+(?P<beside>{units})\s+(?P<way>{shifts})\b"
    return re.compile(rf"(?i:{following}|{beside}|{counted})")


def durations(document: str) -> tuple[Periods, tuple[float, ...]]:
    """What durations beside a day state, sentence by sentence: a period from the day ("a
    four-day fair opening on 9 May": 9-12 May), or the day that much later or
    earlier ("out on 3 July and home ten days later": 13 July; "the next night"; "held on 9
    October; registration opens a week earlier": 2 October). A sentence that writes no day
    may shift the one day the sentence just before it writes ("We sail on 2 May. We dock six
    days later."), and states a length from it only when it refers back to what that
    sentence is about (:func:`refers_back`): "Delivery takes five days" after "The shop opens
    on 3 May" is another thing's length. A day written as an end is counted back from."""
    periods: list[tuple[int, float, float]] = []
    points: list[float] = []
    previous: tuple[str, float] | None = None  # the sentence before, if it writes one day
    for sentence in SENTENCE_END.split(document):
        own = sentence_phrases(sentence)
        if own.points or own.periods:
            day, source = only_day(sentence), sentence
            found = [] if day is None else durations_in(sentence)
            previous = None if day is None else (sentence, day)
        elif previous is not None:
            (source, day), previous = previous, None
            lasts = refers_back(sentence)
            found = [m for m in durations_in(sentence) if lasts or shifted(m)]
        else:
            continue
        if not found or day is None:
            continue
        ends = any(not shifted(m) for m in found) and written_as_end(source, day)
        for match in found:
            stated_periods, stated_points = counted(match, first_of(match, day), ends)
            periods += stated_periods
            points += stated_points
    return tuple(periods), tuple(points)


def durations_in(sentence: str) -> list[re.Match[str]]:
    return list(duration_pattern().finditer(in_digits(sentence)))


def shifted(match: re.Match[str]) -> bool:
    """Whether a duration names a day that much later or earlier, or days more after the
    day ("three more nights"), not a length of its own."""
    return bool(
        match["next"] or match["beside"] or match["shift"] or match["more"] or match["ahead"]
    )


def first_of(match: re.Match[str], day: float) -> float:
    """The first day of what a duration counts when the day is its ``n``-th ("on 4 June,
    the third night of the five-day camp": 2 June; "its last day": the length back); the
    day itself otherwise."""
    lead = ordinal_of_pattern().search(match.string, 0, match.start())
    length = None if lead is None or shifted(match) else spanned(match)
    if lead is None or length is None:
        return day
    nth = int(lead["nth"]) if lead["nth"] else int(length[1]) + 1
    return day - (nth - 1) if 0 < nth <= length[1] + 1 else day


@cache
def ordinal_of_pattern() -> re.Pattern[str]:
    """ "the 2nd evening of the", "the final day of this" right before a duration (in digits)."""
    parts = alternation([*listed("duration_units"), *listed("day_parts")])
    lasts = alternation(listed("last_day_words"))
    return re.compile(
        rf"(?i)\bthe\s+(?:(?P<nth>\d{{1,2}})(?:st|nd|rd|th)|{lasts})\s+(?:{parts})\s+of\s+"
        rf"(?:the|this|its|a)\s+$"
    )


def written_as_end(sentence: str, day: float) -> bool:
    """Whether ``sentence`` writes its one ``day`` as the end of its period: the last period
    verb or end cue before it ends one ("The three-day fair ends on 9 May", "runs for two
    weeks until 9 May")."""
    return written_as(sentence, day) == END


def refers_back(sentence: str) -> bool:
    """Whether ``sentence`` opens with a word that refers back to the sentence before's
    subject ("It ...", "This ...") or is its length's label ("Duration: ..."), so a length it
    states is that subject's."""
    opening = lower_words(sentence)[:1]
    if opening and opening[0] in listed_set("length_back_references"):
        return True
    label = LABEL.match(sentence)
    return label is not None and label[1].lower() in listed_set("length_labels")


def counted(
    match: re.Match[str], start: float, ends: bool = False
) -> tuple[Periods, tuple[float, ...]]:
    """The period or the day one duration states from ``start``; a length beside a day
    written as the end (``ends``) is the period that ends on it."""
    one_unit = match["next"] or match["beside"]
    said = (match["shift"] or match["way"] or "").lower()
    way = -1 if said in listed("duration_before") else 1
    if one_unit:
        return (), (start + way * unit_days(one_unit.lower(), 1),)
    length = spanned(match)
    if length is None:
        return (), ()
    if match["shift"]:
        return (), (start + way * length[0],)
    if match["more"] or match["ahead"]:  # days after the first: the period ends that many after
        return ((DAY, start, start + length[0]),), ()
    if ends:
        return ((DAY, start - length[1], start),), ()
    return ((DAY, start, start + length[1]),), ()


def spanned(match: re.Match[str]) -> tuple[float, float] | None:
    """A counted duration's length in days, and how many days after its first its last day
    is (a three-day course: 3 and 2; four nights: 4 and 4); ``None`` for no count."""
    count = int(match["n"]) if match["n"] else 1 if match["one"] or match["long"] else 0
    if not count or not match["unit"]:
        return None
    unit = match["unit"].lower()
    # a half more of a unit ends in the unit's next day: 2.5 days span three
    half = math.ceil(unit_days(unit, 1) / 2) if match["half"] else 0
    length = unit_days(unit, count) + half
    return length, length - (unit not in set(listed("overnight_units")))


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


def unit_days(unit: str, count: int) -> float:
    """``count`` units in whole days: a week is 7; an hour unit counts the days its hours
    fill (48 hours: 2; a two-hour talk ends the day it starts)."""
    per_day = words()["hour_units"]
    days = words()["duration_units"]
    assert isinstance(per_day, dict) and isinstance(days, dict)
    if unit in per_day:
        return float(count // int(per_day[unit]))
    return float(count * int(days[unit]))
