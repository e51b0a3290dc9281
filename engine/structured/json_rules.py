"""The rules that complete a filled JSON instance (see :mod:`.json_values`): each reads one
object's members by name and writes the generated values that follow from the others.

Objects are visited children first, so an invoice's line amounts are in before its subtotal,
the subtotal before the tax, the tax before the total.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterator
from typing import Any

from engine.structured import agreement, columns, vocab
from engine.structured.ages import read_births
from engine.structured.anniversaries import born_member
from engine.structured.event_days import lone_date_span
from engine.structured.json_sums import RULES as ARITHMETIC
from engine.structured.json_sums import put
from engine.structured.json_values import (
    DAYS_PER_YEAR,
    Completion,
    Members,
    is_number,
    pointer_text,
    schema_births,
)
from engine.structured.tree import Path, in_item
from engine.structured.values import Leaf
from engine.structured.words import core_words, key_parts, key_words

ADULT_YEARS = (18, 80)  # a generated birth date with no age beside it: an adult's
ERA_STEP = 7  # days between repaired dates of different properties, so they differ
ONE_HOUR = 60
NIGHT = "night"  # the count a stay's dates give (see nights)
LATER_KINDS = ("later", "end", "birth")  # dates that are not the object's own day
OTHER_DAYS = ("later", "birth")  # dates that are not in the object's own period either
LAST_MINUTE = 23 * 60 + 59
VOWELS = "aeiou"  # "an event", "a workshop" (the review's note)
SHORT_EVENT_DAYS = 7  # a thing that lasts days (a workshop) ends within a week of its start
ELIMINATED = "the one day told that no other date takes"  # the review's note


def objects(value: Any, path: Path = ()) -> Iterator[tuple[Path, Members]]:
    """Every object of an instance with its path, innermost first."""
    if isinstance(value, dict):
        for key, child in value.items():
            yield from objects(child, (*path, key))
        yield path, value
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from objects(child, (*path, index))


def complete(
    leaves: dict[Path, Leaf], values: dict[Path, Any], instance: Any, document: str, title: str = ""
) -> list[tuple[Path, str]]:
    """Compute what follows from the filled values (written into ``values``); the notes, each
    with the path it is about. ``title`` is the schema's: what the instance is."""
    done = Completion(leaves, values, document, title)
    complete_instance(done, instance)
    return done.notes


def complete_instance(done: Completion, instance: Any) -> None:
    for path, members in objects(instance):
        rules = (
            era,
            named_place,
            agree,
            period_ends,
            lasting_end,
            in_order,
            short_event_end,
            later,
            nights,
            *ARITHMETIC,
            age,
            told,
        )
        for rule in rules:
            rule(done, path, members)


def told(done: Completion, path: Path, members: Members) -> None:
    """Say which of the object's dates the document counts rather than writes ("the results
    came out six weeks later", "the second Thursday of November"), or a member took by
    elimination (:func:`.day_elimination.unclaimed_day`): the compiler fixed them
    (:mod:`.told_days`), so no rule wrote them, and the review should still say why."""
    if path or done.event is None:
        return
    dates = date_members(members)
    for key, value in members.items():
        found = done.event.own_day(key, dates)
        if found is None or found.first != found.last:
            continue
        # a written day taken by elimination (or in the dates' order) says so; one taken by
        # name needs no word
        how = found.how or (ELIMINATED if done.event.named_day(key, dates) != found else "")
        if how and (key,) not in done.leaves and value == iso_day(found.first):
            done.notes.append(((key,), f"{pointer_text((key,))} = {value} ({how})"))
    counted = {iso_day(first): how for (first, _), how in read_births(done.event.text) if how}
    for key in filter(born_member, members):  # a birth counted from an age turned on a day
        if members[key] in counted:
            note = f"{members[key]} ({counted[members[key]]})"
            done.notes.append(((key,), f"{pointer_text((key,))} = {note}"))


