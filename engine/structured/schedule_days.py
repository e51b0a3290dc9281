"""Days a document tells by counting in a schedule: the n-th meeting of a series it states
("our third rehearsal", "game 5") and a weekday of a numbered week ("the Sunday of week 16").

"The choir rehearses every other Monday from 6 January. Our third rehearsal will be the dress
rehearsal." A reader counts the meetings (:mod:`.series`): the third is 3 February. Only a noun
the sentence that states the series uses (a shared lemma or five-letter stem: "rehearsal" and
"rehearses", "game" and "the last game before it") is counted, so "our third year" or "room 5"
beside a weekly class is not. "My 16-week plan starts on Monday 2 February; race day is the
Sunday of week 16": the weeks count from the last day the document writes before the phrase.
Readers for :mod:`.told_days`, in the shape of :mod:`.day_readers`'. Pure functions over text.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache, lru_cache

from lemminflect import getAllLemmas

from engine.structured.counted_days import unit_days
from engine.structured.day_readers import Told, iso
from engine.structured.other_days import clauses
from engine.structured.periods import alternation, in_digits, listed
from engine.structured.series import WEEKDAYS, ordinals, series_days
from engine.structured.words import name_words, shares_act

DAYS_PER_WEEK = 7
VERB_OR_NOUN = frozenset({"NOUN", "VERB"})  # lemminflect's classes a counted thing may be
WORD = re.compile(r"[A-Za-z]+")


@cache
def counted_meeting_pattern() -> re.Pattern[str]:
    """ "our third rehearsal", "the 2nd session" (ordinals in digits or words), "game 5",
    "the fourth one" (a ``meeting_proforms`` word standing in for the series' noun)."""
    nth = alternation(list(ordinals()))
    owners = alternation(listed("meeting_owners"))
    return re.compile(
        rf"(?i)\b(?:{owners})\s+(?P<nth>{nth})\s+(?P<noun>[a-z]+|{alternation(proforms())})\b"
        r"|\b(?P<name>[a-z]+)\s+(?P<number>\d{1,2})\b(?!\s*(?:st|nd|rd|th|:|\.\d|%|/))"
    )


@cache
def proforms() -> list[str]:
    """The ``meeting_proforms`` words as the text is read, numbers in digits ("one": "1")."""
    return sorted({form for word in listed("meeting_proforms") for form in (word, in_digits(word))})


def counted_meeting(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The meeting of the document's series a phrase counts, when its noun is one the
    series' own sentence uses and the phrase stands in another sentence."""
    days = series_days(match.string)
    noun = (match["noun"] or match["name"]).lower()
    nth = ordinals().get((match["nth"] or match["number"] or "").lower())
    if not days or nth is None or not 0 < nth <= len(days):
        return None
    standing_in = match["noun"] is not None and noun in proforms()  # "the fourth one"
    if not standing_in and VERB_OR_NOUN.isdisjoint(getAllLemmas(noun)):
        return None  # "the 1st and 3rd Tuesday": a count of no thing
    if series_weekday(days) in match.string[sentence[0] : sentence[1]].lower():
        return None  # the series' own sentence: "every Monday in room 5" counts no meeting
    if not standing_in and not shares_act(name_words(noun), series_words(match.string)):
        return None
    said = as_written(match) if standing_in else match[0]
    return days[nth - 1], f"{said.strip()}, counted from {iso(days[0])}"


def as_written(match: re.Match[str]) -> str:
    """A counted pro-form's phrase with the pro-form in words, as the review quotes it: the
    text is read with its numbers in digits ("the 3rd 1" is "the 3rd one")."""
    words = {in_digits(w): w for w in listed("meeting_proforms")}
    return match[0][: match.start("noun") - match.start()] + words.get(match["noun"], match["noun"])


@lru_cache(maxsize=16)
def series_words(text: str) -> frozenset[str]:
    """The words (and lemmas) of the sentences that name the series' weekday."""
    days = series_days(text)
    if not days:
        return frozenset()
    name = series_weekday(days)
    found: set[str] = set()
    for start, end in clauses(text):
        sentence = text[start:end].lower()
        if name in sentence:
            found |= {w for word in WORD.findall(sentence) for w in name_words(word)}
    return frozenset(found)


def series_weekday(days: tuple[float, ...]) -> str:
    return WEEKDAYS[dt.date.fromordinal(int(days[0])).weekday()]


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
    written = [t for t in before if not t.how and t.first == t.last]
    if not written or int(match["week"]) < 1:
        return None  # "week 0" is no week of the plan
    start = written[-1].first
    weekday = WEEKDAYS.index(match["weekday"].lower())
    offset = (weekday - dt.date.fromordinal(int(start)).weekday()) % DAYS_PER_WEEK
    day = start + DAYS_PER_WEEK * (int(match["week"]) - 1) + offset
    return day, f"{match[0]}, week 1 from {iso(start)}"
