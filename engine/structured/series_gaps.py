"""Meetings a series skips: "six weekly sessions from 8 January … the hall is booked by
someone else on 22 January, so there's no class that night and the course finishes a week
later", "week 1 is Thursday 13 January and we play every Thursday after that, except the 10th
of February".

A day a document writes in a sentence that says a meeting does not happen (an ``skip_words``
word, or a ``none_words`` word and at most :data:`MOST_NOUN_WORDS` words before "on" or
"that": "no class that night", "no session on 3 May") is no meeting of the series when it falls
on one, and a series counted in meetings runs that many more weeks to hold its count
(:func:`.series.series_days`). The first meeting is never skipped: a series starts on a day it
meets. Words from ``period_words.json``. Pure functions over text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from engine.structured.other_days import clauses
from engine.structured.periods import alternation, in_digits, listed
from engine.structured.written_days import written_phrases

MOST_NOUN_WORDS = 2  # "no class", "no junior session": the words between "no" and "on"


@cache
def skip_pattern() -> re.Pattern[str]:
    """A word or phrase that says a meeting does not happen."""
    skips, nones = alternation(listed("skip_words")), alternation(listed("none_words"))
    noun = rf"(?:\s+[a-z]+){{1,{MOST_NOUN_WORDS}}}"
    return re.compile(rf"(?i)\b(?:{skips}|(?:{nones}){noun}\s+(?:on|that))\b")


def skipped(document: str, meetings: Sequence[float]) -> frozenset[float]:
    """The meetings after the first that ``document`` writes in a sentence saying there is
    none that day."""
    text = in_digits(document)
    said = [s for s in clauses(text) if skip_pattern().search(text, *s)]
    later = set(meetings[1:])
    return frozenset(
        what
        for start, _, what in written_phrases(text)
        if isinstance(what, float) and what in later and any(a <= start < b for a, b in said)
    )
