"""Anniversaries and birthdays a document counts from a day it tells: "the couple wed on 3
April 2001 and will toast their 25th anniversary" (3 April 2026), "born 9 May 1950, turns 80
this year" (9 May 2030), "leased on 2 March 2026 … ends on the third anniversary of signing";
and the next time a thing done on a day is due again ("issued on 14 November 2024 … renewed
every three years": 14 November 2027).

A reader counts such a day from the last single day written before the phrase that the document
tells as something done or begun: the words before that day in its sentence hold a verb in the
past ("wed on", "was leased on", "born") or a birth word ("dob: 9 May 1950"). Without that cue
the day before is more likely the anniversary's own ("on 3 June the club celebrates its 25th
anniversary"), and nothing is counted. A member whose name counts the years
("ninetieth_birthday", "25th_anniversary") dates that anniversary, not a birth
(:func:`born_member`). Ordinals are spelled by inflect; words from ``period_words.json``
(``anniversary_words``, ``turning_words``). Pure functions over text.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import replace
from functools import cache

import inflect
from dateutil.relativedelta import relativedelta

from engine.language.en.forms import NOUN_CLASS, readings, verb_tags
from engine.structured import columns
from engine.structured.ages import OLDEST, told_births
from engine.structured.day_readers import (
    Counted,
    Told,
    calendar_units,
    iso,
    last_written,
    moved,
    named_origin,
    units,
)
from engine.structured.named_days import starting_verb
from engine.structured.other_days import clauses
from engine.structured.periods import alternation, listed, words
from engine.structured.series_counts import spelled_ordinals
from engine.structured.thing_anchor import possessives, thing_phrase, written
from engine.structured.words import key_parts

PAST_TAGS = frozenset({"VBD", "VBN"})  # "wed", "was leased", "born"
THIRD_PERSON = "VBZ"  # "starts": a thing said to begin on its day
# The words before a told day, in its sentence, that may say it was something done: "joined
# the company on", "completed her paediatric first aid course on" (eight)
CUE_WORDS = 8
WORD = re.compile(r"[A-Za-z]+")
OWNER_REACH = 40  # how far before an ordinal its possessive is looked for ("their ")
TURNED_ON = 2  # "turns 40 on 2 April", "turns five this Saturday, 3 May": words before its day


def counted_years() -> dict[str, int]:
    """Each way a name writes the years an anniversary counts, 1 to the oldest age ("ninetieth",
    "90th")."""
    return spelled_ordinals(OLDEST)


def years_counted(key: str) -> int | None:
    """The one count of years a member's name writes ("ninetieth_birthday": 90)."""
    found = {counted_years()[w] for w in key_parts(key) if w in counted_years()}
    return found.pop() if len(found) == 1 else None


def born_member(key: str) -> bool:
    """Whether a member dates a birth: a birth word and no count of years ("dob", "birthday";
    not "ninetieth_birthday", the day someone turns ninety)."""
    return columns.names(key, "birth") and years_counted(key) is None


def counted_birthday(document: str, told: tuple[Told, ...], key: str) -> Told | None:
    """The birthday a member's name counts ("ninetieth_birthday", "18th_birthday") from the
    one birth the document writes ("Grandad was born on 4 October 1946 … his 80th": 4
    October 2026), which the member's word finds otherwise (the birth itself): the birth's told day,
    moved that many years on."""
    years = years_counted(key)
    births = [span for span in told_births(document) if span[0] == span[1]]
    if years is None or not columns.names(key, "birth") or len(births) != 1:
        return None
    birth = next((t for t in told if (t.first, t.last) == births[0] and not t.how), None)
    if birth is None:
        return None
    born = dt.date.fromordinal(int(birth.first))
    day = float((born + relativedelta(years=years)).toordinal())  # 29 February: the 28th
    told_so = next((t for t in told if t.first == t.last == day and t.how), None)
    how = f"{inflect_engine().ordinal(str(years))} birthday from {born.isoformat()}"
    return told_so or replace(birth, first=day, last=day, how=how)  # "her 90th": that one


@cache
def inflect_engine() -> inflect.engine:
    """inflect's engine, made once."""
    return inflect.engine()


@cache
def anniversary_pattern() -> re.Pattern[str]:
    """ "their 25th anniversary", "her 90th birthday", "their 2nd work anniversary" (one word
    may say what of; numbers already in digits), "turns 80", an ordinal after a determiner
    with no noun of its own ("a party for her 80th on the day"), or "the anniversary" (its
    years told elsewhere in its sentence: "to mark ten years … on the anniversary"; one year
    when it is the anniversary "of" a thing and tells none)."""
    kinds = alternation(listed("anniversary_words"))
    turning = alternation(listed("turning_words"))
    return re.compile(
        rf"(?i)\b(?P<count>\d{{1,3}})(?:st|nd|rd|th)\s+(?:[a-z]+\s+)?(?P<kind>{kinds})\b"
        rf"(?P<of>\s+of\b)?"
        rf"|\b(?:{turning})\s+(?P<turns>\d{{1,3}})\b"
        rf"|\b(?P<bare>\d{{1,3}})(?:st|nd|rd|th)\b"
        rf"|\bthe\s+(?P<plain>{kinds})\b(?P<plain_of>\s+of\b)?"
    )