def named_place(done: Completion, path: Path, members: Members) -> None:
    """The one city the document names ("in Lisbon") is the generated city of the object it
    is about (not an array item's: a list of offices has many), and its country the city's;
    :func:`agree` then derives the rest from them."""
    cities = done.cities
    if len(cities) != 1 or in_item(path):
        return
    city = next(
        (k for k, v in members.items() if is_place(k, v) and done.may_write((*path, k))), None
    )
    place = vocab.country_of_city(cities[0])
    if city is None or place is None:
        return
    put(done, path, members, city, cities[0], "the city the document names")
    for key, value in members.items():
        if kind_of(key) == "country" and isinstance(value, str):
            named = agreement.write("country", place, columns.vocab_style("country", [value]))
            put(done, path, members, key, named, f"the country of {cities[0]}")


def is_place(key: str, value: Any) -> bool:
    """Whether a member is a city the rule may name: a string, as a ``city_tax`` is a number."""
    return kind_of(key) == "city" and isinstance(value, str)


def agree(done: Completion, path: Path, members: Members) -> None:
    """A country's currency, language, time zone, phone number and city; an e-mail from the
    object's name, at the document's domain."""
    known = {}
    for key, value in members.items():
        kind = kind_of(key)
        if kind and isinstance(value, str):
            known[kind] = value
    for key, value in members.items():
        kind = kind_of(key)
        if (
            not kind
            or not isinstance(value, str)
            or kind not in agreement.ORDER
            or kind == "country"
            or (*path, key) in done.computed  # the document's city, say: already decided
        ):
            continue
        style = "alpha_2" if len(value) == 2 and kind == "language" else ""
        found = agreement.derive(kind, known, style, len(path), done.context)
        if found:
            put(done, path, members, key, found, "agrees with the object")


def kind_of(key: str) -> str | None:
    for kind in (*agreement.ORDER, "subdivision"):
        if columns.names(key, kind) or (kind == "country" and columns.names(key, "country_code")):
            return kind
    if key_words(key) & {"name", "fullname"}:
        return "name"
    return None


def day(value: Any) -> float | None:
    try:
        return float(dt.date.fromisoformat(str(value)).toordinal())
    except ValueError:
        return None


def date_members(members: Members) -> list[str]:
    """The object's members that hold a date, in its order: what a date is placed among
    (:mod:`.event_days`), as the compiler's schema-typed list is."""
    return [k for k, v in members.items() if day(v) is not None]


def iso_day(ordinal: float) -> str:
    """The ISO date of a day ordinal (its whole days): what :func:`day` reads back."""
    return dt.date.fromordinal(int(ordinal)).isoformat()


def minutes(value: Any) -> float | None:
    text = str(value)[:5]
    found = columns.TIME.fullmatch(text)
    return float(int(found[1]) * 60 + int(found[2])) if found else None


def in_order(done: Completion, path: Path, members: Members) -> None:
    """An end (date, time, a high) generated before its start: the two swap when both were
    generated (both stay where the document's era put them), else the end moves after it."""
    for start, end in ordered_pairs(done.event_keys(path, members)):
        moved = after(members[start], members[end])
        if moved is None:
            continue
        if done.may_write((*path, start)) and done.may_write((*path, end)):
            first, second = members[end], members[start]
            put(done, path, members, start, first, f"swapped with {end}")
            put(done, path, members, end, second, f"not before {start}")
        else:
            put(done, path, members, end, moved, f"not before {start}")


def period_ends(done: Completion, path: Path, members: Members) -> None:
    """The start and end dates of the object a document is about (not an array item's) are
    the first and last day the document writes, when the fill generated them: a festival's three
    days, a fair's "9 to 12 March", a journey out and back, a parcel shipped and delivered (a
    start or end name is the object's own day even where its word also names a later date of
    another object: "shipped", "returned"). Not a birth date; not a month's or a season's ends,
    which a document that names no day only approximates. A member the fill did not generate
    (the document's one day, written in) must already hold its day. Nor a pair of meetings
    of a series ("first_class", "last_class" of "every Monday for six weeks in a row"):
    the last meeting, not the last day of the weeks it runs."""
    if done.pair_ends is None or in_item(path):
        return
    for start, end in ordered_pairs(done.event_keys(path, members)):
        dates = [k for k in (start, end) if day(members[k]) is not None]
        others = any(born_member(k) or series_member(done, k) for k in (start, end))
        wanted = dict(zip((start, end), done.pair_ends, strict=True))
        fits = all(done.may_write((*path, k)) or day(members[k]) == wanted[k] for k in dates)
        if len(dates) == 2 and not others and fits:
            for key, why in ((start, "the document's first day"), (end, "the document's last day")):
                if done.may_write((*path, key)):
                    put(done, path, members, key, iso_day(wanted[key]), why)
            return


