"""Words that carry the writer's judgement ("good", "beautiful", "terrible"), which a cut
may not drop alone.

A tighter rewrite may drop an adjective that only describes ("a long flight" → "a flight"),
but "a lot of beautiful places" → "a lot of places" or "in good condition" → "in condition"
takes away what the writer thought of the thing, which is part of what they said. Which words
judge comes from VADER's sentiment lexicon (the ``vaderSentiment`` package, MIT; Hutto and
Gilbert, ICWSM 2014): about 7,500 English words and emoticons, each rated for valence by ten
people, kept only where the raters agreed it is not neutral. A typed list of "judging
adjectives" would be ours to guess; the lexicon was rated by people for exactly this. Only
its word list is read (the package's analyser is not used), once per process.
"""

from __future__ import annotations

from functools import cache
from importlib import resources

LEXICON_PACKAGE, LEXICON_FILE = "vaderSentiment", "vader_lexicon.txt"


@cache
def judging_words() -> frozenset[str]:
    """Every lower-case word VADER's lexicon rates (its emoticons have no letters first)."""
    text = resources.files(LEXICON_PACKAGE).joinpath(LEXICON_FILE).read_text(encoding="utf-8")
    entries = (line.split("\t", 1)[0] for line in text.splitlines() if "\t" in line)
    return frozenset(word for word in entries if word[:1].isalpha() and word.islower())


def judges(word: str) -> bool:
    """Whether ``word`` (lower case) carries a judgement: VADER's raters gave it a valence."""
    return word in judging_words()
