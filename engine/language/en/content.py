"""Content words: the one definition of which words say what a text is about.

A word of :data:`CONTENT_LETTERS` letters or more that is not a function word, a hedge, a light
connective or one of the other topic-free words of ``data/content.json`` ("should", "there",
"because"). Shorter words are mostly function words ("the", "was", "its"): changing one is no new
content. The reread pass uses it to tell a rewrite that says other things from one that says
the same things better, verified drafts to tell a topic word said again from "the", and the
meaning check to tell a correction ("sign" → "signed") from another word (:func:`reworded`).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher
from itertools import pairwise

from engine.language.en.cut_safety import CLOSED_CLASSES
from engine.language.en.data import word_set
from engine.language.en.drops import FUNCTION, HEDGES, LIGHT
from engine.language.en.forms import readings

CONTENT_LETTERS = 4
# Shorter words that may still name or describe ("new", "old", "car"): read by their class.
SHORT_CONTENT_LETTERS = 3
NAMING_CLASSES = frozenset({"NOUN", "VERB", "ADJ"})
MODALS = word_set("word_tiers.json", "modals")
# Longer words that say nothing of the topic: swapping "should" for "would" is no new content.
NOT_CONTENT = FUNCTION | HEDGES | LIGHT | word_set("content.json", "not_content")
WORD = re.compile(r"[a-z']+")
# A word and its spelling fixed are this alike or more (difflib's ratio): "becuse" and
# "because" 0.92, "definately" and "definitely" 0.9, "night" and "day" 0.25.
RESPELLED_SIMILARITY = 0.75
# A sentence's own punctuation: what a cut or a sentence split may leave in a word's place.
PUNCTUATION = frozenset(",.;:!?'\"()\u2019\u201c\u201d")


def is_content_word(word: str) -> bool:
    """Whether one word (its own letters, any case) says something of the topic."""
    lower = word.lower()
    return len(lower) >= CONTENT_LETTERS and lower.isalpha() and lower not in NOT_CONTENT


def content_words(text: str) -> set[str]:
    """Lower-cased words of :data:`CONTENT_LETTERS` letters or more, topic-free words aside."""
    found = {w for w in WORD.findall(text.lower()) if len(w) >= CONTENT_LETTERS}
    return found - NOT_CONTENT


def replaces_content(was: str, now: str) -> bool:
    """Whether ``now`` says other content words where ``was`` had some: it loses a content word
    and gains another."""
    lost, gained = content_words(was) - content_words(now), content_words(now) - content_words(was)
    return bool(lost and gained)


def marks_for_a_word(was: str, now: str) -> bool:
    """Whether ``now`` puts marks alone where ``was`` had a word: it drops a word, says none
    the writer did not, and writes a mark other than a sentence's punctuation that ``was``
    did not have ("Still it rained." → "-- it rained."). A dropped word is a cut, and a
    comma or a stop in its place may be a sentence split ("and it" → ". It"), which fluency
    judges; a word turned into a dash or an underscore is neither."""
    was_words, now_words = Counter(WORD.findall(was.lower())), Counter(WORD.findall(now.lower()))
    dropped, said = was_words - now_words, now_words - was_words
    return bool(dropped) and not said and bool(set(_marks(now) - _marks(was)) - PUNCTUATION)


def _marks(text: str) -> Counter[str]:
    return Counter(ch for ch in text if not (ch.isalnum() or ch.isspace()))


def lemmas(word: str) -> set[str]:
    """Every lemma ``word`` may be a form of, over-regularised forms ("sended") included."""
    lower = word.lower()
    return {lower} | {r.lemma for r in readings(lower)}


def related(word: str, other: str) -> bool:
    """Whether ``other`` is a form of ``word`` ("signed", "sign") or its spelling fixed."""
    similar = SequenceMatcher(None, word.lower(), other.lower()).ratio() >= RESPELLED_SIMILARITY
    return similar or bool(lemmas(word) & lemmas(other))


def reworded(was: str, now: str) -> bool:
    """Whether ``now`` puts another word where ``was`` had a content word, drops one, or
    brings in a content word no word of ``was`` is a form or a spelling of. A correction
    (fix grammar, fix spelling) changes a word's form or its spelling ("sign" → "signed",
    "becuse" → "because"), never the word ("every night" → "every day"); it never leaves a
    content word out ("on a high mountain" → "on a high"), nor says one the writer did not
    ("prefer the old one" → "prefer the old plan"). The words are compared where they stand
    (each stretch that differs against the stretch it replaced): two words that trade places
    say another thing though the same words are said ("the new phone is bigger than the old
    one" settled as "the old phone is bigger than the new one")."""
    listed, said = WORD.findall(was.lower()), WORD.findall(now.lower())
    # a word typed twice in a row may lose its copy, and a word may move ("I yesterday went"
    # → "I went yesterday"): taken out in one place and put in another, it is still said
    kept = {a for a, b in pairwise(listed) if a == b}
    counted = Counter(said)
    moved = {w for w, n in Counter(listed).items() if counted[w] == n}
    matcher = SequenceMatcher(None, listed, said, autojunk=False)
    for op, a1, a2, b1, b2 in matcher.get_opcodes():
        free = kept | moved if op in ("delete", "insert") else kept
        if op != "equal" and _content_changed(listed[a1:a2], said[b1:b2], free):
            return True
    return False


def _says_something(word: str) -> bool:
    """A content word, or a short one that names or describes ("new", "old", "car", "red"):
    a noun, a verb or an adjective of the lexicon and of no closed class ("him" and "its"
    are nouns too in lemminflect's lexicon). A correction may not swap "new" for "old"."""
    if is_content_word(word):
        return True
    if len(word) < SHORT_CONTENT_LETTERS or word in NOT_CONTENT or word in CLOSED_CLASSES:
        return False
    return bool({r.part for r in readings(word)} & NAMING_CLASSES) and word not in MODALS


def _content_changed(gone: Sequence[str], new: Sequence[str], free: set[str]) -> bool:
    """Whether the words ``new`` put for ``gone`` lose a content word none of them is a form
    or a spelling of, or bring in one none of ``gone`` is (``free``: words that may come or go
    here)."""
    lost = (w for w in gone if _says_something(w) and w not in free)
    if any(not any(related(w, n) for n in new) for w in lost):
        return True
    gained = (n for n in new if _says_something(n) and n not in free)
    return any(not any(related(w, n) for w in gone) for n in gained)
