"""The noun a verb agrees with when a prepositional phrase stands between them.

"The printer in the hall jams": the verb agrees with "printer", not with "hall", the noun right
before it. A reader knows; a small language model reading the passage is pulled by the nearer
noun, as people are (agreement attraction), and read "the hall jam a lot" as likelier, so a
grammar fix broke a sentence that was right. Where the subject is a noun phrase that opens its
clause and only prepositional phrases follow it before the verb, its head's number says which
present form agrees, and a verb that already agrees is never offered one that does not
(:func:`engine.language.en.form_risks.breaks_agreement`), nor are the phrase's nouns offered
another number to agree with the verb instead (:func:`number_held`).

A verb that does not agree with the head is given the form that does as a rule, as it is after
a subject pronoun (:data:`engine.language.en.grammar.AGREEMENT_RISK`): the embedded model read
"The manager doesn't answer" as only 0.6 nats likelier than "The manager don't answer", less
than a grammar fix's margin. The head's number is read only where the lexicon is sure of it
(lemminflect lists "staff", "police", "news" and "series" without one, so they are left to the
reading); a collective noun the lexicon reads as singular ("the team", "the committee") asks
for the singular, as American English has it. And the reading is given up where it is least
sure:

- a phrase with "of" in it ("the colour of the walls", "a lot of people", "the rest of the
  files"): after a word of quantity the verb agrees with the noun after "of";
- a head without a determiner, or with a number the lexicon reads both ways ("series",
  "sheep"), or with another number than a word before it asks ("Each students have": the
  noun is what is wrong);
- a clause that does not open on the noun phrase (after a comma, a semicolon or a colon, or
  a coordinator after a comma: ", and the cups beside it"), since "The dog and the cat"
  is a subject of two.

Pure functions over word texts (lemminflect's lexicon, through :mod:`engine.language.en.forms`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lemminflect import getAllLemmas

from engine.language.en.cut_safety import core
from engine.language.en.data import word_set
from engine.language.en.form_risks import (
    BREAK,
    LETTERS,
    OBJECT_PRONOUNS,
    PLAIN_PRESENT_TAG,
    PREPOSITIONS,
    SUBORDINATORS,
    THIRD_SINGULAR_TAG,
    asked_number,
    describes,
    may_describe,
    numbers_of,
)
from engine.language.en.forms import (
    NOUN_CLASS,
    PLURAL_TAG,
    SINGULAR_TAG,
    VERB_CLASSES,
    readings,
)

DETERMINERS = word_set("word_tiers.json", "determiners")
COORDINATORS = word_set("cuts.json", "clause_coordinators")
OF = "of"
# Words between a determiner and its noun: "the old blue printer" (a longer run is no phrase
# this reading trusts).
MODIFIER_REACH = 3
# How far after a noun its subject's verb may stand: the head, a preposition and a phrase.
SUBJECT_REACH = 2 * (MODIFIER_REACH + 3)
AGREEING = {SINGULAR_TAG: THIRD_SINGULAR_TAG, PLURAL_TAG: PLAIN_PRESENT_TAG}


def noun_subject_person(words: Sequence[str], index: int) -> str | None:
    """The present form the noun subject of word ``index`` asks of it (:data:`AGREEING`), when
    its subject is a noun phrase that opens its clause followed only by prepositional phrases
    ("The printer in the hall jams"); ``None`` wherever that reading is unsure."""
    nouns = subject_nouns(words, index)
    if not nouns:
        return None
    asked = asked_number(words, nouns[-1])
    if asked is not None and asked not in numbers_of(_bare(words[nouns[-1]])):
        return None  # "Each students have": the noun's number is the error, not the verb's
    return _person_of(words[nouns[-1]])


def subject_nouns(words: Sequence[str], index: int) -> tuple[int, ...]:
    """Where the nouns of word ``index``'s noun subject stand, the nearest first and its head
    last ("The printer in the hall jams": "hall", "printer"), when it is such a subject as
    :func:`noun_subject_person` reads; none otherwise."""
    at, found = index - 1, []
    while at >= 0:
        start = _phrase_start(words, at)
        if start is None:
            return ()
        found.append(at)
        if _opens_clause(words, start):
            return tuple(found) if start < at else ()
        preposition = _bare(words[start - 1])
        if preposition not in PREPOSITIONS or preposition in SUBORDINATORS or preposition == OF:
            return ()
        if BREAK.search(words[start - 1]):
            return ()
        at = start - 2
    return ()


def number_held(words: Sequence[str], index: int) -> bool:
    """Whether word ``index`` is a noun of a verb's noun subject ("the plates behind it sits",
    "the kettle on the counters leaks"): its number says how many things there are, and
    agreement is the verb's to make, never the noun's to follow (the reading, pulled by the
    nearer noun, had made "counters" "counter")."""
    for verb in range(index + 1, min(len(words), index + SUBJECT_REACH)):
        if index in subject_nouns(words, verb) and _may_be_verb(words[verb]):
            return True
    return False


def _may_be_verb(word: str) -> bool:
    return any(r.part in VERB_CLASSES for r in readings(_bare(word)))


def _phrase_start(words: Sequence[str], at: int) -> int | None:
    """Where the noun phrase ending with word ``at`` starts: an object pronoun alone, or a
    determiner, up to :data:`MODIFIER_REACH` modifiers and the noun; ``None`` if it is none."""
    if at < 0 or BREAK.search(words[at]):
        return None
    last = _bare(words[at])
    if last in OBJECT_PRONOUNS:
        return at
    if not any(r.part == NOUN_CLASS for r in readings(last)):
        return None
    for start in range(at - 1, max(-1, at - 2 - MODIFIER_REACH), -1):
        word = _bare(words[start])
        if BREAK.search(words[start]):
            return None
        if word in DETERMINERS:
            return start
        if not (describes(word) or may_describe(word)):
            return None
    return None


def _opens_clause(words: Sequence[str], start: int) -> bool:
    """Whether a noun phrase starting at word ``start`` opens its clause: the passage's first
    word, after a mark, after a subordinator ("when the train leaves"), or after a coordinator
    that follows a comma."""
    if start == 0 or BREAK.search(words[start - 1]) or _bare(words[start - 1]) in SUBORDINATORS:
        return True
    joined = _bare(words[start - 1]) in COORDINATORS
    return joined and start >= 2 and words[start - 2].rstrip().endswith(",")


def _person_of(head: str) -> str | None:
    """The present form a head noun asks of its verb, where all its noun readings agree."""
    tags = {t for r in readings(_bare(head)) if r.part == NOUN_CLASS for t in r.tags}
    return AGREEING[tags.pop()] if len(tags) == 1 and tags <= AGREEING.keys() else None


def determiner_phrase_stop(
    words: Sequence[str],
    at: int,
    most: int,
    inside_fits: Callable[[Sequence[str]], bool],
    then: Callable[[Sequence[str], int], bool],
) -> int | None:
    """The stop of the longest phrase from word ``at`` (a determiner) and up to ``most`` words
    after it that ends on a noun, whose words ``inside_fits`` accepts and whose stop ``then``
    accepts (what must follow it); ``None`` when there is none."""
    for stop in range(min(at + 1 + most, len(words)), at + 1, -1):
        ends_on_noun = NOUN_CLASS in getAllLemmas(core(words[stop - 1]))
        if ends_on_noun and then(words, stop) and inside_fits(words[at:stop]):
            return stop
    return None


def _bare(word: str) -> str:
    return LETTERS.sub("", word).lower()
