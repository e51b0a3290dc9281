"""The find bar: search the document as you type, next/previous, match case.

Public API of :class:`FindBar`: ``open_bar()`` (shows it, focused, seeded with the selection),
``find_next()``, ``find_previous()``, signal ``closed()``. It only moves the editor's cursor.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent, QTextDocument
from PySide6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QPlainTextEdit,
    QToolButton,
    QWidget,
)

from ui import palette


class FindBar(QWidget):
    closed = Signal()

    def __init__(self, editor: QPlainTextEdit, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.editor = editor
        self.field = QLineEdit(placeholderText="Find in document")
        self.field.setClearButtonEnabled(True)
        self.case = QCheckBox("Match case")
        self.status = QLabel()
        self.status.setStyleSheet(palette.text_colour(palette.FIND_STATUS_HEX))
        previous = QToolButton(text="▲", toolTip="Previous match (Shift+Enter)")
        following = QToolButton(text="▼", toolTip="Next match (Enter)")
        close = QToolButton(text="✕", toolTip="Close (Esc)")
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 4, 8, 4)
        for widget in (QLabel("Find:"), self.field, previous, following, self.case, self.status):
            layout.addWidget(widget)
        layout.addStretch(1)
        layout.addWidget(close)
        self.field.textEdited.connect(lambda _text: self._search(from_start=True))
        self.field.returnPressed.connect(self.find_next)
        previous.clicked.connect(self.find_previous)
        following.clicked.connect(self.find_next)
        close.clicked.connect(self.close_bar)
        self.hide()

    def open_bar(self) -> None:
        selected = self.editor.textCursor().selectedText()
        if selected and "\u2029" not in selected:
            self.field.setText(selected)
        self.show()
        self.field.setFocus()
        self.field.selectAll()

    def close_bar(self) -> None:
        self.hide()
        self.editor.setFocus()
        self.closed.emit()

    def find_next(self) -> bool:
        return self._search(backward=False)

    def find_previous(self) -> bool:
        return self._search(backward=True)

    def _flags(self, backward: bool) -> QTextDocument.FindFlag:
        flags = QTextDocument.FindFlag(0)
        if backward:
            flags |= QTextDocument.FindFlag.FindBackward
        if self.case.isChecked():
            flags |= QTextDocument.FindFlag.FindCaseSensitively
        return flags

    def _search(self, backward: bool = False, from_start: bool = False) -> bool:
        needle = self.field.text()
        if not needle:
            self.status.clear()
            return False
        if from_start:
            cursor = self.editor.textCursor()
            cursor.setPosition(cursor.selectionStart())
            self.editor.setTextCursor(cursor)
        found = self.editor.find(needle, self._flags(backward))
        if not found:  # wrap around once
            cursor = self.editor.textCursor()
            cursor.movePosition(
                cursor.MoveOperation.End if backward else cursor.MoveOperation.Start
            )
            self.editor.setTextCursor(cursor)
            found = self.editor.find(needle, self._flags(backward))
        self.status.setText("" if found else "No match")
        return found

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close_bar()
        elif event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and (
            event.modifiers() & Qt.KeyboardModifier.ShiftModifier
        ):
            self.find_previous()
        else:
            super().keyPressEvent(event)
