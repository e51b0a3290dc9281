"""How many times a series meets, and the numbers a document or a member's name counts by.

"Three Thursday evenings in a row", "for three meetings", "four weekly visits", "five
rehearsals in all", "a total of £900 in repayments of £150", "six sessions, every other
Wednesday", "on Wed 7 May and the two Wednesdays after that", "the sixth and final work party":
:func:`count_of` reads how many times a thing the document says recurs (:mod:`.series`) meets.
Numbers and ordinals are spelled by inflect (``cardinals``, ``ordinals``: "three", "3",
"third", "3rd"); a plural noun is told by lemminflect. Words in ``period_words.json``. Pure
functions over text.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Iterator
from functools import cache

import inflect
from lemminflect import getAllLemmas

from engine.structured.periods import alternation, listed

MOST_COUNTED = 31  # "day_two", "session_3": the numbers a member's name counts by
MOST_TIMES = 60  # a series counted past this many days is no template's list of meetings
WEEKDAYS = [name.lower() for name in calendar.day_name]  # Monday first, as rrule counts


def count_of(text: str) -> int | None:
    """How many times: "three Thursday evenings in a row", "for three meetings" (not "for
    three weeks", a length), or a total paid in equal parts (:func:`parts_of`)."""
    parts = parts_of(text)
    if parts is not None:
        return parts
    stated = said_count(text)
    if stated is not None:
        return stated
    for match in overlapping(count_pattern(), text):
        unit = match["unit"] or match["counted"] or match["of"]
        if unit and unit.removesuffix("s") in listed("length_units"):
            continue
        said = match["number"] or match["row"] or match["times"] or match["each"]
        said = said or match["all"] or match["total"]
        number = cardinals().get(said)
        if number is not None:
            return number
    return None


def said_count(text: str) -> int | None:
    """How many times, said by the last meeting's ordinal ("the sixth and final work party"),
    by the days after a first ("on Wed 7th May and the two Wednesdays after that": three), or
    by a number of things right before what says they recur ("six sessions, every other
    Wednesday", "a course of six physiotherapy sessions, once a week on Wednesdays")."""
    final = final_count_pattern().search(text)
    if final is not None:
        return spelled_ordinals(MOST_COUNTED)[final["nth"]]
    after = following_count_pattern().search(text)
    if after is not None:
        return cardinals()[after["number"]] + 1
    for match in overlapping(lead_count_pattern(), text):
        noun, unit = match["noun"], match["noun"].removesuffix("s")
        plural = getAllLemmas(noun).get("NOUN", (noun,))[0] != noun  # not "yours"
        if plural and unit not in listed("length_units") and match["number"] in cardinals():
            return cardinals()[match["number"]]
    return None


@cache
def final_count_pattern() -> re.Pattern[str]:
    nth = alternation(list(spelled_ordinals(MOST_COUNTED)))
    return re.compile(
        rf"\bthe\s+(?P<nth>{nth})\s+and\s+(?:{alternation(listed('last_day_words'))})\b"
    )


@cache
def following_count_pattern() -> re.Pattern[str]:
    number = alternation(list(cardinals()))
    return re.compile(
        rf"\band\s+the\s+(?P<number>{number})\s+(?:{alternation(WEEKDAYS)})s\s+(?:after|following)\b"
    )


@cache
def lead_count_pattern() -> re.Pattern[str]:
    often = alternation(
        [*listed("recurrence_words"), *listed("weekly_words"), *listed("every_other_words"), "once"]
    )
    return re.compile(
        rf"\b(?P<number>[\w-]+)\s+(?:[a-z]+\s+)?(?P<noun>[a-z]+s)\s*,?\s+(?:\w+\s+){{0,1}}(?:{often})\b"
    )


@cache
def count_pattern() -> re.Pattern[str]:
    """A number of times: before a run of up to three words and "in a row" (looked ahead
    at, so each word may be the number) or "on consecutive" ("three sessions on consecutive
    Tuesdays", "three consecutive Wednesdays"), after "for" and before one word (its unit), or
    before a ``frequency_adjectives`` word (another word between at most) and a noun ("four
    weekly visits", "three equal monthly sums"), before a noun and a ``total_words``
    phrase ("five rehearsals in all"), or after a ``total_leads`` phrase and before a plural
    noun ("a total of eight sessions")."""
    often = "|".join(map(re.escape, listed("frequency_adjectives")))
    row = alternation(listed("consecutive_words"))
    total = alternation(listed("total_words"))
    return re.compile(
        r"\b(?P<number>[\w-]+)\s+(?=(?:\w+\s+){1,3}in\s+a\s+row\b)"
        rf"|\b(?P<row>[\w-]+)\s+(?=(?:[\w-]+\s+){{0,3}}(?:on\s+)?(?:{row})\b)"
        r"|\bfor\s+(?P<times>[\w-]+)\s+(?P<unit>\w+)"
        rf"|\b(?P<each>[\w-]+)\s+(?:[a-z]+\s+)?(?:{often})\s+[a-z]+"
        rf"|\b(?P<all>[\w-]+)\s+(?P<counted>[a-z]+s)\s+(?:{total})\b"
        rf"|\b(?:{alternation(listed('total_leads'))})\s+(?P<total>[\w-]+)\s+(?P<of>[a-z]+s)\b"
    )


def overlapping(pattern: re.Pattern[str], text: str) -> Iterator[re.Match[str]]:
    """Each match of ``pattern`` starting at each word in turn: "The course is six weekly
    sessions" tries "is six weekly …" and then "six weekly sessions"."""
    at = 0
    while (match := pattern.search(text, at)) is not None:
        yield match
        at = match.start() + 1


def parts_of(text: str) -> int | None:
    """How many equal parts a total is paid in ("a total of £900 in repayments of £150":
    6), when it divides exactly into no more than :data:`MOST_TIMES`."""
    found = parts_pattern().search(text)
    if found is None:
        return None
    total, each = (float(found[g].replace(",", "")) for g in ("total", "each"))
    times = total / each if each else 0.0
    return int(times) if times.is_integer() and 0 < times <= MOST_TIMES else None


@cache
def parts_pattern() -> re.Pattern[str]:
    """ "a total of £900 in repayments of £150" (``instalment_words``; any currency sign)."""
    parts = alternation(listed("instalment_words"))
    money = r"[^\d\s]?(?P<{}>\d[\d,]*(?:\.\d+)?)"
    return re.compile(
        rf"\btotal\s+of\s+{money.format('total')}[^.;]*?\b(?:{parts})\s+of\s+"
        + money.format("each")
    )


@cache
def ordinals() -> dict[str, int]:
    """Each way a name counts the numbers 1 to :data:`MOST_COUNTED` ("two", "second", "2nd",
    "2"), spelled by inflect."""
    return cardinals() | spelled_ordinals(MOST_COUNTED)


@cache
def spelled_ordinals(most: int) -> dict[str, int]:
    """The ordinals 1 to ``most`` in words and in digits ("second", "2nd"), spelled by
    inflect."""
    spell = inflect.engine()
    found = {}
    for n in range(1, most + 1):
        for written in (spell.ordinal(str(spell.number_to_words(str(n)))), spell.ordinal(str(n))):
            found[str(written)] = n
    return found


@cache
def cardinals() -> dict[str, int]:
    """The numbers 1 to :data:`MOST_COUNTED` as a count writes them ("three", "3")."""
    spell = inflect.engine()
    return {w: n for n in range(1, MOST_COUNTED + 1)
            for w in (str(spell.number_to_words(str(n))), str(n))}  # fmt: skip


def ordinal_of(words: set[str]) -> int | None:
    """The one number a name's words count by; ``None`` for none, or two."""
    found = {ordinals()[w] for w in words if w in ordinals()}
    return found.pop() if len(found) == 1 else None
