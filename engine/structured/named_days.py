"""Days a document names only by weekday or ordinal ("closes on Wednesday", "beginning on
the 3rd"), counted from the one day a sentence writes, and the periods they bound.

A sentence that writes exactly one day may name the other end of its period without writing a
second date. After the day, a ``later_day_cues`` word names a later end ("opens on Monday 15
March and closes on Wednesday", "starts 8 February and lasts until the 12th"). Where the written
day is itself the end ("lasts until 5 May, beginning on the 3rd", "ends on Sunday 7 March,
having opened on Tuesday"), a ``period_start_verbs`` verb before the cue names an earlier start.
The sentence after it may do either ("It finishes on Monday", "It opens on the 2nd"), or name
the last day ("Its closing day is Sunday"). Every read counts only beside exactly one written
day, so a period is never counted from the wrong one. The words come from
``period_words.json``; weekday names from :mod:`calendar`.

Two weekdays joined as a range bound the period when the one day falls on one of them. A
programme that dates only its first day spans what its labels name after it: numbered days
("Day 1 (4 May 2027) ... Day 3") or weekday labels ("Friday: panels").
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from functools import cache, lru_cache

from lemminflect import getAllLemmas

from engine.structured.periods import (
    DAY,
    MONTH_WORDS,
    Reading,
    alternation,
    day_starts,
    in_digits,
    joined,
    listed,
    ordinal,
    read_phrases,
)

# A sentence ends after ".", "!" or "?" and space, or at a line break; not after a day written
# with a dot before its month ("on 14.–16. October 2027", a day-first habit's ordinal dot).
SENTENCE_END = re.compile(
    rf"(?<=[.!?])(?<!\b\d\.)(?<!\b\d\d\.)\s+"
    rf"|(?:(?<=\b\d\.)|(?<=\b\d\d\.))\s+(?!(?:{alternation(list(MONTH_WORDS))})\b)|\n+"
)
WEEK = 7
WEEKDAYS = alternation([*calendar.day_name, *calendar.day_abbr])  # "Sunday", "Sun"
MONTHS_BACK = 3  # the 31st is at most three months back (2 May: 31 March)
LAST_WORD_REACH = 3  # "the final match is on": a last word at most this many words before
MAX_PROGRAMME_DAYS = 31  # "Day 40" numbers something else than a programme's days
WORD = re.compile(r"[a-z]+")
START, END = "start", "end"
Periods = tuple[tuple[int, float, float], ...]


@lru_cache(maxsize=256)
def sentence_phrases(sentence: str) -> Reading:
    """One sentence's own phrases, read once: its durations and its named days both ask."""
    return read_phrases(sentence)


def only_day(sentence: str) -> float | None:
    """The one day ``sentence`` writes, or ``None`` when it writes none or several."""
    days = set(sentence_phrases(sentence).points)
    return next(iter(days)) if len(days) == 1 else None


@cache
def named_day_pattern(next_sentence: bool = False) -> re.Pattern[str]:
    """A cue word, then a weekday ("until Friday", "on the Thursday": the day of that week, as
    British English writes it) or "the" and an ordinal that ends its phrase
    ("to the 12th", "until the 12th and"): a word after it that is not a
    ``later_day_followers`` word makes it another thing's ordinal ("to the 12th floor"), and
    "the 12th of May" is a whole date. The sentence after the day's may also name it after a
    ``last_day_cues`` word ("Its closing day is Sunday")."""
    cues = listed("later_day_cues") + (listed("last_day_cues") if next_sentence else [])
    return cued_day_pattern(tuple(cues))


@cache
def cued_day_pattern(cues: tuple[str, ...]) -> re.Pattern[str]:
    """One of ``cues``, then a weekday or "the" and an ordinal that ends its phrase (see
    :func:`named_day_pattern`)."""
    followers = alternation(listed("later_day_followers"))
    ends = rf"(?=\s*(?:[^\w\s]|$)|\s+(?:{followers})\b)"
    ordinal_day = rf"the\s+(?P<day>[0-3]?\d)(?:st|nd|rd|th)\b{ends}"
    return re.compile(
        rf"(?<![\w-])(?i:{alternation(list(cues))})\s+"
        rf"(?:(?:the\s+)?(?P<weekday>{WEEKDAYS})\b|{ordinal_day})"
    )


@cache
def weekday_pattern() -> re.Pattern[str]:
    """A weekday as written in prose, capitalised ("Sunday", "Sun"): lower case, "sun" and
    "sat" are other words."""
    return re.compile(rf"(?<![\w-])(?P<weekday>{WEEKDAYS})\b(?![\w-])")


