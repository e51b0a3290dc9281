"""Which told day a date member takes when the day its name finds is another member's, or its
name finds none: the one the document tells where the member stands in the schema's order.

A schema lists its dates in the order the document tells them nearly always (on the dev split,
206 of the 221 templates whose every date the document writes or counts). So when two members'
names find the same day ("paid_on" and "next_instalment_due" both beside "instalment, paid 2
October"; "The second instalment … falls due 60 days after this payment"), one of them is
wrong, and the day told between its neighbours that no member takes is its own: the later
member's after the shared day, else the earlier member's before it. A member whose name finds
no day takes the one day no member takes told between its neighbours' days ("pick the car up
on Wed 3/7/29, and it has to go back the Monday after": ``return_date`` after ``pickup_date``).
Only where exactly as many such days are told as members need them: a day told twice, or none,
is left to the names. Pure functions over told days.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.structured.day_readers import Told, is_month
from engine.structured.periods import Span

# The told day each member's name finds (or elimination gives it), ``None`` where none
Claims = Sequence[Told | None]


def leftover(told: Sequence[Told], taken: set[Span]) -> list[Told]:
    """The told days no member takes, once each, in order: neither a whole month nor a
    period that holds another told day (the frame the others fall in, as a weekend holds
    its Sunday)."""
    left: list[Told] = []
    for t in told:
        inner = any(o is not t and t.first <= o.first <= o.last <= t.last
                    and (o.first, o.last) != (t.first, t.last) for o in told)  # fmt: skip
        seen = (t.first, t.last) in taken or any((o.first, o.last) == (t.first, t.last)
                                                 for o in left)  # fmt: skip
        if not (seen or inner or is_month(t)):
            left.append(t)
    return left


def settled(
    claims: Claims, free: Sequence[bool], told: Sequence[Told], taken: set[Span]
) -> list[Told | None]:
    """Each member's day, in the schema's order: its claim, moved where it clashes with an
    earlier member's (:func:`parted`), and a day for the ``free`` members that claim none
    (:func:`slotted`). ``told`` is every day the document tells, in order; ``taken`` the
    days members take otherwise (a series' meeting), which no other takes."""
    days = list(claims)
    taken = taken | {(t.first, t.last) for t in days if t is not None}
    left = [t for t in leftover(told, taken) if t.first == t.last]
    parted(days, left)
    slotted(days, free, left)
    return days


def parted(days: list[Told | None], left: list[Told]) -> None:
    """Part two members whose names found the same single day: the later one takes the one
    day left told after it and before the next member's day, else the earlier one the one
    day left told before it and after the previous member's; neither where the member next
    to it on that side has no day (the day left may be that one's). ``left`` loses the day
    taken."""
    for later in range(len(days)):
        day = days[later]
        earlier = next((i for i in range(later) if same(days[i], day)), None)
        if day is None or day.first != day.last or earlier is None:
            continue
        moved = None
        if not waiting(days, later, +1):
            moved = only_between(left, day.start, bound(days, later, +1))
        if moved is not None:
            days[later] = moved
        elif not waiting(days, earlier, -1):
            moved = only_between(left, bound(days, earlier, -1), day.start)
            days[earlier] = moved or days[earlier]
        if moved is not None:
            left.remove(moved)


def waiting(days: Sequence[Told | None], at: int, step: int) -> bool:
    """Whether the member next to the one at ``at``, before it (``step`` -1) or after it
    (+1), has no day: a day left there may be its own."""
    at += step
    return 0 <= at < len(days) and days[at] is None


def slotted(days: list[Told | None], free: Sequence[bool], left: list[Told]) -> None:
    """Give each run of ``free`` members with no day the days left told between the days of
    the members around the run, in order, where there are exactly as many."""
    at = 0
    while at < len(days):
        if days[at] is not None or not free[at]:
            at += 1
            continue
        end = at
        while end < len(days) and days[end] is None and free[end]:
            end += 1
        low, high = bound(days, at, -1), bound(days, end - 1, +1)
        inside = [t for t in left if low < t.start < high]
        if len(inside) == end - at:
            days[at:end] = inside
            for t in inside:
                left.remove(t)
        at = end


def bound(days: Sequence[Told | None], at: int, step: int) -> float:
    """Where in the text the nearest member before (``step`` -1) or after (+1) the one at
    ``at`` has its day: the text's start or end when none has."""
    others = days[:at][::-1] if step < 0 else days[at + 1 :]
    found = next((t.start for t in others if t is not None), None)
    if found is None:
        return -1.0 if step < 0 else float("inf")
    return float(found)


def only_between(left: Sequence[Told], low: float, high: float) -> Told | None:
    """The one day left told strictly between two places in the text; ``None`` unless there
    is exactly one."""
    inside = [t for t in left if low < t.start < high]
    return inside[0] if len(inside) == 1 else None


def same(one: Told | None, other: Told | None) -> bool:
    """Whether two claims are one and the same day (or period)."""
    if one is None or other is None:
        return False
    return (one.first, one.last) == (other.first, other.last)
