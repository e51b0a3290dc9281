"""Where a lone date of the object a document is about goes, when the document writes the days
of an event and, before them, a day something is done by.

"Papers are due on 1 February; the congress meets on 7-9 May 2027." The document's era
(:func:`engine.structured.json_values.document_era`) runs from 1 February to 9 May, so a paper's
session could come out on 20 March and its sending after the due day. A reader takes the
session's date for one of the congress's days and the paper as sent by the due day. Which a member
is, its name says, read against the clauses that write the days:

- a member named by a word of a clause that writes a day of the event ("congress_day" beside
  "the congress meets on 7-9 May") is a day of the event;
- one named by a word of a clause that writes only earlier days ("paper_sent" beside "Papers are
  due on 1 February", "reserved_on" beside "Rooms must be reserved by 1 April") is done on or
  before that clause's last day, at most :data:`LEAD_DAYS` before it;
- one that counts ("congress_day_two") is that day of the event, and one that counts a
  meeting of a series the document states, or names its month, is that meeting (:mod:`.series`);
- any other lone date ("keynote_date", "match_day") is a day of the event.

Before all of these, a member whose name's own words name a thing the document tells a day
for takes that day (:mod:`.told_days`: "results_date" beside "the results came out six weeks
later"), or the lead-up to it when the day is a deadline its name does not date itself; one
named a deadline ("forms_deadline") takes its act's day itself. A member whose name is beside
no told day takes one by elimination (:func:`unclaimed_day`): the days no other member takes,
in order, when as many members are left; a numbered one ("second_dose") too, where no series
counts it and no other word of its name is in the text.

A clause may set its day by a length before the event instead ("the balance is due six weeks
before we arrive"). An act's name wins over what its words say by default (a payment comes
after what it pays for, a delivery ends a pair): a member the document ties to an act done
ahead is no start or end of the event and no later date. Only where the document writes the
event's first and last day (:func:`document_ends`) or a series; a document that writes no
earlier day puts every lone date in the event's days. A lone date is the object's own, not a
birth, a later date or one of a start-and-end pair: the compiler shapes it to these days (and
offers it only the written days inside them), and the era rule
(:func:`engine.structured.json_rules.era`) keeps it there. Pure functions over text.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, replace
from functools import cache, lru_cache

from engine.structured import columns, cued_days, other_days, periods, stated
from engine.structured.ages import birth_phrases
from engine.structured.anniversaries import counted_birthday
from engine.structured.day_elimination import edge_of, ordered_days, unclaimed_day
from engine.structured.day_readers import is_period, iso, yearlong
from engine.structured.interleaved import between_meeting
from engine.structured.member_days import SHORTEST_FRAME, bound_day, told_span
from engine.structured.member_kinds import (
    LATER,
    born,
    clause_words,
    ends_only,
    own_words,
    paired,
    partners,
)
from engine.structured.named_days import starting_verb
from engine.structured.other_days import clauses, phrase_days
from engine.structured.periods import Span, alternation, listed, phrase_spans
from engine.structured.series import open_ended, series_day, series_days
from engine.structured.series_counts import cardinals, ordinal_of
from engine.structured.started_lengths import started_spans
from engine.structured.told_days import Told, digits, told_days
from engine.structured.words import key_parts, shares_act

# An act done ahead of an event (a booking, an entry) is dated this close before its day: a
# booking made two months ahead is as likely as one made the week before.
LEAD_DAYS = 60
WORD = re.compile(r"[A-Za-z]+")
START_WORDS = 3  # a start verb, "on" and a weekday: the words before a day written as a start
# "six weeks before": three words, looked ahead at so that every word may start them
RELATIVE = re.compile(r"\b(?=([a-z0-9-]+) ([a-z]+) ([a-z]+)\b)")


@cache
def until_cue() -> re.Pattern[str]:
    """A ``period_end_cues`` word ("until") right before the end of the text searched."""
    return re.compile(rf"(?i)\b(?:{alternation(listed('period_end_cues'))})\s+$")


@dataclass(frozen=True)
class Clause:
    """One clause's words (with their lemmas) and the days it writes."""

    words: frozenset[str]
    days: tuple[float, ...]