def named_days_in(sentence: str, next_sentence: bool = False) -> list[re.Match[str]]:
    """The days ``sentence`` names, in order: each after a cue word (:func:`named_day_pattern`),
    and each weekday right after a period verb with no cue between ("ends Sunday", "wraps up
    Friday", "having begun Tuesday"), which American English writes as often. A weekday that
    is one end of a weekday range ("opens Monday to Friday") is a weekly habit, none of these:
    :func:`weekday_range_periods` reads a range."""
    ranges = [match.span() for match in weekday_range_pattern().finditer(sentence)]
    cued = list(named_day_pattern(next_sentence).finditer(sentence))
    after_cue = {match.start("weekday") for match in cued}
    bare = [
        match
        for match in weekday_pattern().finditer(sentence)
        if match.start() not in after_cue and after_period_verb(sentence, match)
    ]
    named = [m for m in cued + bare if not any(a <= m.start("weekday") < b for a, b in ranges)]
    return sorted(named, key=lambda match: match.start())


def after_period_verb(sentence: str, match: re.Match[str]) -> bool:
    """Whether a period verb is among the two words before ``match`` ("ends Sunday", "wraps
    up Friday")."""
    lead = lower_words(sentence[: match.start()])[-2:]
    return any(ending_verb(word) or starting_verb(word) for word in lead)


def later_days(document: str) -> Periods:
    """The periods a sentence's one written day and a day named by weekday or ordinal bound,
    in that sentence or the next (:func:`own_sentence_periods`, :func:`next_sentence_periods`).
    A sentence that writes a day range already says both ends."""
    found: list[tuple[int, float, float]] = []
    before: float | None = None  # the one day the sentence before writes
    before_ends = False  # whether that day is the end of its period
    for sentence in SENTENCE_END.split(document):
        own = sentence_phrases(sentence)
        if not own.points and not own.periods:
            if before is not None:
                found += next_sentence_periods(before, before_ends, sentence)
            continue
        before = only_day(sentence)
        before_ends = before is not None and last_period_word(lower_words(sentence)) == END
        if before is not None and not any(p[0] == DAY for p in own.periods):
            found += own_sentence_periods(before, sentence)
            found += weekday_range_periods(before, sentence)
    return tuple(found)


def own_sentence_periods(day: float, sentence: str) -> Periods:
    """The periods from ``day`` to a later day the sentence names after it ("opens on Monday
    15 March 2027 and closes on Wednesday": 15-17 March; "starts 11 June, the last day is the
    13th"), or from an earlier day a start verb names after it, where the day is written as an
    end ("lasts until 5 May 2027, beginning on the 3rd": 3-5 May)."""
    found = []
    for match in named_days_in(sentence, next_sentence=True):
        if day not in read_phrases(sentence[: match.start()]).points:
            continue
        lead = lower_words(sentence[: match.start()])
        if cue_of(match) in listed_set("last_day_cues") and not names_last_day(lead):
            continue  # "is" names a day only after a last-day word ("; the last day is the 7th")
        if any(starting_verb(w) for w in lead[-2:]) and last_period_word(lead[:-2]) == END:
            found += period(named_day_before(day, match), day)
        else:
            found += period(day, named_day_after(day, match))
    return tuple(found)


@cache
def weekday_range_pattern() -> re.Pattern[str]:
    """Two weekdays joined as a range ("Tuesday to Thursday", "Fri–Sun")."""
    join = joined(listed("weekday_range_joins"))
    return re.compile(rf"(?i:\b(?P<first>{WEEKDAYS})\b{join}(?P<last>{WEEKDAYS})\b)")


def weekday_range_periods(day: float, sentence: str) -> Periods:
    """The periods a weekday range bounds with ``day`` when ``day`` falls on one of its
    weekdays ("runs Tuesday to Thursday, starting 7 September 2027": 7-9 September). A range
    the day does not fall on is a weekly habit ("open Monday to Friday from 5 May 2027", a
    Wednesday), no end."""
    weekday = dt.date.fromordinal(int(day)).weekday()
    found: list[tuple[int, float, float]] = []
    for match in weekday_range_pattern().finditer(sentence):
        first, last = weekday_of(match["first"]), weekday_of(match["last"])
        days = (last - first) % WEEK
        if weekday == first:
            found += period(day, day + days)
        elif weekday == last:
            found += period(day - days, day)
    return tuple(found)


