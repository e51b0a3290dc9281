"""Which day a document tells a top-level date member takes: :func:`told_span` gives it the day
told right after a word of its own name in the same sentence ("results_date" beside "the
results came out exactly six weeks later"): the name says which thing, the sentence when.

A start takes the first day told after its word, an end the last; a deadline the one told as a
deadline; a member its name counts ("session_two") is a series' or an event's (:mod:`.series`,
:mod:`.event_days`). A word of the name and a word of the clause name one act however they are
inflected or derived (:mod:`.name_acts`: "filing", "filed"; "paid", "payment"), a word of the
name's own ranking before one made from the same verb. Words from ``period_words.json`` and
``field_words.json``. Pure functions over text.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace
from functools import cache, lru_cache
from itertools import pairwise

from engine.structured import columns
from engine.structured.day_clauses import (
    JOINERS,
    MOST_WORDS_BEFORE,
    MOST_WORDS_BETWEEN,
    WORD,
    counted_thing_day,
    one_thing,
    told_between,
    told_right_after,
    unrefined,
    words_between,
)
from engine.structured.day_readers import (
    Told,
    anchor,
    is_month,
    named_origin,
    period_end,
    shift_ways,
    undated_thing_origin,
)
from engine.structured.name_acts import (
    bound_acts,
    bound_verbs,
    derived_only,
    names_act,
    own_words,
)
from engine.structured.other_days import clauses
from engine.structured.periods import alternation, listed
from engine.structured.series_counts import ordinal_of
from engine.structured.shift_days import edge_day_pattern, ended_origin, moved_by_pattern
from engine.structured.thing_anchor import before_thing, past_since, shift_thing, thing_words
from engine.structured.told_days import digits
from engine.structured.words import key_parts

# A day told before the word counts as this many words further than a day told after it: "the
# results came out six weeks later" is the results', not the exam's "22 May 2025 and the
# results".
BEFORE_COST = 2
FIRST = 1  # "first_match_date": a start word that is also an ordinal
SHORTEST_FRAME = 27  # days after its first: a told period this long is a month or longer
LONGEST_INITIALISM = 4  # "agm", "mfa", "pyo": a name's part this short may be an initialism
NEXT_REACH = 2  # "next pay review": a next word at most this many words before a member's


@lru_cache(maxsize=256)  # the compiler, the era rule and the review's note each ask
def told_span(told: tuple[Told, ...], document: str, key: str) -> Told | None:
    """The day (or period) told closest to a word of ``key``'s own name in its sentence:
    right after it (a start's first day after it, an end's last, any other's nearest), or,
    for a lone date, just before it ("Game 5 is the home derby"); a month or longer only
    where no day is told beside another word of its name (or of the act it names:
    "return_to_service" beside "will return three weeks later"); a name with no word of its
    own but an act ("issue_date") takes the day right after the act (:func:`act_day`). ``None``
    when its name names no thing or act (a "start_date"), counts ("session_two"), or no day
    is close."""
    own = own_words(key)
    text = digits(document)
    if counts(key):
        return counted_thing_day(told, text, key)
    if not own:  # "issue_date": the phrase, else "Issued 14.2.27"
        return phrase_day(told, text, key) or act_day(told, text, key)
    own = own | bound_acts(key)  # "return_to_service": "will return"
    days = [t for t in told if not other_nth(key, text[t.start : t.end])]
    if not set(key_parts(key)).isdisjoint(listed("moved_names")):
        moved = [t for t in days if moved_by_pattern().match(text, t.start)]
        if moved:  # "new_trip_date": the trip's day once pushed back, not its old one
            return moved[-1]
    found = ranked_days(told, document, key)
    return found[0][0] if found else None


@lru_cache(maxsize=256)
def ranked_days(
    told: tuple[Told, ...], document: str, key: str, shared: frozenset[str] = frozenset()
) -> tuple[tuple[Told, bool], ...]:
    """Every day told beside a word of ``key``'s own name (but none of ``shared``), best
    first (:func:`candidates`), each once, and whether it is told before the word: the
    first is :func:`told_span`'s, the others where another member's claim to it may send
    this one on. Empty for a name :func:`told_span` reads another way."""
    own, text = own_words(key), digits(document)
    if counts(key) or not own:
        return ()
    own = (own | bound_acts(key)) - shared
    days = [t for t in told if not other_nth(key, text[t.start : t.end])]
    found = [c for sentence in clauses(text) for c in candidates(key, own, text, sentence, days)]
    # a month or a season told beside the name ("Mock exam timetable, spring 2026") is the
    # frame the member falls in; any day told beside another word of it ranks first
    best: dict[Told, bool] = {}  # each day once, at its best rank; whether told before
    for rank, day in sorted(found, key=lambda c: (is_frame(c[1]), c[0])):
        best.setdefault(day, bool(rank[-1]))
    return tuple(best.items())


def is_frame(told: Told) -> bool:
    """Whether a told period is a month or longer: a frame, not a thing's day."""
    return told.last - told.first >= SHORTEST_FRAME


def phrase_day(told: tuple[Told, ...], text: str, key: str) -> Told | None:
    """The day told right after a member's whole name written as a phrase ("the start date
    is the first Tuesday in June" for ``start_date``), for a name with no word of its own
    (:func:`own_words`); ``None`` when the text does not write the name."""
    words, sentences = r"\s+".join(map(re.escape, key_parts(key))), clauses(text)
    for named in re.finditer(rf"(?i)\b{words}\b", text):
        near = told_right_after(told, text, named.end(), sentences)
        if near:
            return pick(key, near)
    return None


def counts(key: str) -> bool:
    """Whether a member's name counts a meeting or a day ("session_two", "fair_day_one"),
    which a series or the event's days give, or years ("first_birthday"); a name that only
    starts with "first" ("first_match_date", a ``start`` word) names the thing the document
    tells."""
    words = set(key_parts(key))
    nth = ordinal_of(words)
    if nth is None:
        return False
    named_first = nth == FIRST and columns.names(key, "start")
    counted = columns.field_words()["counted_day"] | set(listed("anniversary_words"))
    return not named_first or bool(words & counted)  # "first_birthday" counts years


def candidates(
    key: str, own: frozenset[str], text: str, sentence: tuple[int, int], days: list[Told]
) -> Iterator[tuple[tuple[bool, bool, bool, bool, int, int], Told]]:
    """Each day told close to a word of the member's name in ``sentence``, ranked: last, the
    day counted from the thing the word names ("ten days before, and packs go out the week
    after entries close": the week after is no day of ``entries_close``'s, which the day
    told after its other word gives); a start or an end of a thing told with two days
    first, then a word of the name's own before one made from the same verb
    (:func:`derived_only`), then, for a deadline, a day told as a
    deadline (however far: "entries … must reach us by the Wednesday before"), then the
    fewest words between (a day before the word :data:`BEFORE_COST` words further; never a
    whole month)."""
    ends = columns.names(key, "start") or columns.names(key, "end")
    deadline = columns.names(key, "deadline_name")
    words = list(WORD.finditer(text, *sentence))
    spelled = spelled_out(key, text, words)
    for at, word in enumerate(words):
        if not (names_act(own, word[0].lower()) or at in spelled):
            continue
        if not its_thing(key, words, at, text):
            # "Nominations open on 1 April and close four weeks later": the end's own verb
            yield from own_end_day(key, text, words[at + 1 :], (sentence[1], days))
            continue
        derived = at not in spelled and derived_only(key, word[0].lower())
        inside = [t for t in days if t.start <= word.start() and word.end() <= t.end]
        # the phrase names its thing: "our 3rd rehearsal"; "a month's notice" for its end only
        lasting = bool(inside) and inside[0].lasting
        # "on the closing day": a period's edge named, an end's as much as any member's
        edge = bool(inside) and edge_said(key, text, inside[0])
        if inside and (edge or (ends_its_length(key) if lasting else not ends)):
            yield (False, False, derived, deadline, -edge, 0), inside[0]
        found = told_after(key, text, word.end(), (sentence[1], days))
        if found is not None:
            between, near, single = found
            wanted = deadline and due(near) and not counts_from_own(key, text, near)
            if between <= MOST_WORDS_BETWEEN or wanted:
                yield (False, single, derived, deadline and not wanted, between, 0), near
        before = day_before(key, text, words[:at], word.start(), (sentence[0], days))
        if before is not None:
            counted = bool(before[1].how) and shift_thing(text, word, before[1].end)
            yield (counted, False, derived, deadline, before[0] + BEFORE_COST, 1), before[1]


def spelled_out(key: str, text: str, words: list[re.Match[str]]) -> set[int]:
    """Where the words a name's initialism stands for end ("pyo_start" beside "cherries are
    pick-your-own from …", "agm_date" beside "our Annual General Meeting"): a part
    of two to :data:`LONGEST_INITIALISM` letters the text never writes as a word, whose
    letters are the first of as many words (or parts of a hyphened word) in a row."""
    written = {w.lower() for w in WORD.findall(text)}
    parts = [p for p in key_parts(key) if 1 < len(p) <= LONGEST_INITIALISM and p.isalpha()]
    pieces = [
        (piece[0].lower(), at) for at, w in enumerate(words) for piece in w[0].split("-") if piece
    ]
    firsts = "".join(first for first, _ in pieces)
    return {
        pieces[start + len(part) - 1][1]
        for part in parts
        if part not in written
        for start in range(len(pieces) - len(part) + 1)
        if firsts.startswith(part, start)
    }


def own_end_day(
    key: str, text: str, following: list[re.Match[str]], told: tuple[int, list[Told]]
) -> Iterator[tuple[tuple[bool, bool, bool, bool, int, int], Told]]:
    """The day told right after the member's own end verb, where its word names the other
    end first and a joiner then gives its own ("open on 1 April and close four weeks
    later" for ``nominations_close``): ranked as a day told right after its word."""
    kind = "end" if columns.names(key, "end") else "start"
    for at in range(1, len(following)):
        joined = following[at - 1][0].lower() in JOINERS
        if joined and columns.names(following[at][0].lower(), kind):
            found = told_after(key, text, following[at].end(), told)
            if found is not None and found[0] <= MOST_WORDS_BETWEEN:
                yield (False, found[2], False, False, found[0], 0), found[1]
            return


def edge_said(key: str, text: str, told: Told) -> bool:
    """Whether a told day is a period's first or last day named ("on the closing day") that
    a member whose name it writes takes before any day told near another of its words: not
    a start's, where the phrase names the last day ("the festival's closing evening" for
    ``festival_opens``), nor an end's, where it names the first."""
    said = edge_day_pattern().fullmatch(text, told.start, told.end)
    if said is None:
        return False
    last = said["edge"].lower() in listed("last_day_words")
    start, end = columns.names(key, "start"), columns.names(key, "end")
    return start == end or end == last


def other_nth(key: str, phrase: str) -> bool:
    """Whether a told phrase counts another one of the thing a member's name counts ("your
    5th delivery" is no ``first_delivery``'s day): an ordinal right before a word of the
    name's own."""
    named, own = ordinal_of(set(key_parts(key))), own_words(key)
    words = [w.lower() for w in WORD.findall(phrase)]
    counted = {ordinal_of({w}) for w, thing in pairwise(words) if thing in own}
    return named is not None and bool(counted - {None, named})


def its_thing(key: str, words: list[re.Match[str]], at: int, text: str) -> bool:
    """Whether the member's word at ``at`` names the member's own thing: not the other end of
    it ("term start" for ``term_end``), the next one of its kind ("the next meeting"), or
    the one done again ("serviced again within a year" for ``last_service``)."""
    if other_end(key, words[at + 1 : at + 2]) or other_count(key, words[at - 1 : at]):
        return False
    if next_one(key, [w[0] for w in words[max(at - NEXT_REACH, 0) : at]], text):
        return False
    named_next = not set(key_parts(key)).isdisjoint(listed("duration_next"))
    return named_next or not again(words[at + 1 : at + 2])


def other_count(key: str, before: list[re.Match[str]]) -> bool:
    """Whether the word before a member's word counts another one of its kind than the
    name does ("her second visit" for ``first_visit_date``; "her first visit" for
    ``last_visit``, a ``last_day_words`` count)."""
    named = count_of(set(key_parts(key)))
    said = count_of({before[0][0].lower()}) if before else None
    return named is not None and said is not None and said != named


def count_of(words: set[str]) -> int | None:
    """The ordinal ``words`` count by, or :data:`LAST_COUNT` for a ``last_day_words`` word."""
    nth = ordinal_of(words)
    return nth if nth is not None or words.isdisjoint(listed("last_day_words")) else LAST_COUNT


LAST_COUNT = -1  # "last", "final": the count of the last one, whichever that is


def told_after(
    key: str, text: str, end: int, told: tuple[int, list[Told]]
) -> tuple[int, Told, bool] | None:
    """The day told after a member's word (ending at ``end``) in its clause (ending at
    ``told[0]``; ``told[1]`` the days told): the words between, the day (a deadline's: the
    one told as a deadline), and whether it is a start's or an end's only single day."""
    stop, days = told
    after = [t for t in told_between(days, end, stop) if not t.lasting or ends_its_length(key)]
    after = unrefined(one_thing(after, text), text)
    near = pick(key, after)
    deadline = columns.names(key, "deadline_name")
    if deadline:  # not one counted from the member's own thing: "… after the surveyor's deadline"
        near = next((t for t in after if due(t) and not counts_from_own(key, text, t)), near)
    if near is None:
        return None
    # a day told as a deadline is its member's however far; another is only as near as the
    # first day told after the word
    told_at = near.start if deadline and due(near) else after[0].start
    between = words_between(text, end, told_at)
    # A start or an end is of a thing told with more than one day: "The intensive runs from
    # 5 July to 9 July", not "Applications for the intensive close on 15 May".
    ends = columns.names(key, "start") or columns.names(key, "end")
    return between, near, bool(ends) and len(after) < 2 and after[0].first == after[0].last


def due(told: Told) -> bool:
    """Whether a day is told as the latest a thing may be done: after a deadline word ("by
    1 March"), or as a limit ("within two days of the visit")."""
    return told.deadline or told.limit


def counts_from_own(key: str, text: str, told: Told) -> bool:
    """Whether a counted day's phrase names a word of ``key``'s name as the thing it counts
    from ("5 days after the surveyor's deadline" for ``surveyor_filing_due``)."""
    own = own_words(key) | bound_acts(key)
    return bool(told.how) and any(names_act(own, w) for w in thing_words(text, told.end))


def day_before(
    key: str, text: str, words: list[re.Match[str]], at: int, told: tuple[int, list[Told]]
) -> tuple[int, Told] | None:
    """The day told just before a member's word at ``at`` (``words`` are those before it in
    its sentence, which starts at ``told[0]``), and how many words stand between: a lone
    date's ("Game 5 is the home derby"), or a length's last day before its thing ("a
    six-month trial period"), which an end, a later date or a deadline takes."""
    start, days = told
    before = [t for t in days if start <= t.start and t.end <= at]
    if not before or is_month(before[-1]):
        return None
    lasting, ends = before[-1].lasting, columns.names(key, "start") or columns.names(key, "end")
    counted = before[-1].how and before[-1].first < before[-1].last  # "then 8 weeks in Sales"
    if (lasting and not ends_its_length(key)) or (ends and not lasting and not counted):
        return None
    between = [w[0].lower() for w in words if w.start() >= before[-1].end]
    if not JOINERS.isdisjoint(between):  # "found it on 1 March and reported it": another act
        return None
    near = thing_day(text, before[-1], at, days)
    if near is not None and ends and counted:
        near = pick(key, [near])  # a counted period's start or end
    return (len(between), near) if len(between) <= MOST_WORDS_BEFORE and near is not None else None


def thing_day(text: str, told: Told, word: int, days: list[Told]) -> Told | None:
    """The day of the thing a word right after a told day names: that day, unless the day is
    a shift whose "after" the word's thing follows ("ten days after the fall" names the
    fall's day, the day it counts from), or a limit "of" it ("within 21 days of the order
    date": the order's day)."""
    phrase = text[told.start : told.end].lower()  # "3 days prior to": a way of two words
    way = next((w for w in shift_ways() if re.search(rf"\b{re.escape(w)}\s*$", phrase)), "")
    named = bool(way)
    end = told.end if named or not told.how else past_since(text, told.end)
    limit = end > told.end  # "within 21 days of the order date"
    if not told.how or not (named or limit) or not before_thing().fullmatch(text, end, word):
        return told
    earlier = days[: days.index(told)]
    ended = ended_origin(text, end, earlier)  # "10 days before the permit expires"
    # back from a thing's first day, as the shift counted: no length's last day
    back = way in listed("duration_before")
    earlier = [t for t in earlier if not (back and period_end(t))]
    named_day = ended or named_origin(text, end, earlier)
    return named_day or undated_thing_origin(text, end, earlier) or anchor(earlier)


def next_one(key: str, before: list[str], text: str) -> bool:
    """Whether a member's word, after the words ``before``, names another thing than the
    member: the next of its kind ("next meeting", "next pay review") where the name does not
    say next, or, for a name that does (``next_meeting``), any other where the text writes a
    next one."""
    nexts = listed("duration_next")
    named = not {w.lower() for w in before}.isdisjoint(nexts)
    if set(key_parts(key)).isdisjoint(nexts):
        return named
    return next_said().search(text) is not None and not named


def again(following: list[re.Match[str]]) -> bool:
    """Whether the word after a member's word says its act is done once more: what it
    dates is the next one's day."""
    return bool(following) and following[0][0].lower() in listed("again_words")


@cache
def next_said() -> re.Pattern[str]:
    """A ``duration_next`` word before another word: the text writes a next thing."""
    return re.compile(rf"(?i)\b(?:{alternation(listed('duration_next'))})\s+\w")


def other_end(key: str, following: list[re.Match[str]]) -> bool:
    """Whether the word after a member's word makes it the other end of its thing: "term
    start" beside a ``term_end`` (a template's own ``"term_start": "2027-04-12"``); not a
    preposition before a day ("notice from the date of this letter", ``dateline_day_cues``)."""
    if not following:
        return False
    said = following[0][0].lower()
    if said in listed("dateline_day_cues"):
        return False
    for end, other in (("end", "start"), ("start", "end")):
        if columns.names(key, end) and columns.names(said, other):
            return True
    return False


def pick(key: str, after: list[Told]) -> Told | None:
    """Of the days told after a member's word in its sentence, a start's first, an end's
    last (of a period, its own end), else the nearest; a month or longer that holds a day
    told after it only places that day ("start school in September 2029, on the first
    Wednesday of the month")."""
    after = [t for at, t in enumerate(after) if not placing(t, after[at + 1 :])]
    if not after:
        return None
    if columns.names(key, "end"):
        return replace(after[-1], first=after[-1].last)
    if columns.names(key, "start"):
        return replace(after[0], last=after[0].first)
    return after[0]


def placing(told: Told, later: list[Told]) -> bool:
    """Whether a told period is a frame (:func:`is_frame`) that holds a day told after it."""
    return is_frame(told) and any(told.first <= t.first and t.last <= told.last for t in later)


def ends_its_length(key: str) -> bool:
    """Whether a member may take the last day of a length told after its word: an end, a
    later date or a deadline ("quote_valid_until"); "quote_date" beside "the quote stands for
    30 days" dates the quote, not the day its length runs out."""
    return any(columns.names(key, w) for w in ("end", "later", "deadline_name"))


@lru_cache(maxsize=256)  # each date member of one document asks
def bound_day(told: tuple[Told, ...], document: str, key: str) -> Told | None:
    """The first day told right after the verb of a name made only of bound and day words
    (:func:`bound_verbs`: "start_date" beside "the job starts on 4 March", "opened_on"
    beside "opened 11 June 2024"), for a member with no pair to take the ends of its event;
    ``None`` when its name has no such verb or no day is close."""
    verbs = bound_verbs(key)
    return act_day(told, digits(document), key, verbs) if verbs else None


def act_day(
    told: tuple[Told, ...], text: str, key: str, acts: frozenset[str] | None = None
) -> Told | None:
    """The first day told right after a word of the act a name with no word of its own
    names (:func:`bound_acts`: "Issued 14.2.27" for ``issue_date``, "we arrive on Monday 3
    May and fly home on the 10th" for ``arrival``: the act's own day, not the last of the
    stay's), or of the ``acts`` given; the nearest such, ``None`` when none is close."""
    own, found = bound_acts(key) if acts is None else acts, []
    for sentence in clauses(text) if own else []:
        words = list(WORD.finditer(text, *sentence))
        for at, word in enumerate(words):
            named = names_act(own, word[0].lower())
            if not named or not its_thing(key, words, at, text):
                continue
            after = told_between(told, word.end(), sentence[1])
            after = [t for t in after if not t.lasting or ends_its_length(key)]
            between = words_between(text, word.end(), after[0].start) if after else None
            if between is not None and between <= MOST_WORDS_BETWEEN:
                found.append((between, pick(key, after[:1])))
    return min(found, key=lambda f: f[0])[1] if found else None
