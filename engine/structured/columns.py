"""What a table column holds, learnt from its header and its filled cells, and what a new cell
of it may be.

A :class:`Column` is a kind (number, year, date, time, a vocabulary of :mod:`.vocab`, a few
repeated values, the people the table already names, or free text) plus what its values
say about new ones: a number's range and decimals, a date's format and span, a vocabulary's
style ("Japan" or "JP"). :func:`cell_shape` turns that into the cell's shape, so a year column
can only spell four digits of its span and a date only its format; :func:`fits` is the
read-back check and :func:`default` the repair (a value inside the span, never a copy of one
example). The period a document states (:mod:`.periods`) bounds a date column, and its own
dates set the era of one that has none yet.
"""

from __future__ import annotations

import calendar
import datetime as dt
import json
import math
import re
import statistics
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from lemminflect import getAllLemmas

from engine.structured import periods, stated, vocab
from engine.structured.shapes import Shape, one, upto
from engine.structured.words import name_words

DIGITS = "0123456789"
WORDS_FILE = Path(__file__).with_name("field_words.json")
VERB, NOUN = "VERB", "NOUN"  # lemminflect's classes: a noun made from a verb
NUMBER = re.compile(r"-?[0-9]+(\.[0-9]+)?")
TIME = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9])")
CLOCK_SECONDS = re.compile(r"([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])")  # a race's 01:12:44
SECONDS = "%H:%M:%S"  # the format of a time column whose cells write seconds (counted in seconds)
# strftime's fields, named: a literal "%d/%m/%Y" reads to the house-rule scan as "d m y".
DAY, MONTH, YEAR = "%d", "%m", "%Y"
DATE_FORMATS = (
    f"{YEAR}-{MONTH}-{DAY}",
    f"{DAY}/{MONTH}/{YEAR}",
    f"{DAY}.{MONTH}.{YEAR}",
    f"{MONTH}/{DAY}/{YEAR}",
)
DOC_YEAR = re.compile(r"\b(1[89]\d\d|20\d\d)\b")
YEARS = (1000, 2999)  # four digits starting 1 or 2: what a year column may hold
SPAN_SHARE = 0.5  # a column's span reaches this share of its spread beyond its values
MIN_DATE_SLACK = 14  # days a date span reaches beyond a lone value at least
MIN_YEAR_SLACK = 10
ERA_DAYS = 60  # a date column with no value yet: this many days around the document's dates
TIME_SLACK = 120  # minutes a time column's span reaches beyond its values
MAX_CHOICES = 6  # a column with more distinct values than this is not categorical
LABEL_WORDS = 3  # a category column's labels are this many words at most ("In progress")
VOCABS = ("country", "currency", "language", "phone", "email", "timezone", "subdivision")


@cache
def words_file() -> dict[str, object]:
    """``field_words.json`` as read, once per process."""
    return dict(json.loads(WORDS_FILE.read_text(encoding="utf-8")))


@cache
def field_words() -> dict[str, frozenset[str]]:
    """The header and property-name words of ``field_words.json`` by what they name."""
    return {k: frozenset(v) for k, v in words_file().items() if isinstance(v, list)}


@cache
def unit_adjectives() -> dict[str, str]:
    """``hourly`` → ``hour``: the adjectives that say what a rate is per."""
    found = words_file()["unit_adjectives"]
    assert isinstance(found, dict)
    return {str(k): str(v) for k, v in found.items()}


@cache
def verb_of(noun: str) -> frozenset[str]:
    """The verb a noun is made from by a ``verb_noun_endings`` ending, and what replaces it
    (one, or the first of several that leaves a verb: "payment": "pay", "delivery":
    "deliver", "closure": "close", "departure": "depart"), when what is left is a verb's base
    form; none otherwise, or for
    a word that is more than a noun ("final" is no act of finning)."""
    endings = words_file()["verb_noun_endings"]
    assert isinstance(endings, dict)
    if set(getAllLemmas(noun)) != {NOUN}:
        return frozenset()
    for ending, replacements in endings.items():
        for instead in [replacements] if isinstance(replacements, str) else replacements:
            stem = noun.removesuffix(ending) + instead
            if stem != noun + instead and stem in getAllLemmas(stem).get(VERB, ()):
                return frozenset({stem})
    return frozenset()


