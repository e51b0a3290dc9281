"""Shifts: the day a phrase counts on or back from another ("six weeks later", "a fortnight
before", "the evening before", "5 working days after", "exactly six weeks on"), a day moved
("the trip … has been pushed back by exactly one week"), and the day a shift
counts from: the day of the thing it names (:func:`.day_readers.named_origin`), the thing a
pronoun after it refers to, a period's first or last day ("two days before opening day"), the
document's own day ("from today"), or the end of a length said to end. A reader for
:mod:`engine.structured.told_days`, as :mod:`.day_readers`' others are; words from
``period_words.json``. Pure functions.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

from lemminflect import getLemma

from engine.structured.day_readers import (
    NEXT_WORD,
    Told,
    anchor,
    count_and_unit,
    fallback_origin,
    is_month,
    is_period,
    iso,
    moved,
    named_origin,
    overnight,
    own_day,
    period_end,
    shift_ways,
    unit_words,
    yearlong,
)
from engine.structured.other_days import clauses
from engine.structured.periods import alternation, listed
from engine.structured.series_counts import cardinals, ordinals
from engine.structured.thing_anchor import (
    day_ahead,
    determiners,
    past_since,
    possessives,
    thing_phrase,
    thing_words,
)
from engine.structured.words import name_words

WORD_AFTER = re.compile(r"[A-Za-z]+")
CLAUSE_CLOSE = re.compile(r"\s*(?:[.,;:!?)]|$)")  # a phrase that ends its clause
ENDING_WORDS = 4  # "after the units are finished": a thing's end said this close after a shift
LEAD_REACH = 12  # how far before a shift's count its lead word is looked for ("for ")
DAY_UNIT = "day"  # the unit a day part ("the evening before") shifts by


@cache
def shift_pattern() -> re.Pattern[str]:
    """A count (or "the": one), a unit and a shift: "six weeks later", "a fortnight after",
    "the day before", "the third day after" (three days after), "five years to the day after"
    (a ``shift_exact`` phrase and a ``day_nouns`` word); "the evening before" (a
    ``day_parts`` word) is the day before too. A short aside in brackets may stand before the
    shift's word ("5 working days (weekdays only) after the visit")."""
    ways = alternation(sorted(shift_ways()))
    units = f"{unit_words()}|{alternation(listed('day_parts'))}"
    one, exact = alternation(listed("duration_one")), alternation(listed("shift_exact"))
    exact = rf"(?:{exact})\s+(?:{alternation(listed('day_nouns'))})"  # "to the day"
    return re.compile(
        rf"(?i)\b(?P<count>\d{{1,3}}|{one}|the(?:\s+(?P<nth>\d{{1,3}})(?:st|nd|rd|th))?)"
        rf"[\s-]+(?P<unit>{units})s?(?:\s+(?:{exact}))?(?:{ASIDE})?"
        rf"\s+(?P<way>{ways}|{on_clause_end()})\b"
    )


ASIDE = r"\s+\([^()]{1,40}\)"  # "(weekdays only)": what a unit counts, said in brackets


@cache
def on_clause_end() -> str:
    """A ``duration_on`` word that ends its clause: "the earliest day is exactly six weeks
    on." (a later day); not "three nights on the island"."""
    return rf"(?:{alternation(listed('duration_on'))})(?=\s*(?:[.,;:!?)]|$))"


