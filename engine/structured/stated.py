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

Days written in numbers ("03/11/2027") are read by :mod:`.numeric_dates`, and a yearless day
takes its year as :mod:`.written_days` says.
"""

from __future__ import annotations

import re
from functools import lru_cache

from text_to_num import alpha2digit

from engine.structured import datelines
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
from engine.structured.periods import DAY, NUMBER_LANGUAGE, Reading, in_digits
from engine.structured.written_days import written_phrases

# "the" and an ordinal in words, one or two words ("the ninth", "the twenty-first"), and what
# text2num must make of it to be a day: "the 9th"
ORDINAL_WORDS = re.compile(r"(?i)\bthe\s+(?:[a-z]+[- ])?[a-z]+(?:st|nd|rd|th)\b")
DAY_ORDINAL = re.compile(r"(?i)the\s+[0-3]?\d(?:st|nd|rd|th)")


@lru_cache(maxsize=16)  # a table's columns each read the same document
def read(document: str) -> Reading:
    """The periods and dates ``document`` states, each phrase read once (finest first), the
    periods and days its durations give (:func:`durations`), and the periods a later weekday
    or ordinal bounds (:func:`~engine.structured.named_days.later_days`), in the text
    :func:`prepared` gives."""
    document = prepared(document)
    phrases = [what for _, _, what in written_phrases(document)]
    periods, points = durations(document)
    return Reading(
        tuple(p for p in phrases if isinstance(p, tuple))
        + periods
        + later_days(document)
        + programmes(document),
        tuple(p for p in phrases if not isinstance(p, tuple)) + points,
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
