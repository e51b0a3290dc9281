"""Origins a schema names: a counted day whose thing only a date member's name dates.

"Two seats, Friday 16 October 2026, 7.30pm. Paid by card on 3 August 2026. Seats may be
exchanged up to 2 days before the concert." The text never writes "concert" beside a day, so
the shift's reader (:mod:`.shift_days`) counts from the day told last before it, the payment.
A schema with a ``concert_date`` beside ``exchange_by`` says which day the concert is: the
one that member takes. :func:`rebased` reads each member's counted day
again from the day of the sibling its thing names, after every member has its day
(:func:`.day_elimination.ordered_days`), since only then is the sibling's day known. Only where
the text itself dates no thing of those words (:func:`.day_readers.named_origin`), so a
document that names its origin keeps it. Pure functions.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from engine.structured.day_order import leftover
from engine.structured.day_readers import Reader, Told, named_origin
from engine.structured.name_acts import names_act, own_words
from engine.structured.other_days import clauses
from engine.structured.shift_days import edge_origin, ended_origin
from engine.structured.thing_anchor import past_since, shift_thing, thing_words
from engine.structured.told_days import counted_phrases, digits
from engine.structured.words import name_words

Phrase = tuple[int, int]  # where a counted day's phrase stands in the text
WHOLE_NAME_WORDS = 2  # a name's words a phrase writes to name that member over the text's day
PHRASE_WORDS = 6  # "of the new visit date": how far a thing's phrase is read for its words
WORD = re.compile(r"[A-Za-z]+")
CLAUSE_END = re.compile(r"[.,;:!?()]")


def rebased(
    document: str, told: tuple[Told, ...], siblings: tuple[str, ...], days: Sequence[Told | None]
) -> tuple[Told | None, ...]:
    """``days`` (one per member of ``siblings``) with each counted day whose thing names
    exactly one other member counted again from that member's day, where that day is a
    single day told before the phrase; every other day as it was."""
    text = digits(document)
    readers = phrase_readers(text)
    return tuple(
        counted_again(text, told, readers, siblings, days, at) for at in range(len(siblings))
    )


def counted_again(
    text: str,
    told: tuple[Told, ...],
    readers: dict[Phrase, tuple[re.Match[str], Reader]],
    siblings: tuple[str, ...],
    days: Sequence[Told | None],
    at: int,
) -> Told | None:
    """Member ``at``'s day, counted from the day of the sibling its phrase's thing names
    (:func:`named_sibling`), where that is a single day told before the phrase (a day
    counted from the phrase would count from itself), else as it was. A day the text dates
    the thing on itself (:func:`.day_readers.named_origin`) stands, unless the phrase
    writes the whole of the sibling's name ("the new visit date", beside "the aquarium visit
    planned for Friday 12 June")."""
    day = days[at]
    if day is None or not day.how or (day.start, day.end) not in readers:
        return day
    match, reader = readers[(day.start, day.end)]
    origin = sibling_origin(text, told, match, siblings, days, at)
    if origin is None:
        return day
    sentence = next((s, e) for s, e in clauses(text) if s <= day.start <= e)
    # the sibling's day stands as one the text writes: a limit counts from no counted day
    counted = reader(match, [replace(origin, how="")], sentence)
    if counted is None:
        return day
    first, *rest, how = counted
    return Told(day.start, day.end, first, rest[0] if rest else first, str(how), day.deadline)


def sibling_origin(
    text: str,
    told: tuple[Told, ...],
    match: re.Match[str],
    siblings: tuple[str, ...],
    days: Sequence[Told | None],
    at: int,
) -> Told | None:
    """The day member ``at``'s phrase (``match``) counts from, where its thing names a
    sibling whose day is a single day told before the phrase and the text dates the thing
    on no other day; ``None`` otherwise."""
    thing_at = past_since(text, match.end())  # "within 5 days of the new visit date"
    sibling = named_sibling(text, thing_at, siblings, at)
    if sibling is None:
        return None
    origin = days[siblings.index(sibling)]
    if origin is None or origin.first != origin.last or origin.end > match.start():
        return None
    before = [t for t in told if t.end <= match.start()]
    dated = ended_origin(text, thing_at, before) or named_origin(text, thing_at, before, False)
    dated = dated or edge_origin(text, thing_at, before)  # "… before the permit expires"
    if dated not in (None, origin) and not whole_name(text, thing_at, sibling):
        return None
    return origin


