"""Which spelling variety a document writes (American or British), and a word's form in it.

A misspelling is fixed to a word, and for about 1,700 words English has two right spellings
("organization", "organisation"; "color", "colour"). The dictionary proposes both, and the
noisy channel (:mod:`engine.language.en.channel`) then picks the one nearer the letters typed,
so one paragraph could get "organisation" and the next "color". Which of the two a document
uses is not a slip of the typist but the document's convention, as an editor's language
setting is: so each candidate is written in the document's variety, priced by the nearer of
its two spellings. The variety is the one the document's own words already spell (its words
with two spellings, counted), and American where it spells none: SymSpell's frequency
dictionary, which proposes the candidates, counts American text the most.

A word already spelt right in either variety is never changed here: only a misspelt word's
candidates are written in the variety. The pairs come from the ``breame`` package (British
and American spellings, Apache-2.0), not a list of ours.

Pure functions over lower-case words; the pairs are read once per process.
"""

from __future__ import annotations

import re
from functools import cache

AMERICAN = "american"
BRITISH = "british"
# Where a document spells no word of two spellings: the variety SymSpell's dictionary, the
# source of every candidate, counts the most (breame's American words about twice as often,
# all together, as their British pairs; "organization" 3.4 times "organisation").
DEFAULT_VARIETY = AMERICAN
WORD = re.compile(r"[A-Za-z]+")


@cache
def spelling_pairs() -> tuple[dict[str, str], dict[str, str]]:
    """(British word → American, American word → British), breame's pairs."""
    from breame.data.spelling_constants import (
        AMERICAN_ENGLISH_SPELLINGS,
        BRITISH_ENGLISH_SPELLINGS,
    )

    return dict(BRITISH_ENGLISH_SPELLINGS), dict(AMERICAN_ENGLISH_SPELLINGS)


def variety_of(word: str) -> str | None:
    """The variety whose own spelling ``word`` (lower case) is; None for a word spelt the
    same in both, or in one only where the other's pair is missing."""
    to_american, to_british = spelling_pairs()
    if word in to_american and word not in to_british:
        return BRITISH
    if word in to_british and word not in to_american:
        return AMERICAN
    return None


def document_variety(text: str) -> str:
    """The variety most of ``text``'s words of two spellings are spelt in (a tie, or none:
    :data:`DEFAULT_VARIETY`)."""
    counts = {AMERICAN: 0, BRITISH: 0}
    for match in WORD.finditer(text):
        found = variety_of(match.group().lower())
        if found is not None:
            counts[found] += 1
    if counts[BRITISH] > counts[AMERICAN]:
        return BRITISH
    if counts[AMERICAN] > counts[BRITISH]:
        return AMERICAN
    return DEFAULT_VARIETY


def in_variety(word: str, variety: str) -> str:
    """``word`` (lower case) spelt as ``variety`` spells it: itself when it is already, or
    when it has no other spelling."""
    to_american, to_british = spelling_pairs()
    if variety == AMERICAN and variety_of(word) == BRITISH:
        return to_american[word]
    if variety == BRITISH and variety_of(word) == AMERICAN:
        return to_british[word]
    return word