def shifted_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The day a shift names: that long after the last day told before it, or that long
    before the first (:func:`anchor`); from the day of the thing it names, where it names
    one the document dated (:func:`named_origin`: "two months after the start date"); after
    a ``thing_shifts`` word ("45 days from the order date") only from such a thing."""
    count = int(match["nth"] or (match["count"] if match["count"].isdigit() else 1))
    unit, way = match["unit"].lower(), match["way"].lower()
    if unit in listed("day_parts"):  # "the morning after": that part of the next day
        if match["count"].lower() != "the":
            return None  # "two mornings later" counts mornings, no one day it names
        unit = DAY_UNIT
    back, on = way in listed("duration_before"), way in listed("duration_on")
    if way in listed("thing_shifts") and (length_led(match) or overnight(unit)):
        return None  # "runs for four days from Monday 3 August", "3 nights from 16 July": lengths
    named = thing_origin(match, before)
    if way in listed("thing_shifts") and named is None and not pointed(match):
        return None  # "for 2 weeks from 9 August" is a length; "from the audit" a shift
    # back from a thing's first day: a length's last day stands for a period whose first is
    # the day it counts from ("stays four nights … due a fortnight before departure")
    # "hired for six weeks … six weeks on": on from the hire's first day, not its last
    before = [t for t in before if not ((back or on) and period_end(t))]
    base = named or fallback_origin(match.string, match.end(), before, back)
    if base is None:
        return None
    origin = base.first if back else base.last
    day = moved(origin, count, unit, back)
    if named is not None:  # the review says which thing: "6 weeks after the fracture on …"
        text, end = match.string, match.end()
        thing = document_phrase(text, end) or thing_phrase(text, end)
        # "6 weeks after the fracture on …"; an elided thing: "21 days before 2026-04-14"
        return day, f"{match[0]} {thing} on {iso(origin)}" if thing else f"{match[0]} {iso(origin)}"
    # "six weeks later than 22 May"; "six weeks after 22 May", "six weeks from 19 June";
    # "three weeks beforehand", "a week earlier": "three weeks before 20 June"
    said = match[0]
    if back and way not in listed("clause_shifts"):
        said, way = f"{match.string[match.start() : match.start('way')]}before", "before"
    than = "" if way in [*listed("clause_shifts"), *listed("thing_shifts")] else " than"
    than = " from" if on else than
    return day, f"{said}{than} {iso(origin)}"


def length_led(match: re.Match[str]) -> bool:
    """Whether a ``length_leads`` word stands right before a shift's count ("for three days
    from Friday"): a length from that day, which :mod:`.length_days` reads."""
    lead = WORD_AFTER.findall(match.string, max(match.start() - LEAD_REACH, 0), match.start())
    return bool(lead) and lead[-1].lower() in listed("length_leads")


def thing_origin(match: re.Match[str], before: list[Told]) -> Told | None:
    """The day of the thing the words after a shift name: one the document dated
    (:func:`named_origin`), the document itself ("from today", "from the date of this
    letter", :func:`today`), or a length or period said to end (:func:`ended_origin`)."""
    text, end = match.string, match.end()
    # "two days after the fitters finish": the day the length ends, not the fitting's first
    ahead = day_ahead(text, end) is None
    ended = ended_origin(text, end, before) or begun_origin(text, end, before) if ahead else None
    named = ended or named_origin(text, end, before) or referred_origin(text, end, before)
    named = named or edge_origin(text, end, before) or elided_origin(text, end, before)
    return named or today(match, before)


def edge_origin(text: str, end: int, before: list[Told]) -> Told | None:
    """The first or the last day of the period told last before a shift whose thing is that
    period's first or last day ("runs 10-19 October … two days before opening day", "a
    comedy weekend (6 - 8 December) … 28 days after the final night"): no deadline's days
    ("by the end of August"), a month or a year."""
    said = edge_pattern().match(text, end)
    return None if said is None else period_edge(before, said[1])


def period_edge(before: list[Told], edge: str) -> Told | None:
    """The first day (for a ``first_day_words`` ``edge``) or the last of the period told
    last in ``before`` that is no deadline's days, month or year."""
    periods = [lasted(before, at) or t for at, t in enumerate(before)]
    periods = [t for t in periods if t.first < t.last and not (t.deadline or is_month(t))]
    if not periods or yearlong(periods[-1]):
        return None
    first, last = periods[-1].first, periods[-1].last
    nth = day_ordinals().get(edge.lower())
    if nth is not None:  # "the second evening" of the period: its second day, if it has one
        day = first + nth - 1
        return replace(periods[-1], first=day, last=day) if day <= last else None
    day = first if edge.lower() in listed("first_day_words") else last
    return replace(periods[-1], first=day, last=day)


