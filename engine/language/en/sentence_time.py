"""When a sentence is set: the words that put it in the past or the future, and its clauses.

A grammar fix of a verb depends on the time its sentence tells. "Yesterday we goes" asks for
the past ("went"), "he sign tomorrow" for the future, and in a sentence already set in the past
by another verb ("The guide was kind and she explain") the subject's agreement is no rule: the
form that is right depends on the time. These readings are shared by
:mod:`engine.language.en.grammar` (a word's forms and their risks) and
:mod:`engine.language.en.verb_groups` (a present perfect with a finished time).

The words of time are language data (``data/grammar.json``: past words, "last" before a time
noun, future words and the future auxiliary); a weekday or a month is a time by the calendar
module; a verb's tense is lemminflect's (:mod:`engine.language.en.forms`). Pure functions over
word texts (each with its leading whitespace, as :func:`engine.core.worddiff.split_words`
gives them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from lemminflect import getAllLemmas

from engine.language.en.cut_safety import all_lemmas
from engine.language.en.data import load_json, word_set
from engine.language.en.forms import PAST, PRESENT
from engine.language.en.forms import tense as form_tense
from engine.language.en.meaning import SUBJECT_PRONOUNS
from engine.language.en.punctuation import SENTENCE_ENDS

# Words that set a clause in the future, and the auxiliary a bare verb then takes.
FUTURE_WORDS = word_set("grammar.json", "future_words")
FUTURE_AUXILIARY: str = load_json("grammar.json")["future_auxiliary"]
# Words after which a sentence is in the past ("Last summer we travel"): a verb put in the
# past there is what the sentence asks for, not a guess at a tense.
PAST_WORDS = word_set("grammar.json", "past_words")
# "last" sets the past only before a time ("last summer", "last Monday"; not "the last page").
PAST_TIME_WORDS = word_set("grammar.json", "past_time_words")
TIME_NOUNS = word_set("grammar.json", "time_nouns")
# Words that open a time still running from a finished one ("since last year").
OPEN_TIME_WORDS = word_set("grammar.json", "open_time_words")
# Words that open a clause of time; with a past verb in it, that clause names a finished time
# ("After the guests left, we have tidied up" → "tidied"). Not "since", which opens a time
# still open.
TIME_CLAUSE_OPENERS = word_set("grammar.json", "time_clause_openers")
TIME_PHRASE_REACH = 3  # "since two weeks ago": the opener, then up to two words, then "ago"
# Verbs whose participle after them is no past: "is recommended", "has gone".
PARTICIPLE_AUXILIARIES = frozenset({"be", "have"})
MOST_ADVERBS_BETWEEN = 2  # "has not yet left"
ADVERB, NOUN = "ADV", "NOUN"
BE_FORMS = word_set("word_tiers.json", "be_forms")
# Words by which a sentence tells its own time as present or future ("is", "will", "soon").
NOT_PAST_WORDS = (
    FUTURE_WORDS | {FUTURE_AUXILIARY} | {w for w in BE_FORMS if form_tense(w) == PRESENT}
)
# What ends a clause inside a sentence: a mark, or one of these before a subject pronoun.
CLAUSE_MARKS = (",", ";", ":")
CLAUSE_COORDINATORS = word_set("cuts.json", "clause_coordinators")
TRAILING_MARKS = re.compile(r"[.,;:!?\"()]+$")


def after_past_word(words: Sequence[str], index: int) -> bool:
    """Whether a word that sets the past (:data:`PAST_WORDS`, or "last" and a time) stands
    before word ``index`` in its sentence."""
    for at in range(index - 1, -1, -1):
        if words[at].rstrip().endswith(SENTENCE_ENDS):
            return False
        word = plain_lower(words[at])
        if word in PAST_WORDS or (word in PAST_TIME_WORDS and _a_time(words, at + 1, index)):
            return True
    return False


def _a_time(words: Sequence[str], at: int, stop: int) -> bool:
    """Whether word ``at`` (before ``stop``) names a time: a time noun, a weekday or a month."""
    if at >= stop:
        return False
    word = plain_lower(words[at])
    return word in TIME_NOUNS or word in calendar_names()


def time_phrase_at(words: Sequence[str], at: int) -> bool:
    """Whether a phrase that names a time opens at word ``at``: a day in one word that may be a
    noun ("yesterday", "tomorrow", "tonight"), or "last" or "next" before a time ("last week",
    "next Friday"). Such a phrase is no clause's verb: "to Sam and I next week" ends the
    preposition's phrase before it."""
    if at >= len(words):
        return False
    word = plain_lower(words[at])
    if word in PAST_WORDS | FUTURE_WORDS and NOUN in getAllLemmas(word):
        return True
    return word in PAST_TIME_WORDS | FUTURE_WORDS and _a_time(words, at + 1, len(words))


