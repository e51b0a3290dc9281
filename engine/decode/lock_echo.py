"""Lock echoes: free text beside a lock may not repeat the lock's names and numbers.

A 135M model that sees a locked phrase in the canvas (and in the passage shown before it) often
writes its words again right next to it: "by March 3, March 3.", "IN- INV-2041", "within 30 30
days", "install Python Python 3". The lock holds, but the rewrite reads as a stutter, and a
reader blames the lock. The echo is usually a different token from the lock's own ("Python"
inside the lock, " Python" with its space in the free text), so the guards' neighbour ban does
not see it. :func:`echo_bans` lists, for each free position within :data:`ECHO_WINDOW` of a
lock, the spellings of the lock's distinctive tokens (those holding a digit, starting with a
capital, or of :data:`DISTINCT_LETTERS` letters or more: "March", "2041", "days", not "the"),
which :class:`~engine.decode.guards.ProseGuards` then bans there.

A structured fill's slots echo the template the same way, gluing its key names and literals
onto a value ("Adaretnameemail", "Johnienameid", "Londonfalsetrue"): :func:`glued_word_bans`
bans, inside a slot (after its first position), the tokens that spell such a word with no
space before it. Pure: no model, no tensors.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.core.canvas import Kind

ECHO_WINDOW = 3  # free positions on each side of a lock that may not echo it
DISTINCT_LETTERS = 4  # a lower-case word this long is distinctive enough to count as an echo


def distinctive(text: str) -> bool:
    """Whether a lock token's text is worth guarding: a number, a name, or a longer word."""
    core = text.strip()
    if not any(ch.isalnum() for ch in core):
        return False
    return any(ch.isdigit() for ch in core) or core[0].isupper() or len(core) >= DISTINCT_LETTERS


def lock_runs(kinds: Sequence[Kind]) -> list[range]:
    """The canvas's contiguous locked runs, left to right."""
    runs: list[range] = []
    start = None
    for i, kind in enumerate([*kinds, None]):
        if kind is Kind.LOCKED and start is None:
            start = i
        elif kind is not Kind.LOCKED and start is not None:
            runs.append(range(start, i))
            start = None
    return runs


def echo_bans(
    kinds: Sequence[Kind],
    seed_ids: Sequence[int],
    texts: Callable[[int], str],
    spellings: Callable[[int], frozenset[int]],
) -> dict[int, frozenset[int]]:
    """Free position -> token ids it may not hold, because they would echo a lock beside it."""
    bans: dict[int, set[int]] = {}
    for run in lock_runs(kinds):
        guarded: set[int] = set()
        for i in run:
            if distinctive(texts(seed_ids[i])):
                guarded |= spellings(seed_ids[i])
        if not guarded:
            continue
        for p in (*_free_side(kinds, run.start, -1), *_free_side(kinds, run.stop - 1, 1)):
            bans.setdefault(p, set()).update(guarded)
    return {p: frozenset(ids) for p, ids in bans.items()}


def _free_side(kinds: Sequence[Kind], edge: int, step: int) -> list[int]:
    """Up to ECHO_WINDOW free positions next to ``edge``, going ``step``, stopping at non-free."""
    found: list[int] = []
    p = edge + step
    while 0 <= p < len(kinds) and kinds[p] is Kind.FREE and len(found) < ECHO_WINDOW:
        found.append(p)
        p += step
    return found


def glued_word_bans(
    kinds: Sequence[Kind],
    segment_of: Sequence[int],
    words: Sequence[str],
    glued: Callable[[str], frozenset[int]],
) -> dict[int, frozenset[int]]:
    """Slot position -> tokens that would glue one of ``words`` onto the text before it.

    A slot's first position is exempt: a value may start with such a word ("Name tags").
    """
    ids = frozenset(token for word in words for token in glued(word))
    if not ids:
        return {}
    return {
        i: ids
        for i, kind in enumerate(kinds)
        if kind is Kind.SLOT and i > 0 and segment_of[i - 1] == segment_of[i]
    }


def merge_bans(*parts: dict[int, frozenset[int]]) -> dict[int, frozenset[int]]:
    """Several position -> banned-ids maps as one."""
    merged: dict[int, frozenset[int]] = {}
    for part in parts:
        for position, ids in part.items():
            merged[position] = merged.get(position, frozenset()) | ids
    return merged
