"""Which told day a date member with no word of its own takes: a lone start or end its
event's first or last day (:func:`edge_day`), else the one day left over when the members
left over are as many as the days (:func:`unclaimed_day`), each settled against the others in
the order the document tells them, with the schema's members as the things counted days
count from (:func:`ordered_days`, :mod:`.day_order`, :mod:`.member_origins`). Asked by
:class:`.event_days.EventDays`. Pure functions over one document's reading.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable
from functools import lru_cache
from typing import Protocol

from engine.structured import columns
from engine.structured.ages import read_births
from engine.structured.day_clashes import moved_on, named_in_order
from engine.structured.day_order import leftover, settled
from engine.structured.member_days import ends_its_length
from engine.structured.member_kinds import born, ends_only, later, named_in, paired
from engine.structured.member_origins import left_to_yielded, rebased, yielded
from engine.structured.periods import Span
from engine.structured.series_counts import ordinal_of
from engine.structured.told_days import Told
from engine.structured.words import key_parts


class DocumentDays(Hashable, Protocol):
    """What elimination reads of one document (:class:`.event_days.EventDays`): its event's
    ends, the days it tells, its series, its text, and what each member's name finds."""

    @property
    def ends(self) -> Span | None: ...

    @property
    def told(self) -> tuple[Told, ...]: ...

    @property
    def series(self) -> tuple[float, ...]: ...

    @property
    def text(self) -> str: ...

    def pair_ends(self) -> Span | None: ...

    def named_day(self, key: str, siblings: Iterable[str]) -> Told | None: ...

    def meeting(self, key: str) -> Span | None: ...

    def counted_day(self, key: str) -> Span | None: ...

    def act_span(self, key: str) -> Span | None: ...

    def not_acts(self, keys: Iterable[str]) -> list[str]: ...


def edge_day(event: DocumentDays, key: str, siblings: tuple[str, ...]) -> Span | None:
    """The one day of its event a lone member takes by its name (:func:`edge_of`), where no
    pair among ``siblings`` takes the event's ends by rule."""
    if not unclaimed(event, key, siblings) or paired(key, event.not_acts(siblings)):
        return None
    edge = edge_of(event, key)
    return edge if edge is not None and edge != event.ends else None


def edge_of(event: DocumentDays, key: str) -> Span | None:
    """The days of an event a lone member takes: its first for a name that says it starts
    ("course_start" beside "the course runs for six weeks … beginning 8 March"), its last for
    one that says it ends, unless both are days told on their own (a birth and a job's start
    may bound the days); else all of them."""
    ends = event.ends
    if ends is None or columns.names(key, "start") == ends_only(key):
        return ends
    singles = {t.first for t in event.told if t.first == t.last}
    if ends[0] in singles and ends[1] in singles:
        return ends  # two days told apart may be two things' (a birth and a start)
    day = ends[0] if columns.names(key, "start") else ends[1]
    return (day, day)


@lru_cache(maxsize=256)  # the compiler, the era rule and the review's note each ask
def unclaimed_day(event: DocumentDays, key: str, siblings: tuple[str, ...]) -> Told | None:
    """The day a date member with no word beside any told day takes by elimination: the
    document tells days that the other date members (``siblings``, in the schema's order)
    take by their names (a told day, or a meeting of its series; or as the ends of its
    event; the event's days, where any lone date goes, are no day left over), and those left
    over go to the members left over, in order, when there are as many of each. "Installed
    on 4 March 2026 with a one-year guarantee; it began to rattle on 5 February 2027": a
    ``breakdown_date`` beside ``installed_on`` and ``guarantee_ends`` takes 5 February."""
    # a lone start or end that takes its event's first or last day takes no day left over
    edges = {k: edge for k in siblings if (edge := edge_day(event, k, siblings)) is not None}
    members = [k for k in siblings if unclaimed(event, k, siblings) and k not in edges]
    if key not in members:
        return None
    taken = {(t.first, t.last) for k in siblings if (t := event.named_day(k, siblings)) is not None}
    taken |= set(edges.values())
    taken |= {m for k in siblings if (m := event.meeting(k)) is not None}  # "first_session"
    pair = event.pair_ends()
    if pair is not None and any(paired(k, siblings) for k in siblings):
        taken |= {(t.first, t.last) for t in event.told
                  if pair[0] <= t.first and t.last <= pair[1]}  # fmt: skip
    # The event's own days, which a lone date takes anyway; but a one-day event's day is
    # one member's, and when the members left over are as many as the days left with it,
    # each takes its own in order ("moved in on 2 March; the dinner falls on a Friday in
    # May; let us know by 12 April": three members, three days).
    ends = [] if event.ends is None else [event.ends]
    one_day = [None] if not ends or ends[0][0] == ends[0][1] else []
    # a length's last day ("hired for six weeks") is no day of a member that ends nothing,
    # where no start and end among the members may take the length's days as theirs
    lasting = any(ends_its_length(k) for k in members) or any(paired(k, siblings) for k in siblings)
    births = {span for span, how in read_births(event.text) if not how}  # a born member's
    for also in ends + one_day:
        left = leftover(event.told, taken | ({also} if also else set()))
        left = [t for t in left if (lasting or not t.lasting) and (t.first, t.last) not in births]
        if len(left) == len(members):
            return left[members.index(key)]
    return None


@lru_cache(maxsize=256)  # each date member of one object asks
def ordered_days(event: DocumentDays, siblings: tuple[str, ...]) -> tuple[Told | None, ...]:
    """The day each of ``siblings`` (the object's date members, in the schema's order) takes:
    the one its name finds or elimination gives it, settled against the others' in the order
    the document tells them (:func:`.day_order.settled`)."""
    claims = [event.named_day(k, siblings) or unclaimed_day(event, k, siblings) for k in siblings]
    free = [unclaimed(event, k, siblings) for k in siblings]
    gave_up = yielded(event.text, event.told, siblings, claims)
    for at in (at for at, gives_up in enumerate(gave_up) if gives_up):
        claims[at], free[at] = None, True  # "… 2 days before the concert": another day
    claims = moved_on(event.told, event.text, siblings, claims)  # a second day only one name finds
    claims = named_in_order(event.told, siblings, claims)  # "follow_up_visit", "first_visit"
    meetings = {m for k in siblings if (m := event.meeting(k)) is not None}
    days = left_to_yielded(event.told, gave_up, settled(claims, free, event.told, meetings))
    return rebased(event.text, event.told, siblings, days)  # "before the performance"


def unclaimed(event: DocumentDays, key: str, siblings: tuple[str, ...]) -> bool:
    """Whether a date member takes no day by its name: no told day, series meeting, act or
    count of its own, no birth or later date (a renewal is no day told; a deadline for one
    is: "reply_by", "renewal_deadline"), and no start or end with its pair where the
    document writes its event's ends (the pair takes them by rule; with none written, a
    start and an end take the days told in their order: "arrives on Thu 9/8/29 … the
    Tuesday after")."""
    if born(key) or later(key) or (paired(key, siblings) and event.pair_ends() is not None):
        return False
    if event.meeting(key) is not None or event.counted_day(key) is not None:
        return False
    if ordinal_of(set(key_parts(key))) is not None and (event.series or named_in(event.text, key)):
        return False  # "session_two" of a series, or of a thing the text names, is counted
    return event.named_day(key, siblings) is None and event.act_span(key) is None
