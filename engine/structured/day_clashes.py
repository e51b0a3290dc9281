"""Date members whose names find one and the same day: which of them move, by what else each
name finds.

"Our club lease on the pavilion ends on 30 June 2027. The council will extend the lease from
1 July 2027 to 31 December 2027." Both ``extension_end`` and ``current_lease_end``
find 31 December ("extend the lease … to 31 December"), but only the second finds another
day beside a word of its own that the other's name lacks ("pavilion ends on 30 June"): that
member moves to it, and the other keeps the day only it can have. Where all the members on
the day but one find such a day, those move. Two members whose names order them (a
``follow_up_check`` and a ``first_check`` of one thing) part by that order, whichever the
schema lists first; otherwise the schema's order decides (:mod:`.day_order`). Pure functions
over one document's told days and the members' claims.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.structured import columns
from engine.structured.day_order import leftover
from engine.structured.day_readers import Told, is_month
from engine.structured.member_days import is_frame, ranked_days
from engine.structured.name_acts import bound_acts, own_words
from engine.structured.periods import Span


def moved_on(
    told: tuple[Told, ...], document: str, siblings: tuple[str, ...], claims: Sequence[Told | None]
) -> list[Told | None]:
    """``claims`` (one per member of ``siblings``) with each clash over a single day parted
    where all the members that find it but one find other days no member claims, each its
    own (:func:`next_free`): the one keeps the day, and the others take theirs. Where none
    finds another day so, but one alone finds the day itself by a word no other name has
    (:func:`owns`: "junior division entries … by 4 March"), that one keeps it and
    the others take the next free days their whole names find."""
    days = list(claims)
    for day in single_days(claims):
        group = claimants(days, day)
        found = others_days(told, document, [siblings[at] for at in group], day, days)
        moves = [(at, c) for at, c in zip(group, found, strict=True) if c is not None]
        if len(group) < 2 or len(moves) != len(group) - 1:
            continue
        if len({(c[0].first, c[0].last) for _, c in moves}) == len(moves):
            for at, (other, before) in moves:
                # a day told before the member's word only says the clash day may be
                # another's; it is as often a thing's the word follows ("tiling on 4 May,
                # with grouting a week later"), so the member stays where it is
                days[at] = days[at] if before else other
    return days


def single_days(claims: Sequence[Told | None]) -> list[Span]:
    """The single days members claim, each once, in calendar order."""
    return sorted({(t.first, t.last) for t in claims if t is not None and t.first == t.last})


def claimants(days: Sequence[Told | None], day: Span) -> list[int]:
    """Where in ``days`` the members that claim ``day`` stand."""
    return [at for at, t in enumerate(days) if t is not None and (t.first, t.last) == day]


def words_of(keys: Iterable[str]) -> frozenset[str]:
    """The own words (and bound acts) of the names ``keys``: what a rival's name shares."""
    return frozenset().union(*(own_words(k) | bound_acts(k) for k in keys))


def others_days(
    told: tuple[Told, ...], document: str, keys: list[str], day: Span, days: list[Told | None]
) -> list[tuple[Told, bool] | None]:
    """For each of the members ``keys`` that find ``day``, the day it would move to (and
    whether it is told before its word), ``None`` for one that stays (:func:`moved_on`)."""
    found = [next_free(told, document, k, [o for o in keys if o != k], days) for k in keys]
    if any(c is not None for c in found):
        return found
    owners = [k for k in keys if owns(told, document, k, keys, day)]
    if len(owners) != 1:
        return found
    return [None if k in owners else day_of(next_free(told, document, k, [], days)) for k in keys]


def day_of(found: tuple[Told, bool] | None) -> tuple[Told, bool] | None:
    """A day a whole name finds, where it is no month, season or longer: those only frame
    the days a name's other words find ("the autumn 2027 season")."""
    return None if found is None or is_month(found[0]) or is_frame(found[0]) else found


def owns(told: tuple[Told, ...], document: str, key: str, keys: list[str], day: Span) -> bool:
    """Whether a word of ``key``'s own name that no other name of ``keys`` has finds ``day``
    after it."""
    ranked = ranked_days(told, document, key, words_of(k for k in keys if k != key))
    return any((t.first, t.last) == day and not before for t, before in ranked)


def next_free(
    told: tuple[Told, ...], document: str, key: str, rivals: list[str], days: Sequence[Told | None]
) -> tuple[Told, bool] | None:
    """The best day (and whether it is told before the word) that ``key``'s name finds
    beside a word of its own that no name of ``rivals`` has, that no member claims and is
    no whole month; ``None`` where it finds none."""
    claimed: set[Span] = {(t.first, t.last) for t in days if t is not None}
    ranked = ranked_days(told, document, key, words_of(rivals))
    free = (c for c in ranked if (c[0].first, c[0].last) not in claimed and not is_month(c[0]))
    return next(free, None)


def named_in_order(
    told: tuple[Told, ...], siblings: tuple[str, ...], claims: Sequence[Told | None]
) -> list[Told | None]:
    """``claims`` with each clash of two members over a single day parted by what their
    names say comes first, where the schema lists them the other way round (a
    ``follow_up_visit`` before a ``first_visit``): the later-named takes the one day no
    member claims told after the clash's day, else the first-named the one told before it."""
    days = list(claims)
    for day in single_days(claims):
        pair = claimants(days, day)
        if len(pair) != 2 or not named_later(siblings[pair[0]], siblings[pair[1]]):
            continue
        claimed = {(t.first, t.last) for t in days if t is not None}
        left = [t for t in leftover(told, claimed) if t.first == t.last]
        where = min(t.start for t in (days[pair[0]], days[pair[1]]) if t is not None)
        after = [t for t in left if t.start > where]
        before = [t for t in left if t.start < where]
        if len(after) == 1:
            days[pair[0]] = after[0]
        elif len(before) == 1:
            days[pair[1]] = before[0]
    return days


def named_later(one: str, other: str) -> bool:
    """Whether ``one``'s name says it comes after ``other``'s: an end or a later one of the
    thing the other starts ("follow_up_inspection", "first_inspection"; not a
    "first_payment" beside an "opt_out_deadline", which are two things)."""
    same_thing = not own_words(one).isdisjoint(own_words(other))
    return (
        same_thing and comes_late(one) and columns.names(other, "start") and not comes_late(other)
    )


def comes_late(key: str) -> bool:
    """Whether a name says its day ends or follows something, and starts nothing."""
    late = columns.names(key, "end") or columns.names(key, "later")
    return late and not columns.names(key, "start")
