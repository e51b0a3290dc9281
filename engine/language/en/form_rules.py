"""The forms of a word that rules of writing ask for, and a negative contraction's verb.

:mod:`engine.language.en.grammar` offers each word's other forms and the model reading the
passage chooses among them; a few forms are not the reading's to choose. "an" before
"important", "fewer" before "problems", "driven" after "has", the verb's bare form after
"did": English asks for each whatever reads likelier, so each is a ``certain`` fix, made
unless the passage reads far worse. This module says which forms those are, and reads a
negative contraction as its verb ("doesn't" as "does"), as every agreement check does.

Forms and tags are lemminflect's (:mod:`engine.language.en.forms`); the closed classes come
from ``data/``. Pure functions over word texts (each with its leading whitespace).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from lemminflect import getAllLemmas, getInflection

from engine.language.en.articles import INDEFINITE_ARTICLES, indefinite_for
from engine.language.en.data import word_set
from engine.language.en.form_risks import ADVERB_CLASS, agrees_as_asked, counted_quantity
from engine.language.en.forms import VERB_CLASS, other_forms, readings
from engine.language.en.meaning import SUBJECT_PRONOUNS
from engine.language.en.registers import CONTRACTIONS, NOT_CLITIC
from engine.language.en.sentence_time import TRAILING_MARKS, plain_lower

AUXILIARY_CLASS = "AUX"
DO, HAVE, NEGATION = "do", "have", "not"
PAST_TAG, PARTICIPLE_TAG = "VBD", "VBN"
# What may stand between "do" or a modal and its bare verb: "not", a question's subject.
BETWEEN_DO_AND_VERB = SUBJECT_PRONOUNS | {NEGATION}
MODALS = word_set("word_tiers.json", "modals")


def verb_of(word: str) -> str:
    """The verb of a negative contraction ("doesn't": "does"); any other word itself."""
    return word[: -len(NOT_CLITIC)] if word in negative_contractions() else word


@cache
def negative_contractions() -> frozenset[str]:
    """The contractions of a verb and "not" ("don't", "weren't"), by the contractions
    package, whose verb is a word ("can't" is "ca" and "n't": not one)."""
    found = (c for c, _ in CONTRACTIONS if c.endswith(NOT_CLITIC))
    return frozenset(c for c in found if readings(c[: -len(NOT_CLITIC)]))


def negative_forms(word: str) -> tuple[str, ...]:
    """The other forms of a negative contraction's verb that English contracts with "not"
    ("don't": "doesn't", "didn't"; "isn't": "aren't", "wasn't"): a subject's agreement
    reaches its auxiliary as it does any verb ("She don't like it")."""
    if word not in negative_contractions():
        return ()
    found = (form + NOT_CLITIC for form in other_forms(verb_of(word)))
    return tuple(form for form in found if form in negative_contractions())


def ruled_forms(
    words: Sequence[str],
    index: int,
    lower: str,
    before: str,
    forms: Sequence[str],
    person: str | None,
    joined: bool,
) -> set[str | None]:
    """The forms of word ``index`` that rules of writing ask for, made unless the passage
    reads far worse: "fewer" for "less" before a plural noun, the participle after "have"
    ("has drove"), and the form a verb joined by "and" takes from a subject the reading
    cannot see so far back ("She is … and collect them"; ``joined``: the verb is joined so,
    :func:`engine.language.en.joined_verbs.joined_verb_person`)."""
    ruled: set[str | None] = {counted_quantity(words, index)}
    ruled |= {form for form in forms if participle_asked(before, lower, form)}
    if joined:
        ruled |= {f for f in forms if agrees_as_asked(verb_of(lower), verb_of(f), person)}
    return ruled


def article_asked(words: Sequence[str], index: int, lower: str) -> str | None:
    """The indefinite article word ``index`` (an "a" or "an" with no mark after it) must be by
    the word after it (:func:`~engine.language.en.articles.indefinite_for`): "a important" →
    "an" is a rule of writing (a ``certain`` fix, read whole: "an" alone reads far worse
    than "a" before the model has read the word it agrees with)."""
    if (
        lower not in INDEFINITE_ARTICLES
        or index + 1 >= len(words)
        or TRAILING_MARKS.search(words[index])
    ):
        return None
    return indefinite_for(words[index + 1])


def participle_asked(before: str, lower: str, form: str) -> bool:
    """Whether ``form`` is the participle a form of "have" right before (``before``) asks of
    the verb ``lower``, written in a past that is no participle ("has drove" → "driven", "had
    went" → "gone"): a rule of writing. Not where the lexicon lists two pasts ("learned",
    "learnt") or the participle only adds to the past ("got", "gotten"): British English
    writes those pasts after "have" too."""
    if HAVE not in getAllLemmas(verb_of(before)).get(AUXILIARY_CLASS, ()):
        return False
    was, now = readings(lower), readings(form)
    lemmas = [r.lemma for r in was if r.part == VERB_CLASS and r.tags == {PAST_TAG}]
    if len(lemmas) != 1 or len(getInflection(lemmas[0], PAST_TAG)) != 1 or form.startswith(lower):
        return False  # "learnt", "got": varieties of English write these after "have" too
    return any(r.part == VERB_CLASS and PARTICIPLE_TAG in r.tags for r in now)


def bare_asked(words: Sequence[str], index: int) -> bool:
    """Whether word ``index`` stands where a bare verb must: right after a modal or a form of
    "do" ("didn't went", "did not wanted": the auxiliary carries the past), "not" or a
    question's subject pronoun or an adverb between them ("Did you saw it?", "would soon
    came") aside."""
    at = index - 1
    for _ in range(2):  # "did they not came", "would soon came"
        if at < 0 or TRAILING_MARKS.search(words[at].strip()):
            return False  # a word between may not end its sentence: "they do now. Buses"
        between = plain_lower(words[at]) if at > 0 else ""
        if between in BETWEEN_DO_AND_VERB or ADVERB_CLASS in getAllLemmas(between):
            at -= 1
    if at < 0 or TRAILING_MARKS.search(words[at].strip()):
        return False
    before = verb_of(words[at].strip().lower())
    return before in MODALS or DO in getAllLemmas(before).get(AUXILIARY_CLASS, ())


def bare_form_of(bare: str, word: str) -> bool:
    """Whether ``bare`` is the base form of the verb ``word`` is another form of ("like" of
    "likes", "see" of "saw")."""
    return bare != word and bare in getAllLemmas(word).get(VERB_CLASS, ())
