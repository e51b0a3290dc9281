"""The forms a grammar fix only guesses at, and the number the words before a noun ask for.

A grammar fix is another form of the user's word (:mod:`engine.language.en.grammar`), and the
model reading the passage picks among them. For three kinds of form the model's preference is
a guess about what the writer meant, not a correction: a noun's number ("their own car" or
"cars"), a verb's -ing form against its other forms ("to use" or "using"), and an adjective's
degree ("young" or "younger"). On JFLEG's tuning half these fixes came out worse than the
source more often than better (number 25 better against 33 worse; -ing 6 against 19; degree 4
against 13), where spelling fixes came out 115 against 29. So each costs a risk (nats it must
save beyond the margin), like a change of tense, unless the words before the noun ask for the
new number: "many company" asks for "companies", "an experts" for "expert", "a lot of
scientist" for "scientists". A learner's missing plural after a quantifier is the fix that has
evidence; a plural after "the" or an adjective has none.

The marker words are general English in ``data/grammar.json``. Pure functions over words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from lemminflect import getAllLemmas

from engine.language.en.data import load_json, word_set
from engine.language.en.forms import (
    ADJECTIVE_CLASS,
    COMPARED_TAGS,
    NOUN_CLASS,
    PLURAL_TAG,
    SINGULAR_TAG,
    VERB_CLASSES,
    Reading,
    readings,
    shared_readings,
)


def _above_one(number: str) -> bool:
    return number.isdigit() and int(number) > 1


SINGULAR_MARKERS = word_set("grammar.json", "singular_markers")
# Number words above one ("two", "fifteen") ask for a plural as "several" does.
PLURAL_MARKERS = word_set("grammar.json", "plural_markers") | frozenset(
    word for word, value in load_json("meaning.json")["number_words"].items() if _above_one(value)
)
PLURAL_OF_HEADS = word_set("grammar.json", "plural_of_heads")
OF = "of"
# How many words before a noun may stand between it and the word that sets its number
# ("many small local companies"): adjectives and nouns used as adjectives.
MARKER_REACH = 3
SINGULAR, PLURAL = "singular", "plural"
ING_TAG = "VBG"
BREAK = re.compile(r"[.,;:!?()\"]")
LETTERS = re.compile(r"[^A-Za-z']+")
# A quantity for a mass and the one for things counted ("less": "fewer").
COUNT_QUANTITIES: dict[str, str] = load_json("grammar.json")["count_quantities"]


def describes(word: str) -> bool:
    """Whether lower-case ``word`` is only ever an adjective (it stands before a noun)."""
    return parts_of(word) == {ADJECTIVE_CLASS}


def may_describe(word: str) -> bool:
    """Whether lower-case ``word`` may stand before a noun as its modifier: an adjective
    reading, or a verb's -ing form ("the failing tests", "the missing files")."""
    return any(r.part == ADJECTIVE_CLASS or ING_TAG in r.tags for r in readings(word))


def only_noun(word: str) -> bool:
    """Whether lower-case ``word`` is read only as a noun (never a verb that agrees)."""
    return parts_of(word) == {NOUN_CLASS}


def counted_quantity(words: Sequence[str], index: int) -> str | None:
    """What a quantity for a mass (word ``index``: "less", "much") must be before a noun that
    is only ever plural ("less problems", "much cars"): the one for things counted
    ("fewer", "many"), a rule of writing. ``None`` anywhere else: before "people" or "data",
    read both ways, or an adjective ("less expensive cars"), the reading chooses."""
    word = LETTERS.sub("", words[index]).lower()
    if word not in COUNT_QUANTITIES or index + 1 >= len(words) or BREAK.search(words[index]):
        return None
    noun = LETTERS.sub("", words[index + 1]).lower()
    nouns = [r.tags for r in readings(noun) if r.part == NOUN_CLASS]
    return COUNT_QUANTITIES[word] if nouns and all(t == {PLURAL_TAG} for t in nouns) else None


def parts_of(word: str) -> set[str]:
    return {r.part for r in readings(word)}