@dataclass(frozen=True)
class EventDays:
    """The event's first and last day (``None`` for a series alone), the clauses that write
    a day (in order), the days of the thing it says recurs (:mod:`.series`), and the days
    the document (``text``) tells in order (:mod:`.told_days`)."""

    ends: Span | None
    clauses: tuple[Clause, ...]
    series: tuple[float, ...] = ()
    told: tuple[Told, ...] = ()
    text: str = ""

    def told_day(self, key: str) -> Told | None:
        """The day (or period) the document tells right after a word of ``key``'s name; for
        an end, the event's last day where that day is the first of the event's days,
        written as a start, and the last is no day told ("the fair runs for six days,
        opening on Friday 4 June": ``fair_closes``; not "holiday starting Monday 3 May, back
        at work on Monday the 10th")."""
        found = told_span(self.told, self.text, key)
        if found is None or self.ends is None or not ends_only(key):
            return found
        first, last = self.ends
        told_last = any(t.first == t.last == last and not t.lasting for t in self.told)
        if (
            found.first == found.last == first < last
            and not told_last
            and written_as_start(self.text, found)
        ):
            how = f"last of {iso(first)} to {iso(last)}"
            return replace(found, first=last, last=last, how=how)
        return found

    def pair_ends(self) -> Span | None:
        """The first and last day a start and an end named as a pair take: the event's,
        unless the text tells one length by the day it starts on (a note written in March
        that says "the painters need four days, beginning Tuesday 6 April") and the event's
        days are one day, none, or do not hold it: that length's."""
        lengths = started_spans(self.told)
        if len(lengths) != 1 or self.ends is None:
            return lengths[0] if lengths else self.ends
        (first, last), ends = lengths[0], self.ends
        held = ends[0] <= first and last <= ends[1]
        return lengths[0] if ends[0] == ends[1] or not held else ends

    def named_day(self, key: str, siblings: Iterable[str]) -> Told | None:
        """The day ``key``'s name finds: :meth:`told_day`, else, for a name made only of
        bound words with no pair among ``siblings``, the day told right after its verb
        (:func:`.member_days.bound_day`: a lone "start_date" beside "starts on 4 March")."""
        keys = tuple(siblings)
        found = counted_birthday(self.text, self.told, key) or self.told_day(key)
        if found is not None:
            return None if self.one_for_both(key, found, keys) else found
        return None if paired(key, keys) else bound_day(self.told, self.text, key)

    def one_for_both(self, key: str, found: Told, siblings: tuple[str, ...]) -> bool:
        """Whether a start and its end, named for one thing ("session_start", "session_end"),
        both find the same single day where the document writes its event's first and last
        days apart ("Summer exam session: entries close on 15 March … exams from 3 June to
        12 July"): the day is another thing's, and the pair takes the event's ends by rule
        (:func:`engine.structured.json_rules.period_ends`)."""
        if self.ends is None or self.ends[0] == self.ends[1] or found.first != found.last:
            return False
        for other in partners(key, siblings):
            ends = (key, other) if columns.names(key, "start") else (other, key)
            if not (columns.names(ends[0], "start") and ends_only(ends[1])):
                continue
            if own_words(key) & own_words(other) - columns.field_words()["start"]:
                told = self.told_day(other)
                if told is not None and (told.first, told.last) == (found.first, found.last):
                    return True
        return False

    def own_day(self, key: str, siblings: Iterable[str]) -> Told | None:
        """The day told for ``key``: beside a word of its name, else, by elimination, the one
        told day no other date member among ``siblings`` takes (:func:`unclaimed_day`); moved
        to the day told where it stands in ``siblings``' order when its name's day is another
        member's, or found there when its name finds none (:func:`ordered_days`)."""
        keys = tuple(siblings)
        if key not in keys:
            return self.told_day(key) or unclaimed_day(self, key, keys)
        return ordered_days(self, keys)[keys.index(key)]

    def meeting(self, key: str) -> Span | None:
        """The meeting of the series a member's name counts, names the month of, or calls
        the last or the next (:func:`.series.series_day`, :meth:`final_meeting`,
        :meth:`next_meeting`), or of the rota in the weeks between its meetings
        (:func:`.interleaved.between_meeting`)."""
        # "the Wednesdays in between": a rota's meeting, not the series' it fills in for
        found = between_meeting(self.series, self.text, key) or series_day(self.series, key)
        return found or self.final_meeting(key) or self.next_meeting(key)

    def final_meeting(self, key: str) -> Span | None:
        """The last meeting of the series for a member its name calls the last
        (``last_day_words``: "final_class_date"): the series' last, or, for one the document
        says no end of, the last before the latest day it tells ("practice is every Wednesday
        from 6 October; the gig is on 20 November": 17 November)."""
        if not self.series or set(key_parts(key)).isdisjoint(listed("last_day_words")):
            return None
        days = self.series
        if open_ended(self.text):
            latest = max((t.last for t in self.told if not yearlong(t)), default=days[-1])
            days = tuple(d for d in days if d <= latest) if latest > days[0] else ()
        return (days[-1], days[-1]) if days else None

    def next_meeting(self, key: str) -> Span | None:
        """The series' day after the one told for the thing a member calls the next
        (``duration_next``: "next_invoice" beside "Invoice of 9 May 2027 … invoices are
        sent on the 9th of each month": 9 June)."""
        if not self.series or set(key_parts(key)).isdisjoint(listed("duration_next")):
            return None
        told = self.told_day(key)
        if told is None or told.first not in self.series:
            return None
        after = [d for d in self.series if d > told.last]
        return (after[0], after[0]) if after else None

    def day_span(self, key: str) -> Span | None:
        """The days a lone date named ``key`` falls in: an act's lead-up to its day, the
        meeting of a series or the day of the event it counts ("session_two", "day_two"),
        else the event's days."""
        own = self.act_span(key) or series_day(self.series, key)
        return own or self.counted_day(key) or self.ends

    def counted_day(self, key: str) -> Span | None:
        """The one day of the event a member names by an ordinal and a ``counted_day`` word
        ("conference_day_two", "second_evening"); ``None`` when it names none, or one past
        the event's last."""
        words = set(key_parts(key))
        nth = ordinal_of(words)
        frame = self.ends or self.told_period()
        if frame is None or nth is None or not words & columns.field_words()["counted_day"]:
            return None
        day = frame[0] + nth - 1
        return (day, day) if day <= frame[1] else None

    def told_period(self) -> Span | None:
        """The one period of a few days the document tells, where no event's days are read
        ("a sailing course on the first weekend of May 2027"); ``None`` for none or more."""
        periods = {(t.first, t.last) for t in self.told if is_period(t) and not t.deadline}
        short = [p for p in periods if p[1] - p[0] < SHORTEST_FRAME]
        return short[0] if len(short) == 1 else None

    def act_span(self, key: str) -> Span | None:
        """The lead-up to the day a clause sets for the act a member named ``key`` dates,
        when its name ties it to a clause that writes only earlier days and not to one that
        writes a day of the event; ``None`` when it dates no such act."""
        if self.ends is None:
            return None
        named, ends = own_words(key), self.ends
        during = [c for c in self.clauses if any(ends[0] <= d <= ends[1] for d in c.days)]
        if any(shares_act(named, c.words) for c in during):
            return None
        before = [c for c in self.clauses if c.days and max(c.days) < ends[0]]
        acts = [c for c in before if shares_act(named, c.words)]
        if not acts:
            return None
        by = max(max(c.days) for c in acts)
        # the deadline itself ("consent_deadline" beside "forms must be in by 15 May")
        return (by, by) if columns.names(key, "deadline_name") else (by - LEAD_DAYS, by)

    def not_acts(self, keys: Iterable[str]) -> list[str]:
        """The members of ``keys`` that date no act done ahead of the event: only these may
        be its start and end."""
        return [k for k in keys if self.act_span(k) is None]


