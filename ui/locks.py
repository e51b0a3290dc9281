"""Locked spans of a document, tracked by ``QTextCursor`` anchors so they move with edits.

A lock is a pair of cursors: the start cursor moves forward when text is inserted at its
position (an insertion right before a lock lands outside it), the end cursor keeps its
position (an insertion right after a lock lands outside it too). Each lock also remembers the
text it held when it was made, so the editor can tell whether an operation it could not
inspect beforehand (undo, redo) damaged one.

Public API of :class:`LockSet`:

- ``add(start, end)`` — lock a range, merging with locks it overlaps or touches.
- ``remove(start, end)`` — unlock a range (may split a lock in two).
- ``toggle(start, end)`` — unlock if the range is entirely locked, else lock it.
- ``spans()`` — ``[(start, end), ...]`` sorted, for sidecar files and requests.
- ``set_spans(spans)`` / ``clear()`` — replace all locks (e.g. after loading a file).
- ``touches(start, end, inserting)`` — would replacing ``[start, end)`` alter locked text?
- ``lock_at(position)`` — the span holding ``position`` strictly inside or at its edges.
- ``damaged()`` / ``prune()`` — locks whose text changed / drop locks that became empty.
- signal ``changed()`` — the set of locks changed (not emitted when edits merely shift them).

Positions here are ``QTextDocument`` positions, which count UTF-16 code units: a character
outside the Basic Multilingual Plane (most emoji) takes two. :class:`PositionMap` converts to
and from Python string indices, which is what the editor's public API and the engine use.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QTextCursor, QTextDocument

_ASTRAL = re.compile("[\U00010000-\U0010ffff]")


class PositionMap:
    """Python string indices <-> ``QTextDocument`` positions for one snapshot of a text."""

    def __init__(self, text: str) -> None:
        wide = [m.start() for m in _ASTRAL.finditer(text)]
        # Where each wide character starts in UTF-16 units: its index plus the wide ones before it.
        self._wide = wide
        self._wide_qt = [index + k for k, index in enumerate(wide)]

    def to_qt(self, index: int) -> int:
        return index + bisect_left(self._wide, index)

    def from_qt(self, position: int) -> int:
        return position - bisect_left(self._wide_qt, position)


@dataclass
class _Lock:
    head: QTextCursor
    tail: QTextCursor
    text: str

    @property
    def start(self) -> int:
        return self.head.position()

    @property
    def end(self) -> int:
        return self.tail.position()


class LockSet(QObject):
    """The locks of one ``QTextDocument``; see the module docstring for the API."""

    changed = Signal()

    def __init__(self, document: QTextDocument, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._document = document
        self._locks: list[_Lock] = []

    # --- queries -------------------------------------------------------------------------

    def spans(self) -> list[tuple[int, int]]:
        return sorted((lock.start, lock.end) for lock in self._locks if lock.start < lock.end)

    def touches(self, start: int, end: int, inserting: bool = True) -> bool:
        """Whether replacing ``[start, end)`` (with text when ``inserting``) alters a lock.

        Deleting overlaps a lock when the ranges share a character; inserting at a single
        position alters a lock only strictly inside it, never at its edges.
        """
        for lock_start, lock_end in self.spans():
            if start < lock_end and lock_start < end:
                return True
            if inserting and start == end and lock_start < start < lock_end:
                return True
        return False

    def lock_at(self, position: int) -> tuple[int, int] | None:
        for span in self.spans():
            if span[0] <= position <= span[1]:
                return span
        return None

    def covers(self, start: int, end: int) -> bool:
        """Whether every character of ``[start, end)`` is locked."""
        at = start
        for lock_start, lock_end in self.spans():
            if lock_start <= at < lock_end:
                at = lock_end
        return at >= end

    def damaged(self) -> list[tuple[int, int]]:
        """Locks whose current text differs from the text they were made with."""
        return [(lock.start, lock.end) for lock in self._locks if self._text(lock) != lock.text]

    # --- changes -------------------------------------------------------------------------

    def add(self, start: int, end: int) -> None:
        if self._merge(start, end):
            self.changed.emit()

    def remove(self, start: int, end: int) -> None:
        start, end = self._clamp(start, end)
        kept: list[tuple[int, int]] = []
        for lock_start, lock_end in self.spans():
            if lock_end <= start or lock_start >= end:
                kept.append((lock_start, lock_end))
                continue
            if lock_start < start:
                kept.append((lock_start, start))
            if end < lock_end:
                kept.append((end, lock_end))
        self._replace(kept)

    def toggle(self, start: int, end: int) -> bool:
        """Unlock ``[start, end)`` if it is entirely locked, else lock it; True if now locked."""
        if self.covers(start, end):
            self.remove(start, end)
            return False
        self.add(start, end)
        return True

    def set_spans(self, spans: Iterable[tuple[int, int]]) -> None:
        """Replace every lock; overlapping or touching spans merge, out-of-range ones clamp."""
        self._locks = []
        for start, end in spans:
            self._merge(int(start), int(end))
        self.changed.emit()

    def clear(self) -> None:
        if self._locks:
            self._locks = []
            self.changed.emit()

    def prune(self) -> bool:
        """Drop locks whose text was deleted entirely; True if any went."""
        before = len(self._locks)
        self._locks = [lock for lock in self._locks if lock.start < lock.end]
        if len(self._locks) != before:
            self.changed.emit()
            return True
        return False

    # --- internals -----------------------------------------------------------------------

    def _merge(self, start: int, end: int) -> bool:
        """Lock ``[start, end)``, absorbing locks it overlaps or touches; False if empty."""
        start, end = self._clamp(start, end)
        if start == end:
            return False
        spans = self.spans()
        for lock_start, lock_end in spans:
            if lock_start <= end and start <= lock_end:
                start, end = min(start, lock_start), max(end, lock_end)
        kept = [(s, e) for s, e in spans if e < start or s > end] + [(start, end)]
        self._locks = [self._make(s, e) for s, e in sorted(kept)]
        return True

    def _replace(self, spans: list[tuple[int, int]]) -> None:
        self._locks = [self._make(s, e) for s, e in sorted(spans) if s < e]
        self.changed.emit()

    def _make(self, start: int, end: int) -> _Lock:
        head = QTextCursor(self._document)
        head.setPosition(start)
        tail = QTextCursor(self._document)
        tail.setPosition(end)
        # Text typed right after a lock must stay outside it: the end anchor does not follow.
        tail.setKeepPositionOnInsert(True)
        lock = _Lock(head, tail, "")
        lock.text = self._text(lock)
        return lock

    def _text(self, lock: _Lock) -> str:
        cursor = QTextCursor(self._document)
        cursor.setPosition(lock.start)
        cursor.setPosition(max(lock.start, lock.end), QTextCursor.MoveMode.KeepAnchor)
        # QTextCursor reports paragraph breaks as U+2029; compare with what plain text holds.
        return cursor.selectedText().replace("\u2029", "\n")

    def _clamp(self, start: int, end: int) -> tuple[int, int]:
        last = max(0, self._document.characterCount() - 1)
        start, end = sorted((start, end))
        return max(0, min(start, last)), max(0, min(end, last))