def asked_number(words: Sequence[str], index: int) -> str | None:
    """The number the words before word ``index`` ask of it: ``"singular"``, ``"plural"``
    or ``None`` (nothing within :data:`MARKER_REACH` words, in its clause, says)."""
    for back in range(1, MARKER_REACH + 1):
        at = index - back
        if at < 0 or BREAK.search(words[at]):
            return None
        word = LETTERS.sub("", words[at]).lower()
        if word in PLURAL_MARKERS or _above_one(words[at].strip()):
            return PLURAL
        if word == OF and at > 0 and LETTERS.sub("", words[at - 1]).lower() in PLURAL_OF_HEADS:
            return PLURAL
        if word in SINGULAR_MARKERS:
            return SINGULAR
    return None


def numbers_of(form: str) -> frozenset[str]:
    """The numbers a noun form may have ("company": singular, and plural for its people)."""
    tags = {tag for r in readings(form) if r.part == NOUN_CLASS for tag in r.tags}
    return frozenset(
        number for number, tag in ((SINGULAR, SINGULAR_TAG), (PLURAL, PLURAL_TAG)) if tag in tags
    )


def aspect_changes(word: str, form: str) -> bool:
    """Whether one of two forms of a verb they share is its -ing form and the other is not
    ("use" and "using", "living" and "live")."""
    return any(
        (ING_TAG in was.tags) != (ING_TAG in now.tags)
        for was, now in shared_readings(word, form, VERB_CLASSES)
    )


def degree_changes(word: str, form: str) -> bool:
    """Whether two forms of an adjective they share differ in degree ("young", "younger",
    "youngest")."""
    return any(
        was.tags != now.tags
        for was, now in shared_readings(word, form, frozenset({ADJECTIVE_CLASS}))
    )


def loses_degree(word: str, form: str) -> bool:
    """Whether ``form`` is the plain adjective of a comparative or superlative ``word``
    ("earlier" → "early", "best" → "good")."""
    return any(
        was.tags & COMPARED_TAGS and not now.tags & COMPARED_TAGS
        for was, now in shared_readings(word, form, frozenset({ADJECTIVE_CLASS}))
    )


# The present forms a subject pronoun asks of its verb (lemminflect's Penn tags).
THIRD_SINGULAR_TAG, PLAIN_PRESENT_TAG = "VBZ", "VBP"
SUBJECT_INVERTERS = word_set("grammar.json", "subject_inverters")
PRESENT_TAGS = frozenset({"VB", PLAIN_PRESENT_TAG, THIRD_SINGULAR_TAG})
SIMPLE_PAST_TAG = "VBD"
BE = "be"  # its present forms are closed sets of their own ("I am", "he is")
# "Each of the students have": one of a group is the subject, and it takes the third singular
# whatever the group's noun next to the verb says. The group's phrase after "of" is a few words.
DISTRIBUTIVE_SUBJECTS = word_set("grammar.json", "distributive_subjects")
# "Everyone in the office know": an indefinite pronoun is a third-singular subject, and a
# preposition's phrase after it ("at the desk", "from the team") does not change that.
INDEFINITE_SUBJECTS = word_set("grammar.json", "indefinite_subjects")
THIRD_SINGULAR = word_set("grammar.json", "third_singular_subjects") | INDEFINITE_SUBJECTS
PLAIN_PRESENT = word_set("grammar.json", "plain_present_subjects")
# An object as often as a subject: after a verb it is one ("make it work", "help everyone
# find it").
OBJECT_CASE_TOO = word_set("grammar.json", "object_case_too") | INDEFINITE_SUBJECTS
GROUP_REACH = 4
# A clause's own words inside the group's phrase ("each of the students who have") make the
# verb the clause's, not the subject's.
CLAUSE_WORDS = word_set("meaning.json", "relative_pronouns") | word_set(
    "grammar.json", "complementizers"
)
OBJECT_PRONOUNS = word_set("word_tiers.json", "object_pronouns")  # "neither of them"
NEGATIONS = word_set("word_tiers.json", "negations")
ADVERB_CLASS = "ADV"
# An aside between a subject and its verb ("I, in any case, have") is a few words.
ASIDE_REACH = 6
PREPOSITIONS = word_set("word_tiers.json", "prepositions")
SUBORDINATORS = word_set("word_tiers.json", "subordinators")  # "after", "since": clauses too
# "He, she and I": words that join subjects into a list, never inside an aside.
LIST_JOINERS = word_set("grammar.json", "list_joiners")
NOT_IN_ASIDES = THIRD_SINGULAR | PLAIN_PRESENT | LIST_JOINERS


