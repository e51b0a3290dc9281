"""The document editor: Markdown highlighting, a line-number gutter with lock marks, and locks
that refuse every edit that would change their text.

Every path that can change text is checked before it runs: typed keys (including Backspace,
Delete and the word/line deletions), paste (``insertFromMimeData``), drop and drag-move,
input-method commits, cut and the context menu's Delete. Undo and redo cannot be inspected
beforehand, so they run and are reverted at once if a lock's text changed. A refused edit
changes nothing and emits ``editRefused`` with a message for the status bar. Insertions right
before or right after a lock are outside it and allowed; locks shift with edits around them.

Public API of :class:`DocumentEditor`:

- signals ``editRefused(str)``, ``locksChanged()``
- slot ``toggle_lock()`` — lock/unlock the selection (Ctrl+L is bound by the window)
- ``plain_text()`` — the exact text (``toPlainText()`` turns no-break spaces into spaces)
- ``lock_spans()`` / ``set_lock_spans(spans)`` — locks as ``(start, end)`` pairs (sidecars,
  ``Edit.locks``)
- ``load_text(text, locks=())`` — replace the document and its locks (clears undo)
- ``selection_span()`` — ``(start, end)`` of the selection, or the cursor twice
- ``text_range(start, end)`` — the text of a range
- ``replace_ranges(edits)`` — apply ``(start, end, text)`` edits as one undo step; raises
  ``ValueError`` if any would alter a lock (the review's accepted hunks never do)
- ``locks`` — the underlying :class:`ui.locks.LockSet` (document positions, see below)
- ``set_spelling(source)`` / ``recheck_spelling()`` — misspelt words underlined, their
  suggestions and "Add to dictionary" in the context menu (:mod:`ui.spellcheck`)

Every offset in this API is a Python index into :meth:`DocumentEditor.plain_text`, the same
offsets ``engine.core.protocol.Edit`` uses. ``QTextDocument`` counts UTF-16 units instead (an emoji
is two); :meth:`DocumentEditor.position_map` converts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import pairwise

from PySide6.QtCore import QMimeData, QPoint, QRect, Qt, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QDrag,
    QDragMoveEvent,
    QDropEvent,
    QFont,
    QGuiApplication,
    QInputMethodEvent,
    QKeyEvent,
    QKeySequence,
    QMouseEvent,
    QResizeEvent,
    QTextBlock,
    QTextCursor,
    QTextFormat,
)
from PySide6.QtWidgets import QApplication, QMenu, QPlainTextEdit, QTextEdit, QWidget

from ui.editor_spelling import EditorSpelling
from ui.gutter import LineGutter, block_holds_lock
from ui.highlight import MarkdownHighlighter
from ui.keyedits import key_edit_span
from ui.locks import LockSet, PositionMap
from ui.palette import LOCK_TINT
from ui.shortcuts import key_sequences, key_text
from ui.spellcheck import SpellSource

_S = QKeySequence.StandardKey


class DocumentEditor(QPlainTextEdit):
    """A Markdown editor with locks; see the module docstring for the public API."""

    editRefused = Signal(str)
    locksChanged = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        # The text and its position map, kept until the next change: a 20 MB document takes
        # half a second to copy out of Qt, and one request asks for it several times.
        self._snapshot: tuple[str, PositionMap] | None = None
        self.document().contentsChange.connect(self._forget_snapshot)  # first: before any reader
        self.setFont(self._writing_font())
        self.document().setDocumentMargin(10)
        self.document().setModified(False)  # a margin is layout, not a change to the text
        self.setTabStopDistance(4 * self.fontMetrics().horizontalAdvance(" "))
        self._highlighter = MarkdownHighlighter(self.document())
        self._locks = LockSet(self.document(), self)
        self._gutter = LineGutter(self, self._visible_blocks, self._locks.spans)
        self._copy_drag_from: QPoint | None = None  # press inside a selection holding a lock
        self._checking_history = False
        self._spelling = EditorSpelling(self, self._highlighter, self._locks)
        self._locks.changed.connect(self._on_locks_changed)
        self.document().contentsChange.connect(self._on_contents_change)
        self.blockCountChanged.connect(self._update_gutter_width)
        self.updateRequest.connect(self._scroll_gutter)
        self._update_gutter_width()

    @staticmethod
    def _writing_font() -> QFont:
        font = QGuiApplication.font()
        font.setPointSizeF(max(font.pointSizeF(), 10.0) * 1.15)
        return font

    # --- public API ----------------------------------------------------------------------

    @property
    def locks(self) -> LockSet:
        return self._locks

    def plain_text(self) -> str:
        """The document's exact text, lines joined with "\\n". Unlike ``toPlainText()`` it keeps
        non-breaking spaces and U+2028, so locked text round-trips byte for byte."""
        return self._text_and_positions()[0]

    def position_map(self) -> PositionMap:
        """Converts between Python indices into :meth:`plain_text` and document positions."""
        return self._text_and_positions()[1]

    def _text_and_positions(self) -> tuple[str, PositionMap]:
        if self._snapshot is None:
            raw = self.document().toRawText()
            self._snapshot = (raw.replace("\u2029", "\n"), PositionMap(raw))
        return self._snapshot

    def _forget_snapshot(self, *_change: int) -> None:
        self._snapshot = None

    def lock_spans(self) -> list[tuple[int, int]]:
        """Locks as ``(start, end)`` Python indices into :meth:`plain_text`, sorted."""
        positions = self.position_map()
        return [(positions.from_qt(s), positions.from_qt(e)) for s, e in self._locks.spans()]

    def set_lock_spans(self, spans: Iterable[tuple[int, int]]) -> None:
        positions = self.position_map()
        self._locks.set_spans((positions.to_qt(s), positions.to_qt(e)) for s, e in spans)

    def load_text(self, text: str, locks: Iterable[tuple[int, int]] = ()) -> None:
        """Replace the whole document (undo history cleared) and then its locks. ``text`` should
        use "\\n" line ends (Qt folds "\\r\\n" into one break, which would shift the locks)."""
        self._locks.clear()
        self.setPlainText(text)
        self.set_lock_spans(locks)

    def selection_span(self) -> tuple[int, int]:
        """The selection as Python indices into :meth:`plain_text` (the cursor twice if none)."""
        positions = self.position_map()
        start, end = self._qt_selection()
        return positions.from_qt(start), positions.from_qt(end)

    def text_range(self, start: int, end: int) -> str:
        return self.plain_text()[start:end]

    def toggle_lock(self) -> None:
        """Lock the selection, or unlock it if it is all locked; with no selection, unlock the
        lock under the cursor."""
        start, end = self._qt_selection()
        if start == end:
            held = self._locks.lock_at(start)
            if held is None:
                self.editRefused.emit(
                    f"Select the text to lock, then press {key_text('edit.lock')}."
                )
                return
            start, end = held
        self._locks.toggle(start, end)

    def replace_ranges(self, edits: Sequence[tuple[int, int, str]]) -> None:
        """Apply ``(start, end, text)`` replacements (Python indices into :meth:`plain_text` as
        it is now, non-overlapping) in one edit block, so one undo restores the text exactly."""
        ordered = sorted(edits, key=lambda e: (e[0], e[1]))
        for (_, first_end, _), (second_start, _, _) in pairwise(ordered):
            if second_start < first_end:
                raise ValueError("the edits overlap")
        positions = self.position_map()
        qt_edits = [(positions.to_qt(s), positions.to_qt(e), text) for s, e, text in ordered]
        for start, end, text in qt_edits:
            if self._locks.touches(start, end, bool(text)):
                raise ValueError(f"the edit {start}:{end} would change locked text")
        cursor = QTextCursor(self.document())
        cursor.beginEditBlock()
        for start, end, text in reversed(qt_edits):  # back to front: earlier offsets stay valid
            cursor.setPosition(start)
            cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            cursor.insertText(text)
        cursor.endEditBlock()

    def _qt_selection(self) -> tuple[int, int]:
        cursor = self.textCursor()
        return cursor.selectionStart(), cursor.selectionEnd()

    # --- refusing edits that touch a lock ------------------------------------------------

    def _refuse_if_locked(self, start: int, end: int, inserting: bool) -> bool:
        if not self._locks.touches(start, end, inserting):
            return False
        self.editRefused.emit(
            f"That text is locked. Unlock it with {key_text('edit.lock')} to change it."
        )
        return True

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.matches(_S.Undo):
            self.undo()
        elif event.matches(_S.Redo):
            self.redo()
        elif event.matches(_S.Cut):
            self.cut()
        else:
            span = (
                None
                if self.isReadOnly()
                else key_edit_span(event, self.textCursor(), self.overwriteMode())
            )
            if span is None or not self._refuse_if_locked(*span):
                super().keyPressEvent(event)
                return
        event.accept()

    def insertFromMimeData(self, source: QMimeData) -> None:
        if not (source.hasText() or source.hasHtml()):
            return
        start, end = self._qt_selection()
        if self._refuse_if_locked(start, end, True):
            return
        super().insertFromMimeData(source)

    def inputMethodEvent(self, event: QInputMethodEvent) -> None:
        if self._input_method_refused(event):
            # The commit never lands; reset the input method so its preedit does not linger.
            QGuiApplication.inputMethod().reset()
            event.accept()
            return
        super().inputMethodEvent(event)

    def _input_method_refused(self, event: QInputMethodEvent) -> bool:
        commits = bool(event.commitString()) or event.replacementLength() > 0
        start, end = self._qt_selection()
        # Qt deletes a selection as soon as composition starts, before anything is committed.
        composing = commits or bool(event.preeditString())
        if start != end and composing and self._refuse_if_locked(start, end, False):
            return True
        if not commits:
            return False
        at = start + event.replacementStart()
        return self._refuse_if_locked(at, at + event.replacementLength(), True)

    def dragMoveEvent(self, event: QDragMoveEvent) -> None:
        super().dragMoveEvent(event)
        at = self.cursorForPosition(event.position().toPoint()).position()
        if self._locks.touches(at, at, True):
            event.ignore()

    def dropEvent(self, event: QDropEvent) -> None:
        at = self.cursorForPosition(event.position().toPoint()).position()
        moving = event.source() is self and event.dropAction() == Qt.DropAction.MoveAction
        start, end = self._qt_selection()
        if self._refuse_if_locked(at, at, True) or (
            moving and self._refuse_if_locked(start, end, False)
        ):
            event.ignore()
            return
        super().dropEvent(event)

    def mousePressEvent(self, event: QMouseEvent) -> None:
        # Dragging a selection out as a move would delete locked text: such a drag only copies.
        start, end = self._qt_selection()
        inside = self.cursorForPosition(event.position().toPoint()).position()
        locked = start < inside < end and self._locks.touches(start, end, False)
        self._copy_drag_from = event.position().toPoint() if locked else None
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        origin = self._copy_drag_from
        if origin is not None and event.buttons() & Qt.MouseButton.LeftButton:
            moved = (event.position().toPoint() - origin).manhattanLength()
            if moved >= QApplication.startDragDistance():
                self._copy_drag_from = None
                drag = QDrag(self)
                drag.setMimeData(self.createMimeDataFromSelection())
                drag.exec(Qt.DropAction.CopyAction)
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._copy_drag_from = None
        super().mouseReleaseEvent(event)

    def cut(self) -> None:
        start, end = self._qt_selection()
        if start == end or self._refuse_if_locked(start, end, False):
            return
        super().cut()

    def delete_selection(self) -> None:
        """The context menu's Delete, checked like every other edit."""
        start, end = self._qt_selection()
        if start != end and not self._refuse_if_locked(start, end, False):
            self.textCursor().removeSelectedText()

    def undo(self) -> None:
        self._guarded_history(super().undo, super().redo, "Undo")

    def redo(self) -> None:
        self._guarded_history(super().redo, super().undo, "Redo")

    def _guarded_history(
        self, step: Callable[[], None], back: Callable[[], None], name: str
    ) -> None:
        """Run undo/redo, and step back at once if it changed a locked text."""
        before = self._locks.spans()
        self._checking_history = True  # keep emptied locks until we know whether to step back
        try:
            step()
            damaged = bool(self._locks.damaged())
            if damaged:
                back()
        finally:
            self._checking_history = False
        if not damaged:
            self._locks.prune()
            return
        self._locks.set_spans(before)
        self.editRefused.emit(
            f"{name} would change locked text. Unlock it with {key_text('edit.lock')} first."
        )

    def contextMenuEvent(self, event: QContextMenuEvent) -> None:
        menu = self.build_context_menu(event.pos())
        menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        menu.popup(event.globalPos())

    def build_context_menu(self, position: QPoint) -> QMenu:
        """Qt's standard menu with the edits that bypass our checks routed through them; on a
        misspelt word, its suggestions and "Add to dictionary" first."""
        menu = self.createStandardContextMenu(position)
        self._spelling.offer(menu, self.cursorForPosition(position))
        rewired = {
            "edit-undo": self.undo,
            "edit-redo": self.redo,
            "edit-cut": self.cut,
            "edit-delete": self.delete_selection,
        }
        for action in menu.actions():
            slot = rewired.get(action.objectName())
            if slot is not None:
                action.triggered.disconnect()
                action.triggered.connect(slot)
        menu.addSeparator()
        lock = menu.addAction("Lock / unlock selection", self.toggle_lock)
        lock.setShortcut(key_sequences("edit.lock")[0])
        return menu

    # --- spelling ------------------------------------------------------------------------

    def set_spelling(self, source: SpellSource | None) -> None:
        """Underline what ``source`` calls misspelt, outside locks and code (``None``: off)."""
        self._spelling.set_source(source)

    def recheck_spelling(self) -> None:
        """Check every line again (after the user's dictionary changed)."""
        self._spelling.recheck()

    # --- lock display --------------------------------------------------------------------

    def _on_locks_changed(self) -> None:
        self._paint_locks()
        self._spelling.locks_changed()
        self.locksChanged.emit()

    def _on_contents_change(self, _position: int, removed: int, _added: int) -> None:
        if removed and not self._checking_history and self._locks.prune():
            return  # prune() emitted changed, which repainted
        self._paint_locks()

    def _paint_locks(self) -> None:
        selections = []
        for start, end in self._locks.spans():
            selection = QTextEdit.ExtraSelection()
            selection.cursor = QTextCursor(self.document())
            selection.cursor.setPosition(start)
            selection.cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
            selection.format.setBackground(LOCK_TINT)
            selection.format.setProperty(QTextFormat.Property.FullWidthSelection, False)
            selections.append(selection)
        self.setExtraSelections(selections)
        self._gutter.update()

    # --- gutter --------------------------------------------------------------------------

    def gutter_width(self) -> int:
        return self._gutter.width_needed()

    def _update_gutter_width(self, _count: int = 0) -> None:
        self.setViewportMargins(self.gutter_width(), 0, 0, 0)

    def _scroll_gutter(self, rect: QRect, dy: int) -> None:
        if dy:
            self._gutter.scroll(0, dy)
        else:
            self._gutter.update(0, rect.y(), self._gutter.width(), rect.height())

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        area = self.contentsRect()
        self._gutter.setGeometry(QRect(area.left(), area.top(), self.gutter_width(), area.height()))

    def _visible_blocks(self) -> Iterator[tuple[QTextBlock, float]]:
        """Blocks from the first visible one down, with their top in viewport coordinates."""
        block = self.firstVisibleBlock()
        offset = self.contentOffset()
        while block.isValid():
            yield block, self.blockBoundingGeometry(block).translated(offset).top()
            block = block.next()

    def locked_lines(self) -> list[int]:
        """Block numbers (0-based) the gutter marks with a padlock."""
        locks = self._locks.spans()
        lines = []
        block = self.document().begin()
        while block.isValid():
            if block_holds_lock(block, locks):
                lines.append(block.blockNumber())
            block = block.next()
        return lines
