"""What a cut may take from a sentence without breaking it, and the check every cut passes.

A person tightening a paragraph drops hedges, filler and wordy phrases, an adverb or an
adjective; never the article before a noun ("to review budget"), never the verb a sentence
needs ("The new bridge, which cost 38 million dollars and took four years to build."), never
a negation, a number or a name. Two things here serve :mod:`engine.language.en.drops`:

- the word classes a cut may take one word at a time: an adjective standing before a noun
  ("the new page", never the predicate in "was long"), told by lemminflect's lexicon of English
  word forms rather than a typed list (no tagger model can be downloaded here); closed classes
  (articles, determiners, prepositions, object pronouns) come from ``data/word_tiers.json``;
- :func:`cut_damage`, the check a whole candidate passes before it is taken: the signs of
  meaning of :mod:`engine.language.en.meaning` (a sentence left without a verb among them),
  "a"/"an" still agreeing with the word now after it, no mark left dangling and every
  sentence still opening with its capital.

Pure functions over strings.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from difflib import SequenceMatcher
from functools import cache
from itertools import pairwise

from lemminflect import getAllLemmas, getInflection

from engine.language.en import meaning
from engine.language.en.data import load_json, word_set
from engine.language.en.sentiment import judges

ARTICLES = word_set("word_tiers.json", "articles")
DETERMINERS = word_set("word_tiers.json", "determiners")
PREPOSITIONS = word_set("word_tiers.json", "prepositions")
OBJECT_PRONOUNS = word_set("word_tiers.json", "object_pronouns")
# Adjectives that quantify or pick out: dropping one changes what is said, not how.
MODIFIERS_KEPT = word_set("word_tiers.json", "modifiers_kept")
SUBORDINATORS = word_set("word_tiers.json", "subordinators")
BE_FORMS = word_set("word_tiers.json", "be_forms")
PERFECT_AUXILIARIES = word_set("word_tiers.json", "perfect_auxiliaries")
PAST_TAG, PARTICIPLE_TAG = "VBD", "VBN"  # Penn tags lemminflect inflects to
REFLEXIVES = word_set("word_tiers.json", "reflexives")
COORDINATORS = word_set("word_tiers.json", "coordinators")
SUBJECT_RELATIVES = word_set("word_tiers.json", "subject_relatives")
ING = "ing"
CLOSED_CLASSES = (
    ARTICLES | DETERMINERS | PREPOSITIONS | OBJECT_PRONOUNS | meaning.SUBJECT_PRONOUNS | BE_FORMS
)
ADJECTIVE_TAG, ADVERB_TAG, NOUN_TAG, VERB_TAG = "ADJ", "ADV", "NOUN", "VERB"
# Words that start a clause's subject: the "that" before one ("said that the plan", "the date
# that we") may go. Before anything else it may be a determiner ("that plan").
CLAUSE_STARTS = ARTICLES | DETERMINERS | meaning.SUBJECT_PRONOUNS
COMPLEMENT_NOUNS = word_set("cuts.json", "complement_nouns")
# A pro-form stands for a noun said before ("the current one"): the adjective before it is
# what tells it apart, so it stays.
PRO_FORMS = word_set("cuts.json", "pro_forms")
RECIPIENT_PREPOSITIONS = word_set("cuts.json", "recipient_prepositions")
DESCRIPTIVE_SUFFIXES = tuple(load_json("cuts.json")["descriptive_suffixes"])
COMPARATIVE_TAG = "JJR"
PERSONAL_OBJECTS = word_set("cuts.json", "personal_objects")
# "a large number of": the size before a noun of measure is what the phrase says.
MEASURE_NOUNS = word_set("cuts.json", "measure_nouns")
# Words that grade the adjective after them: the adjective may not go without them.
DEGREE_WORDS = word_set("cuts.json", "degree_words")
# What a cut leaves dangling: a mark after a space or at the text's start, two marks in a row
# (", ." or ",,"), empty brackets.
DANGLING = re.compile(r"\s[,;:.!?]|[,;:]\s*[,;:.!?]|\A\s*[,;:.!?]|\(\s*\)")
# A sentence's first letter: at the text's start, or after an end mark and a space.
SENTENCE_START = re.compile(r"(?:\A|[.!?]\s+)[\"'(\[]*([A-Za-z])")
# A sentence's end: a full stop, "!" or "?" before a space or the text's end.
SENTENCE_BREAK = re.compile(r"[.!?](?=\s|\Z)")
WORD_RUN = re.compile(r"[a-z]+(?:'[a-z]+)?")
FUNCTION_WORDS = word_set("word_tiers.json", "function") | word_set("word_tiers.json", "hedges")
VOWEL_START = re.compile(r"[aeiou]", re.IGNORECASE)
INDEFINITE = re.compile(r"\b(an?)\s+([A-Za-z]+)", re.IGNORECASE)


def core(word: str) -> str:
    """A word's letters, lower-cased: its surrounding space and marks stripped."""
    return word.strip().strip(".,;:!?\"'()[]").lower()


