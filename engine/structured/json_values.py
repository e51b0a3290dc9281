"""JSON values a user would keep: vocabulary properties as choices of valid values, and the
values that follow from others (totals, taxes, an end after its start, an age from a birth
date, a country's currency, a person's e-mail address) computed once the model's are in.

:func:`vocab_leaf` gives a property named like a country, currency, language, time zone,
region or phone number a choice of valid values (checked against its schema, so a pattern
picks the code style), different for each array item; :func:`in_era` shapes a date to the
document's era. :func:`engine.structured.json_rules.complete` then works on the filled
instance with a :class:`Completion`: each rule reads an object's members by their names
(:mod:`.columns`' ``field_words.json``) and writes only generated values whose schema
``description`` does not opt out ("entered by hand", "not computed"…); it returns the notes
the review shows.
"""

from __future__ import annotations

import datetime as dt
import math
import zlib
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from engine.structured import ages, agreement, columns, other_days, stated, vocab
from engine.structured.anniversaries import born_member
from engine.structured.event_days import event_days
from engine.structured.schema import Context, Schemas
from engine.structured.tree import Path, in_item
from engine.structured.values import Leaf, choice_leaf
from engine.structured.words import suggestions

CHOICE_VALUES = 6
CENTS = 2  # money is rounded to cents
DAYS_PER_YEAR = 365.2425
ERA_DAYS = 60  # a generated date with no era of its own lands this close to the document's
MAX_YEAR_CHOICES = 12  # a year property chooses among at most this many of the era's years
NOT_A_DATE = "soon"  # text a date pattern refuses
VOCAB_KINDS = ("country", "currency", "language", "timezone", "subdivision", "phone")


def vocab_kind(key: str) -> str | None:
    """What vocabulary a property's name says it holds (``countryCode`` → country)."""
    for kind in VOCAB_KINDS:
        if columns.names(key, kind) or (kind == "country" and columns.names(key, "country_code")):
            return kind
    return None


def candidates(kind: str, salt: int) -> list[list[str]]:
    """Valid values of ``kind``, one list per style (names, then alpha-2, then alpha-3
    codes), ``salt`` rotating which countries come first so properties and items differ."""
    places = agreement.neighbourhood(None)
    start = (salt * CHOICE_VALUES) % len(places)
    chosen = [places[(start + i) % len(places)] for i in range(CHOICE_VALUES)]
    styles: list[list[str]] = [[], [], []]
    for place in chosen:
        for style, value in enumerate(styled(kind, place, salt)):
            if value and value not in styles[style]:
                styles[style].append(value)
    return styles


def styled(kind: str, place: Any, salt: int) -> tuple[str | None, ...]:
    """A country's value of ``kind`` in each style (``None`` where it has none)."""
    if kind == "country":
        return vocab.country_name(place), place.alpha_2, place.alpha_3
    if kind == "currency":
        return None, None, vocab.currency_of(place.alpha_2)
    if kind == "language":
        item = vocab.language_of(place.alpha_2)
        if item is None:
            return ()
        return vocab.language_name(item), getattr(item, "alpha_2", None), item.alpha_3
    if kind == "timezone":
        return ((vocab.zones_of(place.alpha_2) or (None,))[0],)
    if kind == "subdivision":
        return (vocab.subdivisions_of(place.alpha_2)[:1] or (None,))[0:1]
    numbers = vocab.phone_numbers(place.alpha_2, 1, salt)
    packed = vocab.phone_numbers(place.alpha_2, 1, salt, "e164")
    return next(iter(numbers), None), next(iter(packed), None)


def vocab_leaf(key: str, schemas: Schemas, context: Context, path: Path, seed: Any) -> Leaf | None:
    """A choice of valid values for a vocabulary property, or ``None`` (not one, or the
    schema already says what it holds: a format, an enum)."""
    kind = vocab_kind(key)
    if kind is None or schemas.has("format") or schemas.has("enum") or schemas.has("const"):
        return None
    salt = zlib.crc32(str(path).encode())  # each property and item its own window
    own = [v for v in [seed, *suggestions(schemas)] if isinstance(v, str)]  # the template's
    for style in candidates(kind, salt):
        valid = list(dict.fromkeys(v for v in [*own, *style] if schemas.valid(context, v)))
        if len(valid) >= 2:
            return choice_leaf(valid[:CHOICE_VALUES], schemas, seed)
    return None


def document_era(document: str) -> tuple[float, float] | None:
    """The days new dates of a document fall in (day ordinals): the period it states, else
    from its first date to ``ERA_DAYS`` past its last; ``None`` when it says no when."""
    reading = stated.read(document)
    said = reading.period()
    if said is not None:
        return said
    days = reading.points
    return (min(days), max(days) + ERA_DAYS) if days else None


