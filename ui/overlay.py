"""The draft overlay: the model's current draft drawn *over* the target, never written into it.

A panel child of the editor's viewport covers the target's lines (growing downwards when the
draft is longer) and lays the draft out at the same x and font as the document, so the draft
seems to settle in place. Noise positions are faint (a "·" when they hold no text yet),
provisional tokens are grey italic (fainter when the model is less sure), settled tokens are
solid, locked text keeps the lock tint. A footer shows the step and how to cancel.

The overlay only reads the editor (positions, font, scroll): it never touches the document,
the clipboard or the undo stack, which is the commit barrier of DESIGN §8. Frames are folded
into a :class:`engine.core.protocol.DraftView` at once, but the panel is rebuilt and repainted at
most once per ~16 ms.

Public API of :class:`DraftOverlay`:

- ``DraftOverlay(editor)`` — an overlay for one ``QPlainTextEdit``; hidden until shown.
- ``show_for(start, end)`` — cover the character range (follows edits and scrolling).
- ``show_at(rect)`` — cover a rectangle given in viewport coordinates instead.
- ``apply_frame(frame)`` — fold in a :class:`Frame` (only changed positions are sent).
- ``clear()`` — hide and forget the draft.
- ``view`` — the :class:`DraftView`; ``rendered_text()`` — what the panel shows, as text.
- signal ``cancelRequested()`` — the footer's "Cancel" was clicked (Esc is the window's).
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import (
    QAbstractTextDocumentLayout,
    QColor,
    QFont,
    QFontMetrics,
    QMouseEvent,
    QPainter,
    QPaintEvent,
    QPalette,
    QPen,
    QTextCharFormat,
    QTextCursor,
    QTextDocument,
    QTextOption,
)
from PySide6.QtWidgets import QPlainTextEdit, QWidget

from engine.core.protocol import DraftView, Frame, TokenState, TokenView
from ui import palette
from ui.locks import PositionMap
from ui.palette import ACCENT, INK, LOCK_TINT

REPAINT_INTERVAL_MS = 16
NOISE_PLACEHOLDER = "·"

_PAPER = palette.OVERLAY_PAPER
_BORDER = palette.OVERLAY_BORDER
_SHADOW = palette.OVERLAY_SHADOW
_ACCENT = ACCENT
_MUTED = palette.OVERLAY_MUTED
_INK = INK
_NOISE = palette.NOISE_INK
_PROVISIONAL = palette.PROVISIONAL_INK
_LOCK_TINT = LOCK_TINT

_INSET = 6  # panel edge to text, horizontally: the text lines up with the document's
_FOOTER_GAP = 4


def token_format(token: TokenView) -> QTextCharFormat:
    """How one draft position is drawn; shared by tests to check the states stay distinct."""
    fmt = QTextCharFormat()
    if token.state is TokenState.NOISE:
        fmt.setForeground(_NOISE)
    elif token.state is TokenState.PROVISIONAL:
        colour = QColor(_PROVISIONAL)
        colour.setAlphaF(0.45 + 0.05 * max(0, min(10, round(10 * token.confidence))))
        fmt.setForeground(colour)
        fmt.setFontItalic(True)
    elif token.state is TokenState.LOCKED:
        fmt.setForeground(_INK)
        fmt.setBackground(_LOCK_TINT)
    else:
        fmt.setForeground(_INK)
    return fmt


def _look(token: TokenView) -> tuple[TokenState, int]:
    """What decides a token's format: its state, and for provisional ones a confidence band."""
    band = round(10 * token.confidence) if token.state is TokenState.PROVISIONAL else 0
    return token.state, band


def _runs(tokens: list[TokenView]) -> list[list[TokenView]]:
    """Consecutive tokens that look the same, drawn with one insert each."""
    runs: list[list[TokenView]] = []
    for token in tokens:
        if runs and _look(runs[-1][0]) == _look(token):
            runs[-1].append(token)
        else:
            runs.append([token])
    return runs


def _shown_text(token: TokenView) -> str:
    if token.state is TokenState.NOISE and not token.text.strip():
        return NOISE_PLACEHOLDER + " "
    return token.text


