"""What a date member's name says it is, read by :mod:`.event_days` and
:mod:`.day_elimination`: a start or an end (and its pair among its siblings, which takes the
event's ends by rule), a birth or an origin, a later date, and the words that say what
happened on its day. Words from ``field_words.json``. Pure functions over names.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from engine.structured import columns
from engine.structured.anniversaries import years_counted
from engine.structured.series_counts import ordinals
from engine.structured.words import name_words

# Dates that are no day of the event: a birth and the year a thing began, whatever the
# document says; a later date (a renewal, a payment) unless the document ties it to an act
# done ahead of the event ("pay for the kit by 20 April").
BORN = ("birth", "origin_year")
LATER = "later"
# A start and an end that are a pair take the event's ends by rule
# (:func:`engine.structured.json_rules.period_ends`); one alone ("ordered_on") is a lone date.
PAIR = ("start", "end")


def ends_only(key: str) -> bool:
    """Whether a member's name makes it an end and not a start."""
    return columns.names(key, "end") and not columns.names(key, "start")


def paired(key: str, siblings: Iterable[str]) -> bool:
    """Whether a start's end, or an end's start, is among its siblings."""
    return any(partners(key, siblings))  # member names are never empty


def partners(key: str, siblings: Iterable[str]) -> Iterator[str]:
    """The siblings that end what a start ``key`` starts, or start what an end ``key`` ends."""
    others = [s for s in siblings if s != key]
    for own, other in (PAIR, PAIR[::-1]):
        if columns.names(key, own):
            yield from (s for s in others if columns.names(s, other))


def named_in(text: str, key: str) -> bool:
    """Whether a word of a member's name, other than its ordinal, stands in ``text``: a
    "second_heat" beside "heats" is the second of them, no day left over."""
    named = own_words(key) - set(ordinals())
    return not named.isdisjoint(clause_words(text))


def clause_words(text: str) -> frozenset[str]:
    """A clause's words and their lemmas ("papers" → "paper", "reserved" → "reserve")."""
    return frozenset(w for word in text.split() for w in name_words(word) if w)


def own_words(key: str) -> frozenset[str]:
    """A date member's words that say what happened on its day: not the words that only say
    it holds a day ("date", "day", "on"; ``day_name`` in ``field_words.json``)."""
    return name_words(key) - columns.field_words()["day_name"]


def born(key: str) -> bool:
    """Whether a member dates a birth or an origin (:data:`BORN`), not an anniversary of one
    ("ninetieth_birthday")."""
    return years_counted(key) is None and any(columns.names(key, w) for w in BORN)


def later(key: str) -> bool:
    """Whether a member dates something done later than the days a document tells (a
    renewal, a reply), and not the deadline for it."""
    return columns.names(key, LATER) and not columns.names(key, "deadline_name")