def named_sibling(text: str, thing_at: int, siblings: tuple[str, ...], at: int) -> str | None:
    """The sibling of member ``at`` the thing at ``thing_at`` names: the one whose own words
    (:func:`.name_acts.own_words`: "performance" of ``performance_date``) share a word with
    the thing's (:func:`.thing_anchor.thing_words`), or of several, the one whose own words
    the thing's phrase writes all of ("the new visit date": ``new_visit_date``, not
    ``original_visit_date``); ``None`` when none or several are."""
    thing = thing_words(text, thing_at)
    named = [k for o, k in enumerate(siblings) if o != at and thing & own_words(k)]
    if len(named) > 1:
        written = phrase_words(text, thing_at)
        named = [k for k in named if own_words(k) <= written]
    return named[0] if len(named) == 1 else None


def whole_name(text: str, thing_at: int, key: str) -> bool:
    """Whether the phrase at ``thing_at`` writes all of a member's own words, two or more
    ("the new visit date" for ``new_visit_date``; "the fair" for ``fair_last_day`` is no more
    than the fair, whose first day the text dates)."""
    own = own_words(key)
    return len(own) >= WHOLE_NAME_WORDS and own <= phrase_words(text, thing_at)


def phrase_words(text: str, start: int) -> frozenset[str]:
    """The words (and their lemmas) of the phrase that starts at ``start``, up to the end
    of its clause or :data:`PHRASE_WORDS` words."""
    clause = CLAUSE_END.split(text[start:], maxsplit=1)[0]
    found = WORD.findall(clause)[:PHRASE_WORDS]
    return frozenset(lemma for w in found for lemma in name_words(w.lower()))


def yielded(
    document: str, told: tuple[Told, ...], siblings: tuple[str, ...], claims: list[Told | None]
) -> list[bool]:
    """Which members give up the day their name found to a sibling that found the same day:
    those whose name the text writes only as the thing a counted day counts from ("Paid on
    3 August … exchanged up to 2 days before the concert": ``concert_date`` found the day
    the exchange was counted from, which the payment's own word dates; the concert's day
    is another)."""
    text = digits(document)
    origin_only = [only_as_origin(text, told, key) for key in siblings]
    return [
        claim is not None
        and origin_only[at]
        and any(clashes(claim, other) and not origin_only[o]
                for o, other in enumerate(claims) if o != at)
        for at, claim in enumerate(claims)
    ]  # fmt: skip


def clashes(claim: Told, other: Told | None) -> bool:
    """Whether two members' claims are the same days."""
    return other is not None and (other.first, other.last) == (claim.first, claim.last)


def only_as_origin(text: str, told: tuple[Told, ...], key: str) -> bool:
    """Whether every word of ``key``'s own name the text writes (one at least) stands in the
    thing's phrase of a counted day told right before it ("two days before the concert")."""
    own = own_words(key)
    said = [w for w in WORD.finditer(text) if names_act(own, w[0].lower())]
    return bool(said) and all(origin_word(text, told, w) for w in said)


def origin_word(text: str, told: tuple[Told, ...], word: re.Match[str]) -> bool:
    """Whether ``word`` stands in the thing's phrase (:func:`.thing_anchor.thing_pattern`)
    right after a counted day's phrase, and the text dates that thing nowhere
    (:func:`.day_readers.named_origin`: not "ten days before the doors open on 3 July")."""
    for day in told:
        if day.how and shift_thing(text, word, day.end):
            before = [t for t in told if t.end <= day.start]
            return named_origin(text, past_since(text, day.end), before) is None
    return False


def left_to_yielded(
    told: tuple[Told, ...], gave_up: list[bool], days: list[Told | None]
) -> list[Told | None]:
    """``days`` with the one member that gave up its day (:func:`yielded`) and found none
    since given the one single day no member takes, wherever it is told ("Friday 16
    October … Paid on 3 August … 2 days before the concert": ``concert_date``, listed
    between the payment and the exchange, takes the day told before both)."""
    waiting = [at for at, day in enumerate(days) if day is None and gave_up[at]]
    taken = {(t.first, t.last) for t in days if t is not None}
    left = [t for t in leftover(told, taken) if t.first == t.last]
    if len(waiting) != 1 or len(left) != 1:
        return days
    return [left[0] if at == waiting[0] else day for at, day in enumerate(days)]


@lru_cache(maxsize=16)  # each member of one document asks
def phrase_readers(text: str) -> dict[Phrase, tuple[re.Match[str], Reader]]:
    """Each counted phrase's match and reader, by where the phrase stands."""
    return {(start, end): (match, reader) for start, end, match, reader in counted_phrases(text)}
