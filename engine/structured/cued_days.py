"""An event's first and last day where a document cues them: "opens on 3 June", "closes on 6 June".

A document about an event often writes days of other things beside the event's own: the day
the crew builds the stage, the day ticket sales start, the day photos go online or the
winners are named. Read as the first and last of all the days written (:meth:`engine.structured.
periods.Reading.written_span`), they stretch the event over them. Where the document says
which day the event starts on (a ``period_start_verbs`` verb right before the day: "begins
on", "commences on Tuesday 2 June") and which it ends on (``period_end_verbs``: "concludes
on", "ends on the"), those two days are its span (:func:`cued_span`), whatever else it writes.

A cued day may be told relative to the day written before it (:func:`relative_days`):

- "the next afternoon", "the following night" (a ``duration_next`` word and a unit or a
  ``day_parts`` word): the day after the last day written before it;
- "three days after they close", "a week before the choir begins" right after a day: the
  day that far before or after the written one is the cued verb's day ("The stage comes down
  on 9 June, two days after it closes": the event ends on the 7th).

Where it writes several start and end cues (ticket sales that "start" and a festival that
"starts"), the nearest pair, a start then an end, is the event's: the sales' start lies
weeks before, the festival's end days after its own start. A document with only one kind of cue
says nothing here (its durations and written days are read as before). Pure functions over
text; the words come from ``period_words.json``.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from text_to_num import text2num

from engine.structured.counted_days import CLAUSE_SUBJECT, unit_days
from engine.structured.named_days import ending_verb, listed_set, starting_verb
from engine.structured.other_days import CLAUSE_END
from engine.structured.periods import NUMBER_LANGUAGE, Span, alternation, listed, phrase_spans

START, END = "start", "end"
# What may stand between a cue verb and its day: a particle ("starts off", "finishes up"), a
# preposition, "the", a weekday ("commences on Tuesday 2 June"), in that order.
CUE_GAP = r"(?:\s+(?:off|up))?(?:\s+(?:on|in))?(?:\s+the)?(?:\s+[A-Z][a-z]+day,?)?\s+$"
CUE_BEFORE = re.compile(rf"\b(?P<verb>[A-Za-z]+){CUE_GAP}")
CUE_REACH = 40  # characters before a day a cue verb may stand in
# A cue is a day of this event only when its pair lies within this many days: a yearly
# thing's two editions, or a sale's start and the event's end, lie further apart.
MAX_EVENT_DAYS = 92
Cue = tuple[str, float]  # START or END, and the day


@lru_cache(maxsize=16)  # each date field of one document asks
def cued_span(text: str) -> Span | None:
    """The first and last day of the event ``text`` is about, where it cues both (the
    nearest start-then-end pair, :data:`MAX_EVENT_DAYS` at most apart); ``None`` otherwise."""
    cues = cued_days(text)
    starts = [day for kind, day in cues if kind == START]
    ends = [day for kind, day in cues if kind == END]
    pairs = [(s, e) for s in starts for e in ends if 0 <= e - s <= MAX_EVENT_DAYS]
    return min(pairs, key=lambda pair: (pair[1] - pair[0], -pair[0])) if pairs else None


def cued_days(text: str) -> list[Cue]:
    """Every day ``text`` writes (or tells relative to another) with a start or an end cue
    right before it, and each day a relative clause after a day cues."""
    days = [(s, e, what) for s, e, what in phrase_spans(text) if isinstance(what, float)]
    days += relative_days(text, days)
    cues = [(kind, day) for start, _, day in days if (kind := cue_before(text, start))]
    return cues + clause_cues(text, days)


def cue_before(text: str, at: int) -> str | None:
    """:data:`START` or :data:`END` when a cue verb stands right before ``at`` in its
    clause ("commences on", "concludes on the"); ``None`` otherwise."""
    lead = text[max(0, at - CUE_REACH) : at]
    clause = CLAUSE_END.split(lead)[-1]
    found = CUE_BEFORE.search(clause)
    return None if found is None else verb_cue(found["verb"])


def verb_cue(verb: str) -> str | None:
    """:data:`START` for a verb that starts a period, :data:`END` for one that ends it."""
    low = verb.lower()
    return START if starting_verb(low) else END if ending_verb(low) else None


def relative_days(text: str, days: list[tuple[int, int, float]]) -> list[tuple[int, int, float]]:
    """Each "the next afternoon" or "the following night" in ``text``, as the day after the
    last of ``days`` written before it (none when no day is)."""
    found = []
    for match in next_unit_pattern().finditer(text):
        before = [day for _, end, day in days if end <= match.start()]
        if before:
            found.append((match.start(), match.end(), before[-1] + 1))
    return found


def clause_cues(text: str, days: list[tuple[int, int, float]]) -> list[Cue]:
    """The cue of each "three days after they close" written right after a day: the day that many
    days before it (after) or after it (before), cued as its verb cues."""
    found = []
    for match in shift_clause_pattern().finditer(text):
        lead = [day for _, end, day in days if end <= match.start() and not
                text[end : match.start()].strip(" ,")]  # fmt: skip
        kind = verb_cue(match["verb"])
        count = count_of(match["count"])
        if lead and kind and count is not None:
            way = -1 if match["way"].lower() in listed_set("duration_after") else 1
            found.append((kind, lead[-1] + way * unit_days(match["unit"].lower(), count)))
    return found


def count_of(word: str) -> int | None:
    """A count in digits or in words ("two", "a"); ``None`` for no count."""
    if word.isdigit():
        return int(word)
    if word.lower() in listed_set("duration_one"):
        return 1
    try:
        return int(text2num(word.lower(), NUMBER_LANGUAGE))
    except ValueError:
        return None


@cache
def next_unit_pattern() -> re.Pattern[str]:
    """ "the next afternoon", "the following night": one day on."""
    nexts = alternation(listed("duration_next"))
    units = alternation([*listed("duration_units"), *listed("day_parts")])
    return re.compile(rf"(?i)\bthe\s+(?:{nexts})\s+(?:{units})\b")


@cache
def shift_clause_pattern() -> re.Pattern[str]:
    """A count, a unit, a ``clause_shifts`` word ("after", "before"), a subject and its
    verb: "three days after they close", "a week before the choir begins"."""
    units = alternation(listed("duration_units"))
    ways = alternation(listed("clause_shifts"))
    return re.compile(
        rf"(?i)\b(?P<count>\d{{1,3}}|[a-z]+)\s+(?P<unit>{units})s?\s+(?P<way>{ways})\s+"
        rf"{CLAUSE_SUBJECT}\s+(?P<verb>[a-z]+)\b"
    )
