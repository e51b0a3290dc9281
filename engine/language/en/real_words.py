"""Real-word slips: a rare dictionary word that is one edit from a far commoner one ("noe").

A misspelling that happens to be a word is no misspelling to a dictionary: SymSpell's list of
82,765 words holds "noe" and "alow" as it holds "now" and "allow", so "fix spelling" never saw
them. Real-word correction (Mays, Damerau & Mercer 1991) reads such a word against its
neighbours in context. Here only the clear cases are offered: a rare word (the dictionary
counts it fewer than :data:`~engine.language.en.dictionary.RARE_COUNT` times) whose neighbour
one edit away it counts at least :data:`COMMONER_BY` times as often, and the model must read
the neighbour better by :data:`REAL_WORD_NATS` more than a misspelling's candidate must (the
word as written is a word: the evidence has to be strong). The editor does not underline
them: they are words.

Pure functions over lower-case words; the neighbours of each word are looked up once.
"""

from __future__ import annotations

from functools import cache

from engine.language.en.dictionary import RARE_COUNT, dictionary_counts, symspell_index

# A neighbour this many times commoner is what such a word most likely slipped from.
COMMONER_BY = 100
# Nats a real-word candidate must save beyond a misspelling candidate's margin.
REAL_WORD_NATS = 3.0
NEIGHBOUR_EDITS = 1


@cache
def commoner_neighbours(word: str) -> tuple[tuple[str, int], ...]:
    """The words one edit from lower-case ``word`` that are far commoner than it, with
    their edits, the commonest first; none when ``word`` is not rare or not a word."""
    from symspellpy import Verbosity

    counts = dictionary_counts()
    count = counts.get(word)
    if count is None or count >= RARE_COUNT:
        return ()
    found = symspell_index().lookup(word, Verbosity.ALL, max_edit_distance=NEIGHBOUR_EDITS)
    near = [s for s in found if s.distance == NEIGHBOUR_EDITS and s.count >= COMMONER_BY * count]
    return tuple((s.term, s.distance) for s in sorted(near, key=lambda s: -s.count))