def phrasal_verb(word: str) -> frozenset[str]:
    """The verb of a verb and a ``phrasal_particles`` particle written as one word ("pickup":
    "pick", "dropoff": "drop", "handover": "hand"), when the whole is no verb of its own
    ("begin" is); none otherwise."""
    if VERB in getAllLemmas(word):
        return frozenset()
    particles = words_file()["phrasal_particles"]
    assert isinstance(particles, list)
    for particle in particles:
        stem = word.removesuffix(str(particle))
        if stem != word and len(stem) >= SHORTEST_VERB and stem in getAllLemmas(stem).get(VERB, ()):
            return frozenset({stem})
    return frozenset()


SHORTEST_VERB = 3  # "pickup": "pick"; a shorter stem ("upbeat") is no verb of a compound


def names(header: str, what: str) -> bool:
    """Whether a header or property name says ``what`` (see ``field_words.json``), by its
    words or their lemmas."""
    return bool(name_words(header) & field_words()[what])


@dataclass(frozen=True)
class Column:
    """A column's kind and what its values allow (bounds as numbers, days, or minutes; seconds
    in a time column whose format is :data:`SECONDS`)."""

    kind: str
    header: str
    values: tuple[str, ...] = ()
    low: float = 0.0
    high: float = 0.0
    decimals: int = 0
    fmt: str = ""
    style: str = ""
    known: tuple[float, ...] = field(default=(), repr=False)  # each row's value (nan: empty)

    def text(self, value: float) -> str:
        """A number, day ordinal or minute (or second) count written as this column writes them."""
        if self.kind == "date":
            return dt.date.fromordinal(round(value)).strftime(self.fmt)
        if self.kind == "time" and self.fmt == SECONDS:
            return f"{int(value) // 3600:02d}:{int(value) // 60 % 60:02d}:{int(value) % 60:02d}"
        if self.kind == "time":
            return f"{int(value) // 60:02d}:{int(value) % 60:02d}"
        return f"{value:.{self.decimals}f}"

    def number(self, text: str) -> float | None:
        """The column's value a cell's text spells (``None``: not one of its kind)."""
        text = text.strip()
        if self.kind in ("number", "year"):
            return float(text) if NUMBER.fullmatch(text) else None
        if self.kind == "date":
            try:
                return float(dt.datetime.strptime(text, self.fmt).date().toordinal())
            except ValueError:
                return None
        if self.kind == "time" and self.fmt == SECONDS:
            clock = CLOCK_SECONDS.fullmatch(text)
            if clock is None:
                return None
            return float(int(clock[1]) * 3600 + int(clock[2]) * 60 + int(clock[3]))
        found = TIME.fullmatch(text) if self.kind == "time" else None
        return float(int(found[1]) * 60 + int(found[2])) if found else None


def profile(header: str, cells: list[str], document: str = "") -> Column:
    """The column of ``header`` whose cells (one per row, empty ones included) are ``cells``."""
    filled = [c for c in cells if c]
    distinct = tuple(dict.fromkeys(filled))
    for kind in VOCABS:
        if in_vocab(kind, header, filled):
            return Column(kind, header, distinct, style=vocab_style(kind, filled))
    known_cities = filled and all(vocab.country_of_exemplar(v) is not None for v in filled)
    if (names(header, "city") or known_cities) and not any(c.isdigit() for v in filled for c in v):
        return Column("city", header, distinct)
    typed = typed_column(header, cells, filled, document)
    if typed is not None:
        return typed
    if names(header, "person") and distinct:
        return Column("person", header, distinct)
    if 1 <= len(distinct) <= MAX_CHOICES and len(filled) > len(distinct):  # a repeated value too
        return Column("choice", header, distinct)
    if is_category(header, distinct):
        return Column("choice", header, distinct)
    return Column("text", header, distinct)


