"""The readers of a length a document tells after a day, for :mod:`.told_days`, in the shape
of :mod:`.day_readers`': the last day of a length ("for ten days", "lasts 20 months", "a
two-year warranty", "lasts 2 to 4 nights"), the day a limit on a length ends ("allow up to
six weeks", "within 10 weeks of the inspection") and a shift by a range of lengths ("within
2 to 5 weeks of applying", "2-4 days later"). A length runs from the one day its sentence
writes before it; a limit or a range shift that names a thing the document dated, from that
thing's day (:func:`.day_readers.named_origin`). Words from ``period_words.json``. Pure
functions over text.
"""

from __future__ import annotations

import calendar
import re
from functools import cache, lru_cache

from engine.structured.day_readers import (
    Counted,
    Told,
    anchor,
    calendar_units,
    count_and_unit,
    iso,
    last_written,
    moved,
    named_origin,
    own_day,
    shift_words,
    unit_words,
    units,
    working_days,
)
from engine.structured.named_days import starting_verb
from engine.structured.periods import alternation, listed, phrase_spans
from engine.structured.shift_days import ended_origin, names_own_day
from engine.structured.thing_anchor import since_pattern, written

CHAINED = "then"  # how the review tells a length that follows another
# where a notice's "from" is looked for up to: a sentence's end, not a line break in it
STOP = re.compile(r"[.;!?](?:\s|$)")
WEEKDAY_NAMES = "|".join([*calendar.day_name, *calendar.day_abbr])
# what may stand between a start verb and the day it writes: "starting (on) (the) Friday, "
LEADING_WEEKDAY = re.compile(rf"(?i)\s*(?:the\s+)?(?:(?:{WEEKDAY_NAMES})\.?,?\s+)?")
WORDS = re.compile(r"[A-Za-z0-9]")  # a word's character: punctuation alone joins no clause
WAITED = "a wait of"  # how it tells the day a wait runs out ("for a week, then …")


@cache
def length_pattern() -> re.Pattern[str]:
    """ "for ten days", "for a fortnight", "up to six weeks", "a two-year warranty" (its
    numbers in digits): how long something from the day before it lasts, or may take; not a
    shift ("3 days later")."""
    units, shifts = unit_words(), alternation([*shift_words(), *listed("duration_more")])
    leads, limits = alternation(listed("length_leads")), alternation(listed("length_limits"))
    joins = alternation([j for j in listed("range_joins") if j not in listed("clause_shifts")])
    return re.compile(
        rf"(?i)\b(?:(?P<limit>{limits})|{leads})\s+(?:(?P<low>\d{{1,3}})\s*(?:{joins})\s*)?"
        rf"(?P<count>\d{{1,3}}|{alternation(listed('duration_one'))})\s+(?P<unit>{units})s?\b"
        rf"|\b(?P<size>\d{{1,3}})\s(?P<kind>{units})\s+(?!(?:{shifts})\b)(?=[a-z])"
    )


