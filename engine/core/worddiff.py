"""Word-level diff of a target text against a proposal, grouped into hunks the user can pick.

Pure Python (no Qt), so the review panel and the controller share one tested model of "what
changes". Texts are split into tokens that join back to the exact text: words, runs of
whitespace, and single punctuation marks. Locked spans never sit inside a hunk: the target is
cut at its locks, the proposal at its locked segments, and each pair of free pieces is diffed
on its own (locked pieces are identical by construction, and :func:`word_diff` checks that).

Public API:

- :func:`tokenize` — ``"".join(tokenize(t)) == t`` for every string.
- :func:`split_words` — a passage as whitespace-led words, as the proofreading passes read it.
- :class:`Hunk` — one replaceable change: ``target[start:end]`` (``old``) becomes ``new``.
- :class:`WordDiff` — target, proposal, hunks and the target-relative locked spans.
- :func:`word_diff` — build a :class:`WordDiff` from a target, its locks and proposal segments.
- :func:`apply_hunks` — the target with only the accepted hunks applied.
- :func:`edits_for` — the accepted hunks as ``(start, end, text)`` replacements for an editor.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from engine.core.protocol import SegmentText

# Apostrophes inside a word keep "don't" one token, so a hunk never splits a contraction.
_TOKEN = re.compile(r"\w+(?:['’]\w+)*|\s+|[^\w\s]")
# A word with the whitespace before it: punctuation stays on its word ("late," is one word).
_SPACED_WORD = re.compile(r"\s*\S+")


def tokenize(text: str) -> list[str]:
    """Words, whitespace runs and single punctuation marks; together they are exactly ``text``."""
    return _TOKEN.findall(text)


def split_words(text: str) -> tuple[list[str], str]:
    """Words with their leading whitespace, and the whitespace after the last one: the words
    join back to ``text`` with the trail, so a word replaced by index rebuilds the rest exactly."""
    words = _SPACED_WORD.findall(text)
    return words, text[len("".join(words)) :]


@dataclass(frozen=True)
class Hunk:
    """``target[start:end]`` (``old``) is replaced by ``new``; ``new`` sits at
    ``proposal[new_start:new_end]``. Offsets are relative to the target / proposal text."""

    index: int
    start: int
    end: int
    old: str
    new: str
    new_start: int
    new_end: int


@dataclass(frozen=True)
class WordDiff:
    """Everything the review panel shows: ``locks`` are ``(start, end)`` spans of ``target``."""

    target: str
    proposal: str
    hunks: tuple[Hunk, ...]
    locks: tuple[tuple[int, int], ...] = ()


@dataclass(frozen=True)
class _Change:
    start: int  # char offsets within the free piece pair
    end: int
    new_start: int
    new_end: int


def word_diff(
    target: str,
    segments: Sequence[SegmentText],
    locks: Iterable[tuple[int, int]] = (),
) -> WordDiff:
    """Diff ``target`` against the proposal ``segments``; ``locks`` are target-relative spans.

    Raises ``ValueError`` when the proposal's locked segments are not the target's locked
    texts in order (a proposal that fails this was never valid to show).
    """
    spans = _sorted_locks(locks, len(target))
    old_pieces = _split_at_locks(target, spans)
    new_pieces = _pieces_of(segments)
    _check_locked_pieces(old_pieces, new_pieces)
    proposal = "".join(s.text for s in segments)
    hunks: list[Hunk] = []
    old_at = new_at = 0
    for (old, _), (new, locked) in zip(old_pieces, new_pieces, strict=True):
        if not locked:
            for change in _diff_piece(old, new):
                hunks.append(_hunk(len(hunks), change, target, proposal, old_at, new_at))
        old_at += len(old)
        new_at += len(new)
    return WordDiff(target, proposal, tuple(hunks), tuple(spans))


def _hunk(
    index: int, change: _Change, target: str, proposal: str, old_at: int, new_at: int
) -> Hunk:
    start, end = old_at + change.start, old_at + change.end
    new_start, new_end = new_at + change.new_start, new_at + change.new_end
    return Hunk(
        index, start, end, target[start:end], proposal[new_start:new_end], new_start, new_end
    )


def _sorted_locks(locks: Iterable[tuple[int, int]], length: int) -> list[tuple[int, int]]:
    spans = sorted((int(s), int(e)) for s, e in locks)
    previous_end = 0
    for start, end in spans:
        if not previous_end <= start < end <= length:
            raise ValueError(
                f"lock {start}:{end} is empty, overlaps another or lies outside 0:{length}"
            )
        previous_end = end
    return spans


def _split_at_locks(text: str, spans: list[tuple[int, int]]) -> list[tuple[str, bool]]:
    """Alternate free and locked pieces, starting and ending with a (possibly empty) free one."""
    pieces: list[tuple[str, bool]] = []
    at = 0
    for start, end in spans:
        pieces += [(text[at:start], False), (text[start:end], True)]
        at = end
    pieces.append((text[at:], False))
    return pieces


def _pieces_of(segments: Sequence[SegmentText]) -> list[tuple[str, bool]]:
    """The same alternation for proposal segments: adjacent free ones join, gaps become ""."""
    pieces: list[tuple[str, bool]] = [("", False)]
    for segment in segments:
        if segment.locked:
            pieces += [(segment.text, True), ("", False)]
        else:
            pieces[-1] = (pieces[-1][0] + segment.text, False)
    return pieces


def _check_locked_pieces(old: list[tuple[str, bool]], new: list[tuple[str, bool]]) -> None:
    old_locked = [text for text, locked in old if locked]
    new_locked = [text for text, locked in new if locked]
    if old_locked != new_locked:
        raise ValueError(
            f"the proposal's locked segments {new_locked!r} "
            f"are not the target's locks {old_locked!r}"
        )


def _diff_piece(old: str, new: str) -> list[_Change]:
    """Changes between two free pieces, with changes separated only by whitespace merged."""
    a, b = tokenize(old), tokenize(new)
    a_at, b_at = _offsets(a), _offsets(b)
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    changes: list[_Change] = []
    gap_is_blank = False
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            gap_is_blank = all(token.isspace() for token in a[i1:i2])
            continue
        change = _Change(a_at[i1], a_at[i2], b_at[j1], b_at[j2])
        if changes and gap_is_blank:
            # "the quick" -> "a slow" reads as one change, not two split by a space.
            first = changes.pop()
            change = _Change(first.start, change.end, first.new_start, change.new_end)
        changes.append(change)
    return changes


def _offsets(tokens: list[str]) -> list[int]:
    """Character offset of each token, plus the total length at the end."""
    offsets = [0]
    for token in tokens:
        offsets.append(offsets[-1] + len(token))
    return offsets


def apply_hunks(original: str, hunks: Sequence[Hunk], accepted: Iterable[int]) -> str:
    """``original`` with the accepted hunks (by :attr:`Hunk.index`) applied, the rest kept."""
    chosen = set(accepted)
    parts: list[str] = []
    at = 0
    for hunk in sorted(hunks, key=lambda h: h.start):
        parts.append(original[at : hunk.start])
        parts.append(hunk.new if hunk.index in chosen else original[hunk.start : hunk.end])
        at = hunk.end
    parts.append(original[at:])
    return "".join(parts)


def edits_for(
    hunks: Sequence[Hunk], accepted: Iterable[int], offset: int = 0
) -> list[tuple[int, int, str]]:
    """Accepted hunks as ``(start, end, text)`` replacements, shifted by ``offset`` (the target's
    position in the document), in document order."""
    chosen = set(accepted)
    return [
        (offset + h.start, offset + h.end, h.new)
        for h in sorted(hunks, key=lambda h: h.start)
        if h.index in chosen
    ]
