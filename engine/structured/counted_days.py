"""What a sentence counts from the one day it writes: a duration's period, a shift's day.

A sentence that writes exactly one day may state a period from it without writing a second
date: "a four-day fair opening on 9 May" (9-12 May), "home ten days later" (the day ten days
on), "registration opens a week earlier", "the next night", "three more nights"; and a
sentence that writes no day may shift the one day the sentence before it writes ("We sail
on 2 May. We dock six days later."). :func:`durations` reads them sentence by sentence for
:func:`engine.structured.stated.read`; the words come from ``period_words.json``.

Pure functions over text.
"""

from __future__ import annotations

import math
import re
from functools import cache, lru_cache

from lemminflect import getAllLemmas

from engine.structured.named_days import (
    END,
    SENTENCE_END,
    Periods,
    listed_set,
    lower_words,
    only_day,
    sentence_phrases,
    written_as,
)
from engine.structured.periods import DAY, alternation, in_digits, listed, phrase_spans, words

LABEL = re.compile(r"\s*([A-Za-z]+)\s*:")  # a line's label: "Duration:"
# A clause after a shift's "after" or "before": a pronoun or "the" and a noun, then its verb.
CLAUSE_SUBJECT = r"(?:it|they|we|he|she|you|the\s+[a-z]+)"
CLAUSE_AFTER = re.compile(rf"\s+{CLAUSE_SUBJECT}\s+(?P<verb>[a-z]+)\b")
VERB_CLASS = "VERB"
OBJECT_AFTER = re.compile(r"\s+[A-Za-z0-9]")  # "before the race": a preposition's object


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
            ahead = [m for m in found if opens_before_day(m)]
            found = [m for m in found if m not in ahead and not relates_clause(m)]
            points += shifted_from(ahead, previous)
            previous = None if day is None else (sentence, day)
        elif previous is not None:
            (source, day), previous = previous, None
            lasts = refers_back(sentence)
            found = [m for m in durations_in(sentence) if lasts or shifted(m)]
        else:
            continue
        if found and day is not None:
            stated_periods, stated_points = all_counted(found, day, source)
            periods += stated_periods
            points += stated_points
    return tuple(periods), tuple(points)


def all_counted(
    found: list[re.Match[str]], day: float, source: str
) -> tuple[list[tuple[int, float, float]], list[float]]:
    """The periods and days the durations ``found`` state from ``day`` (written in the
    sentence ``source``): counted back from it where it is written as an end."""
    ends = any(not shifted(m) for m in found) and written_as_end(source, day)
    periods: list[tuple[int, float, float]] = []
    points: list[float] = []
    for match in found:
        stated_periods, stated_points = counted(match, first_of(match, day), ends)
        periods += stated_periods
        points += stated_points
    return periods, points


def opens_before_day(match: re.Match[str]) -> bool:
    """Whether a shift stands before the first day its sentence writes and counts from an
    earlier one ("Two days later we travel on, and we fly home on 8 May"): from the day of
    the sentence before, not the day written after it. An "after" or "before" with its
    object ("a week before the race on 12 March") counts from what follows, as ever."""
    if not shifted(match):
        return False
    first = first_day_at(match.string)
    if first is None or match.end() > first:
        return False
    said = (match["shift"] or match["way"] or "").lower()
    return said not in listed_set("clause_shifts") or not OBJECT_AFTER.match(
        match.string, match.end()
    )


@lru_cache(maxsize=256)  # every shift of a sentence asks of the same sentence
def first_day_at(sentence: str) -> int | None:
    """Where the first day phrase of ``sentence`` starts; ``None`` when it writes none."""
    return min((start for start, _, _ in phrase_spans(sentence)), default=None)


def relates_clause(match: re.Match[str]) -> bool:
    """Whether a shift ends in a ``clause_shifts`` word before a clause, a subject and its verb
    ("leave on 20 May, a day after it closes"): it says when the written day falls beside
    another thing's, and is no day of its own (:mod:`.cued_days` reads what it cues)."""
    said = (match["shift"] or match["way"] or "").lower()
    if said not in listed_set("clause_shifts"):
        return False
    clause = CLAUSE_AFTER.match(match.string, match.end())
    return clause is not None and VERB_CLASS in getAllLemmas(clause["verb"])


def shifted_from(ahead: list[re.Match[str]], previous: tuple[str, float] | None) -> list[float]:
    """The days the shifts ``ahead`` of a sentence's day name from the day the sentence
    before writes (none without one; a shift that relates a clause names none)."""
    if previous is None:
        return []
    return [p for m in ahead if not relates_clause(m) for p in counted(m, previous[1])[1]]


def durations_in(sentence: str) -> list[re.Match[str]]:
    """The durations of a sentence, not one that says how often a thing recurs ("repeats
    every 3 weeks", after a ``recurrence_words`` word: :mod:`.series` reads it)."""
    found = duration_pattern().finditer(in_digits(sentence))
    return [m for m in found if not recurrence_before().search(m.string, 0, m.start())]


@cache
def recurrence_before() -> re.Pattern[str]:
    """A ``recurrence_words`` word right before where it is searched to."""
    return re.compile(rf"(?i)\b(?:{alternation(listed('recurrence_words'))})\s+$")


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


def unit_days(unit: str, count: int) -> float:
    """``count`` units in whole days: a week is 7; an hour unit counts the days its hours
    fill (48 hours: 2; a two-hour talk ends the day it starts)."""
    per_day = words()["hour_units"]
    days = words()["duration_units"]
    assert isinstance(per_day, dict) and isinstance(days, dict)
    if unit in per_day:
        return float(count // int(per_day[unit]))
    return float(count * int(days[unit]))