def series_member(done: Completion, key: str) -> bool:
    """Whether a member's name counts a meeting of the series the document states."""
    return done.event is not None and done.event.meeting(key) is not None


def lasting_end(done: Completion, path: Path, members: Members) -> None:
    """An end counted from the object's start (the template's own, or generated) by the length
    the document states alone ("the summit lasts three days"), when it writes no days of its
    own to take both ends from (:func:`period_ends`)."""
    if done.ends is not None or done.lasts is None or in_item(path):
        return
    for start, end in ordered_pairs(done.event_keys(path, members)):
        first = day(members[start])
        others = any(columns.names(k, w) for k in (start, end) for w in OTHER_DAYS)
        if first is not None and not others and done.may_write((*path, end)):
            last = iso_day(first + done.lasts)
            put(done, path, members, end, last, f"{start} and the length the document states")
            return


def short_event_end(done: Completion, path: Path, members: Members) -> None:
    """The end of a thing that lasts days, not weeks (its kind, :func:`lasts_days`), where the
    document states neither its end nor its length, within a week of its start: an end
    generated further away goes on the start's day, the one end that claims no length nothing
    states. Not a series' first and last meetings (:func:`series_member`). The instance's own
    dates only (its title says what the instance is, not what its members are)."""
    if path or done.ends is not None or done.lasts is not None:
        return
    # A name the fill generated says what the model guessed, not what the object is.
    given = {k: v for k, v in members.items() if (*path, k) not in done.leaves}
    kind = lasts_days(done.title, given)
    if kind is None:
        return
    for start, end in ordered_pairs(done.event_keys(path, members)):
        first, last = day(members[start]), day(members[end])
        if first is None or last is None or not done.may_write((*path, end)):
            continue
        if any(series_member(done, k) for k in (start, end)):
            continue  # the first and last meetings of a series, weeks apart by what it states
        if last - first >= SHORT_EVENT_DAYS:
            why = f"{kind} lasts days, and nothing states its end"
            put(done, path, members, end, iso_day(first), why)


def lasts_days(title: str, members: Members) -> str | None:
    """What says an object lasts days, not weeks (a ``short_events`` word), quoted for the
    review: the object's own name ("Dockside Folk Weekend", under a title as general as
    "Listing"), else the schema's title ("Workshop"); ``None`` when neither says so. Only a
    member named by ``title_name`` words alone is the object's name ("name", "event_name";
    not "organiser_name", whose value names someone else); :func:`short_event_end` passes only
    the members the fill did not generate (the template's, the one the document gives)."""
    titles = columns.field_words()["title_name"]
    names = [v for k, v in members.items() if isinstance(v, str) and set(key_parts(k)) <= titles]
    for said in (*names, title):  # its own name first: "Folk Weekend" says more than "Event"
        if said and columns.names(said, "short_events"):
            return f"“{said}”" if said in names else with_article(said.lower())
    return None


def with_article(noun: str) -> str:
    return f"{'an' if noun[:1] in VOWELS else 'a'} {noun}"


def ordered_pairs(keys: list[str]) -> list[tuple[str, str]]:
    """(start, end) members; of two whose role depends on the object (a stay's arrival comes
    first, a flight's departure), the one listed first is the start."""
    starts = [k for k in keys if columns.names(k, "start")]
    ends = [k for k in keys if columns.names(k, "end")]
    pairs = []
    for start in starts:
        for end in (e for e in ends if e != start):
            either = columns.names(start, "either_order") and columns.names(end, "either_order")
            if either and keys.index(end) < keys.index(start):
                start, end = end, start
            if (start, end) not in pairs:
                pairs.append((start, end))
    return pairs