def is_plain(word: str) -> bool:
    """Letters, apostrophes and hyphens only (no mark a reader checks a sentence by)."""
    text = word.strip()
    return bool(text) and all(ch.isalpha() or ch in "'-\u2019" for ch in text)


@cache
def readings(word: str) -> frozenset[str]:
    """The parts of speech lemminflect's lexicon gives a lower-case word."""
    return frozenset(getAllLemmas(word))


def may_be_noun(word: str) -> bool:
    """Whether a plain lower-case word (marks after it aside) may head a noun phrase ("page",
    "bugs,")."""
    letters = word.strip().rstrip(",.;:!?")
    if not is_plain(letters) or letters[:1].isupper() or core(word) in CLOSED_CLASSES:
        return False  # lemminflect lists "that" and "our" as nouns too
    return NOUN_TAG in readings(core(word))


def may_be_verb(word: str) -> bool:
    """Whether a lower-case word may be a verb form ("let", "told"), closed classes aside."""
    return word not in CLOSED_CLASSES and VERB_TAG in readings(word)


def modifier_before_noun(word: str, following: str | None) -> bool:
    """Whether ``word`` is an adjective a cut may take: one that describes ("new", "small"),
    standing right before a noun ("the new page"), never a predicate ("it was long, but"), a
    comparison ("a lower temperature") nor a judgement ("in good condition",
    :mod:`engine.language.en.sentiment`)."""
    low = core(word)
    if following is None or not is_plain(word) or low in MODIFIERS_KEPT:
        return False
    if low in DETERMINERS or low in PREPOSITIONS or low in meaning.NUMBER_WORDS:
        return False
    if core(following) in PRO_FORMS | MEASURE_NOUNS:
        return False
    found = getAllLemmas(low)
    # A comparative or superlative ("lower", "best") compares: what it says is the point; an
    # inflected verb form ("fixed small bugs") may be the clause's verb.
    inflected_verb = any(lemma != low for lemma in found.get(VERB_TAG, ()))
    adjective = low in found.get(ADJECTIVE_TAG, ()) and not inflected_verb
    # One that judges ("good", "beautiful") says what the writer thinks: not the cut's to drop.
    return adjective and describes(low) and not judges(low) and may_be_noun(following)


@cache
def describes(adjective: str) -> bool:
    """Whether an adjective describes its noun ("a long flight", "a useful tool"), which a cut
    may drop, rather than saying which kind it is ("an open day", "the annual report", "the
    current one"), which names another thing without it. A describing adjective is gradable:
    lemminflect's lexicon gives it a comparative ("longer"), or it has a describing suffix
    ("-ful", "-ous", in ``data/cuts.json``) and takes "more"."""
    return bool(getInflection(adjective, COMPARATIVE_TAG, inflect_oov=False)) or adjective.endswith(
        DESCRIPTIVE_SUFFIXES
    )


def droppable_that(previous: str | None, following: str | None) -> bool:
    """Whether "that" opens a clause whose subject follows it ("told us that the shipment",
    "the date that they promised"), where it may go; before a noun it is a determiner ("that
    plan") and before a verb a clause's subject ("bugs that crash"), and stays. After a noun
    that its clause says the content of (:data:`COMPLEMENT_NOUNS`: "the idea that rents will
    rise") it stays too: "the idea rents will rise" reads as no sentence."""
    if previous is None or following is None or not is_plain(previous):
        return False
    if core(previous) in COMPLEMENT_NOUNS:
        return False
    return core(following) in CLAUSE_STARTS and is_plain(following)


def pronoun_after_preposition(words: Sequence[str], i: int) -> bool:
    """Whether words ``i`` and ``i + 1`` are a preposition and the pronoun of the one a thing
    is said, sent or done to, for or with ("reported to us", "check in with you"): a pair a
    cut may take whole. Any other preposition's pronoun is what the verb is about ("went
    through them", "wrote about it"), so only "to", "for" and "with" with a personal pronoun,
    and only after a verb or a verb's particle: after an adjective or an "-ing" form the
    preposition completes the word before it ("close to him", "according to him"). A pronoun
    with a mark after it stays: the sentence's end or the clause's comma would go with it."""
    if i == 0 or i + 1 >= len(words) or not is_plain(words[i]) or not is_plain(words[i + 1]):
        return False
    if core(words[i]) not in RECIPIENT_PREPOSITIONS or core(words[i + 1]) not in PERSONAL_OBJECTS:
        return False
    before = words[i - 1]
    if takes_recipient(before, particle=False):
        return True
    particle = is_plain(before) and ADVERB_TAG in readings(core(before))
    return particle and i >= 2 and takes_recipient(words[i - 2], particle=True)


