"""The English word list spelling reads: the frequency dictionary symspellpy ships, and the
edit distance it counts in.

Read by :mod:`engine.language.en.spelling` (which words are known, SymSpell's candidates) and
:mod:`engine.language.en.sounds` (the words that sound like a misspelling): one copy of the
list per process, and neither of those modules imports the other.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from importlib.resources.abc import Traversable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from symspellpy.editdistance import EditDistance

# The dictionary symspellpy ships: "word count" per line, counts from a web corpus.
DICTIONARY_PACKAGE = "symspellpy"
DICTIONARY_FILE = "frequency_dictionary_en_82_765.txt"


def dictionary_path() -> Traversable:
    return files(DICTIONARY_PACKAGE).joinpath(DICTIONARY_FILE)


@cache
def dictionary_counts() -> dict[str, int]:
    """Every word of the dictionary with its count (read without building SymSpell's index)."""
    text = dictionary_path().read_text(encoding="utf-8")
    pairs = (line.split(" ", 1) for line in text.splitlines() if line)
    return {word: int(count) for word, count in pairs}


@cache
def dictionary_words() -> frozenset[str]:
    """Every word of the dictionary."""
    return frozenset(dictionary_counts())


@cache
def edit_distance() -> EditDistance:
    """Damerau-OSA edits (a swap of two letters is one), as the dictionary counts them."""
    from symspellpy.editdistance import DistanceAlgorithm, EditDistance

    return EditDistance(DistanceAlgorithm.DAMERAU_OSA)