def years_of(match: re.Match[str], sentence: tuple[int, int]) -> int | None:
    """How many years an anniversary phrase counts: its number; for a bare ordinal, none
    when a noun follows it ("her 2nd child"); for "the anniversary", a count of years
    (or a ``named_years`` word: "its centenary") told before it in its sentence."""
    said = match["count"] or match["turns"] or match["bare"]
    if match["bare"] and (noun_after(match.string, match.end()) or not owned(match)):
        return None
    if said:
        return int(said)
    clause = match.string[sentence[0] : match.start()]
    counted = re.findall(r"(?i)\b(\d{1,3})\s+years\b", clause)
    named = [n for w, n in named_years().items() if re.search(rf"(?i)\b{w}\b", clause)]
    found = {*map(int, counted), *named}
    if not found and match["plain_of"]:  # "on the anniversary of the first delivery": a year on
        return 1
    return found.pop() if len(found) == 1 else None


def owned(match: re.Match[str]) -> bool:
    """Whether a possessive stands right before a phrase ("her 80th"; not "the 20th", a day
    of the month)."""
    lead = match.string[max(match.start() - OWNER_REACH, 0) : match.start()]
    return re.search(rf"(?i)\b{possessives()}\s+$", lead) is not None


def noun_after(text: str, end: int) -> bool:
    """Whether the word right after ``end`` can be a noun."""
    word = WORD.match(text, end + len(text[end:]) - len(text[end:].lstrip()))
    return word is not None and any(r.part == NOUN_CLASS for r in readings(word[0].lower()))


@cache
def named_years() -> dict[str, int]:
    """Words that name an anniversary's years ("centenary": 100)."""
    found = words()["named_years"]
    assert isinstance(found, dict)
    return {str(k): int(v) for k, v in found.items()}


def anniversary_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> Counted | None:
    """The day that many years after the day of the thing the phrase names ("the second
    anniversary of the merger", :func:`.day_readers.named_origin`), else after the
    last single day written before it (not one counted, as a length's last day), when the
    document tells that day as something done (:func:`done_on`); a birthday's from the birth
    the document writes, if it writes one (:func:`birth_told`)."""
    if match["turns"] and turned_on(match.string, match.end()):
        return None  # "turns 40 on 2 April": that day is the birthday (:mod:`.ages`)
    years = years_of(match, sentence)
    if years is None:
        return None
    named = (
        named_origin(match.string, match.end(), before)
        if match["of"] or match["plain_of"]
        else None
    )
    base = named or birth_told(match, before) or last_written(before)
    if match["bare"] and (base is None or (base.first, base.last) not in told_births(match.string)):
        return None  # "her 80th" counts from a birth; "her 50th" parkrun from none
    if base is None or years > OLDEST or not (named or done_on(match.string, base.start)):
        return None
    origin = dt.date.fromordinal(int(base.first))
    day = float((origin + relativedelta(years=years)).toordinal())  # 29 February: the 28th
    if named is None:
        return day, f"{match[0]} from {origin.isoformat()}"
    # "the 2nd anniversary of the merger on 2027-05-01"
    return day, f"{match[0]} {thing_phrase(match.string, match.end())} on {origin.isoformat()}"


def birth_told(match: re.Match[str], before: list[Told]) -> Told | None:
    """The last birth written before a birthday's phrase ("born 19 November 2008 … when his
    course begins on 21 September 2026 … on his eighteenth birthday": the birth, not the
    course's day, which the phrase would otherwise count from)."""
    if not match["kind"] or not columns.names(match["kind"].lower(), "birth"):
        return None
    births = set(told_births(match.string))
    return next((t for t in reversed(before) if (t.first, t.last) in births), None)


@cache
def recurring_pattern() -> re.Pattern[str]:
    """A thing done again after a count of months or years ("renewed every 3 years", "every 6
    months thereafter"; numbers already in digits); weeks and days recur as a series
    (:mod:`.series`)."""
    every = alternation(listed("recurrence_words"))
    unit = alternation(sorted(calendar_units()))
    return re.compile(rf"(?i)\b(?:{every})\s+(?P<count>\d{{1,3}})\s+(?P<unit>{unit})s\b")


def recurring_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> Counted | None:
    """The next time a thing is due ("your check was issued on 14 November 2024 … must be
    renewed every three years": 14 November 2027): that long after the last single day
    written before the phrase, when the document tells that day as something done
    (:func:`done_on`), as an anniversary counts."""
    base = last_written(before)
    if base is None or not done_on(match.string, base.start):
        return None
    count, unit = int(match["count"]), match["unit"].lower()
    day = moved(base.first, count, unit, back=False)  # on the calendar: "every 3 years"
    return day, f"every {units(count, unit)} from {iso(base.first)}"


def turned_on(text: str, end: int) -> bool:
    """Whether a day is written right after "turns 40" (:data:`TURNED_ON` words between at
    most): the day the age is turned, which the text writes itself."""
    return any(
        start >= end and len(WORD.findall(text, end, start)) <= TURNED_ON
        for start, _, _ in written(text)
    )


def done_on(text: str, start: int) -> bool:
    """Whether the words just before ``start`` in its sentence say the day is something done
    or begun: a verb in the past, a ``period_start_verbs`` verb in the present ("the
    agreement starts on"; not a title's "Open"), or a birth word."""
    opens = max((s for s, _ in clauses(text) if s <= start), default=0)
    cue = [w.lower() for w in WORD.findall(text, opens, start)[-CUE_WORDS:]]
    return any(
        verb_tags(w) & PAST_TAGS
        or (starting_verb(w) and THIRD_PERSON in verb_tags(w))
        or columns.names(w, "birth")
        for w in cue
    )
