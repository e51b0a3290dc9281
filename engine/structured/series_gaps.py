"""Meetings a series skips: "four weekly pottery sessions on Tuesdays from 3 March … there is
no session on 17 March because of the elections", "a three-week first-aid course meets on
Mondays … the trainer is away on 9 November, so that class is cancelled".

A day a document writes in a sentence that says a meeting does not happen (an ``skip_words``
word, or a ``none_words`` word and at most :data:`MOST_NOUN_WORDS` words before "on" or
"that": "no lesson that week", "no session on 3 May") is no meeting of the series when it falls
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
