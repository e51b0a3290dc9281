"""The first or the last day of a stay, named by the act that begins or ends it.

"The chalet is ours for five nights from Saturday 6 March; the minibus collects us the
morning we check out." A reader dates the minibus on 11 March: "the day", "the morning" (a
``day_parts`` word) or "the night" before a subject and a ``stay_start_words`` act ("we
arrive") is the first day of the stay or the period told last, and before a
``stay_end_words`` act ("you check out", "they leave") its last day. A reader for
:mod:`.told_days`, in the shape of :mod:`.day_readers`'. Pure functions over text.
"""

from __future__ import annotations

import re
from functools import cache

from engine.structured.day_readers import Told, iso
from engine.structured.periods import alternation, listed
from engine.structured.shift_days import last_stay
from engine.structured.thing_anchor import SUBJECTS

DAY_WORDS = ("day", "night")  # the nouns of a whole day a stay's edge is named by


@cache
def stay_edge_pattern() -> re.Pattern[str]:
    """ "the day we arrive", "the morning you check out", "the night that they leave"."""
    parts = alternation([*DAY_WORDS, *listed("day_parts")])
    subjects = alternation(sorted(SUBJECTS))
    starts, ends = alternation(listed("stay_start_words")), alternation(listed("stay_end_words"))
    return re.compile(
        rf"(?i)\bthe\s+(?:{parts})\s+(?:that\s+)?(?:{subjects})\s+"
        rf"(?:(?P<start>{starts})|(?P<end>{ends}))\b"
    )


def stay_edge(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The first day (for an arrival) or the last (for leaving) of the stay or the period
    told last before the phrase; ``None`` when none was told."""
    del sentence
    stay = last_stay(before)
    if stay is None:
        return None
    day = stay.first if match["start"] else stay.last
    return day, f"{match[0]} on {iso(day)}"