def age_day(document: str) -> float:
    """The day an age is counted at: the document's latest date, else today."""
    today = float(dt.date.today().toordinal())
    return max(stated.read(document).days(), default=today)


def document_births(document: str) -> tuple[float, float] | None:
    """The one birth a document writes ("born on 3 May 2019", :func:`.ages.told_births`),
    else the birth days that fit the one age it gives ("aged 9"), counted on its latest date
    (today when it has none), or a baby's in weeks or months ("six weeks old"), counted on the
    day its sentence writes (:func:`.ages.young_births`); ``None`` when it gives no age, or
    several."""
    told = ages.told_births(document)
    if len(told) == 1:  # "born 28 February 2028": the day itself, whatever age it gives
        return told[0]
    said = set(ages.ages(document))
    young = set(ages.young_births(document))
    if len(said) + len(young) != 1:
        return None
    return young.pop() if young else ages.birth_span(said.pop(), age_day(document))


def schema_births(age: Schemas, on: float) -> tuple[float, float] | None:
    """The birth days an age property's bounds allow on day ``on`` (a junior squad's ages 8
    to 16: born between 17 and 8 years before); ``None`` unless it has both bounds. A form
    that bounds the age says whose birth date it holds, where an unbounded one is an adult's."""
    lows, highs = age.values("minimum"), age.values("maximum")
    if not lows or not highs or max(lows) > min(highs) or min(highs) > ages.OLDEST:
        return None
    youngest = ages.birth_span(math.ceil(max(lows)), on)[1]
    oldest = ages.birth_span(math.floor(min(highs)), on)[0]
    return oldest, youngest


def written_days(document: str) -> tuple[float, ...]:
    """The days a document writes when it states no period ("Order confirmed on
    2026-09-14"): the day it is about, which a date of its own takes (not a deadline or a
    moved thing's old day, :mod:`engine.structured.other_days`); none when it states one."""
    reading = stated.read(other_days.event_text(document))
    return () if reading.period() is not None else tuple(sorted(set(reading.points)))


def the_written_day(
    leaf: Leaf, key: str, path: Path, written: tuple[float, ...], context: Context
) -> Leaf | str:
    """A date of the object a document is about (not an end, a later date, a birth, or an
    array item's) as one of the days it writes: the day itself, or a choice of them."""
    alone = not in_item(path)
    named = born_member(key) or any(columns.names(key, what) for what in ("end", "later"))
    if not written or leaf.fmt != "date" or not alone or named:
        return leaf
    valid = [t for t in (day_text(leaf, key, d, context) for d in written) if t is not None]
    if len(valid) == 1:
        return valid[0]
    return choice_leaf(valid, leaf.schemas, valid[0]) if valid else leaf


def day_text(leaf: Leaf, key: str, day: float, context: Context) -> str | None:
    """``day`` written as a date of ``key``'s column, when the leaf's schema allows it."""
    text = columns.Column("date", key, fmt=columns.DATE_FORMATS[0]).text(day)
    return text if leaf.schemas.valid(context, text) else None


def item_era(
    era: tuple[float, float] | None, path: Path, counts: dict[Path, int]
) -> tuple[float, float] | None:
    """The era of a date in item ``i`` of ``n``: the ``i``-th of ``n`` equal parts of the
    document's, so a timesheet's days or a programme's events come out in order and
    different, not as one day repeated; the whole era when it has fewer days than items."""
    index = next((i for i in range(len(path) - 1, -1, -1) if isinstance(path[i], int)), None)
    if era is None or index is None:
        return era
    count, item = counts.get(path[:index], 1), int(path[index])
    days = era[1] - era[0] + 1
    if count < 2 or days < count:
        return era
    width = days / count
    return era[0] + math.ceil(item * width), era[0] + math.ceil((item + 1) * width) - 1


def in_era(
    leaf: Leaf,
    key: str,
    era: tuple[float, float] | None,
    context: Context,
    births: tuple[float, float] | None = None,
) -> Leaf:
    """A date leaf (a ``date`` format, or a pattern only dates pass) shaped to the document's
    era, a birth date to the births its stated age allows; its default moved there when the
    schema allows."""
    span = births if born_member(key) else era
    if span is None or not holds_date(leaf, context, span):
        return leaf
    column = columns.Column("date", key, fmt=columns.DATE_FORMATS[0])
    middle = column.text((span[0] + span[1]) / 2)
    default = middle if leaf.schemas.valid(context, middle) else leaf.default
    shape = columns.cell_shape(column, span)
    return replace(leaf, shape=shape, default=default, fmt="date")