def later(done: Completion, path: Path, members: Members) -> None:
    """A later date (a renewal, an expiry, the next visit) comes after the object's own dates:
    on or before one of them, it moves to the day after the last of them. (An end may fall on
    its start's day, a due date on its issue's: :func:`in_order`.)"""
    own = [day(v) for k, v in members.items() if not any(columns.names(k, w) for w in LATER_KINDS)]
    days = [d for d in own if d is not None]
    if not days:
        return
    last = max(days)
    acts = set(members) - set(done.event_keys(path, members))  # dated ahead of the event
    for key, value in members.items():
        at = day(value)
        named = columns.names(key, "later") and not columns.names(key, "end")
        if at is None or not named or key in acts:
            continue
        if at <= last:
            moved = iso_day(last + 1)
            put(done, path, members, key, moved, "after the object's own dates")


def nights(done: Completion, path: Path, members: Members) -> None:
    """A stay's nights are the days between its start and its end (a check-in and a
    check-out), so a nightly rate multiplies the nights the dates give. Only nights: whether
    a count of days includes both ends differs between a hire and a course."""
    counts = [k for k, v in members.items() if is_number(v) and NIGHT in core_words(k)]
    for start, end in ordered_pairs(done.event_keys(path, members)):
        first, last = day(members[start]), day(members[end])
        if counts and first is not None and last is not None and last > first:
            put(done, path, members, counts[0], int(last - first), f"{end} − {start}")
            return


def after(first: Any, second: Any) -> Any:
    """What ``second`` becomes when it comes before ``first`` (``None``: it does not): the
    next day, an hour later, or the start's own number for a high below its low."""
    start, end = day(first), day(second)
    if start is not None and end is not None:
        return iso_day(start + 1) if end < start else None
    start, end = minutes(first), minutes(second)
    if start is not None and end is not None:
        moved = int(min(start + ONE_HOUR, LAST_MINUTE))
        return f"{moved // 60:02d}:{moved % 60:02d}" + str(second)[5:] if end < start else None
    if is_number(first) and is_number(second) and second < first:
        return first
    return None


def reference_day(done: Completion) -> float:
    """The document's latest date, else today: the day an age is counted at."""
    return done.latest


def age(done: Completion, path: Path, members: Members) -> None:
    birth = next((k for k in members if born_member(k) and day(members[k]) is not None), None)
    years = next((k for k in members if columns.names(k, "age") and is_number(members[k])), None)
    if not birth:
        return
    now = reference_day(done)
    if years and done.may_write((*path, years)):
        put(
            done,
            path,
            members,
            years,
            int((now - (day(members[birth]) or now)) / DAYS_PER_YEAR),
            f"from {birth}",
        )
    elif years:
        born = iso_day(now - (members[years] + 0.5) * DAYS_PER_YEAR)
        put(done, path, members, birth, born, f"fits {years}")


def object_births(done: Completion, path: Path, members: Members) -> tuple[float, float] | None:
    """The births the bounds of the object's generated age allow (``None``: no such age)."""
    ages = [k for k in sorted(members) if columns.names(k, "age")]
    leaf = done.leaves.get((*path, ages[0])) if ages else None
    return schema_births(leaf.schemas, done.latest) if leaf is not None else None


def era(done: Completion, path: Path, members: Members) -> None:
    """A generated date far from the document's dates moves into their span (a lone date of
    an event's object into its days or its act's lead-up, :mod:`.event_days`; a birth date into
    the births the document's stated age allows, else an adult's years before them)."""
    dates = date_members(members)  # the siblings a lone date is placed among
    for key, value in members.items():
        at = (*path, key)
        leaf: Leaf | None = done.leaves.get(at)
        when = day(value)
        if leaf is None or when is None or leaf.fmt != "date":
            continue
        low, high = lone_date_span(done.event, key, len(at), dates) or done.era
        if born_member(key):
            first, last = (
                done.births
                or object_births(done, path, members)
                or (
                    high - ADULT_YEARS[1] * DAYS_PER_YEAR,
                    high - ADULT_YEARS[0] * DAYS_PER_YEAR,
                )
            )
            if not first <= when <= last:
                born = iso_day((first + last) / 2)
                put(done, path, members, key, born, "a birth date that fits the age")
        elif not low <= when <= high:
            inside = low + (len(path) + len(key) * ERA_STEP) % max(int(high - low), 1)
            put(
                done,
                path,
                members,
                key,
                iso_day(inside),
                "in the document's era",
            )
