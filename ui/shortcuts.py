"""The one table of keyboard shortcuts: the window binds from it, panels match keys against
it, and Help → Keyboard shortcuts lists it, so a key is changed in exactly one place.

Public API:

- :class:`Shortcut` — ``action`` id, ``keys`` (portable text, first one is the primary),
  ``description``, ``group``.
- ``SHORTCUTS`` — the table, in display order.
- :func:`shortcut` — look one up by action id (``KeyError`` if unknown).
- :func:`key_sequences` — its keys as ``QKeySequence`` objects (for ``QAction.setShortcuts``).
- :func:`key_text` — its keys as the platform writes them, for menus and status messages.
- :func:`matches` — whether a ``QKeyEvent`` is one of an action's keys (keypad Enter included).
- :class:`ShortcutsWindow` — a non-modal window listing the table, with a filter box.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import QKeyCombination, Qt
from PySide6.QtGui import QHideEvent, QKeyEvent, QKeySequence
from PySide6.QtWidgets import (
    QAbstractItemView,
    QHeaderView,
    QLineEdit,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui import palette
from ui.dialogs import give_focus_back


@dataclass(frozen=True)
class Shortcut:
    action: str
    keys: tuple[str, ...]
    description: str
    group: str


def _s(action: str, keys: str, description: str, group: str) -> Shortcut:
    return Shortcut(action, tuple(keys.split(" | ")), description, group)


SHORTCUTS: tuple[Shortcut, ...] = (
    _s("file.new", "Ctrl+N", "New document", "File"),
    _s("file.open", "Ctrl+O", "Open a Markdown, JSON or text file", "File"),
    _s("file.save", "Ctrl+S", "Save", "File"),
    _s("file.save_as", "Ctrl+Shift+S", "Save under another name", "File"),
    _s("file.quit", "Ctrl+Q", "Quit", "File"),
    _s("edit.undo", "Ctrl+Z", "Undo", "Edit"),
    _s("edit.redo", "Ctrl+Shift+Z | Ctrl+Y", "Redo", "Edit"),
    _s("edit.find", "Ctrl+F", "Find in the document", "Edit"),
    _s("edit.lock", "Ctrl+L", "Lock or unlock the selection", "Edit"),
    _s("ask.rewrite", "Ctrl+Return | Ctrl+Enter", "Rewrite the selection", "Model"),
    _s("ask.draft", "Ctrl+Shift+Return | Ctrl+Shift+Enter", "Draft at the cursor", "Model"),
    _s("ask.cancel", "Esc", "Cancel the running draft", "Model"),
    _s("model.choose", "Ctrl+Alt+M", "Choose a model…", "Model"),
    _s("view.preview", "Ctrl+Shift+M", "Show or hide the Markdown preview", "View"),
    _s("view.templates", "Ctrl+Shift+T", "Show or hide the template panel", "View"),
    _s("prompt.submit", "Return | Enter", "Run the instruction", "Instruction bar"),
    _s("prompt.close", "Esc", "Close the instruction bar", "Instruction bar"),
    _s("review.accept", "A | Return | Enter", "Accept the current change", "Diff review"),
    _s("review.reject", "R | Backspace", "Reject the current change", "Diff review"),
    _s("review.next", "N | J | Down | Right", "Next change", "Diff review"),
    _s("review.previous", "P | K | Up | Left", "Previous change", "Diff review"),
    _s("review.accept_all", "Shift+A", "Accept every change", "Diff review"),
    _s("review.reject_all", "Shift+R", "Reject every change", "Diff review"),
    _s("review.apply", "Ctrl+Return | Ctrl+Enter", "Apply the accepted changes", "Diff review"),
    _s("review.retry", "T", "Try the current change again, the rest kept", "Diff review"),
    _s("review.note", "E", "Reject the current change with a note for its next try", "Diff review"),
    _s("review.next_version", "]", "Next version of the current change", "Diff review"),
    _s("review.previous_version", "[", "Previous version of the current change", "Diff review"),
    _s("review.regenerate", "G", "Ask the model again", "Diff review"),
    _s("review.cancel", "Esc", "Stop a try, or close the review unchanged", "Diff review"),
    _s("help.shortcuts", "Ctrl+/", "Keyboard shortcuts", "Help"),
    _s("help.close", "Esc", "Close this window", "Shortcuts window"),
)

_BY_ACTION = {entry.action: entry for entry in SHORTCUTS}


def shortcut(action: str) -> Shortcut:
    return _BY_ACTION[action]


def key_sequences(action: str) -> list[QKeySequence]:
    return [QKeySequence(keys) for keys in shortcut(action).keys]


def key_text(action: str, first_only: bool = True) -> str:
    """The action's keys as the platform writes them ("Ctrl+L", or "⌘L" on a Mac)."""
    sequences = key_sequences(action)
    shown = sequences[:1] if first_only else sequences
    return " / ".join(seq.toString(QKeySequence.SequenceFormat.NativeText) for seq in shown)


