"""A question inside a sentence keeps the order of a statement: "tell me where the station is".

A direct question puts its verb before its subject ("Where is the station?"); a question
that another clause holds does not ("Can you tell me where the station is?"). Learners keep
the direct order inside ("tell me where is the station", "I don't know what does this word
mean"), one of the slips their corpora count most often, and the reading is no guide to it:
the direct order is common text. Here the statement's order is a rule of writing, in two
shapes only, where the words say it plainly:

- **a form of "be"** between the question word and a short subject that ends the clause
  ("where is the station?" → "where the station is?");
- **a form of "do"** between the question word and its subject, before a bare verb ("what
  does this word mean" → "what this word means"): "do" goes, and the verb takes its time and
  person.

The question word must be inside its sentence, after a verb or an object pronoun ("know",
"tell me"), never where a sentence opens ("Where is the station?" is right as it is). A
subject is a pronoun or a determiner and up to two words ending on a noun. The question words
and "do"'s forms are language data (``data/grammar.json``); the verb's forms are
lemminflect's. Pure functions over word texts (each with its leading whitespace).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from lemminflect import getAllLemmas, getInflection

from engine.language.en.cut_safety import core
from engine.language.en.data import word_set
from engine.language.en.noun_subjects import determiner_phrase_stop
from engine.language.en.rewordings import Rewording, spelled
from engine.language.en.verb_patterns import MARKS, plain

# The question words that are no relative pronoun, and those that are (meaning.json's).
QUESTION_WORDS = word_set("grammar.json", "question_words") | word_set(
    "meaning.json", "relative_pronouns"
)
BE_FORMS = word_set("word_tiers.json", "be_forms")
# "do" in each time and person, and the tag its verb then takes ("does mean" → "means").
DO_TAGS = {"do": "VBP", "does": "VBZ", "did": "VBD"}
SUBJECT_PRONOUNS = word_set("meaning.json", "subject_pronouns")
OBJECT_PRONOUNS = word_set("word_tiers.json", "object_pronouns")
DETERMINERS = word_set("grammar.json", "determiners")
MOST_PHRASE_WORDS = 2  # after its determiner: "the new station"
VERB = "VERB"
TRAILING = ".,;:!?\"')"  # the marks that end a clause after its last word


def question_order_fixes(words: Sequence[str], index: int) -> list[Rewording]:
    """The statement's order for a question held inside a sentence whose question word is
    word ``index``."""
    if not _held_question(words, index):
        return []
    return [*_be_after_subject(words, index), *_without_do(words, index)]


def _held_question(words: Sequence[str], index: int) -> bool:
    """Whether word ``index`` is a question word after a verb or an object pronoun of its
    own sentence, with no mark between."""
    if index == 0 or core(words[index]) not in QUESTION_WORDS or MARKS.search(words[index - 1]):
        return False
    before = core(words[index - 1])
    return before in OBJECT_PRONOUNS or VERB in getAllLemmas(before)


def _be_after_subject(words: Sequence[str], index: int) -> list[Rewording]:
    """ "where is the station?" → "where the station is?": a form of "be", then a subject that
    ends its clause."""
    verb_at = index + 1
    if verb_at >= len(words) or core(words[verb_at]) not in BE_FORMS:
        return []
    stop = _subject_stop(words, verb_at + 1, _clause_ends)
    if stop is None or not plain(words, index, stop):
        return []
    subject = "".join(words[verb_at + 1 : stop]).strip().rstrip(TRAILING)
    text = f"{subject} {words[verb_at].strip()}"
    return [Rewording(verb_at, stop, spelled(words[verb_at], words[stop - 1], text))]


def _without_do(words: Sequence[str], index: int) -> list[Rewording]:
    """ "what does this word mean" → "what this word means": "do" goes and the bare verb
    after the subject takes its time and person."""
    do_at = index + 1
    tag = DO_TAGS.get(core(words[do_at])) if do_at < len(words) else None
    stop = _subject_stop(words, do_at + 1, _bare_verb_at) if tag else None
    if tag is None or stop is None or stop >= len(words) or not plain(words, index, stop + 1):
        return []
    verb = core(words[stop])
    formed = getInflection(verb, tag) if VERB in getAllLemmas(verb) else ()
    if not formed or not words[stop].strip()[:1].islower():
        return []
    subject = "".join(words[do_at + 1 : stop]).strip()
    text = f"{subject} {formed[0]}"
    return [Rewording(do_at, stop + 1, spelled(words[do_at], words[stop], text))]


def _subject_stop(
    words: Sequence[str], at: int, then: Callable[[Sequence[str], int], bool]
) -> int | None:
    """The stop of a short subject from word ``at`` that ``then`` accepts the stop of: a
    subject pronoun, or a determiner and up to :data:`MOST_PHRASE_WORDS` words ending on a
    noun (the longest such)."""
    if at >= len(words):
        return None
    word = core(words[at])
    if word in SUBJECT_PRONOUNS:
        return at + 1 if then(words, at + 1) else None
    if word not in DETERMINERS:
        return None

    def no_mark(phrase: Sequence[str]) -> bool:
        return not any(MARKS.search(word) for word in phrase[:-1])

    return determiner_phrase_stop(words, at, MOST_PHRASE_WORDS, no_mark, then)


def _bare_verb_at(words: Sequence[str], at: int) -> bool:
    return at < len(words) and VERB in getAllLemmas(core(words[at]))


def _clause_ends(words: Sequence[str], stop: int) -> bool:
    """Whether the clause ends after word ``stop - 1``: a mark, or the passage's end."""
    return stop >= len(words) or bool(MARKS.search(words[stop - 1]))
