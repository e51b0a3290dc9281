"""A document's dateline, the day it was written ("Notes written 3 May 2027.", "Letter
dated 8 April 2027.", "Posted on 2 February 2027:", "This page was last updated 6 June 2027"),
is not a day of what the document is about: a conference planned in those notes does not
start the day they were written.

:func:`about` gives the text :mod:`.stated` reads for the days of what a document is about.
First each day that a sentence writing no day of its own names only by ordinal or weekday
("for two days from the 17th", "we meet on Friday") is written out as the first
such day after the dateline, as a reader counts "later this month" from when the note was
written. Then the dateline itself is blanked, where the document writes another day; where it
writes none, the dateline is the only *when* it has and stays (a new date then lands near it).

A dateline opens its sentence: at most a few ``dateline_leads`` words ("Notes", "This page
was last"), a ``dateline_verbs`` verb (a ``dateline_message_verbs`` one, as "sent", only after
a lead: "Crate sent on 9 May" is the parcel's own day), then one day and nothing but
calendar words up to the end of its clause. The words come from ``period_words.json``.
"""

from __future__ import annotations

import datetime as dt
import re
from functools import cache, lru_cache

from engine.structured.named_days import (
    SENTENCE_END,
    cued_day_pattern,
    listed_set,
    named_day_after,
    sentence_phrases,
    weekday_range_pattern,
)
from engine.structured.periods import CALENDAR_WORDS, alternation, listed, masked, read_phrases

MAX_LEADS = 4  # "This page was last updated": a dateline's verb comes this early or not at all
# The words a dateline's date may carry besides itself: "on Monday 3 May 2027 at 10 am".
DATE_COMPANIONS = frozenset({"on", "at", "the", "of", "st", "nd", "rd", "th", "am", "pm"})
WORD = re.compile(r"[A-Za-z]+")


@cache
def dateline_pattern() -> re.Pattern[str]:
    """A sentence's opening as a dateline: leads, its verb, an optional colon or "on", and
    the rest of the clause (up to a colon, semicolon, dash, comma, or the sentence's end)."""
    leads = alternation(listed("dateline_leads"))
    verbs = alternation(listed("dateline_verbs"))
    messages = alternation(listed("dateline_message_verbs"))
    opening = rf"(?P<leads>(?:(?:{leads})\s+){{0,{MAX_LEADS}}})"
    verb = rf"(?P<verb>{verbs}|{messages})"
    rest = r"(?P<rest>.*?)(?=\s*(?:[:;—–]\s|,\s|[.!?](?:\s|$)|$))"
    return re.compile(rf"(?i)\s*{opening}{verb}\b[ \t]*:?[ \t]*{rest}")


def dateline_at(sentence: str) -> tuple[int, float] | None:
    """Where a dateline opening ``sentence`` ends and the day it writes; ``None`` when the
    sentence does not open with one."""
    match = dateline_pattern().match(sentence)
    if match is None:
        return None
    if not match["leads"] and match["verb"].lower() in listed_set("dateline_message_verbs"):
        return None  # "Sent 3 May" alone may be a parcel's own day
    said = read_phrases(match["rest"])
    extra = {w.lower() for w in WORD.findall(match["rest"])} - DATE_COMPANIONS
    if len(set(said.points)) != 1 or said.periods or extra - lowered_calendar_words():
        return None
    return match.end(), said.points[0]


@cache
def lowered_calendar_words() -> frozenset[str]:
    return frozenset(w.lower() for w in CALENDAR_WORDS)


def sentences_at(document: str) -> list[tuple[int, str]]:
    """Each sentence of ``document`` with where it starts (split as :mod:`.named_days` does)."""
    found, at = [], 0
    for end in SENTENCE_END.finditer(document):
        found.append((at, document[at : end.start()]))
        at = end.end()
    return [*found, (at, document[at:])]


@lru_cache(maxsize=16)  # every reader of one document asks
def about(document: str) -> str:
    """``document`` as the days of what it is about are read from it: named days counted from
    its dateline, the dateline blanked (see the module's docstring); ``document`` itself when
    it has no dateline or writes no other day."""
    lines, day = [], None
    for start, sentence in sentences_at(document):
        found = dateline_at(sentence)
        if found is not None:
            lines.append((start, start + found[0]))
            day = found[1] if day is None else day
    if day is None:
        return document
    text = anchored(masked(document, lines), day)
    said = read_phrases(text)
    return text if said.points or said.periods else document


def anchored(document: str, written: float) -> str:
    """``document`` with each day named only by ordinal or weekday, in a sentence writing no
    day, written out as the first such day after ``written`` ("on the 17th" → "on
    2027-05-17" in notes written on 3 May)."""
    pieces, done = [], 0
    for start, sentence in sentences_at(document):
        pieces += [document[done:start], sentence_anchored(sentence, written)]
        done = start + len(sentence)
    return "".join([*pieces, document[done:]])


def sentence_anchored(sentence: str, written: float) -> str:
    """One sentence's named days written out from ``written`` (last first, so the earlier
    matches' positions hold); a sentence that writes a day of its own is read as it is
    (:mod:`.named_days` counts its named days from that day)."""
    own = sentence_phrases(sentence)
    if own.points or own.periods:
        return sentence
    for match in reversed(named_days(sentence)):
        day = named_day_after(written, match)
        if day is None:
            continue
        if match["weekday"]:
            begin, end = match.span("weekday")
        else:  # "the 17th": from its "the" to the ordinal's end
            begin, end = sentence.rindex("the", 0, match.start("day")), match.end()
        sentence = sentence[:begin] + spelled(day, match["weekday"]) + sentence[end:]
    return sentence


def named_days(sentence: str) -> list[re.Match[str]]:
    """The days ``sentence`` names after a ``dateline_day_cues`` word ("from the 22nd", "on
    Friday"), not a weekday that is one end of a weekday range ("open Monday to Friday": a
    habit)."""
    ranges = [match.span() for match in weekday_range_pattern().finditer(sentence)]
    found = cued_day_pattern(tuple(listed("dateline_day_cues"))).finditer(sentence)
    return [m for m in found if not any(a <= m.start() < b for a, b in ranges)]


def spelled(day: float, weekday: str | None) -> str:
    """A day as ISO writes it, "2027-05-17" (no month name, which a locale would translate),
    after its weekday where one was named."""
    text = dt.date.fromordinal(int(day)).isoformat()
    return f"{weekday} {text}" if weekday else text
