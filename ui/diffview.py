"""The review's text view: the target with hunks inline, and a frame around the current one.

Removed words are struck through in red, inserted words green; an accepted hunk keeps only its
new words strong, a rejected one only its old words. Locked text keeps the lock tint.

Public API: :class:`Decision`, :func:`hunk_formats`, :func:`plain_format`, :class:`DiffView`
(``frame_range`` — the view positions to frame; ``range_rects(start, end)``).
"""

from __future__ import annotations

from enum import StrEnum

from PySide6.QtCore import QRect, Qt
from PySide6.QtGui import QColor, QPainter, QPaintEvent, QPen, QTextCharFormat, QTextCursor
from PySide6.QtWidgets import QTextEdit, QWidget

from ui import palette
from ui.palette import ACCENT, INK, LOCK_TINT


class Decision(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    REJECTED = "rejected"


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