def asked_person(words: Sequence[str], index: int) -> str | None:
    """The present form the pronoun right before word ``index`` asks of it as its subject
    (:data:`THIRD_SINGULAR_TAG` after "he", :data:`PLAIN_PRESENT_TAG` after "they"; the
    first after "each of the students": :func:`one_of_a_group`), or
    ``None`` where the pronoun may not be its subject: after an auxiliary, a modal, "to" or
    "let" ("does he walk"), or, for a pronoun that is an object too, after a verb ("make it
    work", "let you know"). An adverb may stand between them ("he mainly focus", "it simply
    take"): it says how, not who (:func:`adverb_between`)."""
    if one_of_a_group(words, index):
        return THIRD_SINGULAR_TAG
    at = index - 1 if adverb_between(words, index) else index
    subject_at = aside_subject(words, at)
    if subject_at is None:
        if at < 1 or BREAK.search(words[at - 1]):
            return None
        subject_at = at - 1
    subject = LETTERS.sub("", words[subject_at]).lower()
    asked = (
        THIRD_SINGULAR_TAG
        if subject in THIRD_SINGULAR
        else PLAIN_PRESENT_TAG
        if subject in PLAIN_PRESENT
        else None
    )
    before = ""
    if subject_at >= 1 and not BREAK.search(words[subject_at - 1]):
        before = LETTERS.sub("", words[subject_at - 1]).lower()
    if asked is None or before in SUBJECT_INVERTERS:
        return None
    if subject in OBJECT_CASE_TOO and _takes_an_object(before):
        return None
    return asked


def _takes_an_object(before: str) -> bool:
    """Whether a pronoun that is an object too ("it", "you") is one after the word ``before``:
    a verb's ("make it work") or a preposition's ("the plates behind it sit": "it" is no
    subject of "sit"). Not after a word that also opens a clause ("after it rains")."""
    if before in PREPOSITIONS and before not in SUBORDINATORS:
        return True
    return any(r.part in VERB_CLASSES for r in readings(before))


def aside_subject(words: Sequence[str], at: int) -> int | None:
    """Where the subject pronoun of the word ``at`` stands when an aside set off by commas
    comes between them ("I, in any case, have"; "she, in my view, works"), or ``None``.
    The aside is a few words opening on a preposition or an adverb, with no other subject
    and no "and"/"or" in it: "He, she and I" is a list of subjects, not an aside."""
    if at < 3 or not words[at - 1].rstrip().endswith(","):
        return None
    for start in range(at - 1, max(0, at - 1 - ASIDE_REACH), -1):
        if words[start - 1].rstrip().endswith(","):
            aside = [LETTERS.sub("", w).lower() for w in words[start:at]]
            return start - 1 if _is_aside(aside, words[start : at - 1]) else None
    return None


def _is_aside(aside: Sequence[str], inner: Sequence[str]) -> bool:
    """Whether ``aside`` (its words bare; ``inner``: all but its last as written) reads as
    an aside: no mark inside, opening on a preposition or an adverb, naming no subject."""
    if any(BREAK.search(w) for w in inner) or not aside[0]:
        return False
    opens = aside[0] in PREPOSITIONS or ADVERB_CLASS in getAllLemmas(aside[0])
    return opens and not NOT_IN_ASIDES.intersection(aside)