def is_category(header: str, distinct: tuple[str, ...]) -> bool:
    """Whether a column whose values do not repeat yet is still a few labels: its header
    names a category (Level, Status, Type) and it holds two to :data:`MAX_CHOICES` short
    labels. A new cell is then one of them; written freely, a level came out as a word cut
    short ("Le") or one of another scale ("High" among Easy, Medium, Hard)."""
    return (
        names(header, "category")
        and 2 <= len(distinct) <= MAX_CHOICES
        and all(len(v.split()) <= LABEL_WORDS for v in distinct)
    )


def shared_values(texts: list[list[str]], col: int, row: int) -> tuple[str, ...]:
    """The values a text column shares with another (Home and Away teams, From and To): when
    together they repeat a few values, a new cell is one of them, never its row's other one.
    ``texts`` holds each column's cells; ``col`` and ``row`` count from 0."""
    own = {t for t in texts[col] if t}
    for other, cells in enumerate(texts):
        theirs = {t for t in cells if t}
        if other == col or not own & theirs or any(NUMBER.fullmatch(t) for t in theirs):
            continue
        union = tuple(dict.fromkeys(t for t in [*texts[col], *cells] if t))
        filled = len([t for t in [*texts[col], *cells] if t])
        if len(union) <= MAX_CHOICES and filled > len(union):
            in_row = {c[row] for c in texts if row < len(c)}
            return tuple(t for t in union if t not in in_row)
    return ()


def in_vocab(kind: str, header: str, filled: list[str]) -> bool:
    """A vocabulary column: its header says so and its values (if any) are valid, or every
    value is valid and there are enough of them to tell (a phone number, a zone)."""
    check = {
        "country": lambda v: vocab.country(v) is not None,
        "currency": lambda v: vocab.currency(v) is not None and len(v) == 3,
        "language": lambda v: vocab.language(v) is not None,
        "phone": lambda v: vocab.phone_region(v) is not None,
        "email": lambda v: v.count("@") == 1,
        "timezone": vocab.is_time_zone,
        "subdivision": lambda v: vocab.subdivision(v) is not None,
    }[kind]
    header_says = names(header, kind) or (kind == "country" and names(header, "country_code"))
    if header_says:
        return all(check(v) for v in filled)
    return kind in ("phone", "email", "timezone") and len(filled) >= 2 and all(map(check, filled))


def vocab_style(kind: str, filled: list[str]) -> str:
    """How the column writes its vocabulary: names or codes; spaced or packed numbers."""
    if kind == "phone":
        return vocab.phone_style(filled)
    if kind in ("country", "language", "currency") and filled:
        lengths = {len(v) for v in filled}
        if lengths == {2} and all(v.isupper() or kind == "language" for v in filled):
            return "alpha_2"
        if lengths == {3} and all(v.isupper() for v in filled):
            return "alpha_3"
    return "name" if kind != "currency" else "alpha_3"


