"""The review's text view: the target with hunks inline, and a frame around the current one.

Removed words are struck through in red, inserted words green; an accepted hunk keeps only its
new words strong, a rejected one only its old words. Locked text keeps the lock tint.

Public API: :class:`Decision` (from :mod:`ui.review_state`), :func:`hunk_formats`,
:func:`plain_format`, :func:`aside_format`, :class:`DiffView` (``show_diff(diff, decisions,
asides)`` — write the diff, return each hunk's range; ``reveal(start, end)``; ``frame_range`` —
the view positions to frame; ``range_rects(start, end)``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import pairwise

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextEdit, QWidget

from engine.core.worddiff import Hunk, WordDiff
from ui import palette
from ui.palette import ACCENT, INK, LOCK_TINT
from ui.review_state import Decision

__all__ = ["Decision", "DiffView", "aside_format", "hunk_formats", "plain_format", "text_format"]


_INK = INK
_FAINT = palette.DIFF_FAINT
_REMOVED_INK = palette.REMOVED_INK
_REMOVED_PAPER = palette.REMOVED_PAPER
_ADDED_INK = palette.ADDED_INK
_ADDED_PAPER = palette.ADDED_PAPER
_KEPT_PAPER = palette.KEPT_PAPER
_LOCK_TINT = LOCK_TINT
_FRAME = ACCENT


def text_format(ink: QColor, paper: QColor | None = None, struck: bool = False) -> QTextCharFormat:
    fmt = QTextCharFormat()
    fmt.setForeground(ink)
    if paper is not None:
        fmt.setBackground(paper)
    fmt.setFontStrikeOut(struck)
    return fmt


def plain_format(locked: bool) -> QTextCharFormat:
    """Unchanged target text; locked stretches keep the editor's lock tint."""
    return text_format(_INK, _LOCK_TINT if locked else None)


def aside_format() -> QTextCharFormat:
    """Words beside a hunk that are no part of the text (its note, "trying again…")."""
    fmt = text_format(_FAINT)
    fmt.setFontItalic(True)
    return fmt


def hunk_formats(decision: Decision) -> tuple[QTextCharFormat, QTextCharFormat]:
    """(removed part, inserted part) formats for a hunk in each state."""
    if decision is Decision.ACCEPTED:
        return text_format(_FAINT, struck=True), text_format(_ADDED_INK, _ADDED_PAPER)
    if decision is Decision.REJECTED:
        return text_format(_INK, _KEPT_PAPER), text_format(_FAINT, struck=True)
    return text_format(_REMOVED_INK, _REMOVED_PAPER, struck=True), text_format(
        _ADDED_INK, _ADDED_PAPER
    )


class DiffView(QTextEdit):
    """Read-only rich text of the diff, with a frame painted around the current hunk."""

    def __init__(self, parent: QWidget) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.NoTextInteraction)
        self.viewport().setCursor(Qt.CursorShape.PointingHandCursor)
        self.document().setDocumentMargin(10)
        font = self.font()
        font.setPointSizeF(max(font.pointSizeF(), 10.0) * 1.1)
        self.setFont(font)
        self.frame_range: tuple[int, int] | None = None

    def range_rects(self, start: int, end: int) -> list[QRect]:
        """One rectangle per visual line the range covers (viewport coordinates)."""
        rects: list[QRect] = []
        cursor = QTextCursor(self.document())
        cursor.setPosition(start)
        first = self.cursorRect(cursor)
        line = QRect(first.left(), first.top(), 0, first.height())
        for position in range(start + 1, end + 1):
            cursor.setPosition(position)
            caret = self.cursorRect(cursor)
            if caret.top() >= line.bottom():  # wrapped onto a new line
                rects.append(line)
                line = QRect(caret.left(), caret.top(), 0, caret.height())
            line.setRight(max(line.right(), caret.left()))
        rects.append(line)
        return rects

    def paintEvent(self, event: QPaintEvent) -> None:
        super().paintEvent(event)
        if self.frame_range is None:
            return
        painter = QPainter(self.viewport())
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(_FRAME, 1.6))
        for rect in self.range_rects(*self.frame_range):
            painter.drawRoundedRect(rect.adjusted(-3, -1, 3, 1), 4, 4)
        painter.end()

    def show_diff(
        self, diff: WordDiff, decisions: Sequence[Decision], asides: Mapping[int, str]
    ) -> list[tuple[int, int]]:
        """Write the target with each hunk inline and its aside (a note…) after it; return
        each hunk's range in the view's text."""
        document = self.document()
        document.clear()
        cursor = QTextCursor(document)
        spans: list[tuple[int, int]] = []
        at = 0
        for hunk, decision in zip(diff.hunks, decisions, strict=True):
            _write_plain(cursor, diff, at, hunk.start)
            spans.append(_write_hunk(cursor, hunk, decision))
            if asides.get(hunk.index):
                cursor.insertText(asides[hunk.index], aside_format())
            at = hunk.end
        _write_plain(cursor, diff, at, len(diff.target))
        return spans

    def reveal(self, start: int, end: int) -> None:
        """Scroll a change into view, its first line above all: a change taller than the view
        (a JSON fill is one change) opens at its top, not scrolled to its last line."""
        cursor = QTextCursor(self.document())
        for position in (end, start):  # the end if it fits with the start, the start in any case
            cursor.setPosition(position)
            self.setTextCursor(cursor)
            self.ensureCursorVisible()
        # ensureCursorVisible stops at the line's top: keep the margin above it too, so a change
        # on the first line shows the text from the very top, its frame whole.
        bar = self.verticalScrollBar()
        top = self.cursorRect(cursor).top() + bar.value()
        margin = round(self.document().documentMargin())
        bar.setValue(min(bar.value(), max(0, top - margin)))


def _write_plain(cursor: QTextCursor, diff: WordDiff, start: int, end: int) -> None:
    """Unchanged target text, with locked stretches tinted."""
    edges = sorted({start, end} | {p for s, e in diff.locks for p in (s, e) if start < p < end})
    for left, right in pairwise(edges):
        locked = any(s <= left and right <= e for s, e in diff.locks)
        cursor.insertText(diff.target[left:right], plain_format(locked))


def _write_hunk(cursor: QTextCursor, hunk: Hunk, decision: Decision) -> tuple[int, int]:
    removed, inserted = hunk_formats(decision)
    start = cursor.position()
    if hunk.old:
        cursor.insertText(hunk.old, removed)
    if hunk.old and hunk.new:
        # A hair of space between the parts, so "wrote" and "published" do not read as one.
        cursor.insertText("\u200a", QTextCharFormat())
    if hunk.new:
        cursor.insertText(hunk.new, inserted)
    return start, cursor.position()