def holds_date(leaf: Leaf, context: Context, span: tuple[float, float]) -> bool:
    """Whether a string leaf is a date: its format says so, or its pattern passes the span's
    dates and refuses a word."""
    if leaf.fmt == "date":
        return True
    if leaf.kind != "string" or leaf.fmt or not leaf.schemas.has("pattern"):
        return False
    column = columns.Column("date", "", fmt=columns.DATE_FORMATS[0])
    ends = [column.text(end) for end in span]
    return all(leaf.schemas.valid(context, e) for e in ends) and not leaf.schemas.valid(
        context, NOT_A_DATE
    )


def year_node(
    leaf: Leaf, key: str, era: tuple[float, float] | None, context: Context
) -> Leaf | int:
    """A year property of the document's period (not a year something began: ``founded``)
    as a choice of the era's years its schema allows, or the one it allows."""
    if era is None or leaf.kind != "integer" or not columns.names(key, "year"):
        return leaf
    if columns.names(key, "origin_year"):
        return leaf
    first, last = (dt.date.fromordinal(int(end)).year for end in era)
    valid = [y for y in range(first, last + 1) if leaf.schemas.valid(context, y)]
    if len(valid) == 1:
        return valid[0]
    if not valid:
        return leaf
    if len(valid) > MAX_YEAR_CHOICES:  # a long era: its years' digits, place by place
        shape = columns.place_shape([str(y) for y in valid])
        return replace(leaf, shape=shape, default=valid[len(valid) // 2])
    return choice_leaf(valid, leaf.schemas, valid[len(valid) // 2])


Members = dict[str, Any]
Rule = Callable[["Completion", Path, Members], None]


class Completion:
    """One filled instance being completed: which paths were generated, their leaves."""

    def __init__(
        self, leaves: dict[Path, Leaf], values: dict[Path, Any], document: str, title: str = ""
    ):
        self.leaves = leaves
        self.title = title  # the schema's: what the instance is
        self.values = values
        self.cities = vocab.field_cities(document)  # the places it names, read once
        self.notes: list[tuple[Path, str]] = []  # what was computed where, for the review
        self.computed: set[Path] = set()  # what a rule wrote, which later rules build on
        # The document's dates (the template's own included), else the year up to today.
        today = float(dt.date.today().toordinal())
        self.era = document_era(document) or (today - DAYS_PER_YEAR, today)
        self.latest = age_day(document)  # an age's "now"
        self.event = event_days(document)  # the days its lone dates fall in
        self.ends = self.event.ends if self.event else None  # what it is about: first, last day
        self.pair_ends = self.event.pair_ends() if self.event else None  # a start's and end's
        self.lasts = stated.lasting(document)  # a length it states with no day beside it
        self.births = document_births(document)
        self.context = agreement.Context(document, [], [], [])

    def event_keys(self, path: Path, members: Members) -> list[str]:
        """The members that may be the object's start and end: at the top level, not one
        the document ties to an act done ahead of its event (:mod:`.event_days`)."""
        if path or self.event is None:
            return list(members)
        return self.event.not_acts(members)

    def may_write(self, path: Path) -> bool:
        leaf = self.leaves.get(path)
        if leaf is None:
            return False
        said = " ".join(str(d).lower() for d in leaf.schemas.values("description"))
        return not any(phrase in said for phrase in columns.field_words()["opt_out"])

    def write(self, path: Path, value: Any, why: str) -> None:
        leaf = self.leaves[path]
        if leaf.kind == "integer" and isinstance(value, float) and not allows_fractions(leaf):
            value = round(value)
        elif isinstance(value, float):
            value = round(value, CENTS)
        self.computed.add(path)
        if self.values.get(path) != value:
            self.values[path] = value
            # A value written again (an era's repair, then the document's first day) keeps only
            # its last reason: the review names the value it offers, never one it replaced.
            self.notes = [n for n in self.notes if n[0] != path]
            self.notes.append((path, f"{pointer_text(path)} = {value} ({why})"))


def allows_fractions(leaf: Leaf) -> bool:
    """Whether a slot shaped as an integer may hold a fraction (its schema says ``number``,
    or no type): a computed profit of 50641.64 is not rounded to 50642."""
    declared: set[str] = set()
    for given in leaf.schemas.values("type"):
        declared |= {given} if isinstance(given, str) else set(given)
    return not declared or "number" in declared


def pointer_text(path: Path) -> str:
    return "/" + "/".join(str(p) for p in path)


def is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)
