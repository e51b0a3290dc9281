"""The editor's gutter: line numbers, and a painted padlock on every line that holds a lock.

A painted padlock rather than an emoji: emoji fonts are missing on many Linux desktops, and a
drawn glyph takes the gutter's colours and scales with the editor's font.

Public API: :class:`LineGutter` (a child widget of the editor, which places and scrolls it),
:func:`paint_padlock`, :func:`block_holds_lock`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

from PySide6.QtCore import QRect, QRectF, QSize, Qt
from PySide6.QtGui import QColor, QPainter, QPainterPath, QPaintEvent, QPen, QTextBlock
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from ui import palette

LOCK_INK = palette.LOCK_INK
_PAPER = palette.GUTTER_PAPER
_INK = palette.GUTTER_INK
_RULE = palette.GUTTER_RULE


def paint_padlock(painter: QPainter, box: QRectF, color: QColor) -> None:
    """A small padlock (shackle and body) filling ``box``."""
    painter.save()
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    w, h = box.width(), box.height()
    body = QRectF(box.left(), box.top() + h * 0.45, w, h * 0.55)
    shackle = QRectF(box.left() + w * 0.2, box.top(), w * 0.6, h * 0.75)
    painter.setPen(QPen(color, max(1.2, w * 0.14)))
    painter.setBrush(Qt.BrushStyle.NoBrush)
    path = QPainterPath()
    path.moveTo(shackle.left(), body.top())
    path.lineTo(shackle.left(), shackle.top() + shackle.width() / 2)
    path.arcTo(QRectF(shackle.left(), shackle.top(), shackle.width(), shackle.width()), 180, -180)
    path.lineTo(shackle.right(), body.top())
    painter.drawPath(path)
    painter.setPen(Qt.PenStyle.NoPen)
    painter.setBrush(color)
    painter.drawRoundedRect(body, w * 0.15, w * 0.15)
    painter.restore()


def block_holds_lock(block: QTextBlock, locks: list[tuple[int, int]]) -> bool:
    """Whether any lock (document positions) shares a character with the block."""
    start, end = block.position(), block.position() + block.length()
    return any(s < end and e > start for s, e in locks)


class LineGutter(QWidget):
    """Numbers and padlocks for ``editor``; ``visible_blocks`` yields (block, top y) pairs in
    viewport order and ``locks`` gives the lock spans in document positions."""

    def __init__(
        self,
        editor: QPlainTextEdit,
        visible_blocks: Callable[[], Iterator[tuple[QTextBlock, float]]],
        locks: Callable[[], list[tuple[int, int]]],
    ) -> None:
        super().__init__(editor)
        self._editor = editor
        self._visible_blocks = visible_blocks
        self._locks = locks

    def width_needed(self) -> int:
        digits = len(str(max(1, self._editor.blockCount())))
        metrics = self._editor.fontMetrics()
        return 14 + metrics.height() + metrics.horizontalAdvance("9") * max(2, digits)

    def sizeHint(self) -> QSize:
        return QSize(self.width_needed(), 0)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        area = event.rect()
        painter.fillRect(area, _PAPER)
        painter.setPen(_RULE)
        painter.drawLine(self.width() - 1, area.top(), self.width() - 1, area.bottom())
        painter.setFont(self._editor.font())
        locks = self._locks()
        for block, top in self._visible_blocks():
            if top > area.bottom():
                break
            if block.isVisible():
                self._paint_block(painter, block, top, locks)
        painter.end()

    def _paint_block(
        self, painter: QPainter, block: QTextBlock, top: float, locks: list[tuple[int, int]]
    ) -> None:
        height = self._editor.fontMetrics().height()
        line = block.layout().lineAt(0) if block.layout().lineCount() else None
        # Headings are taller: centre the number on the block's first line of text.
        first_line = QRect(
            0, round(top), self.width() - 8, round(line.height()) if line else height
        )
        painter.setPen(_INK)
        align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(first_line, align, str(block.blockNumber() + 1))
        if block_holds_lock(block, locks):
            size = height * 0.7
            box = QRectF(5, first_line.center().y() - size / 2, size * 0.8, size)
            paint_padlock(painter, box, LOCK_INK)
