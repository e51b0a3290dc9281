"""Every form of an English verb, noun or adjective, from lemminflect's lexicon.

A grammar fix is another form of the word the user wrote (:mod:`engine.language.en.grammar`),
so the engine needs every form of every word: "went" and "gone" for "goes", "children" for
"child", "better" and "best" for "good". lemminflect (a maintained English lemmatizer and
inflector with its lexicon bundled) gives each word's lemmas by part of speech
(``getAllLemmas``) and each lemma's forms by Penn tag (``getAllInflections``). It replaced a
typed list of 72 irregular verbs and the regular "-s"/"-es"/"-ed"/"-ies" rules, which knew
no noun plural beyond "-s" and no adjective at all.

A learner's over-regularised form ("goed", "sended", "childs", "gooder") is in no lexicon. It
is recognised by rule from the library's forms: strip the regular ending ("-ed", "-s", "-er",
"-est"), and where what is left (or it with an "e" back, or a doubled last letter undone) is a
lemma whose real form for that ending differs, the word is that form written by rule, and its
fixes are the real ones ("goed" → "went", "gone"). Tags say the tense a form has (a past
participle counts as past: "we seen" is no fix of "we see") and whether a noun is plural.

Pure functions over lower-case words; each answer is cached.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from lemminflect import getAllInflections, getAllLemmas

PAST, PRESENT = "past", "present"
# lemminflect's universal parts of speech whose words inflect (adverbs are left out: "well"
# for "better" is another word's business).
VERB_CLASS = "VERB"
VERB_CLASSES = frozenset({VERB_CLASS, "AUX"})
NOUN_CLASS, ADJECTIVE_CLASS = "NOUN", "ADJ"
INFLECTED_CLASSES = VERB_CLASSES | {NOUN_CLASS, ADJECTIVE_CLASS}
# Penn tags: the verb's past and past participle, its present forms; a plural noun; the
# comparative and superlative of an adjective.
PAST_TAGS = frozenset({"VBD", "VBN"})
PRESENT_TAGS = frozenset({"VB", "VBP", "VBZ"})
PLURAL_TAG, SINGULAR_TAG = "NNS", "NN"
NUMBER_TAGS = frozenset({PLURAL_TAG, SINGULAR_TAG})
SUPERLATIVE_TAG = "JJS"
COMPARED_TAGS = frozenset({"JJR", SUPERLATIVE_TAG})
# A regular ending and the tags (with their part of speech) a form written with it would
# have: "sended" as send's past, "childs" as child's plural, "gooder" as good's comparative.
REGULAR_ENDINGS: tuple[tuple[str, str, frozenset[str]], ...] = (
    ("ed", "VERB", PAST_TAGS),
    ("es", NOUN_CLASS, frozenset({PLURAL_TAG})),
    ("s", NOUN_CLASS, frozenset({PLURAL_TAG})),
    ("es", "VERB", frozenset({"VBZ"})),
    ("s", "VERB", frozenset({"VBZ"})),
    ("est", ADJECTIVE_CLASS, frozenset({"JJS"})),
    ("er", ADJECTIVE_CLASS, frozenset({"JJR"})),
)
# The letter a regular ending may have dropped from its stem ("make" + "ed" is "maked").
PLURAL_S = "s"
DROPPED_LETTER = "e"


@dataclass(frozen=True)
class Reading:
    """One way to read a word: a lemma of a part of speech, and the word's tags as its form."""

    part: str
    lemma: str
    tags: frozenset[str]


@cache
def readings(word: str) -> tuple[Reading, ...]:
    """The lexicon's readings of ``word``; for a word it lacks, the over-regularised ones."""
    return _listed(word) or _overregularised(word)


@cache
def _listed(word: str) -> tuple[Reading, ...]:
    """The readings the lexicon lists for ``word`` as a form of one of its lemmas."""
    found = []
    for part, lemmas in getAllLemmas(word).items():
        if part not in INFLECTED_CLASSES:
            continue
        for lemma in lemmas:
            tags = frozenset(t for t, forms in _inflections(lemma, part).items() if word in forms)
            if tags:
                found.append(Reading(part, lemma, tags))
    return tuple(found)


def _inflections(lemma: str, part: str) -> dict[str, tuple[str, ...]]:
    forms: dict[str, tuple[str, ...]] = getAllInflections(lemma, upos=part)
    return forms


def _overregularised(word: str) -> tuple[Reading, ...]:
    """Readings of a word written by a regular rule where its lemma has another form, or a
    plural given a second plural ending ("childrens", "mens": the plural it stands for)."""
    doubled = _double_plural(word)
    if doubled:
        return doubled
    found = []
    for ending, part, tags in REGULAR_ENDINGS:
        if not word.endswith(ending) or len(word) <= len(ending):
            continue
        for lemma in _stems(word[: -len(ending)]):
            real = {f for t in tags for f in _inflections(lemma, part).get(t, ())}
            if real and word not in real:
                found.append(Reading(part, lemma, tags))
                break
    return tuple(found)


