"""The day a shift counts from when it names its thing: "two months after the start date",
"six weeks after the audit", "within 2 to 5 weeks of applying".

A shift counts from the last day told before it (:func:`.day_readers.anchor`) unless the words
right after its "after", "before", "of" or "from" name a thing the document dated earlier: a
word of those (a shared lemma, or a five-letter stem: "inspection" and "inspected") among the
words just before an earlier told day ("starts on 7 September", "was inspected on 4 March")
makes that day the origin. "The report is due a month after the audit" then counts from
the audit's day even when another day was told in between; "the night before we sail" from the
day told beside "sail". Pure functions over text.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from lemminflect import getLemma

from engine.language.en.data import word_set
from engine.language.en.forms import NOUN_CLASS, readings
from engine.structured import columns
from engine.structured.other_days import clauses, phrase_days
from engine.structured.periods import alternation, listed
from engine.structured.words import name_words, shares_act
from engine.structured.written_days import written_phrases

# The words after a shift's "after" that may name its thing: an article or a possessive, then
# at most this many words ("the start date", "his first audit").
MOST_THING_WORDS = 2
# A thing's word stands at most this many words before the day it dates ("the exam on 3 May",
# "the new lease for the shop … begins on 1 March": four between).
MOST_WORDS_BEFORE_DAY = 8
SHORTEST_THING_WORD = 4  # "and", "it", "on": no thing
# A day written after a shift's thing is that thing's within this many words ("before the
# gala itself on Sunday 7 March": five).
MOST_WORDS_TO_DAY = 5
WORD = re.compile(r"[A-Za-z]+")
APART = re.compile(r"[,;:()]")
RELATIVE_WORDS = 2  # "which opens": a relative clause's word and its verb, not counted
PURPOSE = re.compile(r"\s+to\s+([A-Za-z]+)")  # "notice to cancel": what a day is for
DAY_NEXT = re.compile(r"\s+(?:\d|[A-Z])")  # a day written next: "on 3 May", "on Friday"
# The pronouns a clause's subject may be ("after we sail"), and the verbs after one that
# name no act ("before we can", "after they are"), from the language's grammar data.
SUBJECTS = word_set("grammar.json", "plain_present_subjects") | word_set(
    "grammar.json", "third_singular_subjects"
)
HELPERS = word_set("grammar.json", "subject_inverters") | word_set(
    "grammar.json", "clause_auxiliaries"
)
NEGATIONS = word_set("word_tiers.json", "negations")  # "not renew": no renewal
GERUND = "ing"
BE = "be"  # the lemma of "is", "are", "was": a form of it names no act either


@cache
def determiners() -> str:
    """The words that may stand before a thing's name ("the", "your"), as an alternation."""
    return rf"(?:{alternation(listed('thing_determiners'))})"


@cache
def possessives() -> str:
    """The possessive determiners ("her", "its", "their"), as an alternation."""
    return rf"(?:{alternation(sorted(word_set('grammar.json', 'possessive_determiners')))})"


@cache
def thing_pattern() -> re.Pattern[str]:
    """A thing's name after a shift: a determiner at most, then a word or two; or an act,
    its subject a pronoun, then its verb ("before we sail")."""
    subjects = alternation(sorted(SUBJECTS))
    return re.compile(
        rf"(?i)\s+(?:(?:{subjects})\s+(?P<act>[a-z]+)\b"
        rf"|(?:{determiners()}\s+)?(?P<words>[a-z]+(?:\s+[a-z]+)?))"
    )


@cache
def before_thing() -> re.Pattern[str]:
    """What stands between a shift's "after" and the word of its thing: a determiner, or the
    subject of the act that is the thing ("ten days after I posted it": the posting), at most;
    a gerund may come first ("within three months of receiving the keys": the keys')."""
    subjects = alternation(sorted(SUBJECTS))
    return re.compile(rf"(?i)\s+(?:[a-z]+ing\s+)?(?:(?:{determiners()}|{subjects})\s+)?")


def thing_phrase(text: str, end: int) -> str:
    """The words that name a shift's thing as written ("the fracture"), for the review; not
    a word that only leads to its day ("the wedding on")."""
    found = thing_pattern().match(text, end)
    if found is None:
        return ""
    said = found[0].strip()
    head, _, last = said.rpartition(" ")
    leads = last.lower() in columns.field_words()["day_name"] and DAY_NEXT.match(text, found.end())
    return head if head and leads else said


def thing_words(text: str, end: int) -> frozenset[str]:
    """The words that name a shift's thing right after ``end`` (its "after"), with their
    lemmas; none where a pronoun or a number follows."""
    found = thing_pattern().match(text, end)
    if found is None:
        return frozenset()
    if found["act"]:  # a verb names its act whatever its length ("fly"), not a helper's
        verb = found["act"].lower()
        lemmas = name_words(verb) | frozenset(getLemma(verb, upos="VERB"))
        return frozenset() if lemmas & {*HELPERS, BE} else lemmas
    named = [w.lower() for w in found["words"].split()[:MOST_THING_WORDS]]
    # the thing's name ends before a helper: "30 days before the wedding will", not "will"
    named = named[: next((at for at, w in enumerate(named) if w in HELPERS), len(named))]
    plain = columns.field_words()["day_name"]
    return frozenset(
        lemma
        for w in named
        if len(w) >= SHORTEST_THING_WORD and w not in plain
        for lemma in name_words(w) | gerund_verb(w)
    )


