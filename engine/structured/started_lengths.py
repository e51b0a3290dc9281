"""The last day of a length a document tells before the day it starts on: "a three-day workshop
at the Leeds centre starting Tue 17/11/26" ends on 19 November; "a block of four nights
starting Sunday the 8th" runs into the 12th (a night runs into the next day, as in
:func:`.length_days.length_last`).

:mod:`.length_days` reads a length told after the day it counts from ("from 2 May, for ten
days"); here the length comes first, then at most a few words naming its thing, then a start
verb (``period_start_verbs``: "starting", "begins", "commencing", perhaps with "on" or "from")
right before a day told, or, for a stay, a ``stay_start_words`` word ("booked for three nights,
arriving Thursday 9 May 2030", "for six nights in a mixed dorm, check-in 27.12.25"). The last
day is told right after the first, so that a start takes the
first and an end the last (:mod:`.member_days`). Not a shift ("two days after it starts"), and
not a length another reader has read already, nor the length of a series ("every Thursday for
six weeks, beginning 2 October": :mod:`.series`). Pure functions over text.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Sequence
from functools import cache

from engine.structured.day_readers import (
    Told,
    count_and_unit,
    iso,
    overnight,
    shift_ways,
    unit_words,
    units,
)
from engine.structured.length_days import length_last
from engine.structured.named_days import starting_verb
from engine.structured.periods import Span, alternation, listed

# The length's thing stands between it and its start verb in at most this many characters
# ("a three-day workshop at the Leeds training centre starting": 38).
MOST_THING_CHARACTERS = 60


@cache
def started_pattern() -> re.Pattern[str]:
    """A count and a unit ("three-day", "four nights", "3 consecutive days": a
    ``duration_stress`` word between them at most), the words of its thing
    (no sentence's end), and the verb right before the end of the text it searches, perhaps
    followed by "on" or "from", "the" and a weekday: a day told next starts the length."""
    one, stress = alternation(listed("duration_one")), alternation(listed("duration_stress"))
    weekdays = alternation([*calendar.day_name, *calendar.day_abbr])  # "starting Monday 4 May"
    return re.compile(
        rf"(?i)\b(?P<count>\d{{1,3}}|{one})[\s-]+(?:(?:{stress})\s+)?(?P<unit>{unit_words()})s?\b"
        rf"(?P<thing>[^.;:!?]{{0,{MOST_THING_CHARACTERS}}}?)"
        rf"\b(?P<verb>[a-z]+(?:-[a-z]+)?)(?:\s+(?:on|from))?(?:\s+the)?"
        rf"(?:\s+(?:{weekdays})\.?,?)?\s*$"
    )


def started_lengths(
    text: str, days: Sequence[Told], found: Sequence[Told], sentences: Sequence[tuple[int, int]]
) -> list[Told]:
    """The last day of each length told before a start verb and a single day of ``days``
    (among ``found``, the days already told), told right after that day."""
    ends = []
    for day in days:
        start, stop = next(((s, e) for s, e in sentences if s <= day.start <= e), (0, 0))
        match = started_pattern().search(text, start, day.start)
        if day.first != day.last or match is None or not starts(match):
            continue
        if recurs(text[start:stop]):
            continue  # a series' ("every Thursday for six weeks, beginning …")
        if any(t.start < match.end("unit") and match.start() < t.end for t in found):
            continue  # another reader's length, or a shift: "three weeks before …"
        count, unit = count_and_unit(match)
        last = length_last(day.first, count, unit)
        how = f"end of {units(count, unit)} from {iso(day.first)}"
        ends.append(Told(day.end, day.end, last, last, how, lasting=True))
    return ends


def started_spans(told: Sequence[Told]) -> list[Span]:
    """The first and last day of each length told before the day it starts on: its last day
    stands, wordless, right where the words of that single day end (:func:`started_lengths`)."""
    return [
        (day.first, end.last)
        for end in told
        if end.lasting and end.start == end.end
        for day in told
        if day.end == end.start and day.first == day.last and not day.lasting
    ]


def led(text: str, start: int, count: int) -> bool:
    """Whether a ``length_leads`` word stands right before a length's count ("runs for nine
    days, opening Friday 14 August"): :mod:`.length_days` reads that one."""
    return lead_before().search(text, start, count) is not None


@cache
def lead_before() -> re.Pattern[str]:
    """A ``length_leads`` word at the end of the text searched."""
    return re.compile(rf"(?i)\b(?:{alternation(listed('length_leads'))})\s+$")


@cache
def recurrence() -> re.Pattern[str]:
    """The words that say a thing recurs ("every week", "each Monday", "weekly",
    "fortnightly", "Wednesdays"): a ``recurrence_words`` word only before a time's word (a
    weekday, a unit, a day's noun or part, perhaps after "other" or a count), not "every
    customer"."""
    plural = [f"{day}s" for day in calendar.day_name]  # "on Wednesdays at 4pm"
    said = alternation([*listed("frequency_adjectives"), *plural])
    every = alternation(listed("recurrence_words"))
    times = alternation([*calendar.day_name, *listed("day_nouns"), *listed("day_parts")])
    times = f"{times}|{unit_words()}"
    return re.compile(
        rf"(?i)\b(?:{said})\b|\b(?:{every})\s+(?:(?:other|second|\d+|[a-z]+)\s+)?(?:{times})s?\b"
    )


def recurs(clause: str) -> bool:
    """Whether a clause says its thing recurs ("on Thursday evenings, starting 15 January,
    one session each week"): a series' length ends on no day of it (:mod:`.series`')."""
    return recurrence().search(clause) is not None


def starts(match: re.Match[str]) -> bool:
    """Whether a length's verb starts it and its thing is no shift's ("two days after it
    starts")."""
    thing, verb = match["thing"].split(), match["verb"].lower()
    shifted = bool(thing) and thing[0].lower() in shift_ways()
    # "for nine days from 14 August": a length from the day, its thing said before it; a
    # stay's nights need no lead ("4 nights from Friday 9 April")
    lead = led(match.string, 0, match.start()) or overnight(match["unit"])
    from_day = not thing and verb in listed("thing_shifts") and lead
    return (starting_verb(verb) or verb in listed("stay_start_words") or from_day) and not shifted