@cache
def day_ordinals() -> dict[str, int]:
    """The ordinals ("second", "3rd") that count a period's days, from the second: the
    first is a ``first_day_words`` word."""
    return {w: n for w, n in ordinals().items() if w not in cardinals() and n > 1}


def lasted(told: list[Told], at: int) -> Told | None:
    """The period a length's last day (``told[at]``) ends, from the single day told last
    before it, the day it counts from ("runs for six days starting 3 August": 3 to 8
    August); ``None`` for any other day."""
    if not told[at].lasting:
        return None
    start = next((t for t in reversed(told[:at]) if t.first == t.last and not t.how), None)
    return None if start is None else replace(told[at], first=start.first)


@cache
def edge_pattern() -> re.Pattern[str]:
    """A period's first or last day named after a shift's word: "opening day", "the final
    night" (a ``first_day_words`` or ``last_day_words`` word and a ``day_nouns`` word)."""
    edges = alternation([*listed("first_day_words"), *listed("last_day_words")])
    nouns = alternation(listed("day_nouns"))
    return re.compile(rf"(?i)\s+(?:{determiners()}\s+)?({edges})\s+(?:{nouns})\b")


@cache
def edge_day_pattern() -> re.Pattern[str]:
    """A period's first or last day named as a thing of its own: "on the closing day", "the
    festival's closing evening", "on the second evening" (a determiner or a possessive, a
    ``first_day_words`` or ``last_day_words`` word or an ordinal, and an ``edge_nouns``
    word); not "the first day of term", which names another thing's day, nor "last night"
    alone."""
    edges = alternation([*listed("first_day_words"), *listed("last_day_words"), *day_ordinals()])
    nouns = alternation(listed("edge_nouns"))
    owner = rf"(?:{determiners()}|{possessives()}|[A-Za-z]+'s)"  # "on its final evening"
    return re.compile(rf"(?i)\b{owner}\s+(?P<edge>{edges})\s+(?:{nouns})\b(?!\s+of\b)")