def adverb_between(words: Sequence[str], index: int) -> bool:
    """Whether the word before word ``index`` is an adverb and nothing else a clause may
    hang on (lemminflect's lexicon: "mainly", "just", "often"; not "still" or "well", verbs
    and nouns too, nor a negation, which asks for an auxiliary: "he not go")."""
    if index < 2 or BREAK.search(words[index - 1]):
        return False
    word = LETTERS.sub("", words[index - 1]).lower()
    parts = set(getAllLemmas(word))
    if word in NEGATIONS or parts & {*VERB_CLASSES, NOUN_CLASS}:
        return False
    return ADVERB_CLASS in parts


def _group_opening(first: str, second: str) -> bool:
    """ "each of", or an indefinite pronoun and a preposition ("everyone in")."""
    if first in DISTRIBUTIVE_SUBJECTS:
        return second == OF
    return first in INDEFINITE_SUBJECTS and second in PREPOSITIONS


def one_of_a_group(words: Sequence[str], index: int) -> bool:
    """Whether word ``index`` follows a subject that is one of a group: a
    :data:`DISTRIBUTIVE_SUBJECTS` word opening its clause, "of", and a phrase ending in a noun
    or an object pronoun ("Each of the new students have": "has"; "neither of them know"), or
    an :data:`INDEFINITE_SUBJECTS` word and a preposition's phrase ("Everyone in the office
    know": "knows")."""
    core = [LETTERS.sub("", w).lower() for w in words[max(0, index - GROUP_REACH - 2) : index]]
    if not core or not _may_be_noun(core[-1]):
        return False
    start = index - len(core)
    for at in range(index - 2, start - 1, -1):
        inside = words[at:index]
        if any(BREAK.search(w) for w in inside) or CLAUSE_WORDS & set(core[at - start + 1 :]):
            return False
        if _group_opening(core[at - start], core[at - start + 1]):
            return at + 2 < index and (at == 0 or bool(BREAK.search(words[at - 1])))
    return False


def _may_be_noun(word: str) -> bool:
    return word in OBJECT_PRONOUNS or any(r.part == NOUN_CLASS for r in readings(word))


def agrees_as_asked(word: str, form: str, asked: str | None) -> bool:
    """Whether ``form`` is the present form ``asked`` of the verb ``word`` is another present
    form of, and only that ("walk" → "walks" after "he"; not "cost", also a past). Of "be"
    only the third singular: "neither of them are" → "is"; where the plain present is asked,
    "am" and "are" both are, and the reading chooses as for any form."""
    return any(
        (was.lemma != BE or asked == THIRD_SINGULAR_TAG)
        and other in was.tags
        and was.tags <= PRESENT_TAGS
        and asked not in was.tags
        and asked in now.tags
        for was, now, other in _present_pairs(word, form, asked)
    )


def _present_pairs(
    word: str, form: str, asked: str | None
) -> Iterator[tuple[Reading, Reading, str]]:
    """The verb readings ``word`` and ``form`` share, each with the present form other than
    ``asked`` (the one agreement with ``asked`` rules out); none where nothing is asked."""
    if asked is None:
        return
    other = PLAIN_PRESENT_TAG if asked == THIRD_SINGULAR_TAG else THIRD_SINGULAR_TAG
    for was, now in shared_readings(word, form, VERB_CLASSES):
        yield was, now, other


def leaves_its_time(word: str, form: str, asked: str | None) -> bool:
    """Whether ``form`` would put a verb that agrees with its subject (``word``, only ever
    the present form ``asked``) into the past: "He runs faster" is right as written, and
    where the caller found nothing that tells a past (``asked`` is ``None`` there), the
    reading's liking for "ran" is a guess at the writer's time, not a fix."""
    if asked is None:
        return False
    return any(
        asked in was.tags and was.tags <= PRESENT_TAGS and SIMPLE_PAST_TAG in now.tags
        for was, now in shared_readings(word, form, VERB_CLASSES)
    )


def breaks_agreement(word: str, form: str, asked: str | None) -> bool:
    """Whether ``form`` would undo the agreement ``word`` already has with its subject: the
    present form ``asked`` put for another present form ("I, in any case, have" never
    becomes "has"; "I am" never "is"): :func:`agrees_as_asked` the other way round."""
    return any(
        asked in was.tags and other in now.tags and asked not in now.tags
        for was, now, other in _present_pairs(word, form, asked)
    )
