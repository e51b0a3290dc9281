"""The English word list spelling reads: the frequency dictionary symspellpy ships, and the
edit distance it counts in.

Read by :mod:`engine.language.en.spelling` (which words are known, SymSpell's candidates),
:mod:`engine.language.en.real_words` (a rare word's commoner neighbours) and
:mod:`engine.language.en.sounds` (the words that sound like a misspelling): one copy of the
list and of SymSpell's index per process, and none of those modules imports another.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from symspellpy import SymSpell
    from symspellpy.editdistance import EditDistance

# Edits (Damerau-Levenshtein: a swap of two letters is one) a candidate may be from the word:
# two covers "immidiatly" → "immediately"; three would offer hundreds of words for a short one.
MAX_EDIT_DISTANCE = 2
# SymSpell indexes each word's first letters only; 7 is its authors' default, measured best.
PREFIX_LENGTH = 7
# The dictionary symspellpy ships: "word count" per line, counts from a web corpus.
DICTIONARY_PACKAGE = "symspellpy"
DICTIONARY_FILE = "frequency_dictionary_en_82_765.txt"
# A word the dictionary counts fewer times than this is rare ("noe": 0.9 million; "now": 611
# million; "verity", a rare word a sentence may mean, 2.6 million; "ching" 1.6 million).
RARE_COUNT = 3_000_000


def dictionary_path() -> Traversable:
    return files(DICTIONARY_PACKAGE).joinpath(DICTIONARY_FILE)


@cache
def dictionary_counts() -> dict[str, int]:
    """Every word of the dictionary with its count (read without building SymSpell's index)."""
    text = dictionary_path().read_text(encoding="utf-8")
    pairs = (line.split(" ", 1) for line in text.splitlines() if line)
    return {word: int(count) for word, count in pairs}


def is_rare(word: str) -> bool:
    """Whether the dictionary counts lower-case ``word`` fewer than :data:`RARE_COUNT` times,
    or not at all."""
    return dictionary_counts().get(word, 0) < RARE_COUNT


@cache
def dictionary_words() -> frozenset[str]:
    """Every word of the dictionary."""
    return frozenset(dictionary_counts())


@cache
def edit_distance() -> EditDistance:
    """Damerau-OSA edits (a swap of two letters is one), as the dictionary counts them."""
    from symspellpy.editdistance import DistanceAlgorithm, EditDistance

    return EditDistance(DistanceAlgorithm.DAMERAU_OSA)


@cache
def symspell_index() -> SymSpell:
    """SymSpell's index of the dictionary: seconds to build, so built once, on first use."""
    from symspellpy import SymSpell

    index = SymSpell(max_dictionary_edit_distance=MAX_EDIT_DISTANCE, prefix_length=PREFIX_LENGTH)
    index.load_dictionary(str(dictionary_path()), term_index=0, count_index=1, encoding="utf-8")
    return index