def takes_recipient(word: str, particle: bool) -> bool:
    """Whether ``word`` may be the verb a recipient's preposition follows: a plain lower-case
    verb form that is no adjective. Right before the preposition no "-ing" form either
    ("according to"); before a particle any form ("getting back to me")."""
    low = core(word)
    if not is_plain(word) or word.strip()[:1].isupper() or low in CLOSED_CLASSES:
        return False
    tags = readings(low)
    if VERB_TAG not in tags or ADJECTIVE_TAG in tags:
        return False
    return particle or not low.endswith(ING)


def past_perfect_auxiliary(word: str, following: str | None) -> bool:
    """A "had" before a participle spelled as its simple past ("had reported" → "reported"):
    the sentence keeps its verb and its time. Before "been" or "taken" it stays (no "was
    taken" is left by dropping it)."""
    if following is None or core(word) not in PERFECT_AUXILIARIES or not is_plain(following):
        return False
    verb = core(following)
    lemmas = getAllLemmas(verb).get(VERB_TAG, ())
    return any(verb in getInflection(lemma, PAST_TAG) for lemma in lemmas) and verb in {
        form for lemma in lemmas for form in getInflection(lemma, PARTICIPLE_TAG)
    }


def reduced_clause(words: Sequence[str], i: int) -> bool:
    """Whether words ``i`` and ``i + 1`` are the subject and "be" of a clause a person
    shortens to its "-ing" verb ("while she was translating" → "while translating")."""
    if i == 0 or i + 2 >= len(words) or not all(is_plain(w) for w in words[i : i + 2]):
        return False
    if core(words[i - 1]) not in SUBORDINATORS or core(words[i]) not in meaning.SUBJECT_PRONOUNS:
        return False
    verb = core(words[i + 2])
    return core(words[i + 1]) in BE_FORMS and verb.endswith(ING) and VERB_TAG in readings(verb)


def reflexive_after_noun(words: Sequence[str], i: int) -> bool:
    """Whether word ``i`` is a reflexive that only stresses the noun phrase before it ("the
    article itself"): it may go. After a verb it is the object ("she hurt herself") and stays;
    the noun must follow an article or determiner, since many nouns may be verbs too."""
    if i < 2 or core(words[i]) not in REFLEXIVES or not is_plain(words[i - 1]):
        return False
    return core(words[i - 2]) in DETERMINERS and may_be_noun(words[i - 1])


def coordinated_modifier(words: Sequence[str], i: int) -> bool:
    """Whether words ``i`` and ``i + 1`` are "and" and a second describing word between an
    adjective and its noun ("a long and tiring flight" → "a long flight")."""
    if i == 0 or i + 2 >= len(words) or core(words[i]) not in COORDINATORS:
        return False
    previous, second = core(words[i - 1]), core(words[i + 1])
    if not (is_plain(words[i - 1]) and is_plain(words[i]) and is_plain(words[i + 1])):
        return False
    if second in DETERMINERS or second in PREPOSITIONS or second in MODIFIERS_KEPT:
        return False
    describes = ADJECTIVE_TAG in readings(second) or second.endswith(ING)
    return ADJECTIVE_TAG in readings(previous) and describes and may_be_noun(words[i + 2])


def reduced_relative(words: Sequence[str], i: int) -> bool:
    """Whether words ``i`` and ``i + 1`` are the "which is" of a side clause that reads as
    what follows it (", which is two weeks later" → ", two weeks later")."""
    if i == 0 or i + 2 >= len(words) or not words[i - 1].rstrip().endswith(","):
        return False
    relative = core(words[i]) in SUBJECT_RELATIVES and is_plain(words[i])
    return relative and is_plain(words[i + 1]) and core(words[i + 1]) in BE_FORMS


