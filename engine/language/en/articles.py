"""A missing article: "he is nurse", "in small town", "at higher price".

Learners of English most often drop an article before a singular noun (Bryant & Briscoe's
learner corpora and JFLEG's corrections insert one more than any other word). No form of the
noun supplies it, so :mod:`engine.language.en.grammar` offers it as its own fix: "a", "an" or
"the" before a singular noun with no determiner, or before the adjectives that lead into it,
and the model reading the passage chooses among them or none (:mod:`engine.passes.proofread`,
which also prices what adding a word says: :data:`ARTICLE_RISK`). Bare nouns that English
leaves bare ("at home", "by car", "information") read worse with an article, and stay.

The word classes are lemminflect's lexicon (a word the lexicon reads only as a noun, and as its
own singular); the articles, prepositions, be-forms and determiners come from
``data/word_tiers.json``. Pure functions over word texts: no tokenizer, no model.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import TYPE_CHECKING

from lemminflect import getAllLemmas

from engine.language.en.data import load_json, word_set
from engine.language.en.rewordings import Rewording, lead

if TYPE_CHECKING:
    import inflect

ARTICLES: tuple[str, ...] = tuple(load_json("word_tiers.json")["articles"])
DETERMINERS = word_set("word_tiers.json", "determiners")
# The words after which a noun phrase may have lost its article: "in (the) town", "is (a)
# nurse". A noun after another noun or an adjective is inside a phrase already.
PHRASE_OPENERS = word_set("word_tiers.json", "prepositions") | word_set(
    "word_tiers.json", "be_forms"
)
NOUN, ADJECTIVE, VERB, AUXILIARY = "NOUN", "ADJ", "VERB", "AUX"
INFINITIVE = "to"  # "to work": a verb may follow it, so only a word that is no verb is a noun
LOOSE, STRICT = "a noun or a verb may follow", "only a noun may follow"
# A noun phrase's adjectives at most, walked back from its noun ("a long dry summer").
MOST_ADJECTIVES = 3
SHORTEST_NOUN = 3  # "ox", "ax": too short to read as a noun phrase in free text
PLAIN = re.compile(r"[a-z]+")
TRAILING_MARKS = re.compile(r"[.,;:!?\"()]+$")
A, AN = "a", "an"
INDEFINITE_ARTICLES = (A, AN)


@cache
def readings(word: str) -> frozenset[str]:
    """The word classes lemminflect's lexicon reads a lower-case word as."""
    return frozenset(getAllLemmas(word))


def is_singular_noun(word: str, or_verb: bool) -> bool:
    """A noun in its own singular that is no adjective ("town", not "towns", "people" or
    "low"); with ``or_verb`` it may also be a verb ("nurse" after "is", where no verb's base
    form can stand), else only a noun."""
    lemmas = getAllLemmas(word)
    classes = set(lemmas)
    if NOUN not in classes or word not in lemmas[NOUN] or word in DETERMINERS:
        return False
    return classes <= ({NOUN, VERB} if or_verb else {NOUN})


def opener(word: str) -> str | None:
    """How a noun phrase may start right after ``word``: after a form of "be" or a
    preposition other than the infinitive's "to" (a noun that is also a verb may follow), or
    after a word the lexicon reads only as a verb ("visited", "became": only a noun may)."""
    if word in PHRASE_OPENERS and word != INFINITIVE:
        return LOOSE
    if word == INFINITIVE or (readings(word) and readings(word) <= {VERB, AUXILIARY}):
        return STRICT
    return None


def article_fixes(words: Sequence[str], index: int) -> list[Rewording]:
    """Each article before the noun phrase that ends in word ``index``, when that word is a
    bare singular noun (lower case, no marks before it) after a word a phrase may open with."""
    noun = plain(words[index])
    if noun is None or len(noun) < SHORTEST_NOUN:
        return []
    start = index
    while start > 0 and index - start < MOST_ADJECTIVES:
        before = plain(words[start - 1], last=False)
        if before is None or before in DETERMINERS or before in PHRASE_OPENERS:
            break
        if ADJECTIVE not in readings(before):
            break
        start -= 1
    before = plain(words[start - 1].lower(), last=False) if start else None
    how = opener(before) if before else None
    if how is None or not is_singular_noun(noun, or_verb=how == LOOSE):
        return []
    first = words[start]
    wanted = indefinite_for(first)
    fitting = [a for a in ARTICLES if wanted is None or a not in INDEFINITE_ARTICLES or a == wanted]
    return [Rewording(start, start + 1, f"{lead(first)}{a} {first.strip()}") for a in fitting]


def indefinite_for(word: str) -> str | None:
    """The indefinite article a plain lower-case ``word`` takes by its first sound, as the
    ``inflect`` package reads it ("an hour", "a house", "an umbrella", "a user", "a one-off"),
    and ``None`` where it is no plain lower-case word (an acronym or a number: "an FBI", "a
    1990s", whose sound its letters do not tell)."""
    letters = TRAILING_MARKS.sub("", word.strip())
    return _article_by_sound(letters) if PLAIN.fullmatch(letters) else None


@cache
def _article_by_sound(letters: str) -> str:
    return AN if _inflection().a(letters).startswith(AN + " ") else A


@cache
def _inflection() -> inflect.engine:
    """inflect's engine, built on first use (importing inflect instruments its functions with
    typeguard, which reads their source: a cost the editor need not pay at start-up)."""
    import inflect

    return inflect.engine()


def plain(word: str, last: bool = True) -> str | None:
    """The lower-case letters of a plain word; a mark after it ends the phrase, so only the
    phrase's ``last`` word may carry one ("in town." but not "in small, town")."""
    text = word.strip()
    letters = TRAILING_MARKS.sub("", text) if last else text
    return letters if PLAIN.fullmatch(letters) else None
