"""The day a baby or a young animal reaches an age in weeks or months, for :mod:`.told_days`:
"the puppies will be ready to leave at eight weeks old", "his rabies shot on the day he turns
sixteen weeks old", "neutered by the time they turn six months".

:func:`.ages.young_births` reads an age the other way (a sentence that writes a day and says how
old someone was on it gives the birth). Here the age is one still to be reached, that many
``young_units`` after the birth: the one birth the document writes (:func:`.ages.
read_births`: "born 20 January 2025"), else the last day written before the age ("Luna had four
kittens on 9 September 2028"). The age follows "at", "when … is/are" or a ``turning_words`` word
and is followed by a ``young_after`` word ("old", "of age"); after a turning word it need not
be. Words from ``period_words.json``. Pure functions over text.
"""

from __future__ import annotations

import re
from functools import cache

from engine.structured.ages import told_births
from engine.structured.day_readers import Counted, Told, iso, last_written, moved, units
from engine.structured.periods import alternation, listed, words


@cache
def age_pattern() -> re.Pattern[str]:
    """ "at 8 weeks old", "when they're 12 weeks old", "turns 16 weeks old", "turn 6 months"
    (numbers in digits, as the text is read)."""
    said = words()["ages"]
    assert isinstance(said, dict)
    young, after = alternation(said["young_units"]), alternation(said["young_after"])
    turning = alternation(listed("turning_words"))
    count = rf"(?P<count>\d{{1,2}})\s+(?P<unit>{young})s?"
    return re.compile(
        rf"(?i)\b(?:at|when\s+[a-z']+(?:\s+(?:is|are))?)\s+{count}\s+(?:{after})\b"
        rf"|\b(?:{turning})\s+(?P<turned>\d{{1,2}})\s+(?P<turned_unit>{young})s?\b"
    )


def age_day(match: re.Match[str], before: list[Told], sentence: tuple[int, int]) -> Counted | None:
    """The day the age ``match`` names is reached: that long after the one birth the
    document writes, else after the last day written before it; ``None`` when the document
    writes several births, or neither."""
    del sentence  # an age counts from the birth, wherever the document writes it
    births = told_births(match.string)
    if len(births) > 1:
        return None
    birth = births[0][0] if births else None
    if birth is None:
        told = last_written(before)  # not another age's day: both count from the birth
        birth = told.first if told is not None else None
    if birth is None:
        return None
    count = int(match["count"] or match["turned"])
    unit = (match["unit"] or match["turned_unit"]).lower()
    return moved(birth, count, unit, back=False), f"{units(count, unit)} old, born {iso(birth)}"
