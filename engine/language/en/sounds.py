"""What a misspelt word sounds like, and the dictionary words that sound like it.

People misspell by ear: "imidatly" is four edits from "immediately", "nessisitates" three from
"necessitates", and SymSpell's two edits (:mod:`engine.language.en.spelling`) find neither;
"biuld" is one edit from "build" and two from "field", and the model reading a sentence built
for it preferred "field". A misspelling mostly keeps a word's sound, so both are a matter of
the sound: here, Lawrence Philips's Metaphone key (jellyfish's, a maintained library), which
writes a word's consonant sounds ("imidatly" and "immediately" are both ``IMTTL``; "biuld" and
"build" ``BLT``, "field" ``FLT``).

Two uses, both pure lookups over the spelling dictionary:

- :func:`sound_alike`: the dictionary words whose key is within :data:`MAX_KEY_EDITS` of a
  misspelling's (a SymSpell index of the keys themselves, so a key one sound off, "preffeson"
  ``PRFSN`` beside "profession" ``PRFXN``, is found as fast as an equal one), no further than
  :data:`MAX_WORD_EDITS` in letters, the closest in sound, then in letters, then the most
  frequent first;
- :func:`key_edits`: how far two words' keys are apart, which
  :func:`engine.passes.offers.spelling_margin` reads as the noisy channel's second half:
  a candidate that sounds like the misspelling is a likelier slip than one that does not.
"""

from __future__ import annotations

import re
from collections import defaultdict
from functools import cache
from typing import TYPE_CHECKING

from engine.language.en.dictionary import dictionary_counts, edit_distance

if TYPE_CHECKING:
    from symspellpy import SymSpell

# A key one sound off ("AFBLT" of "avaiblity" beside "AFLBLT" of "availability") still
# names the word; two off mostly names another one.
MAX_KEY_EDITS = 1
# Letters a sound-alike may be from the misspelling: "imidatly" → "immediately" is four;
# five or more pairs short misspellings with long words that only share consonants.
MAX_WORD_EDITS = 4
# A key this short says too little to find words by (a key of one sound matches hundreds).
MIN_KEY_SOUNDS = 2
# Far keys count as this many edits apart (no distance is computed beyond it).
FAR_KEYS = MAX_KEY_EDITS + 1
REPEATED = re.compile(r"(.)\1+")
# SymSpell's prefix for an index of short keys: the whole key.
KEY_PREFIX_LENGTH = 7


def key(word: str) -> str:
    """The Metaphone key of a lower-case word of letters, a sound repeated written once
    (jellyfish writes the ``cc`` of "accounts" as ``KK``, the ``c`` of "acounts" as ``K``)."""
    import jellyfish

    return REPEATED.sub(r"\1", str(jellyfish.metaphone(word)))


def key_edits(word: str, other: str) -> int:
    """Edits between two words' keys (Damerau-OSA), at most :data:`FAR_KEYS`."""
    found = edit_distance().compare(key(word), key(other), FAR_KEYS)
    return FAR_KEYS if found < 0 else found


def sound_alike(word: str, limit: int) -> tuple[tuple[str, int], ...]:
    """Up to ``limit`` dictionary words that sound like lower-case ``word``, each with its
    edits in letters; the word itself never."""
    from symspellpy import Verbosity

    sound = key(word)
    if len(sound) < MIN_KEY_SOUNDS:
        return ()
    counts, words, letters = dictionary_counts(), words_by_key(), edit_distance()
    found = []
    for near in _key_index().lookup(sound, Verbosity.ALL, max_edit_distance=MAX_KEY_EDITS):
        for other in words.get(near.term, ()):
            edits = letters.compare(word, other, MAX_WORD_EDITS)
            if 0 < edits <= MAX_WORD_EDITS:
                found.append((near.distance, edits, -counts[other], other))
    return tuple((other, edits) for _, edits, _, other in sorted(found)[:limit])


@cache
def words_by_key() -> dict[str, tuple[str, ...]]:
    """Every dictionary word of letters under its key (built once, on first use)."""
    grouped: dict[str, list[str]] = defaultdict(list)
    for word in dictionary_counts():
        if word.isalpha():
            grouped[key(word)].append(word)
    return {sound: tuple(words) for sound, words in grouped.items()}


def warm_up() -> None:
    """Build the keys' index now (with the dictionary's, on the window's thread)."""
    _key_index()


@cache
def _key_index() -> SymSpell:
    """SymSpell's index of the keys (each key once: the lookup only needs their spelling)."""
    from symspellpy import SymSpell

    index = SymSpell(max_dictionary_edit_distance=MAX_KEY_EDITS, prefix_length=KEY_PREFIX_LENGTH)
    for sound in words_by_key():
        if sound:
            index.create_dictionary_entry(sound, 1)
    return index