def typed_column(header: str, cells: list[str], filled: list[str], document: str) -> Column | None:
    """A number, year, date or time column, with the span its values and the document allow."""
    if filled and all(NUMBER.fullmatch(v) for v in filled):
        numbers = [float(v) for v in filled]
        decimals = max((len(v.split(".")[1]) if "." in v else 0) for v in filled)
        is_year = decimals == 0 and all(YEARS[0] <= n <= YEARS[1] for n in numbers)
        if is_year and (names(header, "year") or all(len(v) == 4 for v in filled)):
            return year_column(header, cells, numbers, document)
        return number_column(header, cells, numbers, decimals)
    if filled and all(TIME.fullmatch(v) for v in filled):
        return span_column("time", header, cells, "", TIME_SLACK, document)
    if filled and all(CLOCK_SECONDS.fullmatch(v) for v in filled):
        return span_column("time", header, cells, SECONDS, TIME_SLACK * 60, document)
    fmt = next((f for f in DATE_FORMATS if filled and all(parses(v, f) for v in filled)), "")
    if fmt:
        return span_column("date", header, cells, fmt, MIN_DATE_SLACK, document)
    if not filled and names(header, "date"):
        return span_column("date", header, cells, DATE_FORMATS[0], MIN_DATE_SLACK, document)
    if not filled and names(header, "year"):
        return year_column(header, cells, [], document)
    return None


def parses(text: str, fmt: str) -> bool:
    try:
        dt.datetime.strptime(text, fmt)
    except ValueError:
        return False
    return True


def known_values(column: Column, cells: list[str]) -> tuple[float, ...]:
    read = [column.number(c) if c else None for c in cells]
    return tuple(math.nan if v is None else v for v in read)


def number_column(header: str, cells: list[str], numbers: list[float], decimals: int) -> Column:
    low, high = min(numbers), max(numbers)
    slack = max(SPAN_SHARE * (high - low), 0.1 * max(abs(high), abs(low)), 10.0**-decimals)
    start = max(0.0, low - slack) if low >= 0 else low - slack
    base = Column(
        "number", header, tuple(dict.fromkeys(c for c in cells if c)), start, high + slack, decimals
    )
    return replace_known(base, cells)


def as_number(column: Column, cells: list[str]) -> Column:
    """A column read as years, read as plain numbers instead (its range, its precision)."""
    numbers = [float(c) for c in cells if NUMBER.fullmatch(c)]
    return number_column(column.header, cells, numbers, 0) if numbers else column


def year_column(header: str, cells: list[str], numbers: list[float], document: str) -> Column:
    era = document_years(document)
    latest = max([*era, dt.date.today().year]) if names(header, "year") else max(era, default=0)
    if numbers:
        low, high = min(numbers), max(numbers)
        slack = max(SPAN_SHARE * (high - low), MIN_YEAR_SLACK)
        low, high = low - slack, high + slack
    else:
        low, high = (min(era) - MIN_YEAR_SLACK, max(era)) if era else (1950.0, 2025.0)
    if latest:
        high = min(high, float(latest))
    low, high = max(low, YEARS[0]), max(min(high, YEARS[1]), low)
    return replace_known(Column("year", header, (), math.ceil(low), math.floor(high)), cells)


def span_column(
    kind: str, header: str, cells: list[str], fmt: str, slack: int, document: str
) -> Column:
    base = Column(kind, header, fmt=fmt)
    values = [v for v in known_values(base, cells) if not math.isnan(v)]
    reading = stated.read(document) if kind == "date" else periods.Reading((), ())
    said = reading.period()
    if not values and said is not None:  # a column with no date yet: the stated period
        return replace_known(Column(kind, header, (), *said, fmt=fmt), cells)
    values = values or list(reading.points)
    if not values:
        today = float(dt.date.today().toordinal())
        values = [today - ERA_DAYS, today + ERA_DAYS]
    low, high = min(values), max(values)
    reach = max(slack, SPAN_SHARE * (high - low))
    low, high = low - reach, high + reach
    if said is not None and said[0] <= min(values) and max(values) <= said[1]:
        low, high = max(low, said[0]), min(high, said[1])  # the period bounds its dates
    return replace_known(Column(kind, header, (), low, high, fmt=fmt), cells)


def replace_known(column: Column, cells: list[str]) -> Column:
    from dataclasses import replace

    return replace(column, known=known_values(column, cells))


def document_years(document: str) -> list[int]:
    return [int(y) for y in DOC_YEAR.findall(document)]