def matches(action: str, event: QKeyEvent) -> bool:
    """Whether ``event`` presses one of ``action``'s keys; the keypad flag is ignored."""
    modifiers = event.modifiers() & ~Qt.KeyboardModifier.KeypadModifier
    pressed = QKeySequence(QKeyCombination(modifiers, Qt.Key(event.key())))
    return any(pressed == sequence for sequence in key_sequences(action))


def _children(item: QTreeWidgetItem) -> list[QTreeWidgetItem]:
    return [child for r in range(item.childCount()) if (child := item.child(r)) is not None]


class ShortcutsWindow(QWidget):
    """Help → Keyboard shortcuts: the table grouped by area, filterable. Show it with ``show()``.

    Public API: ``set_filter(text)``; it has no signals. Esc closes it (``help.close``).
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent, Qt.WindowType.Window)
        self.setWindowTitle("Keyboard shortcuts")
        self.resize(580, 760)
        self._filter = QLineEdit()
        self._filter.setPlaceholderText("Filter shortcuts…")
        self._filter.setClearButtonEnabled(True)
        self._tree = QTreeWidget()
        self._tree.setColumnCount(2)
        self._tree.setRootIsDecorated(False)
        self._tree.setHeaderLabels(["Action", "Keys"])
        self._tree.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
        self._tree.setFocusPolicy(Qt.FocusPolicy.NoFocus)
        self._tree.setIndentation(14)
        self._tree.setStyleSheet("QTreeWidget::item { padding: 3px 4px; }")
        header = self._tree.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(12, 12, 12, 12)
        layout.addWidget(self._filter)
        layout.addWidget(self._tree)
        self._filter.textChanged.connect(self.set_filter)
        self._populate()

    @property
    def tree(self) -> QTreeWidget:
        """The shortcut table, grouped and filtered as shown."""
        return self._tree

    def _populate(self) -> None:
        groups: dict[str, QTreeWidgetItem] = {}
        for entry in SHORTCUTS:
            if entry.group not in groups:
                group = QTreeWidgetItem(self._tree, [entry.group])
                font = group.font(0)
                font.setBold(True)
                group.setFont(0, font)
                group.setFirstColumnSpanned(True)
                groups[entry.group] = group
            row = QTreeWidgetItem(
                groups[entry.group], [entry.description, key_text(entry.action, False)]
            )
            row.setForeground(1, palette.HEADING_INK)
        self._tree.expandAll()

    def set_filter(self, text: str) -> None:
        """Hide rows whose description and keys do not contain ``text`` (case-insensitive)."""
        needle = text.strip().lower()
        for group in _children(self._tree.invisibleRootItem()):
            visible = 0
            for row in _children(group):
                shown = not needle or needle in f"{row.text(0)} {row.text(1)}".lower()
                row.setHidden(not shown)
                visible += shown
            group.setHidden(visible == 0)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if matches("help.close", event):  # the filter box passes Esc on to its window
            self.close()
            event.accept()
            return
        super().keyPressEvent(event)

    def hideEvent(self, event: QHideEvent) -> None:
        super().hideEvent(event)
        if not event.spontaneous():  # closed, not minimised: the window below gets the keys
            give_focus_back(self.parentWidget().window() if self.parentWidget() else None)