@cache
def calendar_names() -> frozenset[str]:
    """Weekday and month names in lower case (the calendar module's, English)."""
    import calendar

    return frozenset(n.lower() for n in (*calendar.day_name, *calendar.month_name[1:]))


def past_verb_in_sentence(words: Sequence[str], index: int, skip_word: bool = True) -> bool:
    """Whether a word of word ``index``'s sentence other than it (``skip_word``; any word
    without) is read only as a past verb
    (lemminflect's tags: "went", "stayed"; not "read", also a present), and not as a
    participle after a form of "be" or "have" ("is recommended", "am very interested" say no
    past)."""
    start, stop = sentence_of(words, index)
    lowered = [plain_lower(word) for word in words[start : stop + 1]]
    for at, word in enumerate(lowered):
        if (skip_word and start + at == index) or not word or form_tense(word) != PAST:
            continue
        if not _after_auxiliary(lowered, at):
            return True
    return False


def _after_auxiliary(lowered: Sequence[str], at: int) -> bool:
    """Whether word ``at`` follows a form of "be" or "have", with up to
    :data:`MOST_ADVERBS_BETWEEN` adverbs between ("am very interested", "has already left"):
    a participle there, no past."""
    before = at - 1
    while before >= 0 and at - before <= MOST_ADVERBS_BETWEEN and _adverb(lowered[before]):
        before -= 1
    return before >= 0 and bool(all_lemmas(lowered[before]) & PARTICIPLE_AUXILIARIES)


def _adverb(word: str) -> bool:
    return ADVERB in getAllLemmas(word)


def plain_lower(word: str) -> str:
    return TRAILING_MARKS.sub("", word.strip()).lower()


def sentence_of(words: Sequence[str], index: int) -> tuple[int, int]:
    """The first and last word of word ``index``'s sentence."""
    start = index
    while start > 0 and not words[start - 1].rstrip().endswith(SENTENCE_ENDS):
        start -= 1
    stop = index
    while stop < len(words) - 1 and not words[stop].rstrip().endswith(SENTENCE_ENDS):
        stop += 1
    return start, stop


def time_word(words: Sequence[str], index: int) -> bool:
    """Whether another word of word ``index``'s sentence is a word of time: one that sets the
    past ("Yesterday we goes": "went"), or a future word ("I sign tomorrow": "will sign"). With
    a word that sets the past before it, or a past verb in the sentence (not a participle after
    "be" or "have", :func:`past_verb_in_sentence`: "The guide was kind and she explain"), a
    sentence is timed, and there the subject's agreement is no rule that outranks the reading:
    which form is right depends on the time. A future word times "be" or "have" only in its own
    clause ("He have agreed and he sign tomorrow": "has agreed"): the future another clause
    names is not the auxiliary's."""
    start, stop = sentence_of(words, index)
    first, last = start, stop
    if all_lemmas(plain_lower(words[index])) & PARTICIPLE_AUXILIARIES:
        first, last = clause_of(words, index, start, stop)
    for at in range(start, stop + 1):
        word = plain_lower(words[at])
        if at != index and (word in PAST_WORDS or (word in FUTURE_WORDS and first <= at <= last)):
            return True
    return False


