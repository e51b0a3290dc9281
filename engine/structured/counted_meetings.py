"""The meeting of a series a phrase counts: "our third rehearsal", "the 2nd session", "game 5",
"the fourth one", "the last one"; and the meeting a shift names as its thing ("the Sunday
after the last one", "two weeks after your final class").

"The choir rehearses every other Monday from 6 January. Our third rehearsal will be the dress
rehearsal." A reader counts the meetings (:mod:`.series`): the third is 3 February. Only a noun
the sentence that states the series uses (a shared lemma or five-letter stem: "rehearsal" and
"rehearses", "game" and "the last game before it") is counted, so "our third year" or "room 5"
beside a weekly class is not; a ``meeting_proforms`` word ("the fourth one") stands in for that
noun, in the series' own sentence too. The last meeting ("the final session", a
``last_day_words`` word) is counted only in a series the document ends (a count, or until
when): an open one has no last. A shift whose thing is such a meeting counts from its day
(:func:`meeting_ahead`), however far before it the other days are told. Readers for
:mod:`.told_days`, in the shape of :mod:`.day_readers`'. Pure functions over text.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Sequence
from functools import cache, lru_cache
from typing import Protocol

from lemminflect import getAllLemmas, getLemma

from engine.structured.other_days import clauses
from engine.structured.periods import alternation, in_digits, listed
from engine.structured.series import open_ended, series_days
from engine.structured.series_counts import WEEKDAYS, ordinals
from engine.structured.words import name_words, shares_act

VERB_OR_NOUN = frozenset({"NOUN", "VERB"})  # lemminflect's classes a counted thing may be
WORD = re.compile(r"[A-Za-z]+")
LAST = -1  # the index of a series' last meeting
SPACE = re.compile(r"\s*")
NEXT_WORD = re.compile(r"\s*([A-Za-z]+)")  # the word right after a phrase


class Dated(Protocol):
    """A day told before a phrase (:class:`.day_readers.Told`): its first and last day."""

    @property
    def first(self) -> float: ...

    @property
    def last(self) -> float: ...


@cache
def counted_meeting_pattern() -> re.Pattern[str]:
    """ "our third rehearsal", "the 2nd session", "the final session" (ordinals in digits or
    words, or a ``last_day_words`` word), "game 5", "the fourth one" (a ``meeting_proforms``
    word standing in for the series' noun)."""
    nth = alternation([*ordinals(), *listed("last_day_words")])
    owners = alternation(listed("meeting_owners"))
    return re.compile(
        rf"(?i)\b(?:{owners})\s+(?P<nth>{nth})\s+(?P<noun>[a-z]+(?:-[a-z]+)*|{alternation(proforms())})\b"
        r"|\b(?P<name>[a-z]+)\s+(?P<number>\d{1,2})\b(?!\s*(?:st|nd|rd|th|:|\.\d|%|/))"
    )


@cache
def proforms() -> list[str]:
    """The ``meeting_proforms`` words as the text is read, numbers in digits ("one": "1")."""
    return sorted({form for word in listed("meeting_proforms") for form in (word, in_digits(word))})


def counted_meeting(
    match: re.Match[str], before: object, sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The meeting of the document's series a phrase counts, when its noun is one the
    series' own sentence uses and the phrase stands in another sentence (a pro-form may
    stand in the same one)."""
    days = series_days(match.string)
    noun = (match["noun"] or match["name"]).lower()
    index = meeting_index(match, len(days), open_ended(match.string))
    if index is None:
        return None
    standing_in = match["noun"] is not None and noun in proforms()  # "the fourth one"
    compound = "-" in noun  # "our third meet-up": a meeting's own name
    if not standing_in and not compound and VERB_OR_NOUN.isdisjoint(getAllLemmas(noun)):
        return None  # "the 1st and 3rd Tuesday": a count of no thing
    own = series_weekday(days) in match.string[sentence[0] : sentence[1]].lower()
    if own and not standing_in:
        return None  # the series' own sentence: "every Monday in room 5" counts no meeting
    named = standing_in or compound or shares_act(name_words(noun), series_words(match.string))
    if not named and not any_meeting(noun, match):
        return None
    said = as_written(match) if standing_in else match[0]
    return days[index], f"{said.strip()}, counted from {dt.date.fromordinal(int(days[0]))}"


def any_meeting(noun: str, match: re.Match[str]) -> bool:
    """Whether a counted noun the series' sentences never use still names one of its
    meetings ("mown every other Wednesday … alongside the third mowing … ends with the
    eighth visit"): a noun counted after an owner word, no unit, day or ``anniversary_words``
    word, in a document that tells no other day it could count."""
    if match["noun"] is None or "NOUN" not in getAllLemmas(noun):
        return False
    kinds = [*listed("day_nouns"), *listed("duration_units"), *listed("anniversary_words")]
    after = NEXT_WORD.match(match.string, match.end())
    if after is not None and after[1].lower() in kinds:  # "the last working day of November"
        return False
    return getLemma(noun, upos="NOUN")[0] not in kinds and noun not in WEEKDAYS


def meeting_index(match: re.Match[str], times: int, open_series: bool) -> int | None:
    """Which of ``times`` meetings a phrase counts: its ordinal's, or the last of a series
    the document ends; ``None`` past the last, or for the last of an open series."""
    said = (match["nth"] or match["number"] or "").lower()
    if said in listed("last_day_words"):
        return LAST if times and not open_series else None
    nth = ordinals().get(said)
    return nth - 1 if nth is not None and 0 < nth <= times else None


def meeting_ahead(text: str, end: int) -> tuple[int, int, float] | None:
    """The meeting a shift names right after its ``end`` ("the Sunday after the last one",
    "the Friday before your first lesson"): where its phrase starts and ends, and its day."""
    at = SPACE.match(text, end)
    found = counted_meeting_pattern().match(text, at.end() if at else end)
    if found is None or found["noun"] is None:
        return None
    sentence = next(((s, e) for s, e in clauses(text) if s <= found.start() <= e), (0, len(text)))
    counted = counted_meeting(found, [], sentence)
    return None if counted is None else (found.start(), found.end(), counted[0])


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
def following_meeting_pattern() -> re.Pattern[str]:
    """ "the meeting after that", "the session following it": the next meeting after the
    one just told (``pointing_words`` for what it follows)."""
    after = alternation([*listed("duration_after"), *listed("duration_next")])
    pointing = alternation(listed("pointing_words"))
    return re.compile(rf"(?i)\bthe\s+(?P<noun>[a-z]+)\s+(?:{after})\s+(?:{pointing})\b")


def following_meeting(
    match: re.Match[str], before: Sequence[Dated], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The series' meeting after the last meeting told before the phrase, when its noun is
    one the series' own sentence uses ("… the quiz is at our third meet-up, and prizes are
    given at the meeting after that")."""
    days = series_days(match.string)
    noun = match["noun"].lower()
    forms = name_words(noun) | frozenset(getLemma(noun, upos="VERB"))  # "meeting": "meet"
    if not days or not shares_act(forms, series_words(match.string)):
        return None
    told = [t.first for t in before if t.first == t.last and t.first in days]
    later = [d for d in days if told and d > told[-1]]
    if not later:
        return None
    return later[0], f"{match[0]}, next after {dt.date.fromordinal(int(told[-1]))}"
