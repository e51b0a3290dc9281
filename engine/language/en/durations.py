"""A length of time takes "for", a point in time "since": "since five years" is "for five years".

Learners of English whose languages use one word for both ("depuis", "seit", "desde") write
"I have lived here since five years". A length of time is a count and a unit of time ("five
years", "a week", "many months"); a point in time is a date, a day or an event ("since 2019",
"since Monday", "since the party"), and "since" before a length followed by "ago" names a
point too ("since five years ago"), so it is left as it is. The fix is offered like any other
grammar fix: the model reading the passage decides.

The counts and units are general English in ``data/grammar.json``; numbers in words come from
``meaning.json``. Pure functions over word texts.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.language.en.cut_safety import core
from engine.language.en.data import load_json, word_set
from engine.language.en.forms import readings
from engine.language.en.rewordings import Rewording, spelled

POINT_WORD, LENGTH_WORD = load_json("grammar.json")["duration_prepositions"]
DURATION_COUNTS = word_set("grammar.json", "duration_counts") | frozenset(
    load_json("meaning.json")["number_words"]
)
DURATION_UNITS = word_set("grammar.json", "duration_units")
POINT_AFTER = word_set("grammar.json", "past_words")  # "ago": "since five years ago"
NOUN_CLASS = "NOUN"


def is_count(word: str) -> bool:
    return word.isdigit() or word in DURATION_COUNTS


def is_unit(word: str) -> bool:
    """Whether ``word`` is a unit of time, either number ("year", "years")."""
    lemmas = {r.lemma for r in readings(word) if r.part == NOUN_CLASS}
    return word in DURATION_UNITS or bool(lemmas & DURATION_UNITS)


def duration_fixes(words: Sequence[str], index: int) -> list[Rewording]:
    """ "since" at ``index`` as "for" where a length of time follows it, not "ago"."""
    if core(words[index]) != POINT_WORD or index + 2 >= len(words):
        return []
    count, unit = words[index + 1], words[index + 2]
    if words[index].rstrip() != words[index].rstrip(",.;:!?") or count != count.rstrip(",.;:!?"):
        return []  # a mark inside the phrase: "since, five years"
    if not (is_count(core(count)) and is_unit(core(unit))):
        return []
    ends = unit.rstrip() != unit.rstrip(",.;:!?")
    if not ends and index + 3 < len(words) and core(words[index + 3]) in POINT_AFTER:
        return []
    return [Rewording(index, index + 1, spelled(words[index], words[index], LENGTH_WORD))]