def clause_of(words: Sequence[str], index: int, start: int, stop: int) -> tuple[int, int]:
    """The first and last word of word ``index``'s clause within its sentence (``start`` to
    ``stop``): up to a comma, a colon or a semicolon, or a coordinator before a subject
    pronoun ("He have agreed and he sign tomorrow": "tomorrow" times the second clause, not
    the first, whose verb still agrees with its subject)."""
    first = index
    while first > start and not ends_clause(words, first - 1):
        first -= 1
    last = index
    while last < stop and not ends_clause(words, last):
        last += 1
    return first, last


def ends_clause(words: Sequence[str], at: int) -> bool:
    """Whether a clause ends with word ``at``: a mark after it, or the next two words are a
    coordinator and a subject pronoun."""
    if words[at].rstrip().endswith(CLAUSE_MARKS):
        return True
    if at + 2 >= len(words):
        return False
    nxt, subject = plain_lower(words[at + 1]), plain_lower(words[at + 2])
    return nxt in CLAUSE_COORDINATORS and subject in SUBJECT_PRONOUNS


def after_a_past_sentence(words: Sequence[str], index: int) -> bool:
    """Whether the sentence before word ``index``'s tells of the past (a past verb in it,
    :func:`past_verb_in_sentence`). A verb that does not agree with its subject there may have
    been meant in the past as well as the present ("The storm broke the line. Nobody have a
    torch": "had"), so its agreement is no rule: the forms of both times are offered alike and
    the reading chooses. A verb that agrees is left as written, whatever time it tells, and
    so is a sentence that tells its own time, present or future ("He have agreed and he will
    sign tomorrow": "has")."""
    start, stop = sentence_of(words, index)
    if start == 0 or not past_verb_in_sentence(words, start - 1, skip_word=False):
        return False
    told = (plain_lower(w) for at, w in enumerate(words[start : stop + 1], start) if at != index)
    return not any(word in NOT_PAST_WORDS for word in told)


def finished_time(words: Sequence[str], index: int, by_clause: bool = True) -> bool:
    """Whether word ``index``'s sentence names a finished time anywhere in it ("yesterday",
    "ago", "last" and a time, or a clause of time told in the past): a present perfect there
    is the past ("Last month we have visited", "we have visited it yesterday", "After the
    guests left, we have tidied up"; with ``by_clause`` false, only a word of time counts).
    Not a time a :data:`OPEN_TIME_WORDS` word opens ("since last year", "since two weeks
    ago"): from then on, the time is still open and the perfect is right."""
    start, stop = sentence_of(words, index)
    for at in range(start, stop + 1):
        word = plain_lower(words[at])
        past = word in PAST_WORDS or (word in PAST_TIME_WORDS and _a_time(words, at + 1, stop + 1))
        if past and not _opened(words, at, start):
            return True
        if by_clause and _past_time_clause(words, at, index, stop):
            return True
    return False


def _past_time_clause(words: Sequence[str], at: int, index: int, stop: int) -> bool:
    """Whether word ``at`` opens a clause of time (:data:`TIME_CLAUSE_OPENERS`) told in the
    past ("while we stayed there", "after the guests left"), not holding word ``index``: the
    verb of such a clause, past and not a participle, is in it before a mark ends it."""
    if plain_lower(words[at]) not in TIME_CLAUSE_OPENERS:
        return False
    _, last = clause_of(words, at, at, stop)
    if at <= index <= last:
        return False
    return past_verb_in_sentence(words[at : last + 1], 0)


def _opened(words: Sequence[str], at: int, start: int) -> bool:
    """Whether an :data:`OPEN_TIME_WORDS` word stands within :data:`TIME_PHRASE_REACH` words
    before word ``at`` (from ``start``), with no mark between."""
    for back in range(at - 1, max(start, at - TIME_PHRASE_REACH) - 1, -1):
        if words[back].rstrip().endswith(CLAUSE_MARKS):
            return False
        if plain_lower(words[back]) in OPEN_TIME_WORDS:
            return True
    return False
