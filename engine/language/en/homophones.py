"""Homophones told apart by the words around them, where offering the other one everywhere
would cost a read per occurrence and invite a wrong swap.

"to" and "too" sound alike, and learners write "to much", "it looks to pretty", "it is to
late". Offering "too" for every "to" in a passage would ask the model about each of the most
common words of English; instead "too" is offered only where "to" cannot be what it is
everywhere else: a preposition before a noun phrase ("to school", "to far places") or the mark
of an infinitive ("to go"). That is where the word after it is only an adjective or an adverb
(lemminflect's lexicon: no noun or verb reading) and no noun follows it for a preposition to
take ("to much" stands before its noun too: "too much money" is still a degree). The model
reading the passage chooses, as for every other fix.

Pure functions over word texts.
"""

from __future__ import annotations

from collections.abc import Sequence

from lemminflect import getAllLemmas

from engine.language.en.cut_safety import CLOSED_CLASSES, core, is_plain, may_be_noun
from engine.language.en.data import load_json
from engine.language.en.rewordings import Rewording, spelled

DATA = load_json("grammar.json")
TO, TOO = DATA["to_too"]["to"], DATA["to_too"]["too"]
# Degree words a noun may follow after "too" ("too much money", "too many cars").
QUANTITY_DEGREES = frozenset(DATA["to_too"]["quantities"])
DESCRIBING_CLASSES = frozenset({"ADJ", "ADV"})
# Closed-class words never read as a degree after "to" ("to the"), but a quantity ("to much").
NOT_DEGREES = CLOSED_CLASSES - QUANTITY_DEGREES


def too_for_to(words: Sequence[str], index: int) -> list[Rewording]:
    """ "to much" → "too much", "looks to pretty" → "too pretty": "to" before a word that is
    only an adjective or an adverb, with no noun after it (but a quantity's noun)."""
    if core(words[index]) != TO or index + 1 >= len(words) or not is_plain(words[index]):
        return []
    degree = words[index + 1].strip()
    low = core(degree)
    if not low.isalpha() or degree[:1].isupper() or low in NOT_DEGREES:
        return []
    if not only_describes(low):
        return []
    if low not in QUANTITY_DEGREES and is_plain(degree) and noun_follows(words, index + 2):
        return []  # "to far places": a preposition and its noun phrase
    return [Rewording(index, index + 1, spelled(words[index], words[index], TOO))]


def only_describes(low: str) -> bool:
    """Whether a lower-case word is only an adjective or an adverb in lemminflect's lexicon."""
    classes = set(getAllLemmas(low))
    return bool(classes) and classes <= DESCRIBING_CLASSES


def noun_follows(words: Sequence[str], at: int) -> bool:
    """Whether word ``at`` may be a noun (a preposition's object after an adjective)."""
    return at < len(words) and may_be_noun(words[at].strip().lower())
