"""The meetings of a second rota that fills the weeks an every-other series skips: "the blue
bin is emptied every second Wednesday from 8 January 2025, and the black bin goes out on the
Wednesdays in between" (15 January, 29 January, …), "Priya takes every other Saturday from 2
May; Tom covers the Saturdays in between".

The series (:mod:`.series`) meets every other week; the rota in between meets a week after
each of its meetings. A member that counts a meeting ("first_general_waste", "tom_first_date")
takes the rota's, not the series', when a word of its name stands in the clause that says "in
between" (from the punctuation before it), which names the rota's thing or person; the
series' own members ("first_recycling") name the other. Words from ``period_words.json``
(``between_words``); weekday names from the standard library. Pure functions over text.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from engine.structured import columns
from engine.structured.periods import Span, alternation, listed
from engine.structured.series_counts import WEEKDAYS, ordinal_of
from engine.structured.words import key_parts, name_words

WEEK = 7.0  # days between a series' meeting and the rota's after it
EVERY_OTHER_WEEK = 2 * WEEK
WORD = re.compile(r"[a-z]+")


@cache
def between_pattern() -> re.Pattern[str]:
    """The clause that names a rota in the weeks between: back to the punctuation before it,
    then weekdays or weeks and a ``between_words`` phrase ("with general rubbish (grey bin)
    collected on the Mondays in between")."""
    days = alternation([f"{day}s" for day in WEEKDAYS] + ["weeks"])
    return re.compile(rf"[^,.;:!?]*\b(?:{days})\s+(?:{alternation(listed('between_words'))})\b")


def between_meeting(series: tuple[float, ...], text: str, key: str) -> Span | None:
    """The meeting of the rota in between that ``key`` counts, where the series meets every
    other week and a word of the member's own (not its count, nor a word for a day) stands
    in the clause that names the rota and nowhere else ("grey" of "first_grey_bin", where
    the blue bin's clause says "bin" too); ``None`` otherwise."""
    nth = ordinal_of(set(key_parts(key)))
    if nth is None or nth > len(series) or len(series) < 2:
        return None
    if series[1] - series[0] != EVERY_OTHER_WEEK:
        return None
    named = rota_words(text)
    if not named:
        return None
    plain = columns.field_words()["day_name"]
    own = {form for w in key_parts(key) if ordinal_of({w}) is None and w not in plain
           for form in name_words(w)}  # fmt: skip
    return (series[nth - 1] + WEEK,) * 2 if own & named else None


@lru_cache(maxsize=16)  # each counting member of one document asks
def rota_words(text: str) -> frozenset[str]:
    """The words (with their forms) only the clause that names a rota in between writes,
    none that the rest of the text writes too; none without such a clause."""
    lower = text.lower()
    clause = between_pattern().search(lower)
    if clause is None:
        return frozenset()
    return frozenset(forms(clause[0]) - forms(lower.replace(clause[0], " ")))


def forms(text: str) -> set[str]:
    """The words of ``text`` with their forms (:func:`.words.name_words`)."""
    return {form for w in WORD.findall(text) for form in name_words(w)}
