"""How likely a slip is: the edits between a misspelling and a candidate, weighed by kind.

The noisy channel of spelling correction (Kernighan, Church & Gale 1990) prices each
candidate by how likely the typist was to write the misspelling when meaning it. Counting
every edit alike prices "coments" → "comments" (one ``m`` written once) as "coments" →
"moments" (a ``c`` for an ``m``), and the model reading the sentence then chooses by context
alone. But people mostly slip in a few ways: a doubled letter written once or a single one
twice ("acomodate", "untill") and two letters swapped ("recieve"); a letter for an unrelated
one is much rarer. So here those two kinds count :data:`LIGHT_EDIT` of an edit; every other
insertion, deletion or substitution counts one.

Pure functions over lower-case words (a Damerau-OSA distance with weighted steps, a few
letters each: candidates are read for a handful of words per request).
"""

from __future__ import annotations

from collections.abc import Sequence

# A doubled letter written once (or a single one twice), or two neighbours swapped: the
# commonest slips, counted as this much of an edit.
LIGHT_EDIT = 0.5
FULL_EDIT = 1.0


def slip_edits(word: str, candidate: str) -> float:
    """Weighted edits from ``candidate`` (what was meant) to ``word`` (what was typed)."""
    rows = len(word) + 1
    table = [[0.0] * (len(candidate) + 1) for _ in range(rows)]
    for i in range(1, rows):
        table[i][0] = table[i - 1][0] + indel(word, i - 1)
    for j in range(1, len(candidate) + 1):
        table[0][j] = table[0][j - 1] + indel(candidate, j - 1)
    for i in range(1, rows):
        for j in range(1, len(candidate) + 1):
            table[i][j] = _step(table, word, candidate, i, j)
    return table[-1][-1]


def _step(table: list[list[float]], word: str, candidate: str, i: int, j: int) -> float:
    """The cheapest way to write ``word[:i]`` for ``candidate[:j]``: a deletion, an
    insertion, a substitution (free when the letters agree) or a swap of two neighbours."""
    same = word[i - 1] == candidate[j - 1]
    best = min(
        table[i - 1][j] + indel(word, i - 1),
        table[i][j - 1] + indel(candidate, j - 1),
        table[i - 1][j - 1] + (0.0 if same else FULL_EDIT),
    )
    swapped = (
        i > 1 and j > 1 and word[i - 1] == candidate[j - 2] and word[i - 2] == candidate[j - 1]
    )
    if swapped and not same:
        best = min(best, table[i - 2][j - 2] + LIGHT_EDIT)
    return best


def indel(letters: Sequence[str], at: int) -> float:
    """What inserting or deleting ``letters[at]`` costs: light beside the same letter (a
    doubling undone or made), one edit else."""
    letter = letters[at]
    doubled = (at > 0 and letters[at - 1] == letter) or (
        at + 1 < len(letters) and letters[at + 1] == letter
    )
    return LIGHT_EDIT if doubled else FULL_EDIT
