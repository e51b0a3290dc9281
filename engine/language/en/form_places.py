"""What the place of a word asks of its other forms, read once for them all.

A grammar fix offers a word its other forms (:func:`engine.language.en.grammar.alternatives`),
and whether each may be offered, and at what risk, depends on where the word stands, not on
the form: the subject that asks for a person ("he walk"), a word that sets the sentence in the
past ("Last summer we travel"), the auxiliary before a bare verb ("does she likes"), the
determiner that asks for a number ("many company"), an article the next word asks for ("a
important"). :func:`form_place` reads all of that once per word (:class:`FormPlace`), and
:func:`refused_at` says which forms the place refuses whatever the reading prefers (a verb
taken out of its sentence's past, an agreement undone, "me" opening a sentence as a
subject). The joined verb's person ("She is … and collect them",
:func:`engine.language.en.joined_verbs.joined_verb_person`) is walked once here, for both the
subject it gives and the rule it makes.

Pure functions over word texts; lemminflect's lexicon through :mod:`engine.language.en.forms`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from lemminflect import getAllLemmas, getInflection

from engine.language.en.articles import INDEFINITE_ARTICLES
from engine.language.en.cut_safety import may_be_noun
from engine.language.en.data import word_set
from engine.language.en.form_risks import (
    OBJECT_PRONOUNS,  # never what a subject that opens a sentence is ("me", "him")
    THIRD_SINGULAR_TAG,
    agrees_as_asked,
    asked_number,
    asked_person,
    breaks_agreement,
    leaves_its_time,
    loses_degree,
    numbers_of,
)
from engine.language.en.form_rules import (
    AUXILIARY_CLASS,
    DO,
    article_asked,
    bare_asked,
    bare_form_of,
    ruled_forms,
    verb_of,
)
from engine.language.en.forms import PAST, VERB_CLASS, number_changes, past_changes, readings
from engine.language.en.forms import tense as form_tense
from engine.language.en.joined_verbs import joined_verb_person
from engine.language.en.meaning import SUBJECT_PRONOUNS
from engine.language.en.noun_subjects import noun_subject_person, number_held
from engine.language.en.punctuation import starts_sentence
from engine.language.en.sentence_time import (
    TRAILING_MARKS,
    after_a_past_sentence,
    after_past_word,
    past_verb_in_sentence,
    time_word,
)

BASE_TAG = "VB"
BE_FORMS = word_set("word_tiers.json", "be_forms")
COORDINATORS = word_set("word_tiers.json", "coordinators")


@dataclass(frozen=True)
class FormPlace:
    """What word ``index``'s place asks of its forms: the two words before it, the number a
    word before asks, whether its time is the past's by a word or a sentence before it (and
    whether the past is then a rule), the person its subject asks, whether an auxiliary asks
    for a bare verb, whether it keeps its sentence's past or (a "do") its time, whether its
    number is held by its verb, the article the next word asks for, and the forms a rule of
    writing asks for."""

    before: str
    two_before: str
    asked: str | None
    past_asked: bool
    past_rule: bool
    person: str | None
    bare: bool
    keeps_past: bool
    keeps_time: bool
    held: bool
    article: str | None
    ruled: frozenset[str | None]


def form_place(
    words: Sequence[str], index: int, lower: str, forms: Sequence[str], lead: Sequence[str]
) -> FormPlace:
    """Word ``index``'s :class:`FormPlace` (``lower``: it in lower case; ``forms``: its other
    forms; ``lead``: the words before ``words``, across a lock)."""
    before, two_before = _before(lead, words, index)
    in_past = after_past_word(words, index)
    sentence_past = past_verb_in_sentence(words, index)
    timed = in_past or sentence_past or time_word(words, index)
    joined = joined_verb_person(words, index)
    person, past_told = _subject_of(words, index, lower, forms, timed, joined)
    bare = bare_asked(words, index)
    article = article_asked(words, index, lower)
    ruled = ruled_forms(words, index, lower, before, forms, person, joined is not None)
    return FormPlace(
        before=before,
        two_before=two_before,
        asked=asked_number(words, index),
        past_asked=in_past or past_told,
        past_rule=in_past and not sentence_past and _verb_place(words, index),
        person=person,
        bare=bare,
        keeps_past=(in_past or sentence_past) and not bare,
        keeps_time=_is_do(lower) and not (in_past or sentence_past),
        held=any(number_changes(lower, f) for f in forms) and number_held(words, index),
        article=article,
        ruled=frozenset(ruled | {article}),
    )


def refused_at(place: FormPlace, lower: str, form: str, opens: bool) -> bool:
    """Whether ``place`` refuses ``form`` for the word ``lower`` however the reading prefers
    it (``opens``: the word starts a sentence)."""
    if place.article is not None and form in INDEFINITE_ARTICLES and form != place.article:
        return True  # "an" before "house": never the article the next word refuses
    if opens and lower in SUBJECT_PRONOUNS and form in OBJECT_PRONOUNS - SUBJECT_PRONOUNS:
        return True  # "I go" never opens as "Me goes": a sentence opens on its subject
    if _refused(lower, form, place.keeps_past, place.person, place.bare):
        return True
    if place.held and number_changes(lower, form) and place.asked not in numbers_of(form):
        return True  # a noun of a verb's subject says how many, unless a word before asks
    after_be = place.before in BE_FORMS
    return (after_be and _third_singular(form)) or (place.keeps_time and _retimed(lower, form))


def _subject_of(
    words: Sequence[str],
    index: int,
    lower: str,
    forms: Sequence[str],
    timed: bool,
    joined: str | None,
) -> tuple[str | None, bool]:
    """The present form word ``index``'s subject asks of it (a pronoun's, or a noun's across
    its phrases; none in a sentence a word of time sets), and whether a past sentence before
    makes its time the reading's choice too ("It broke on Sunday. Nobody have": "had" or
    "has", neither a rule)."""
    if timed:
        return None, False
    person = asked_person(words, index) or noun_subject_person(words, index) or joined
    if person and after_a_past_sentence(words, index) and _disagrees(lower, forms, person):
        return None, True
    return person, False


def _disagrees(lower: str, forms: Sequence[str], person: str) -> bool:
    """Whether the verb ``lower`` has a form its subject asks (``person``) that it is not."""
    return any(agrees_as_asked(verb_of(lower), verb_of(form), person) for form in forms)


def _refused(lower: str, form: str, keeps_past: bool, person: str | None, bare: bool) -> bool:
    """Whether ``form`` is no fix of the word ``lower`` however the reading prefers it: it
    takes a verb out of its sentence's past, or undoes the agreement the word has with its
    subject (``person``) or with the auxiliary before it (``bare``: "does she like" never
    becomes "likes") or takes such a verb into the past where nothing tells one ("He runs
    faster" never becomes "ran"), or it drops a comparison the writer made ("start earlier"
    never becomes "start early": an adjective agrees with nothing, so its degree is never
    wrong alone; a doubled one, "more better", is :func:`_degree`'s)."""
    if (keeps_past and leaves_past(lower, form)) or loses_degree(lower, form):
        return True
    if breaks_agreement(verb_of(lower), verb_of(form), person):
        return True
    if leaves_its_time(verb_of(lower), verb_of(form), person):
        return True
    return bare and bare_form_of(lower, form)


def _is_do(lower: str) -> bool:
    """Whether ``lower`` is a form of the auxiliary "do" (a negative contraction as its verb).
    Where nothing in its sentence asks for the past it keeps its time: "Does she like her
    job?" is right as written, and the reading's preference for "Did" is a guess at what the
    writer meant, not a fix."""
    return DO in getAllLemmas(verb_of(lower)).get(AUXILIARY_CLASS, ())


def _retimed(lower: str, form: str) -> bool:
    """Whether ``form`` puts the verb ``lower`` in another time (negative contractions read
    as their verbs)."""
    return past_changes(verb_of(lower), verb_of(form))


def _third_singular(form: str) -> bool:
    """Whether ``form`` may be a verb's third-singular present, which never follows a form
    of "be" ("we are go to town" is never "are goes"; a participle may follow it)."""
    return any(r.part == VERB_CLASS and THIRD_SINGULAR_TAG in r.tags for r in readings(form))


def _verb_place(words: Sequence[str], index: int) -> bool:
    """Whether word ``index`` stands where its clause's verb does: right after its subject (a
    subject pronoun, a name or a noun: "we travel", "my brother buy") or after "and" joining
    it to another verb ("and stay"); not after a preposition or a verb ("went home")."""
    if index == 0 or TRAILING_MARKS.search(words[index - 1].strip()):
        return False
    before = words[index - 1].strip()
    low = before.lower()
    if low in SUBJECT_PRONOUNS or low in COORDINATORS:
        return True
    name = before[:1].isupper() and not starts_sentence(words, index - 1, True)
    return name or (may_be_noun(before) and not _inflected_verb(low))


def _inflected_verb(word: str) -> bool:
    """Whether ``word`` may be a verb in a form other than its base ("goes", "went"): then it
    is the verb, not a subject ("goes home"), as a noun's plural may be too ("parents")."""
    return any(
        word not in getInflection(lemma, BASE_TAG)
        for lemma in getAllLemmas(word).get(VERB_CLASS, ())
    )


def leaves_past(word: str, form: str) -> bool:
    """Whether ``form`` takes the verb ``word`` out of the past ("kept" → "keeps", "was" →
    "is"; a negative contraction as its verb)."""
    word, form = verb_of(word), verb_of(form)
    return form_tense(word) == PAST and form_tense(form) != PAST and past_changes(word, form)


def _before(lead: Sequence[str], words: Sequence[str], index: int) -> tuple[str, str]:
    """The two words before word ``index`` (lower case; "" where none), ``lead`` before all."""
    context = [*lead, *words[:index]]
    found = [w.strip().lower() for w in context[-2:]]
    return (found[-1] if found else "", found[-2] if len(found) > 1 else "")
