"""The readers of a length a document tells after a day, for :mod:`.told_days`, in the shape
of :mod:`.day_readers`': the last day of a length ("for ten days", "a two-year warranty",
"takes 3 to 4 weeks"), the day a limit on a length ends ("allow up to six weeks", "within 12
months") and a shift by a range of lengths ("within 3 to 6 weeks of applying", "2-4 days
later"). A length runs from the one day its sentence writes before it, or, in a sentence that
writes no day, from the last day told before it. Words from ``period_words.json``. Pure
functions over text.
"""

from __future__ import annotations

import re
from functools import cache

from engine.structured.day_readers import (
    Counted,
    Told,
    anchor,
    calendar_units,
    iso,
    moved,
    shift_words,
    unit_words,
    units,
)
from engine.structured.periods import alternation, listed, phrase_spans


@cache
def length_pattern() -> re.Pattern[str]:
    """ "for ten days", "for 2 nights", "up to six weeks", "a two-year warranty", "lasts 2 to
    4 nights" (its numbers in digits): how long something from the day before it lasts, or may
    take; not a shift ("3 days later")."""
    units, shifts = unit_words(), alternation([*shift_words(), *listed("duration_more")])
    leads, limits = alternation(listed("length_leads")), alternation(listed("length_limits"))
    joins = alternation([j for j in listed("range_joins") if j not in listed("clause_shifts")])
    return re.compile(
        rf"(?i)\b(?:(?P<limit>{limits})|{leads})\s+(?:(?P<low>\d{{1,3}})\s*(?:{joins})\s*)?"
        rf"(?P<count>\d{{1,3}})\s+(?P<unit>{units})s?\b"
        rf"|\b(?P<size>\d{{1,3}})\s(?P<kind>{units})\s+(?!(?:{shifts})\b)(?=[a-z])"
    )


def length_end(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> Counted | None:
    """The last day of a length told after the day it runs from (:func:`length_origin`): "on
    3 December: one tablet twice a day for ten days" ends on 12 December; three nights from 4
    May end on the 7th; "delivered on 2 February 2025 with a two-year warranty": 1 February
    2027; what a shift after it ("a week after the course finishes") counts from. A limit
    ("allow up to six weeks" from 1 March) is the day that much later: 12 April. A range of
    lengths (the roof "takes 3 to 4 weeks") ends within the days its two lengths end."""
    origin = length_origin(match, before, sentence)
    if origin is None:
        return None
    count, unit = int(match["count"] or match["size"]), (match["unit"] or match["kind"]).lower()
    later = moved(origin, count, unit, back=False)
    if match["limit"]:
        return later, f"{units(count, unit)} at most from {iso(origin)}"
    # it ends the day before that long after (a night, or a month's day, runs into it)
    ends_before = unit in calendar_units() or unit not in listed("overnight_units")
    if match["low"]:
        low = int(match["low"])
        first = moved(origin, low, unit, back=False) - ends_before
        how = f"the last of {low} to {units(count, unit)} from {iso(origin)}"
        return first, later - ends_before, how
    return later - ends_before, f"the last of {units(count, unit)} from {iso(origin)}"


def length_origin(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> float | None:
    """The day a length runs from: the one single day its sentence writes before it, or, in a
    sentence that writes none (a van collected on 6 April: "The hire is for ten days";
    "Sweep it again within 12 months"), a lead's length runs from the last single day told
    before it. A
    bare length ("a two-year warranty") needs its own sentence's day, and a length before the
    day its sentence writes is that day's (:func:`writes_day`)."""
    own = [t for t in before if t.start >= sentence[0]]
    if own:
        return own[0].first if len(own) == 1 and own[0].first == own[0].last else None
    base = anchor(before)
    if match["size"] or base is None or base.first != base.last or writes_day(match, sentence):
        return None
    return base.last


def writes_day(match: re.Match[str], sentence: tuple[int, int]) -> bool:
    """Whether a phrase's sentence writes a day after it ("swims for a fortnight, from
    12 July"): what it says is of that day."""
    return any(match.end() <= start < sentence[1] for start, _, _ in phrase_spans(match.string))


@cache
def span_shift_pattern() -> re.Pattern[str]:
    """ "within 3 to 6 weeks of applying", "2-4 days later": a shift by a range of lengths."""
    units, ways = unit_words(), alternation(shift_words())
    joins = alternation([j for j in listed("range_joins") if j not in listed("clause_shifts")])
    leads, since = alternation(listed("span_leads")), alternation(listed("span_since"))
    return re.compile(
        rf"(?i)\b(?P<lead>(?:{leads})\s+)?(?P<low>\d{{1,3}})\s*(?:{joins})\s*(?P<high>\d{{1,3}})"
        rf"\s+(?P<unit>{units})s?\s+(?:(?P<way>{ways})|(?P<since>{since}))\b"
    )


def span_shift(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, float, str] | None:
    """The days a shift by a range names: from that much of the low length to the high one
    after the last day told before it (or before it). "of" after the unit counts only after
    a lead ("within")."""
    base = anchor(before)
    if base is None or (match["since"] and not match["lead"]):
        return None
    back = bool(match["way"]) and match["way"].lower() in listed("duration_before")
    unit = match["unit"].lower()
    days = [moved(base.first if back else base.last, int(match[n]), unit, back)
            for n in ("low", "high")]  # fmt: skip
    first, last = sorted(days)
    return first, last, f"{match[0]} {iso(base.first if back else base.last)}"