def next_sentence_periods(day: float, day_ends: bool, sentence: str) -> Periods:
    """The periods a sentence that writes no day bounds with ``day``, the one the sentence
    before writes: an end after a ``period_end_verbs`` verb ("It finishes on Monday") or after a
    ``last_day_words`` word ("the final match is on the 9th"); a start after a start verb
    where ``day`` is an end ("It opens on the 2nd"). A later deadline ("Send slides by
    Friday") names neither, so it does not stretch the period."""
    found = []
    for match in named_days_in(sentence, next_sentence=True):
        lead = lower_words(sentence[: match.start()])
        if day_ends and any(starting_verb(word) for word in lead[-2:]):
            found += period(named_day_before(day, match), day)
        elif ends_here(lead, match):
            found += period(day, named_day_after(day, match))
    return tuple(found)


def ends_here(lead: list[str], match: re.Match[str]) -> bool:
    """Whether the day a dayless sentence names ends the dated one's period: after an end
    verb, a last-day word, or an end cue in a sentence that refers back (:func:`runs_on`)."""
    return any(ending_verb(w) for w in lead[-2:]) or names_last_day(lead) or runs_on(lead, match)


def cue_of(match: re.Match[str]) -> str:
    """The cue word a named day's match opens with ("until Friday": "until"), lower case."""
    return next(iter(lower_words(match[0])), "")


def runs_on(lead: list[str], match: re.Match[str]) -> bool:
    """Whether a sentence that opens by referring back to the dated one ("It", "This") names
    the end after an end cue ("It runs until Thursday", "It lasts till the 7th"): what it
    refers to goes on to that day. Another subject's "until" is its own deadline
    ("Registration is open until Friday")."""
    back = lead[:1] and lead[0] in listed_set("length_back_references")
    return bool(back) and cue_of(match) in listed_set("period_end_cues")


@cache
def numbered_day_pattern() -> re.Pattern[str]:
    """A programme's numbered day, or days listed together ("Day 1", "days 2 and 3"), once
    numbers in words are digits; a number a month follows is a date's ("Day 1, 9 May")."""
    joins = alternation([",", "&", "and"])
    number = rf"\d{{1,2}}\b(?!\s*(?i:{alternation(list(MONTH_WORDS))})\b)"
    return re.compile(rf"(?i)\b(?P<word>days?)\s+(?P<n>{number}(?:\s*(?:{joins})\s*{number})*)")


def numbered_days(document: str) -> Periods:
    """The period a programme that numbers its days spans, when the sentence naming its day
    1 writes exactly one day ("Day 1 (4 May 2027): arrivals. ... Day 3: departures": 4-6
    May), or with no day 1, from the first sentence that writes its one day as a start ("The
    course starts on 6 September. Day two ...; day four ..."): its first day, and the last
    day number named from there on, counted from it. Numbers in words count ("day one"),
    and a count of days ("3 days") is no day's number."""
    first: float | None = None
    started: float | None = None
    last = 0
    text = in_digits(document)
    if numbered_day_pattern().search(text) is None:
        return ()  # no numbered day: no sentence need be read for its start
    for sentence in SENTENCE_END.split(text):
        numbers = [
            [int(n) for n in re.findall(r"\d+", match["n"])]
            for match in numbered_day_pattern().finditer(sentence)
        ]
        if first is None and [1] in numbers:
            first = only_day(sentence)
        if first is None and started is None:
            started = started_day(sentence)
        if first is not None or started is not None:
            last = max([last, *(n for found in numbers for n in found)])
    start = first if first is not None else started
    if start is None or not 1 < last <= MAX_PROGRAMME_DAYS:
        return ()
    return ((DAY, start, start + last - 1),)


def started_day(sentence: str) -> float | None:
    """The one day ``sentence`` writes, when it writes it as its period's start ("starts on
    6 September", "Kick-off is on 9 May")."""
    day = only_day(sentence)
    return day if day is not None and written_as(sentence, day) == START else None


def written_as(sentence: str, day: float) -> str | None:
    """Whether ``sentence`` writes ``day`` as its period's start or its end (by the last
    period verb or end cue before it), or ``None``."""
    at = day_starts(sentence, day)
    return None if at is None else last_period_word(lower_words(sentence[:at]))


@cache
def weekday_label_pattern() -> re.Pattern[str]:
    """A weekday opening a programme's line or sentence as its label: the weekday, perhaps
    its date, then a colon or a spaced dash ("Friday: panels", "Monday 3 May 2027 – arrival")."""
    return re.compile(
        rf"^\s*(?P<weekday>{WEEKDAYS})\b(?P<date>[^:\n–—]{{0,30}}?)\s*(?::|\s[–—-]\s)"
    )