def _double_plural(word: str) -> tuple[Reading, ...]:
    """The plural readings of ``word`` less a final "s", where that is a plural that is no
    lemma of its own ("children", not "news" or "bus")."""
    if not word.endswith(PLURAL_S) or len(word) <= len(PLURAL_S):
        return ()
    stem = word[: -len(PLURAL_S)]
    return tuple(
        Reading(NOUN_CLASS, r.lemma, frozenset({PLURAL_TAG}))
        for r in _listed(stem)
        if r.part == NOUN_CLASS and PLURAL_TAG in r.tags and r.lemma != stem
    )


def _stems(stem: str) -> list[str]:
    """What a stem before a regular ending may stand for: itself, with a dropped "e" put
    back, with a doubled last letter undone ("runned"), with "i" for a final "y"."""
    out = [stem, stem + DROPPED_LETTER]
    if len(stem) > 2 and stem[-1] == stem[-2]:
        out.append(stem[:-1])
    if stem.endswith("i"):
        out.append(stem[:-1] + "y")
    return out


@cache
def regularised_forms(word: str) -> tuple[str, ...]:
    """The real forms a word written by a regular rule stands for ("familys": "families",
    "goed": "went", "gone"); none for a word the lexicon lists, or one no rule wrote."""
    return () if _listed(word) else other_forms(word)


@cache
def other_forms(word: str) -> tuple[str, ...]:
    """Every form of every lemma ``word`` is a form of, in the lexicon's order, without
    ``word``; for an over-regularised word, only the real forms its ending stands for."""
    found: dict[str, None] = {}
    known = bool(_listed(word))
    for reading in readings(word):
        for tag, forms in _inflections(reading.lemma, reading.part).items():
            if known or tag in reading.tags:
                found.update(dict.fromkeys(forms))
    found.pop(word, None)
    return tuple(found)


def tense(word: str) -> str | None:
    """The tense of ``word`` where all its verb readings agree (``None`` for "read", "going")."""
    tenses = {_tense(r.tags) for r in readings(word) if r.part in VERB_CLASSES}
    return tenses.pop() if len(tenses) == 1 else None


def _tense(tags: frozenset[str]) -> str | None:
    if tags <= PAST_TAGS:
        return PAST
    if tags <= PRESENT_TAGS:
        return PRESENT
    return None


def past_changes(word: str, form: str) -> bool:
    """Whether one of the two may be a past form and the other may not, as forms of a verb
    they share (of any verb, where they share none): "cost" may say the past, "costs" never."""
    pairs = shared_readings(word, form, VERB_CLASSES)
    if pairs:
        return any(_may_be_past(was.tags) != _may_be_past(now.tags) for was, now in pairs)
    was = any(_may_be_past(r.tags) for r in readings(word) if r.part in VERB_CLASSES)
    now = any(_may_be_past(r.tags) for r in readings(form) if r.part in VERB_CLASSES)
    return was != now


def _may_be_past(tags: frozenset[str]) -> bool:
    return bool(tags & PAST_TAGS)


def number_changes(word: str, form: str) -> bool:
    """Whether ``form`` is another number of a noun ``word`` is ("button", "buttons"; the
    lexicon lists some singulars as plurals too, "company" for a company's people, and
    "companies" is still another number)."""
    for was, now in shared_readings(word, form, frozenset({NOUN_CLASS})):
        if was.tags & NUMBER_TAGS != now.tags & NUMBER_TAGS:
            return True
    return False


def comparative(word: str) -> bool:
    """Whether ``word`` is an adjective's comparative or superlative ("better", "biggest")."""
    return any(r.part == ADJECTIVE_CLASS and r.tags & COMPARED_TAGS for r in readings(word))


def superlative(word: str) -> bool:
    """Whether ``word`` is an adjective's superlative ("biggest", "best")."""
    return any(r.part == ADJECTIVE_CLASS and SUPERLATIVE_TAG in r.tags for r in readings(word))


def verb_tags(word: str) -> frozenset[str]:
    """Every tag the lexicon gives ``word`` as a verb or an auxiliary ("is": VBZ)."""
    return frozenset(t for r in readings(word) if r.part in VERB_CLASSES for t in r.tags)


def shared_readings(word: str, form: str, parts: frozenset[str]) -> list[tuple[Reading, Reading]]:
    """Pairs of readings of the two words as forms of one lemma of one of ``parts``."""
    return [
        (was, now)
        for was in readings(word)
        for now in readings(form)
        if was.part in parts and (was.part, was.lemma) == (now.part, now.lemma)
    ]