def length_end(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> Counted | None:
    """The last day of a length told after the one day its sentence writes before it ("on 3
    December: one tablet twice a day for ten days" ends on 12 December; three nights from 4
    May end on the 7th; "delivered on 2 February 2025 with a two-year warranty": 1 February
    2027): what a shift after it ("a week after the course finishes") counts from. A limit
    ("allow up to six weeks" from 1 March) is the day that much later: 12 April; one "of"
    a thing the document dated ("within 10 weeks of the inspection") counts from that
    thing's day (:func:`named_origin`), whichever sentence wrote it."""
    if counts_back(match):  # "booked for three weeks before departure": a shift back
        return None
    if match["limit"] and followed_by(match, "duration_after"):
        return None  # "within 10 working days after it": the shift's, from its thing
    own = [t for t in before if t.start >= sentence[0]]
    # the one day its sentence writes, beside any it counts ("registration closes a fortnight
    # before the fair, which opens on 4 May and runs for 2 days")
    written = [t for t in own if not t.how] or own
    origin = written[0] if len(written) == 1 and written[0].first == written[0].last else None
    if match["limit"]:  # one in a sentence that writes no day counts from the day written last
        origin = limit_origin(match, before) or origin or (None if own else last_written(before))
        return limit_end(match, origin)
    if origin is None and not own:  # "for 5 days, starting on the day of the visit"
        origin = start_origin(match, before) or stay_origin(match, before)
        if origin is None:
            return dated_length(match, before)
    if origin is None:
        return None
    count, unit = count_and_unit(match)
    low = int(match["low"] or count)  # "lasts 2 to 4 nights": between the two lengths' ends
    first = length_last(origin.first, low, unit)
    said = f"{low} to {units(count, unit)}" if match["low"] else units(count, unit)
    how = f"end of {said} from {iso(origin.first)}"  # the review says how it was counted
    return (first, length_last(origin.first, count, unit), how) if match["low"] else (first, how)


def length_last(first: float, count: int, unit: str) -> float:
    """The last day of ``count`` units from ``first``: the day before that long after (a
    night, or a month's day, runs into it: three nights from 4 May end on the 7th). Working
    days count ``first`` itself when it is one: four working days from Tuesday 2 March end on
    Friday the 11th, not on the Sunday before the fifth weekday after it."""
    if unit in listed("working_day_units"):
        return working_days(first - 1, count, back=False)
    ends_before = unit in calendar_units() or unit not in listed("overnight_units")
    return moved(first, count, unit, back=False) - ends_before


def limit_end(match: re.Match[str], origin: Told | None) -> Counted | None:
    """The day a limit ends ("allow up to six weeks" from 1 March: 12 April), that long after
    its origin."""
    if origin is None:
        return None
    count, unit = count_and_unit(match)
    later = moved(origin.first, count, unit, back=False)
    return later, f"{units(count, unit)} at most from {iso(origin.first)}"


def counts_back(match: re.Match[str]) -> bool:
    """Whether a length or a limit is followed by a ``duration_before`` word ("up to one
    month before", "booked for three weeks before departure"): how far back a thing is
    done, which the shift before it tells, not a later end."""
    return followed_by(match, "duration_before")


def followed_by(match: re.Match[str], words: str) -> bool:
    """Whether a word of the ``words`` list stands right after a length's phrase."""
    said = alternation(listed(words))
    return re.match(rf"(?i)\s+(?:{said})\b", match.string[match.end() :]) is not None


@cache
def start_cue() -> re.Pattern[str]:
    """A verb right after a length, perhaps "on" or "from", and "the day of" ("…, starting
    on the day of the visit", "starting from the date of the order"): the thing it
    names after it is the length's start (when the verb is a ``period_start_verbs`` one)."""
    days = alternation(listed("day_nouns"))
    return re.compile(rf"(?i),?\s+(?P<verb>[a-z]+)(?:\s+(?:on|from))?(?:\s+the\s+(?:{days})\s+of)?")


def start_origin(match: re.Match[str], before: list[Told]) -> Told | None:
    """The day of the thing a length starts from, named right after it by a start verb, in
    a sentence that writes no day (:func:`named_origin`)."""
    cue = start_cue().match(match.string, match.end())
    if cue is None or not starting_verb(cue["verb"].lower()):
        return None
    if day_written_at(match.string, cue.end()):
        return None  # "for six days starting 3 August": :mod:`.started_lengths`' to read
    return named_origin(match.string, cue.end(), before)


def day_written_at(text: str, at: int) -> bool:
    """Whether a phrase writing a day starts right at ``at``, perhaps after "the" and a
    weekday ("starting Friday 14 August")."""
    start = next((start for start, _, _ in written(text) if start >= at), None)
    return start is not None and LEADING_WEEKDAY.fullmatch(text, at, start) is not None


def stay_origin(match: re.Match[str], before: list[Told]) -> Told | None:
    """The first day of a stay told in nights in a sentence that writes no day before it:
    the last single day told before it ("fly to the Maldives on the Monday. The resort has
    us for ten nights"); ``None`` for a length in another unit. (One whose first day is
    written after it, "for three nights, arriving Thursday 9 May", is
    :mod:`.started_lengths`'.)"""
    unit = (match["unit"] or match["kind"]).lower()
    if unit not in listed("overnight_units") or unit in listed("hour_units"):
        return None
    told = [t for t in before if not t.lasting and t.first == t.last]
    return told[-1] if told else None


def dated_length(match: re.Match[str], before: list[Told]) -> Counted | None:
    """The day a length "from the date of" a thing runs out, in a sentence that writes no
    day ("guaranteed for 90 days from the date of the job"): that long after the thing's
    day (:func:`named_origin`), else after the day the text last wrote (a receipt's), as a
    date counted from a date is; ``None`` when no "from the date of" follows."""
    dated = dated_from().match(match.string, match.end())
    base = dated and (named_origin(match.string, dated.end(), before) or last_written(before))
    if not base:
        return None
    count, unit = count_and_unit(match)
    return moved(base.first, count, unit, back=False), f"{match[0]} from {iso(base.first)}"


@cache
def dated_from() -> re.Pattern[str]:
    """ "from the date of", "from the day of": what a length runs from follows."""
    return re.compile(rf"(?i)\s+from\s+the\s+(?:{alternation(listed('day_nouns'))})\s+of\b")


def writes_day(match: re.Match[str], sentence: tuple[int, int]) -> bool:
    """Whether a phrase's sentence writes a day after it ("Monday to Thursday, from 7 June"):
    what it says is of that day."""
    return any(match.end() <= start < sentence[1] for start in written_starts(match.string))


@lru_cache(maxsize=16)  # each length and lone weekday of one text asks
def written_starts(text: str) -> tuple[int, ...]:
    """Where each day or period the text writes starts."""
    return tuple(start for start, _, _ in phrase_spans(text))


def limit_origin(match: re.Match[str], before: list[Told]) -> Told | None:
    """The day of the thing a limit names after a ``span_since`` word ("within 10 weeks of
    the inspection"), where the document dated it, or the document's own day ("within 28
    days of the date of this email", "within five days of today")."""
    found = since_pattern().match(match.string, match.end())
    if found is None:
        return None
    if names_own_day(match.string, found.end()):
        return own_day(before, match.string)
    ended = ended_origin(match.string, found.end(), before)  # "of the cover ending"
    return ended or named_origin(match.string, found.end(), before)


@cache
def span_shift_pattern() -> re.Pattern[str]:
    """ "within 2 to 5 weeks of applying", "2-4 days later": a shift by a range of lengths."""
    units, ways = unit_words(), alternation(shift_words())
    joins = alternation([j for j in listed("range_joins") if j not in listed("clause_shifts")])
    leads, since = alternation(listed("span_leads")), alternation(listed("span_since"))
    return re.compile(
        rf"(?i)\b(?P<lead>(?:{leads})\s+)?(?P<low>\d{{1,3}})\s*(?:{joins})\s*(?P<high>\d{{1,3}})"
        rf"\s+(?P<unit>{units})s?\s+(?:(?P<way>{ways})|(?P<since>{since}))\b"
    )


def span_shift(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> tuple[float, float, str] | None:
    """The days a shift by a range names: from that much of the low length to the high one
    after the last day told before it (or before it). "of" after the unit counts only after
    a lead ("within")."""
    base = named_origin(match.string, match.end(), before) or anchor(before)
    if base is None or (match["since"] and not match["lead"]):
        return None
    back = bool(match["way"]) and match["way"].lower() in listed("duration_before")
    unit = match["unit"].lower()
    days = [moved(base.first if back else base.last, int(match[n]), unit, back)
            for n in ("low", "high")]  # fmt: skip
    first, last = sorted(days)
    return first, last, f"{match[0]} {iso(base.first if back else base.last)}"


@cache
def ahead_pattern() -> re.Pattern[str]:
    """ "in 18 months", "in two years' time", "after six weeks", "in 2 to 4 working days": a day
    that much after, or the days between two such; not a count a shift word follows ("entry
    forms must be in three weeks beforehand": :mod:`.shift_days`')."""
    one, leads = alternation(listed("duration_one")), alternation(listed("ahead_leads"))
    joins = alternation([j for j in listed("range_joins") if j not in listed("clause_shifts")])
    shifted = alternation(shift_words())  # "must be in three weeks beforehand": a shift's
    return re.compile(
        rf"(?i)\b(?:{leads})\s+(?:(?P<low>\d{{1,3}})\s*(?:{joins})\s*)?"
        rf"(?P<count>\d{{1,3}}|{one})\s+(?P<unit>{unit_words()})s?\b(?P<time>['’]?\s+time\b)?"
        rf"(?!\s+(?:{shifted})\b)"
    )


def ahead_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> Counted | None:
    """The day that long after the last day told before it ("serviced on 21 June; the next
    check is due in 18 months": 21 December the year after), or the days from the low length's
    to the high one's ("ready in 2 to 4 working days"); "in five weeks' time" is that long
    from now, the document's own day (notes of a meeting: "we meet again in five weeks'
    time")."""
    base = own_day(before, match.string) if match["time"] else anchor(before)
    # "went home on 31 December after four nights", "stepped down on 4 May, after nine years
    # as chair": a length right after its day, a comma at most between, is how long came
    # before that day, not a day after it
    if base is None or not WORDS.search(match.string, base.end, match.start()):
        return None
    count, unit = count_and_unit(match)
    last = moved(base.last, count, unit, back=False)
    if match["low"] is None:
        return last, f"{match[0]} from {iso(base.last)}"
    return (
        moved(base.last, int(match["low"]), unit, back=False),
        last,
        f"{match[0]} from {iso(base.last)}",
    )


@cache
def waited_pattern() -> re.Pattern[str]:
    """ "for a week, then", "for 10 days and then" (a ``sequel_words`` word): a length a thing
    is left for, and what is done once it has passed."""
    one, then = alternation(listed("duration_one")), alternation(listed("sequel_words"))
    return re.compile(
        rf"(?i)\bfor\s+(?P<count>\d{{1,3}}|{one})\s+(?P<unit>{unit_words()})s?"
        rf"(?=\s*,?\s+(?:and\s+)?(?:{then})\b)"
    )


def waited_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> Counted | None:
    """The day a wait runs out, that long after the last day told before it ("moved in on
    2 June. Leave the paint for a week, then hang the pictures": 9 June), when what follows
    "then" is done."""
    return wait_end(match, anchor(before), WAITED)


def wait_end(match: re.Match[str], base: Told | None, said: str) -> Counted | None:
    """The day a wait of the phrase's length runs out, from ``base``'s last day, and how:
    ``said`` (a wait's word, or the phrase itself when empty), the length and that day."""
    if base is None:
        return None
    count, unit = count_and_unit(match)
    how = f"{said} {units(count, unit)}" if said else match[0]
    return moved(base.last, count, unit, back=False), f"{how} from {iso(base.last)}"


@cache
def notice_pattern() -> re.Pattern[str]:
    """ "3 calendar months' notice", "a month's notice", "4 weeks notice" (numbers in digits;
    a ``notice_stress`` word may stand before the unit): a notice period."""
    one, stress = alternation(listed("duration_one")), alternation(listed("notice_stress"))
    notice = alternation(listed("notice_words"))
    return re.compile(
        rf"(?i)\b(?P<count>\d{{1,3}}|{one})\s+(?:(?:{stress})\s+)?(?P<unit>{unit_words()})s?"
        rf"['’]?s?\s+(?:{notice})\b"
    )


def notice_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> Counted | None:
    """The day a notice period runs out: that long after the day it runs from, the thing
    named after "from" in its sentence ("running from the date of service"), the document's
    own day where that thing is the document ("from the date of this letter") or nothing is
    named: the first day it writes, a letter's date."""
    origin = notice_origin(match, before, sentence)
    if origin is None:
        return None
    count, unit = count_and_unit(match)
    day = moved(origin.first, count, unit, back=False)
    return day, f"{units(count, unit)} notice from {iso(origin.first)}"


def notice_origin(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> Told | None:
    """The day a notice runs from (:func:`notice_day`), looked for up to the end of its
    sentence (a line break is no end: "from the date of / this letter"); the document's own
    day where the thing named is not dated."""
    written = [t for t in before if not t.how and t.first == t.last]
    stop = STOP.search(match.string, match.end())
    found = from_pattern().search(match.string, match.end(), stop.start() if stop else sentence[1])
    named = (
        None if found is None or found["own"] else named_origin(match.string, found.end(), before)
    )
    return named or (written[0] if written else None)


@cache
def from_pattern() -> re.Pattern[str]:
    """ "from", perhaps "the date of", and perhaps the document itself ("this letter": an
    ``own_document_words`` noun after "this")."""
    days, own = alternation(listed("day_nouns")), alternation(listed("own_document_words"))
    return re.compile(rf"(?i)\bfrom(?:\s+the\s+(?:{days})\s+of)?(?P<own>\s+this\s+(?:{own})\b)?")


@cache
def chained_pattern() -> re.Pattern[str]:
    """A length told as what comes next after another ("then 4 nights in Porto", "move on to
    8 weeks in Marketing", "finish with a 12-week placement"): a ``chain_words`` phrase, "a"
    at most, a count (in digits) and a unit."""
    chain, one = alternation(listed("chain_words")), alternation(listed("duration_one"))
    return re.compile(
        rf"(?i)\b(?:{chain})\s+(?:(?:{one})\s+)?(?P<count>\d{{1,3}})[\s-](?P<unit>{unit_words()})s?\b"
    )


def chained_length(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> Counted | None:
    """The days of a length that follows the length told just before it: from the day after
    that one's last (a night's stay from its last day, the morning the last one ends) for
    that long."""
    previous = before[-1] if before else None
    if previous is None:
        return None
    waited = previous.how.startswith(WAITED)  # the day a wait runs out is the next one's first
    if not (previous.lasting or waited or previous.how.startswith(CHAINED)):
        return None
    count, unit = int(match["count"]), match["unit"].lower()
    overnight = unit in listed("overnight_units")
    first = previous.last + (0 if overnight or waited else 1)
    last = moved(first, count, unit, back=False) - (0 if overnight else 1)
    return first, last, f"{CHAINED} {units(count, unit)} from {iso(first)}"


@cache
def taken_pattern() -> re.Pattern[str]:
    """ "results take five working days to come back", "delivery takes three days from
    dispatch": how long a thing takes to happen, before "to" and its verb or "from" and what
    it waits on (numbers in digits); not "the job should take eight working days", a length."""
    one, take = alternation(listed("duration_one")), alternation(listed("taking_words"))
    return re.compile(
        rf"(?i)\b(?:{take})\s+(?P<count>\d{{1,3}}|{one})\s+(?P<unit>{unit_words()})s?"
        rf"(?=\s+(?:to\s+[a-z]+|(?P<since>from))\b)"
    )


def taken_day(
    match: re.Match[str], before: list[Told], sentence: tuple[int, int]
) -> Counted | None:
    """The day a thing that takes so long happens: that long after the day of what it waits
    on, named after "from" (:func:`named_origin`: "three days from dispatch"), else after
    the last day told before it ("sent to the lab on 6 March … results take five working
    days to come back": 13 March)."""
    named = named_origin(match.string, match.end("since"), before) if match["since"] else None
    return wait_end(match, named or anchor(before), "")