class DraftOverlay(QWidget):
    """Draws a streaming draft over an editor's target; see the module docstring for the API."""

    cancelRequested = Signal()

    def __init__(self, editor: QPlainTextEdit) -> None:
        super().__init__(editor.viewport())
        self._editor = editor
        self._view = DraftView()
        self._step = (0, 0)
        self._anchor: tuple[QTextCursor, QTextCursor] | None = None
        self._fixed_rect: QRect | None = None
        self._doc = QTextDocument(self)
        self._doc.setDocumentMargin(0)
        self._doc.setUndoRedoEnabled(False)
        option = QTextOption()
        option.setWrapMode(QTextOption.WrapMode.WrapAtWordBoundaryOrAnywhere)
        self._doc.setDefaultTextOption(option)
        self._timer = QTimer(self, singleShot=True, interval=REPAINT_INTERVAL_MS)
        self._timer.timeout.connect(self._refresh)
        self.rebuilds = 0  # how many times the panel was rebuilt (coalescing is tested on it)
        editor.updateRequest.connect(self._follow)
        editor.viewport().installEventFilter(self)
        self.setCursor(Qt.CursorShape.ArrowCursor)
        self.hide()

    # --- public API ----------------------------------------------------------------------

    def repaint_pending(self) -> bool:
        """Whether frames wait for the next coalesced repaint."""
        return self._timer.isActive()

    @property
    def view(self) -> DraftView:
        return self._view

    def show_for(self, start: int, end: int) -> None:
        """Cover ``[start, end)`` (Python indices into the editor's text, as in
        ``engine.core.protocol.Edit.target``; equal for a draft at a cursor position)."""
        cached = getattr(self._editor, "position_map", None)  # DocumentEditor keeps one
        positions = cached() if cached else PositionMap(self._editor.document().toRawText())
        head = QTextCursor(self._editor.document())
        head.setPosition(positions.to_qt(start))
        tail = QTextCursor(self._editor.document())
        tail.setPosition(positions.to_qt(end))
        self._anchor = (head, tail)
        self._fixed_rect = None
        self._show()

    def show_at(self, rect: QRect) -> None:
        """Cover ``rect`` (viewport coordinates) instead of a character range."""
        self._anchor = None
        self._fixed_rect = QRect(rect)
        self._show()

    def apply_frame(self, frame: Frame) -> None:
        self._view.apply(frame)
        self._step = (frame.step, frame.max_steps)
        if not self._timer.isActive():
            self._timer.start()

    def clear(self) -> None:
        self._timer.stop()
        self._view = DraftView()
        self._step = (0, 0)
        self._anchor = None
        self._fixed_rect = None
        self._doc.clear()
        self.hide()

    def rendered_text(self) -> str:
        """The panel's text as drawn (placeholders included); no newline rewriting."""
        return self._doc.toPlainText()

    # --- layout --------------------------------------------------------------------------

    def _show(self) -> None:
        self._doc.setDefaultFont(self._editor.font())
        self._refresh()
        self.show()
        self.raise_()

    def _refresh(self) -> None:
        self._rebuild()
        self._place()
        self.update()

    def _rebuild(self) -> None:
        self.rebuilds += 1
        self._doc.clear()
        cursor = QTextCursor(self._doc)
        # One edit block: the document lays itself out once at the end, not after every token
        # (256 separate inserts cost ~50 ms, far over a frame).
        cursor.beginEditBlock()
        for tokens in _runs(self._view.tokens):
            cursor.insertText("".join(_shown_text(t) for t in tokens), token_format(tokens[0]))
        cursor.endEditBlock()

    def _target_rect(self) -> QRect:
        if self._fixed_rect is not None:
            return QRect(self._fixed_rect)
        if self._anchor is None:
            return QRect()
        top = self._editor.cursorRect(self._anchor[0])
        bottom = self._editor.cursorRect(self._anchor[1])
        margin = round(self._editor.document().documentMargin())
        left = max(0, margin - _INSET)
        width = self._editor.viewport().width() - 2 * left
        return QRect(left, top.top(), width, max(bottom.bottom(), top.bottom()) - top.top() + 1)

    def _place(self) -> None:
        target = self._target_rect()
        if target.isEmpty():
            return
        self._doc.setTextWidth(max(10, target.width() - 2 * _INSET))
        needed = round(self._doc.size().height())
        if not self._footer_fits_on_last_line():
            needed += self._footer_height() + _FOOTER_GAP
        top = target.top() - 2
        bottom = target.bottom() + 3
        if needed > target.height():  # a longer draft spills over the text below the target
            bottom = top + needed + 4
            if self._anchor is not None:
                bottom = self._snap_to_line_end(bottom)
        self.setGeometry(target.left(), top, target.width(), bottom - top)

    def _snap_to_line_end(self, y: int) -> int:
        """Extend ``y`` to the bottom of the document line under it: half-covered lines of the
        text below read as clutter."""
        margin = round(self._editor.document().documentMargin())
        under = self._editor.cursorForPosition(QPoint(margin + 1, y))
        line = self._editor.cursorRect(under)
        return max(y, line.bottom() + 2) if line.top() < y else y

    def _footer_font(self) -> QFont:
        font = self.font()
        font.setPointSizeF(max(7.0, font.pointSizeF() * 0.85))
        return font

    def _footer_height(self) -> int:
        return QFontMetrics(self._footer_font()).height()

    def _footer_fits_on_last_line(self) -> bool:
        """Whether the footer can sit beside the draft's last line instead of below it, so the
        panel covers no more of the text after the target than the draft needs."""
        layout = self._doc.lastBlock().layout()
        if layout is None or layout.lineCount() == 0:
            return True
        last = layout.lineAt(layout.lineCount() - 1)
        free = self._doc.textWidth() - last.naturalTextWidth()
        return free > QFontMetrics(self._footer_font()).horizontalAdvance(self._footer_text()) + 24

    def _follow(self, _rect: QRect, _dy: int) -> None:
        if self.isVisible():
            self._place()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if event.type() == QEvent.Type.Resize and self.isVisible():
            self._place()
        return False

    # --- painting ------------------------------------------------------------------------

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        box = QRectF(self.rect()).adjusted(1, 1, -2, -2)
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(_SHADOW)
        painter.drawRoundedRect(box.translated(1, 1.5), 6, 6)
        painter.setBrush(_PAPER)
        painter.setPen(QPen(_BORDER, 1))
        painter.drawRoundedRect(box, 6, 6)
        self._paint_progress(painter, box)
        painter.translate(_INSET, 2)
        context = QAbstractTextDocumentLayout.PaintContext()
        context.palette.setColor(QPalette.ColorRole.Text, _INK)
        self._doc.documentLayout().draw(painter, context)
        painter.resetTransform()
        self._paint_footer(painter, box)
        painter.end()

    def _paint_progress(self, painter: QPainter, box: QRectF) -> None:
        step, total = self._step
        if total <= 0:
            return
        # Along the top border: the bottom edge sits on the draft's last line of text.
        done = QRectF(
            box.left() + 4, box.top() - 0.5, (box.width() - 8) * min(1.0, step / total), 2
        )
        painter.setPen(Qt.PenStyle.NoPen)
        painter.setBrush(_ACCENT)
        painter.drawRoundedRect(done, 1, 1)

    def _footer_text(self) -> str:
        step, total = self._step
        progress = f"step {step} of {total}" if total else "starting…"
        return f"Draft · {progress} · Esc cancels"

    def _paint_footer(self, painter: QPainter, box: QRectF) -> None:
        painter.setFont(self._footer_font())
        painter.setPen(_MUTED)
        align = Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter
        painter.drawText(QRectF(self._footer_rect()), align, self._footer_text())

    def _footer_rect(self) -> QRect:
        """Right-aligned: beside the draft's last line when it fits there, else below it."""
        height = self._footer_height()
        text_bottom = 2 + round(self._doc.size().height())
        if self._footer_fits_on_last_line():
            top = text_bottom - height - 2
        else:
            top = text_bottom + _FOOTER_GAP
        top = min(top, self.height() - height - 4)
        width = QFontMetrics(self._footer_font()).horizontalAdvance(self._footer_text()) + 12
        return QRect(self.width() - 2 * _INSET - width, top, width + _INSET, height)

    def _cancel_rect(self) -> QRect:
        """The footer's box: clicking it is the mouse way to cancel."""
        return self._footer_rect().adjusted(-4, -3, 4, 3)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        # The panel swallows clicks (the text under it is not what the user sees); a click on the
        # footer is the mouse way to cancel.
        if self._cancel_rect().contains(event.position().toPoint()):
            self.cancelRequested.emit()
        event.accept()
