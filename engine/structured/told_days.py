"""The days a document tells in order, each counted from the one before.

"I sat my exam on 22 May 2025 and the results came out exactly six weeks later. I resat it
on the second Thursday of November." A reader dates the results on 3 July and the resit on
13 November 2025: a shift ("six weeks later", "four weeks after registration closes", "the
following Monday") counts from the last single day told before it, and a weekday of a month
("the second Thursday of November", "the last Saturday in April 2028", "the first Thursday of
the month") takes its year, or its month, from the days around it. :func:`told_days` reads
them in the order they are written, beside the days the document writes
(:func:`.written_days.written_phrases`); the readers are in :mod:`.day_readers` and the
modules beside it. Which told day a member's name takes is :mod:`.member_days`'. Weekday and
month names come from the standard library's ``calendar``; words from ``period_words.json``.
Pure functions over text.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache, lru_cache

from engine.structured.age_days import age_day, age_pattern
from engine.structured.anniversaries import (
    anniversary_day,
    anniversary_pattern,
    recurring_day,
    recurring_pattern,
)
from engine.structured.counted_meetings import (
    counted_meeting,
    counted_meeting_pattern,
    following_meeting,
    following_meeting_pattern,
)
from engine.structured.day_readers import (
    Reader,
    Told,
    bounds,
    next_day,
    next_day_pattern,
    next_weekday,
    next_weekday_pattern,
)
from engine.structured.length_days import (
    ahead_day,
    ahead_pattern,
    chained_length,
    chained_pattern,
    length_end,
    length_pattern,
    notice_day,
    notice_pattern,
    span_shift,
    span_shift_pattern,
    taken_day,
    taken_pattern,
    waited_day,
    waited_pattern,
)
from engine.structured.month_days import (
    month_end,
    month_end_pattern,
    month_weekday,
    month_weekday_pattern,
    ordinal_day,
    ordinal_day_pattern,
)
from engine.structured.other_days import clauses, deadline_spans
from engine.structured.periods import alternation, in_digits, listed
from engine.structured.schedule_days import (
    nth_day,
    nth_day_pattern,
    numbered_day,
    numbered_day_pattern,
    week_day,
    week_day_pattern,
)
from engine.structured.shift_days import (
    edge_day,
    edge_day_pattern,
    moved_by_day,
    moved_by_pattern,
    shift_pattern,
    shifted_day,
)
from engine.structured.started_lengths import started_lengths
from engine.structured.stay_days import stay_edge, stay_edge_pattern
from engine.structured.weekday_days import (
    lone_weekday,
    lone_weekday_pattern,
    next_day_word,
    next_day_word_pattern,
    same_day,
    same_day_pattern,
    that_day,
    that_day_pattern,
)
from engine.structured.written_days import written_phrases


@lru_cache(maxsize=16)  # each date member of one document asks
def told_days(document: str) -> tuple[Told, ...]:
    """The days ``document`` writes and the days it counts, in the order they are told."""
    text = digits(document)
    spans, sentences = written_phrases(text), clauses(text)
    cut = deadline_spans(text, spans)  # known while reading: "by the end of August"
    found = [Told(s, e, *bounds(what), deadline=within(s, e, cut)) for s, e, what in spans]
    # "a three-day course starting 4 May": its last day, told before what counts from it
    found += started_lengths(text, found, found, sentences)
    for start, end, match, reader in counted_phrases(text):
        if any(t.start < end and start < t.end and not start <= t.start < t.end <= end
               for t in found):  # fmt: skip
            continue  # the phrase is part of a day the document writes
        if any((t.start, t.end) == (start, end) and not t.how for t in found):
            continue  # it is the whole of one: "Easter Monday" is a holiday, no lone Monday
        sentence = next((s, e) for s, e in sentences if s <= start <= e)
        before = sorted((t for t in found if t.end <= start), key=lambda t: t.end)
        counted = reader(match, before, sentence)
        if counted is not None:  # a day and how, or a period's first and last day and how
            # a month it names ("the last Saturday in April 2028") is no day of its own, nor
            # a shorter phrase read inside it; a phrase read as nothing leaves them
            found = [t for t in found if not start <= t.start < t.end <= end]
            first, *rest, how = counted
            last = rest[0] if rest else first
            # a limit ends no length; a notice period's last day is its thing's, as a length's
            lasting = reader is notice_day or (reader is length_end and not match["limit"])
            closing = reader is edge_day and match["edge"].lower() in listed("last_day_words")
            limit = reader is length_end and bool(match["limit"])  # "within two days of it"
            found.append(Told(start, end, first, last, str(how), lasting=lasting,
                              closing=closing, limit=limit))  # fmt: skip
            found += started_lengths(text, found[-1:], found, sentences)
    marked = [replace(t, deadline=within(t.start, t.end, cut)
                      or bool(t.how and deadline_before().search(text, 0, t.start)))
              for t in found]  # fmt: skip
    return tuple(sorted(marked, key=lambda t: t.start))


def within(start: int, end: int, spans: list[tuple[int, int]]) -> bool:
    """Whether a phrase at ``start``-``end`` lies inside one of ``spans``."""
    return any(a <= start and end <= b for a, b in spans)


@cache
def deadline_before() -> re.Pattern[str]:
    """A deadline word right before a counted day ("paid by the end of the month"), as
    :func:`engine.structured.other_days.deadline_spans` reads one before a written day."""
    return re.compile(rf"(?i)\b(?:{alternation(listed('deadline_words'))})\s+(?:the\s+)?$")


@lru_cache(maxsize=16)  # each date member's name is read against the same text
def digits(document: str) -> str:
    """The document with its numbers in digits (:func:`.periods.in_digits`), read once."""
    return in_digits(document)


def counted_phrases(text: str) -> list[tuple[int, int, re.Match[str], Reader]]:
    """Each phrase that counts a day from the days around it, with its reader, in order."""
    readers: list[tuple[re.Pattern[str], Reader]] = [
        (shift_pattern(), shifted_day),
        (moved_by_pattern(), moved_by_day),
        (month_weekday_pattern(), month_weekday),
        (next_weekday_pattern(), next_weekday),
        (next_day_pattern(), next_day),
        (length_pattern(), length_end),
        (waited_pattern(), waited_day),
        (notice_pattern(), notice_day),
        (chained_pattern(), chained_length),
        (month_end_pattern(), month_end),
        (ordinal_day_pattern(), ordinal_day),
        (span_shift_pattern(), span_shift),
        (ahead_pattern(), ahead_day),
        (counted_meeting_pattern(), counted_meeting),
        (following_meeting_pattern(), following_meeting),
        (week_day_pattern(), week_day),
        (nth_day_pattern(), nth_day),
        (numbered_day_pattern(), numbered_day),
        (lone_weekday_pattern(), lone_weekday),
        (same_day_pattern(), same_day),
        (that_day_pattern(), that_day),
        (stay_edge_pattern(), stay_edge),
        (next_day_word_pattern(), next_day_word),
        (anniversary_pattern(), anniversary_day),
        (recurring_pattern(), recurring_day),
        (age_pattern(), age_day),
        (taken_pattern(), taken_day),  # after length_end: "takes 3 days from" is a wait
        (edge_day_pattern(), edge_day),  # last: "two days before opening day" is a shift
    ]
    found = [(m.start(), m.end(), m, r) for p, r in readers for m in p.finditer(text)]
    return sorted(found, key=lambda f: f[0])