def lone_date_span(
    event: EventDays | None, key: str, depth: int, siblings: Iterable[str]
) -> Span | None:
    """The days a top-level date member (``depth`` 1) named ``key`` falls in: the meeting of
    a series its name counts or names the month of; the day the document tells for the thing
    its name names (:func:`told_window`); where the document writes an event's days, the
    lead-up of the act its name ties it to, whatever else its name says (a payment, a
    delivery); else, as a lone date of the object (no :data:`.member_kinds.BORN` or
    :data:`.member_kinds.LATER` word names it, and it is no start or end with its pair among
    ``siblings``: "reserved_on" alone is lone), the event's days. ``None`` otherwise."""
    if event is None or depth != 1 or born(key):
        return None
    meeting = event.meeting(key)  # "june_meeting": the series' June meeting
    if meeting is not None:
        return meeting
    told = event.own_day(key, siblings)
    if told is not None:
        return told_window(told, key)
    own = event.act_span(key)
    if own is not None:
        return own
    if columns.names(key, LATER) or paired(key, event.not_acts(siblings)):
        return None
    return event.counted_day(key) or edge_of(event, key)  # its act read once


def told_window(told: Told, key: str) -> Span:
    """The days of a member the document tells a day for: that day (or period), or the
    lead-up to it when it is written as a deadline ("boxes must reach us by 1 March") and
    the member's name does not date the deadline itself (``deadline_name`` words)."""
    if told.deadline and not columns.names(key, "deadline_name"):
        return told.last - LEAD_DAYS, told.last
    if told.deadline:  # "by the end of January": the deadline is the period's last day
        return told.last, told.last
    return told.first, told.last