def cut_damage(original: str, candidate: str) -> str | None:
    """What cutting ``original`` down to ``candidate`` broke, or ``None``: a sign of meaning
    (:func:`engine.language.en.meaning.meaning_change`: negation, contrast, number, name, a
    sentence's verb), "article" (an "a"/"an" that no longer fits the word now after it),
    "punctuation" (a mark left dangling), "capital" (a sentence now opening in lower case),
    "degree" (a "most" or "very" whose adjective went), "doubled" (a word now written twice
    in a row: "as quickly as possible" cut to "as as possible") or "sentence" (two sentences
    run together: :func:`runs_together`)."""
    changed = meaning.meaning_change(original, candidate)
    if changed is not None:
        return changed
    if misfit_articles(candidate) > misfit_articles(original):
        return "article"
    if len(DANGLING.findall(candidate)) > len(DANGLING.findall(original)):
        return "punctuation"
    if lower_starts(candidate) > lower_starts(original):
        return "capital"
    if stranded_degrees(original, candidate):
        return "degree"
    if doubled_words(candidate) > doubled_words(original):
        return "doubled"
    if runs_together(original, candidate):
        return "sentence"
    return None


def runs_together(original: str, candidate: str) -> bool:
    """Whether the cut took a sentence's end mark and left the sentence after it: a word that
    opened a sentence of ``original`` and stands in ``candidate`` no longer follows an end
    mark ("they look good to me. I only have" cut to "they look good I only have"). A whole
    sentence cut with its mark leaves the one before it ending as it did."""
    was, now = original.split(), candidate.split()
    matcher = SequenceMatcher(a=was, b=now, autojunk=False)
    for block in matcher.get_matching_blocks():
        for offset in range(block.size):
            at_was, at_now = block.a + offset, block.b + offset
            opened = at_was > 0 and SENTENCE_BREAK.search(was[at_was - 1]) is not None
            if opened and at_now > 0 and SENTENCE_BREAK.search(now[at_now - 1]) is None:
                return True
    return False


def stranded_degrees(original: str, candidate: str) -> int:
    """How many degree words ("most", "more", "very") the cut left before the noun their
    adjective stood before ("the most beautiful places" as "the most places")."""
    was = [core(w) for w in original.split()]
    now = " " + " ".join(core(w) for w in candidate.split()) + " "
    return sum(
        1
        for degree, adjective, noun in zip(was, was[1:], was[2:], strict=False)
        if degree in DEGREE_WORDS
        and adjective not in DEGREE_WORDS
        and ADJECTIVE_TAG in readings(adjective)
        and may_be_noun(noun)
        and f" {degree} {noun} " in now
        and f" {degree} {adjective} {noun} " not in now
    )


def lower_starts(text: str) -> int:
    """How many sentences of ``text`` open with a lower-case letter."""
    return sum(1 for letter in SENTENCE_START.findall(text) if letter.islower())


def misfit_articles(text: str) -> int:
    """How many "a" stand before a vowel-initial word or "an" before another (by spelling:
    a rough count, compared only between a text and its own cut)."""
    found = 0
    for article, word in INDEFINITE.findall(text):
        vowel = bool(VOWEL_START.match(word))
        found += vowel != (article.lower() == "an")
    return found


def mending_damage(seed: str, mended: str) -> str | None:
    """What the model's mending of a cut seed broke, or ``None``: what :func:`cut_damage`
    checks, and "sentence" (two sentences run together: "left early like to stay" where the
    seed said "left early. We would like to stay"), "article" (one gone: :func:`articles_in`)
    and "content" (a word that names something gone: the mending renoises the joins, and a
    join's word is mostly a function word)."""
    damage = cut_damage(seed, mended)
    if damage is not None:
        return damage
    if len(SENTENCE_BREAK.findall(mended)) < len(SENTENCE_BREAK.findall(seed)):
        return "sentence"
    if articles_in(mended) < articles_in(seed):
        return "article"
    named = {w for w in WORD_RUN.findall(mended.lower())}
    known = {lemma for w in named for lemma in all_lemmas(w)}
    if any(not all_lemmas(w) & known for w in content_of(seed) if w not in named):
        return "content"
    return None


def articles_in(text: str) -> int:
    """How many articles ``text`` holds. The mending writes the words at a cut's joins, and
    no join is mended by taking an article from its noun ("so that the problems" mended to
    "so that problems" where the seed had cut only "that")."""
    return sum(1 for w in WORD_RUN.findall(text.lower()) if w in ARTICLES)


def content_of(text: str) -> list[str]:
    """The lower-case words of ``text`` that name something (no closed-class word)."""
    return [w for w in WORD_RUN.findall(text.lower()) if w not in CLOSED_CLASSES | FUNCTION_WORDS]


@cache
def all_lemmas(word: str) -> frozenset[str]:
    """A word and each lemma lemminflect's lexicon gives it, any part of speech."""
    return frozenset({word, *(lemma for forms in getAllLemmas(word).values() for lemma in forms)})


def doubled_words(text: str) -> int:
    """How many words of ``text`` repeat the word right before them."""
    found = WORD_RUN.findall(text.lower())
    return sum(1 for a, b in pairwise(found) if a == b)