def series(headers: list[str]) -> bool:
    """Whether numeric columns are a series (years, quarters, months): then a row's own values,
    not a column's, say what a new cell of it may be (a country's population over years)."""
    months = {m.lower() for m in calendar.month_abbr[1:] + calendar.month_name[1:]}
    return len(headers) >= 2 and all(
        DOC_YEAR.fullmatch(h) or re.fullmatch(r"Q[1-4]", h) or h.lower() in months for h in headers
    )


def cell_span(column: Column, row: int) -> tuple[float, float]:
    """The values a new cell of ``row`` (from 0) may take: between its neighbours when the
    column runs in order (a schedule, a log), else the column's span."""
    known = column.known
    filled = [v for v in known if not math.isnan(v)]
    if column.kind not in ("date", "time") or filled != sorted(filled) or len(filled) < 2:
        return column.low, column.high
    before = [v for v in known[:row] if not math.isnan(v)]
    after = [v for v in known[row + 1 :] if not math.isnan(v)]
    return (before[-1] if before else column.low), (after[0] if after else column.high)


def cell_shape(column: Column, span: tuple[float, float]) -> Shape:
    """Positions that can only spell the column's kind inside ``span`` (digits per place)."""
    low, high = span
    if column.kind in ("number", "year"):
        return number_shape(column, low, high)
    texts = [column.text(v) for v in sample_points(low, high)]
    return place_shape(texts)


def sample_points(low: float, high: float, most: int = 400) -> list[float]:
    step = max(1.0, (high - low) / most)
    count = int((high - low) / step) + 1
    return [low + i * step for i in range(count)] + [high]


def place_shape(texts: list[str]) -> Shape:
    """Every place of equal-length texts: the character they share locked, else one of the
    characters they have there ("2026-12-0?" from a December span)."""
    texts = [t for t in texts if len(t) == len(texts[0])]
    parts: list[str | object] = []
    for place in range(len(texts[0])):
        chars = "".join(sorted({t[place] for t in texts}))
        parts.append(chars if len(chars) == 1 else one(chars))
    merged: list = []
    for part in parts:
        if isinstance(part, str) and merged and isinstance(merged[-1], str):
            merged[-1] += part
        else:
            merged.append(part)
    return tuple(merged)


def number_shape(column: Column, low: float, high: float) -> Shape:
    """A sign where the span goes below zero, the integer part's digits, the decimals."""
    if column.kind == "year":
        return place_shape([str(y) for y in range(math.ceil(low), math.floor(high) + 1)])
    widest = len(str(int(max(abs(low), abs(high)))))
    shape: list = [upto("-", 0, 1)] if low < 0 else []
    shape.append(upto(DIGITS, 1, widest))
    if column.decimals:
        shape += [".", upto(DIGITS, column.decimals, column.decimals)]
    return tuple(shape)


def fits(column: Column, text: str, span: tuple[float, float]) -> str | None:
    """The cell's text as the column writes it, when it is of the column's kind inside
    ``span``; else ``None``."""
    value = column.number(text)
    if value is None or not span[0] <= value <= span[1]:
        return None
    if column.kind == "year" and not value.is_integer():
        return None
    return column.text(value)


def default(column: Column, row: int, rows: int, span: tuple[float, float]) -> str:
    """A value inside the cell's span that follows the column: between the neighbours for an
    ordered column, else near the column's median, stepped by the row so repairs differ."""
    low, high = span
    filled = [v for v in column.known if not math.isnan(v)]
    if column.kind in ("date", "time") and (low, high) != (column.low, column.high):
        return column.text(round((low + high) / 2))
    centre = statistics.median(filled) if filled else (low + high) / 2
    step = (high - low) / max(4 * rows, 1) * ((row % 3) - 1)
    value = min(max(centre + step, low), high)
    if column.kind in ("year", "date", "time") or column.decimals == 0:
        value = round(value)
    return column.text(value)