def written_as_start(document: str, told: Told) -> bool:
    """Whether a ``period_start_verbs`` verb stands right before a told day ("opening on
    Friday 4 June", "starting 3 May": two words between at most)."""
    said = WORD.findall(digits(document), 0, told.start)[-START_WORDS:]
    return any(starting_verb(w.lower()) for w in said)


def document_ends(document: str) -> tuple[float, float] | None:
    """The first and last day of what a document is about, when it writes them
    (:meth:`engine.structured.periods.Reading.written_span`), or the one day of a one-day
    thing (:func:`engine.structured.stated.one_day`); its deadlines and a moved thing's old
    day are no days of it (:mod:`engine.structured.other_days`), nor is a birth it writes
    (:func:`.ages.birth_phrases`), where it writes another day."""
    text = other_days.event_text(document)
    unborn = periods.masked(text, birth_phrases(document))
    text = unborn if phrase_spans(unborn) else text
    cued = cued_days.cued_span(stated.prepared(text))
    if cued is not None:
        return cued
    span = stated.read(text).written_span()
    day = None if span is not None else stated.one_day(text)
    return span if day is None else (day, day)


@lru_cache(maxsize=16)  # each date member of one document asks
def event_days(document: str) -> EventDays | None:
    """The event's days, the dated clauses, the series and the told days of ``document``;
    ``None`` when it writes none of them."""
    ends, series, told = document_ends(document), series_days(document), told_days(document)
    if ends is None and not series and not told:
        return None
    ends = counted_until(document, told, ends)
    phrases = phrase_spans(document)
    found = []
    for start, end in clauses(document):
        text = " ".join(WORD.findall(document[start:end].lower()))
        days = [d for s, _, what in phrases if start <= s < end for d in phrase_days(what)]
        if not days:
            text, days = relative_day(text, ends)
        if days:
            found.append(Clause(clause_words(text), tuple(days)))
    return EventDays(ends, tuple(found), series, told, document)


def counted_until(document: str, told: tuple[Told, ...], ends: Span | None) -> Span | None:
    """A one-day event's ends run on to a day counted right after a ``period_end_cues`` word
    in the sentence that writes its day ("the cottage is ours from Thursday 9 April 2026 until
    the following Monday": 9 to 13 April); ``ends`` as they are otherwise."""
    if ends is None or ends[0] != ends[1]:
        return ends
    text = digits(document)
    sentences = clauses(text)
    for day in told:
        sentence = next(((s, e) for s, e in sentences if s <= day.start <= e), (0, 0))
        written = any(t.first == ends[0] and not t.how and sentence[0] <= t.start for t in told)
        cued = until_cue().search(text, sentence[0], day.start) is not None
        if day.how and day.first > ends[0] and written and cued:
            return (ends[0], day.last)
    return ends


def relative_day(text: str, ends: Span | None) -> tuple[str, list[float]]:
    """The day a clause that writes none sets by a length before the event ("the balance is
    due six weeks before we arrive", "at least one week before the first day"): that long
    before its first day, with the clause's words up to the length (what comes after names
    the event, not the act). The length is a count (a number, or "a") and a
    ``duration_units`` unit; ``before`` is a one-word ``deadline_words`` entry. "Three days
    earlier" is not one: it counts from the day before it, and may start the event itself
    (:mod:`engine.structured.counted_days`)."""
    if ends is None:
        return text, []
    units = dict(periods.words()["duration_units"])  # type: ignore[call-overload]
    for match in RELATIVE.finditer(text):
        count, unit, after = match[1], match[2].removesuffix("s"), match[3]
        number = 1 if count in listed("duration_one") else cardinals().get(count)
        if number is not None and unit in units and after in listed("deadline_words"):
            return text[: match.start()], [ends[0] - number * units[unit]]
    return text, []