def weekday_programme(document: str) -> Periods:
    """The period a programme labelled by weekday spans, when its first label writes the one
    day of its sentence, on that weekday ("Thursday 2 September 2027: registration. Friday:
    panels. Saturday: excursion.": 2-4 September): each later label is the next day of its
    weekday after the one before, up to the last label in a row."""
    start: float | None = None
    day: float | None = None
    for sentence in SENTENCE_END.split(document):
        label = weekday_label_pattern().match(sentence)
        if label is None or (start is not None and label["date"].strip()):
            if start is not None:
                break  # the labels in a row end here (a dated one the phrases read)
            continue
        if day is not None:
            day = named_day_after(day, label)
        elif (written := only_day(sentence)) is not None and on_weekday(written, label):
            start = day = written
    return tuple(period(start, day)) if start is not None and day != start else ()


def period(start: float | None, end: float | None) -> list[tuple[int, float, float]]:
    """The day period from ``start`` to ``end``, none when a named day has no date."""
    return [] if start is None or end is None else [(DAY, start, end)]


def lower_words(text: str) -> list[str]:
    """The words of ``text`` in lower case, letters only."""
    return WORD.findall(text.lower())


@cache
def listed_set(key: str) -> frozenset[str]:
    """A ``period_words.json`` list as a set, built once: the reads below ask per word."""
    return frozenset(listed(key))


def names_last_day(lead: list[str]) -> bool:
    """Whether a ``last_day_words`` word is among the last words before the cue ("The final
    day is", "the final match is on"), so what the cue names is the period's last day."""
    return bool(set(lead[-LAST_WORD_REACH:]) & listed_set("last_day_words"))


def last_period_word(lead: list[str]) -> str | None:
    """Whether the last period verb or end cue in ``lead`` ends a period ("runs until", "ends
    on") or starts one ("opens on"): what a day written after it is."""
    for word in reversed(lead):
        if ending_verb(word) or word in listed_set("period_end_cues"):
            return END
        if starting_verb(word):
            return START
    return None


@lru_cache(maxsize=4096)  # any word of any document: bounded, the worker runs for days
def lemmas_of(word: str) -> frozenset[str]:
    return frozenset(lemma for forms in getAllLemmas(word).values() for lemma in forms)


def ending_verb(word: str) -> bool:
    return bool(lemmas_of(word) & listed_set("period_end_verbs"))


def starting_verb(word: str) -> bool:
    return bool(lemmas_of(word) & listed_set("period_start_verbs"))


def named_day_after(start: float, match: re.Match[str]) -> float | None:
    """The first day after ``start`` that a weekday or a day of the month names (the 12th
    after 8 February is 12 February; after 20 February, 12 March)."""
    day = dt.date.fromordinal(int(start))
    if match["weekday"]:
        return start + (weekday_of(match["weekday"]) - day.weekday() - 1) % WEEK + 1
    number = int(match["day"])
    if number > day.day:
        return ordinal(day.year, day.month, number)
    following = day.replace(day=1) + dt.timedelta(days=32)
    return ordinal(following.year, following.month, number)


def named_day_before(end: float, match: re.Match[str]) -> float | None:
    """The last day before ``end`` that a weekday or a day of the month names (Friday before
    Sunday 7 March is 5 March; the 26th before 3 March is 26 February; the 31st before 2 May
    is 31 March); ``None`` for a day no month has."""
    day = dt.date.fromordinal(int(end))
    if match["weekday"]:
        return end - (day.weekday() - weekday_of(match["weekday"]) - 1) % WEEK - 1
    year, month = day.year, day.month
    for _ in range(MONTHS_BACK):
        found = ordinal(year, month, int(match["day"]))
        if found is not None and found < end:
            return found
        year, month = (year, month - 1) if month > 1 else (year - 1, 12)
    return None


def on_weekday(day: float, match: re.Match[str]) -> bool:
    """Whether ``day`` falls on the weekday ``match`` names."""
    return dt.date.fromordinal(int(day)).weekday() == weekday_of(match["weekday"])


def weekday_of(name: str) -> int:
    """A weekday's number (Monday 0) from its full or short English name."""
    said = name.lower()
    full = [n.lower() for n in calendar.day_name]
    return full.index(said) if said in full else [n.lower() for n in calendar.day_abbr].index(said)