def gerund_verb(word: str) -> frozenset[str]:
    """The verb of a word in "-ing" ("the closing day" is the day a thing closes)."""
    return frozenset(getLemma(word, upos="VERB")) if word.endswith(GERUND) else frozenset()


def dates_thing(text: str, start: int, sentence_start: int, thing: frozenset[str]) -> bool:
    """Whether a word of ``thing`` (or its lemma: "signed" for "within ten days of
    signing") stands among the words just before ``start`` (a told day) in its sentence."""
    lead = [w.lower() for w in WORD.findall(text, sentence_start, start)[-MOST_WORDS_BEFORE_DAY:]]
    heads = [w for at, w in enumerate(lead) if head(lead, at)]
    return shares_act(thing, frozenset(form for w in heads for form in name_words(w)))


def head(lead: list[str], at: int) -> bool:
    """Whether the word at ``at`` of a day's lead may name its thing: no word that only
    modifies the next, nor an act said not to be done ("if you'd rather not renew, tell us by
    the day before" is no renewal's day)."""
    modifier = at + 1 < len(lead) and modifies(lead[at + 1])
    return not modifier and not (at and lead[at - 1] in NEGATIONS)


def purpose_of(text: str, end: int, thing: frozenset[str]) -> bool:
    """Whether "to" and a verb of ``thing``'s act follow a told day ("2 months' notice to
    cancel" for "after the cancellation")."""
    found = PURPOSE.match(text, end)
    return found is not None and shares_act(thing, name_words(found[1].lower()))


def modifies(after: str) -> bool:
    """Whether a word followed by ``after`` only modifies it: a noun follows ("the show
    secretary" names a secretary, not the show), other than a word for a day ("show day")."""
    parts = {r.part for r in readings(after)}
    return parts == {NOUN_CLASS} and after not in day_nouns()


@cache
def day_nouns() -> frozenset[str]:
    """The nouns that name a thing's day ("show day", "wedding night", "exam date")."""
    return frozenset([*listed("day_parts"), *listed("day_nouns")])


@cache
def since_pattern() -> re.Pattern[str]:
    """A ``span_since`` word right after a limit, past an aside in brackets: "within 10
    weeks of …", "within 10 working days (Monday to Friday) of …"."""
    return re.compile(rf"(?i)(?:\s*\([^()]*\))?\s+(?:{alternation(listed('span_since'))})\b")


def past_since(text: str, end: int) -> int:
    """Where a limit's thing starts: past the ``span_since`` word right after it ("within 21
    days of …"), else ``end`` itself (a shift's thing follows its own "after")."""
    since = since_pattern().match(text, end)
    return since.end() if since is not None else end


@lru_cache(maxsize=16)  # every shift of one text asks
def written(text: str) -> tuple[tuple[int, int, tuple[int, float, float] | float], ...]:
    """The days and periods ``text``'s phrases write (in numbers and by a holiday's name
    too: :mod:`.written_days`), in the order they are written."""
    return tuple(written_phrases(text))


@cache
def relative_clause() -> re.Pattern[str]:
    """The words between a thing and its day when a relative clause opens between them: the
    thing, a comma, a ``relative_words`` word and its verb, then words up to the day."""
    return re.compile(
        rf"(?i)[^,;:()]*,\s*(?:{alternation(listed('relative_words'))})\s+\w+[^,;:()]*"
    )


def day_ahead(text: str, end: int) -> tuple[int, int, float] | None:
    """The one day written right after the thing a shift names, in its clause ("the Thursday
    before the gala on Sunday 7 March": 7 March), at most
    :data:`MOST_WORDS_TO_DAY` words on: where the phrase writing it starts and ends, and the
    day. ``None`` when no thing follows, or what follows first is no single day."""
    if not thing_words(text, end):
        return None
    stop = next((e for s, e in clauses(text) if s <= end <= e), len(text))
    for start, finish, what in written(text):
        if end <= start < stop:
            days = phrase_days(what)
            # "Three days after it opens, on 9 June": a day set off by a comma is the shift's;
            # one in a relative clause ("the regatta, which is held on 4 July") the thing's
            relative = relative_clause().fullmatch(text, end, start) is not None
            words = len(WORD.findall(text, end, start)) - (RELATIVE_WORDS if relative else 0)
            near = words <= MOST_WORDS_TO_DAY and (relative or not APART.search(text, end, start))
            return (start, finish, days[0]) if near and days[0] == days[-1] else None
    return None


def shift_thing(text: str, word: re.Match[str], end: int) -> bool:
    """Whether ``word`` stands in the thing's phrase (:func:`thing_pattern`) right after a
    shift's or a limit's phrase that ends at ``end``: the thing it counts from."""
    if end > word.start():
        return False
    thing = thing_pattern().match(text, past_since(text, end))
    return thing is not None and thing.start() <= word.start() < thing.end()
