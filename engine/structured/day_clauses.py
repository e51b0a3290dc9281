"""Which of the days told after a place in a member's clause are one thing's: up to a word
that joins a clause with a subject of its own, or a day the one before counts from
(:func:`one_thing`); less a day the next one narrows past a comma (:func:`unrefined`); and
the day told right after the count of the thing a counting name names ("a 2nd coat",
"Visit 2,", or a bare "the second" standing for a thing named before it,
:func:`counted_thing_day`). :mod:`.member_days` ranks the days these give. Words from
``grammar.json`` and ``period_words.json``. Pure functions over text.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from functools import cache

from lemminflect import getAllLemmas

from engine.language.en.data import word_set
from engine.language.en.forms import NOUN_CLASS, readings, verb_tags
from engine.structured.day_readers import Told, yearlong
from engine.structured.name_acts import SHORTEST_OWN_WORD, act_words, names_act
from engine.structured.other_days import clauses
from engine.structured.periods import alternation, listed
from engine.structured.series_counts import ordinal_of
from engine.structured.words import key_parts

# A member's word and the day told after it are one thing's when at most this many words
# stand between them ("registration for Millbrook Rovers closes on 31 July": four).
MOST_WORDS_BETWEEN = 8
# A day told before the word is its thing's only across a verb and an article at most ("Game 5
# is the home derby", "a two-year manufacturer's warranty"), and never across a word that
# joins two clauses ("on 1 March and reported it").
MOST_WORDS_BEFORE = 3
JOINERS = word_set("grammar.json", "list_joiners")
WORD = re.compile(r"[A-Za-z0-9'-]+")
# The verb forms that go on with the subject before a joiner ("and will close"); a gerund
# ("and marking starts") starts a subject of its own.
FINITE = frozenset({"VB", "VBZ", "VBP", "VBD"})
SUBJECT_VERB = frozenset({"VBZ", "VBD", "MD"})  # the verb forms a singular subject takes
ASIDE = re.compile(r"\([^()]*\)")  # an aside in brackets, outside its sentence's words
PAUSE = re.compile(r"[,;:.!?()]")  # a mark that sets one phrase off from the next
# "from Christmas Eve up to … New Year's Day" with "and including" between: one thing's first
# and last day, no second clause
INCLUSIVE = re.compile(rf"(?i)\bto\s+(?:{alternation(listed('inclusive_ends'))})\b")


def counted_thing_day(told: tuple[Told, ...], text: str, key: str) -> Told | None:
    """The day told right after the thing a counting name names, written with its count ("a
    2nd coat three weeks after that" for ``second_coat``, "Fitting 2, for the hem, is ten
    days after that" for ``second_fitting``), in its clause; ``None`` when the
    text never writes the count beside the thing (a series' meeting, :mod:`.series`)."""
    parts = key_parts(key)
    nth = ordinal_of(set(parts))
    things = [w for w in parts if ordinal_of({w}) is None and len(w) >= SHORTEST_OWN_WORD]
    if nth is None or not things:
        return None
    sentences = clauses(text)
    thing = alternation(things)  # "a 2nd coat", or a number after it ending its phrase: "Visit 2,"
    counted = rf"(?i)\b{nth}(?:st|nd|rd|th)\s+(?:{thing})\b|\b(?:{thing})\s+{nth}(?=\s*[,(:;.])"
    for named in re.finditer(counted, text):
        inside = [t for t in told if t.start <= named.start() and named.end() <= t.end]
        if inside:  # the phrase is a told day itself: "his 2nd birthday"
            return inside[0]
        near = told_right_after(told, text, named.end(), sentences)
        if near:
            return near[0]
    return bare_count_day(told, text, nth, things)


def bare_count_day(told: tuple[Told, ...], text: str, nth: int, things: list[str]) -> Told | None:
    """The day told right after a bare ordinal standing for a thing the text names before it
    ("two cleans this year. The first is on 14 April, the second ten weeks after that":
    ``second_clean`` takes the day ten weeks on), where no noun follows the ordinal; ``None``
    otherwise."""
    own = frozenset(w for thing in things for w in act_words(thing))
    named = (m.end() for m in WORD.finditer(text) if names_act(own, m[0].lower()))
    first_named = next(named, None)
    if first_named is None:
        return None
    sentences = clauses(text)
    bare_count = re.compile(rf"(?i)\bthe\s+{nth}(?:st|nd|rd|th)\b")
    for bare in bare_count.finditer(text, first_named):
        following = WORD.match(text, bare.end() + 1)
        if following is not None and counts_noun(following[0]):
            continue  # "the 2nd coat", "the 1st Monday": the ordinal counts a noun
        near = told_right_after(told, text, bare.end(), sentences)
        if near:
            return near[0]
    return None


def counts_noun(word: str) -> bool:
    """Whether an ordinal's next word is a noun it counts: a name ("the 2nd Tuesday"), or one
    lemminflect knows as a noun, not in a singular subject's verb form ("the first falls on
    …", "the second is …", "the first will be …")."""
    lemma = word.lower()
    lemmas = getAllLemmas(lemma)
    said = bool(verb_tags(lemma) & SUBJECT_VERB) or "AUX" in lemmas
    return word[:1].isupper() or ("NOUN" in lemmas and not said)


def told_right_after(
    told: tuple[Told, ...], text: str, end: int, sentences: list[tuple[int, int]]
) -> list[Told]:
    """The days told after ``end`` in its clause, at most :data:`MOST_WORDS_BETWEEN` words
    on (no year-long label)."""
    stop = next(e for s, e in sentences if s <= end <= e)
    after = told_between(told, end, stop)
    return [t for t in after if words_between(text, end, t.start) <= MOST_WORDS_BETWEEN]


def told_between(told: Iterable[Told], start: int, stop: int) -> list[Told]:
    """The days told from ``start`` up to ``stop`` (a clause's end), no year-long label; a
    length's last day, which has no words of its own and stands where the day it runs from
    ends, is told in that day's clause though the clause ends there ("runs for three days
    from 22 April.")."""
    inside = [t for t in told if start <= t.start < stop or start <= t.start == t.end == stop]
    return [t for t in inside if not yearlong(t)]


def words_between(text: str, start: int, end: int) -> int:
    """How many words stand between two places, an aside in brackets not counted: "your
    order (ref 55812, 12 monitors) placed on 14/06/2026" is four words from its day."""
    return len(WORD.findall(ASIDE.sub(" ", text[start:end])))


def one_thing(after: list[Told], text: str) -> list[Told]:
    """The days told after a member's word up to a word that joins a clause with a subject of
    its own: "essays are handed in on 3 May, and marking starts ten days later" tells the
    essays one day, as does "close 28 days before the meeting, and motions 21 days before"
    (a joiner and one word, its subject, right before the next day); "runs from 5 July to 9
    July", or "opens on 3 May and will close on the Friday" (a verb right after the joiner:
    the same subject), two. A day in a relative
    clause after them is the thing's it follows ("closes ten days before the regatta, which
    is held on 4 July"), as is the day a shift right before it counts from ("by the Friday
    before your first lesson": the lesson's day is no second day of the member's)."""
    for at in range(1, len(after)):
        if counted_from(after[at - 1], after[at], text):
            return after[:at]
        gap = INCLUSIVE.sub(" ", text[after[at - 1].end : after[at].start])
        between = [w.lower() for w in WORD.findall(gap)]
        joins = [i for i, w in enumerate(between) if w in JOINERS]
        if any(i + 1 < len(between) and not verb_tags(between[i + 1]) & FINITE for i in joins):
            return after[:at]
        if any(i + 2 == len(between) for i in joins) and elided(
            between[-1], after[at - 1], after[at], text
        ):
            return after[:at]  # "…, and motions 21 days before"
        if relative_opening().search(text, after[at - 1].end, after[at].start):
            return after[:at]  # "… before the regatta, which is held on 4 July": the regatta's
    return after


def elided(word: str, shift: Told, day: Told, text: str) -> bool:
    """Whether ``word`` is the subject of a clause that elides its verb and its thing ("close
    28 days before the meeting, and motions 21 days before"): a noun right before a counted
    day whose phrase opens with its count, after a counted day (the one it repeats), not a
    verb sharing the last clause's subject ("open on 1 February and close six weeks later",
    "and runs for three days")."""
    opens_with_count = text[day.start : day.start + 1].isdigit()
    noun = any(r.part == NOUN_CLASS for r in readings(word))
    return bool(shift.how) and opens_with_count and noun


def counted_from(shift: Told, day: Told, text: str) -> bool:
    """Whether ``day`` is the origin of the counted day ``shift`` told right before it: the
    day its review note counts from (:mod:`.day_readers` quotes it), with only spaces or the
    words of its thing between ("six months from your start date of 7 September")."""
    origin = dt.date.fromordinal(int(day.first)).isoformat()
    between = text[shift.end : day.start]
    said = WORD.findall(between)
    thing_only = len(said) <= MOST_WORDS_BEFORE + 1 and not set(map(str.lower, said)) & JOINERS
    return bool(shift.how) and origin in shift.how and thing_only and not PAUSE.search(between)


def unrefined(after: list[Told], text: str) -> list[Told]:
    """The days told after a member's word less each one the next narrows, set off by a
    comma ("the week after nominations close, on the Friday": the Friday of that week,
    counted from it)."""
    return [day for at, day in enumerate(after[:-1]) if not refines(after[at + 1], day, text)] + [
        *after[-1:]
    ]


def refines(later: Told, day: Told, text: str) -> bool:
    """Whether ``later``, told right after ``day`` (and its thing) past a comma, "on" at
    most after it, is counted from it: the same day told more narrowly."""
    origin = dt.date.fromordinal(int(day.first)).isoformat()
    between = text[day.end : later.start].strip().lower().removesuffix(" on")
    words = {w.lower() for w in WORD.findall(between)}
    return bool(later.how) and origin in later.how and between.endswith(",") and not words & JOINERS


@cache
def relative_opening() -> re.Pattern[str]:
    """A comma and a ``relative_words`` word: a clause about the thing just named."""
    return re.compile(rf"(?i),\s*(?:{alternation(listed('relative_words'))})\b")