def edge_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The day an :func:`edge_day_pattern` phrase names: the first or last day of the last
    period told before it (:func:`edge_origin`'s), where there is one."""
    edge = period_edge(before, match["edge"])
    return None if edge is None else (edge.first, f"{match[0]} from {iso(edge.first)}")


@cache
def pronoun_pattern() -> re.Pattern[str]:
    """A ``thing_pronouns`` word that closes a shift's clause: "two weeks after it."."""
    return re.compile(rf"(?i)\s+(?:{alternation(listed('thing_pronouns'))})\s*(?:[.,;:!?)]|$)")


def referred_origin(text: str, end: int, before: list[Told]) -> Told | None:
    """The day of the thing a pronoun after a shift refers to, where the day told just
    before, in its sentence, is itself a shift or a limit that names a thing ("within three
    working days of the incident, and a check two weeks after it": the incident's day, not
    the report's); ``None`` for any other "it" (the day just told, :func:`pointed`)."""
    if not before or not before[-1].how or pronoun_pattern().match(text, end) is None:
        return None
    # in one sentence only, and a thing other than the document's own day ("six weeks from
    # today, and the accounts a week before it": the meeting's day, the one just told)
    sentence = next(((s, e) for s, e in clauses(text) if s <= end <= e), (0, len(text)))
    shift_end = past_since(text, before[-1].end)
    thing = thing_words(text, shift_end)
    if before[-1].start < sentence[0] or not thing or thing & set(listed("today_words")):
        return None
    return named_origin(text, shift_end, before[:-1]) or anchor(before[:-1])


def elided_origin(text: str, end: int, before: list[Told]) -> Told | None:
    """The day the shift told just before, in one sentence, counts from, where this shift
    closes its clause with no thing of its own and that one names a thing ("nominations
    close 28 days before the meeting, and motions 21 days before": the meeting's day too,
    not the nominations'), or, counting back, leaves it out the same way ("a reminder six
    weeks before and a final notice seven days before": both from the thing told before)."""
    way = elided_way(text, end)
    if not before or not before[-1].how or way is None:
        return None  # "the last one two weeks later": from the day told last
    sentence = next(((s, e) for s, e in clauses(text) if s <= end <= e), (0, len(text)))
    shift_end = past_since(text, before[-1].end)
    thing = thing_words(text, shift_end) - set(listed("pointing_words"))
    if before[-1].start < sentence[0] or not (thing or shift_way(text, shift_end) == way):
        return None
    if thing:
        return named_origin(text, shift_end, before[:-1]) or anchor(before[:-1])
    # only back: "a week after, and feedback two days after" goes on from the week after
    if way not in listed("duration_before"):
        return None
    return elided_origin(text, shift_end, before[:-1]) or anchor(before[:-1])


def elided_way(text: str, end: int) -> str | None:
    """The ``clause_shifts`` word ("before", "after") a shift ending at ``end`` closes its
    clause with, its thing left out; ``None`` for any other shift."""
    return shift_way(text, end) if CLAUSE_CLOSE.match(text, end) else None


def shift_way(text: str, end: int) -> str | None:
    """The ``clause_shifts`` word a shift ending at ``end`` ends on, or ``None``."""
    way = WORD_AFTER.findall(text, max(end - LEAD_REACH, 0), end)
    return way[-1].lower() if way and way[-1].lower() in listed("clause_shifts") else None


def pointed(match: re.Match[str]) -> bool:
    """Whether a shift's thing is the day just told, pointed at ("six weeks from that date",
    "from then"): a ``pointing_words`` word, perhaps with a ``day_nouns`` word, or "then"."""
    pointing, days = alternation(listed("pointing_words")), alternation(listed("day_nouns"))
    said = rf"(?i)\s+(?:(?:{pointing})(?:\s+(?:{days}))?|then)\b"
    return re.match(said, match.string[match.end() :]) is not None


def ended_origin(text: str, end: int, before: list[Told]) -> Told | None:
    """The last day of the length or the period told last before a shift whose thing is
    said to end ("take it down the day after our fitters finish", "the morning after the
    permit ends", "four months after it finishes" of a course that "runs from 13 September
    2027 to 9 June 2028": a ``period_end_verbs`` verb at most :data:`ENDING_WORDS` words
    after it, in its clause), or whose thing is leaving a stay ("two nights before they depart":
    a ``stay_end_words`` word); ``None`` otherwise."""
    said = words_after(text, end)
    leaving = any(w in listed("stay_end_words") for w in said)
    if not (leaving or any(ends_said(w, said[at + 1 :]) for at, w in enumerate(said))):
        return None
    # no deadline's days: "pay by the close of March" ends nothing
    ended = next((t for t in reversed(before) if t.lasting or ended_period(t)), None)
    return None if ended is None else replace(ended, first=ended.last)


def begun_origin(text: str, end: int, before: list[Told]) -> Told | None:
    """The first day of the stay told last before a shift whose thing is the arrival ("the
    evening after they arrived" of a stay from 3 to 10 April: the 4th): a
    ``stay_start_words`` word at most :data:`ENDING_WORDS` words after it, in its clause;
    ``None`` otherwise. Not a thing said to start ("two days before the dig starts"), which may be
    an earlier day's than the period told last."""
    if not any(arriving(w) for w in words_after(text, end)):
        return None
    stay = last_stay(before)
    return None if stay is None else replace(stay, last=stay.first)


def words_after(text: str, end: int) -> list[str]:
    """The first :data:`ENDING_WORDS` words after ``end`` in their clause, lower-cased: where
    a shift's thing is said to end or begin ("after the permit ends", "after we arrived")."""
    clause = re.split(r"[,;:.()]", text[end : end + 80], maxsplit=1)[0]
    return [w.lower() for w in WORD_AFTER.findall(clause)[:ENDING_WORDS]]


def last_stay(before: list[Told]) -> Told | None:
    """The stay or period told last in ``before``: a length from its first day
    (:func:`lasted`), or a period of days that is no deadline's and no year."""
    periods = [lasted(before, at) or t for at, t in enumerate(before)]
    return next((t for t in reversed(periods) if ended_period(t) and not yearlong(t)), None)


def arriving(word: str) -> bool:
    """Whether ``word`` is a ``stay_start_words`` word, or a form of one ("arrived")."""
    forms = name_words(word) | {*getLemma(word, upos="VERB")}
    return not forms.isdisjoint(listed("stay_start_words"))


def ends_said(word: str, following: list[str]) -> bool:
    """Whether ``word`` says a thing ends: a ``period_end_verbs`` verb, its lemma too ("of the
    cover ending", "after it finishes"); not one before a day's noun (``day_nouns``): "the
    closing date" is a day of its own, dated where the text tells it."""
    ending = set(listed("period_end_verbs")) & (name_words(word) | {*getLemma(word, upos="VERB")})
    return bool(ending) and not (following and following[0] in listed("day_nouns"))


def ended_period(told: Told) -> bool:
    """Whether a told period is one a thing may be said to end: no deadline's days."""
    return is_period(told) and not told.deadline


def today(match: re.Match[str], before: list[Told]) -> Told | None:
    """The document's own day, for a shift from "today" ("we meet again ten days from
    today" in notes dated 2 May) or from the day of the document itself ("four weeks from
    the date of this letter"): the first day it writes."""
    return own_day(before, match.string) if names_own_day(match.string, match.end()) else None


def names_own_day(text: str, end: int) -> bool:
    """Whether the words right after ``end`` name the document's own day: a ``today_words``
    word, or the day of the document itself ("the date of this letter")."""
    said = NEXT_WORD.match(text, end)
    today = said is not None and said[1].lower() in listed("today_words")
    return today or document_phrase(text, end) is not None


def document_phrase(text: str, end: int) -> str | None:
    """The words right after ``end`` that name the document's own day ("the date of this
    letter"), or ``None``."""
    said = own_document_day().match(text, end)
    return said[0].strip() if said else None


@cache
def own_document_day() -> re.Pattern[str]:
    """ "the date of this letter", "the day of this email": the document's own day."""
    days, own = alternation(listed("day_nouns")), alternation(listed("own_document_words"))
    return re.compile(rf"(?i)\s+the\s+(?:{days})\s+of\s+this\s+(?:{own})\b")


@cache
def moved_by_pattern() -> re.Pattern[str]:
    """A thing moved later or earlier by a count of a unit: "postponed by exactly a
    fortnight", "extended by six weeks", "brought forward by two days" (numbers in digits)."""
    later, earlier = alternation(listed("later_moves")), alternation(listed("earlier_moves"))
    one = alternation(listed("duration_one"))
    return re.compile(
        rf"(?i)\b(?:(?P<later>{later})|(?P<earlier>{earlier}))\s+by\s+(?:[a-z]+\s+)?"
        rf"(?P<count>\d{{1,3}}|{one})[\s-]+(?P<unit>{unit_words()})s?\b"
    )


def moved_by_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, str] | None:
    """The day a thing told just before is moved to ("planned for Friday 21 March … pushed
    back by exactly one week": 28 March): the last day told before the phrase moved that
    much, from its last day later or its first earlier."""
    base = anchor(before)
    if base is None:
        return None
    count, unit = count_and_unit(match)
    back = bool(match["earlier"])
    origin = base.first if back else base.last
    return moved(origin, count, unit, back), f"{match[0]} from {iso(origin)}"
