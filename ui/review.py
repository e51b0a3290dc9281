"""The diff review panel: the proposal's word-level hunks, accepted or rejected one by one.

The panel shows the target with each hunk inline (removed words struck through in red,
inserted words in green; locked text keeps the lock tint and is never a hunk), a frame around
the current hunk, and a row of buttons. Hunks start undecided; only accepted ones are applied.
The panel never touches the document: it emits the accepted set and the controller applies
it (``DocumentEditor.replace_ranges(edits_for(...))``, one undo step).

Keys (from :mod:`ui.shortcuts`): A/Enter accept, R/Backspace reject, N/J/↓/→ next,
P/K/↑/← previous, Shift+A accept all, Shift+R reject all, Ctrl+Enter apply, G ask again,
Esc cancel. Mouse: click a hunk to make it current, the buttons act on the current hunk, and
a right-click offers accept/reject for the hunk under the pointer.

Public API of :class:`DiffReview`:

- ``set_diff(diff, note="")`` — show a :class:`ui.worddiff.WordDiff` (all hunks undecided).
- ``accepted()`` / ``rejected()`` — decided hunk indices; ``current()`` — the current index.
- slots ``accept_current()``, ``reject_current()``, ``next_hunk()``, ``previous_hunk()``,
  ``select_hunk(i)``, ``accept_all()``, ``reject_all()``, ``apply()``, ``regenerate()``,
  ``cancel()``
- signals ``applyRequested(object)`` (a ``set[int]``), ``regenerateRequested()``,
  ``dismissed()``, ``currentChanged(int)``
- ``decision(i)`` — a hunk's :class:`ui.diffview.Decision`; ``view_text()`` — the shown text
- ``hunk_at(point)`` / ``hunk_rects(index)`` — hit-testing and geometry in the text view
- ``build_context_menu(point)`` — the right-click menu (built, not shown; tests use it)
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import pairwise

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import (
    QContextMenuEvent,
    QKeyEvent,
    QMouseEvent,
    QTextCharFormat,
    QTextCursor,
)
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from ui import palette
from ui.diffview import Decision, DiffView, hunk_formats, plain_format
from ui.shortcuts import key_text, matches
from ui.worddiff import Hunk, WordDiff


class DiffReview(QWidget):
    """Hunk-by-hunk review of a proposal; see the module docstring for the API."""

    applyRequested = Signal(set)  # the accepted hunks' indices
    regenerateRequested = Signal()
    dismissed = Signal()
    currentChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._diff = WordDiff("", "", ())
        self._decisions: list[Decision] = []
        self._current = -1
        self._spans: list[tuple[int, int]] = []  # each hunk's range in the view's text
        self._title = QLabel()
        self._summary = QLabel()
        self._note = QLabel()
        self._view = DiffView(self)
        self._buttons: dict[str, QPushButton] = {}
        self._build()
        self._view.viewport().installEventFilter(self)

    def button(self, name: str) -> QPushButton:
        """One of the review's buttons: accept, reject, apply, regenerate, ..."""
        return self._buttons[name]

    @property
    def view(self) -> DiffView:
        """The diff itself (its viewport takes the clicks that pick a change)."""
        return self._view

    # --- construction ----------------------------------------------------------------------

    def _build(self) -> None:
        self._title.setStyleSheet("font-weight: 600;")
        self._summary.setStyleSheet(palette.text_colour(palette.SECONDARY_HEX))
        self._note.setStyleSheet(palette.text_colour(palette.MUTED_HEX))
        header = QHBoxLayout()
        header.addWidget(self._title)
        header.addWidget(self._summary)
        header.addStretch(1)
        header.addWidget(self._note)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(10, 8, 10, 10)
        layout.setSpacing(6)
        layout.addLayout(header)
        layout.addWidget(self._view, 1)
        layout.addLayout(self._button_row())

    def _button_row(self) -> QHBoxLayout:
        row = QHBoxLayout()
        row.setSpacing(6)
        specs = [
            ("previous", "◀", "review.previous", self.previous_hunk),
            ("next", "▶", "review.next", self.next_hunk),
            ("accept", "Accept", "review.accept", self.accept_current),
            ("reject", "Reject", "review.reject", self.reject_current),
            ("accept_all", "Accept all", "review.accept_all", self.accept_all),
            ("reject_all", "Reject all", "review.reject_all", self.reject_all),
            ("regenerate", "Ask again", "review.regenerate", self.regenerate),
            ("cancel", "Cancel", "review.cancel", self.cancel),
            ("apply", "Apply", "review.apply", self.apply),
        ]
        for name, label, action, slot in specs:
            button = QPushButton(label)
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys belong to the panel
            button.setToolTip(f"{label} ({key_text(action, first_only=False)})")
            button.clicked.connect(slot)
            self._buttons[name] = button
            if name in ("accept_all", "regenerate"):
                row.addSpacing(10)
            if name == "regenerate":
                row.addStretch(1)
            row.addWidget(button)
        self._buttons["previous"].setFixedWidth(34)
        self._buttons["next"].setFixedWidth(34)
        self._buttons["apply"].setDefault(True)
        return row

    def sizeHint(self) -> QSize:
        return QSize(720, 260)

    # --- public API ----------------------------------------------------------------------

    def set_diff(self, diff: WordDiff, note: str = "") -> None:
        self._diff = diff
        self._decisions = [Decision.PENDING] * len(diff.hunks)
        self._current = 0 if diff.hunks else -1
        self._note.setText(note)
        self._render()
        self.currentChanged.emit(self._current)

    def diff(self) -> WordDiff:
        return self._diff

    def accepted(self) -> set[int]:
        return self._indices(Decision.ACCEPTED)

    def rejected(self) -> set[int]:
        return self._indices(Decision.REJECTED)

    def current(self) -> int:
        return self._current

    def decision(self, index: int) -> Decision:
        return self._decisions[index]

    def select_hunk(self, index: int) -> None:
        if 0 <= index < len(self._decisions) and index != self._current:
            self._current = index
            self._render()
            self.currentChanged.emit(index)

    def next_hunk(self) -> None:
        self.select_hunk(min(self._current + 1, len(self._decisions) - 1))

    def previous_hunk(self) -> None:
        self.select_hunk(max(self._current - 1, 0))

    def accept_current(self) -> None:
        self._decide(Decision.ACCEPTED)

    def reject_current(self) -> None:
        self._decide(Decision.REJECTED)

    def accept_all(self) -> None:
        self._decide_all(Decision.ACCEPTED)

    def reject_all(self) -> None:
        self._decide_all(Decision.REJECTED)

    def apply(self) -> None:
        """Emit the accepted hunks; with none accepted there is nothing to apply."""
        if self.accepted():
            self.applyRequested.emit(self.accepted())

    def regenerate(self) -> None:
        self.regenerateRequested.emit()

    def cancel(self) -> None:
        self.dismissed.emit()

    # --- decisions -----------------------------------------------------------------------

    def _indices(self, decision: Decision) -> set[int]:
        return {self._diff.hunks[i].index for i, d in enumerate(self._decisions) if d is decision}

    def _decide(self, decision: Decision) -> None:
        if self._current < 0:
            return
        self._decisions[self._current] = decision
        following = self._next_pending()
        if following is not None:
            self._current = following
            self.currentChanged.emit(following)
        self._render()

    def _next_pending(self) -> int | None:
        """The next undecided hunk after the current one, wrapping around."""
        count = len(self._decisions)
        for step in range(1, count + 1):
            index = (self._current + step) % count
            if self._decisions[index] is Decision.PENDING:
                return index
        return None

    def _decide_all(self, decision: Decision) -> None:
        self._decisions = [decision] * len(self._decisions)
        self._render()

    # --- rendering -----------------------------------------------------------------------

    def _render(self) -> None:
        self._write_text()
        self._view.frame_range = self._spans[self._current] if self._current >= 0 else None
        if self._current >= 0:
            self._reveal(*self._spans[self._current])
        self._view.viewport().update()
        self._update_labels()

    def _reveal(self, start: int, end: int) -> None:
        """Scroll the current change into view, its first line above all: a change taller than
        the view (a JSON fill is one change) opens at its top, not scrolled to its last line."""
        cursor = QTextCursor(self._view.document())
        for position in (end, start):  # the end if it fits with the start, the start in any case
            cursor.setPosition(position)
            self._view.setTextCursor(cursor)
            self._view.ensureCursorVisible()
        # ensureCursorVisible stops at the line's top: keep the margin above it too, so a change
        # on the first line shows the text from the very top, its frame whole.
        bar = self._view.verticalScrollBar()
        top = self._view.cursorRect(cursor).top() + bar.value()
        margin = round(self._view.document().documentMargin())
        bar.setValue(min(bar.value(), max(0, top - margin)))

    def _write_text(self) -> None:
        document = self._view.document()
        document.clear()
        cursor = QTextCursor(document)
        self._spans = []
        at = 0
        for hunk, decision in zip(self._diff.hunks, self._decisions, strict=True):
            self._write_plain(cursor, at, hunk.start)
            self._spans.append(self._write_hunk(cursor, hunk, decision))
            at = hunk.end
        self._write_plain(cursor, at, len(self._diff.target))

    def _write_plain(self, cursor: QTextCursor, start: int, end: int) -> None:
        """Unchanged target text, with locked stretches tinted."""
        edges = sorted(
            {start, end} | {p for s, e in self._diff.locks for p in (s, e) if start < p < end}
        )
        for left, right in pairwise(edges):
            locked = any(s <= left and right <= e for s, e in self._diff.locks)
            cursor.insertText(self._diff.target[left:right], plain_format(locked))

    @staticmethod
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

    def _update_labels(self) -> None:
        total = len(self._decisions)
        accepted, rejected = len(self.accepted()), len(self.rejected())
        if total == 0:
            self._title.setText("No changes")
            self._summary.setText("The proposal is the same as the text.")
        else:
            self._title.setText(f"Change {self._current + 1} of {total}")
            undecided = total - accepted - rejected
            self._summary.setText(
                f"· {accepted} accepted · {rejected} rejected · {undecided} to decide"
            )
        self._buttons["apply"].setText(f"Apply {accepted}" if accepted else "Apply")
        self._buttons["apply"].setEnabled(accepted > 0)
        for name in ("accept", "reject", "accept_all", "reject_all", "previous", "next"):
            self._buttons[name].setEnabled(total > 0)

    def hunk_rects(self, index: int) -> list[QRect]:
        return self._view.range_rects(*self._spans[index])

    def view_text(self) -> str:
        """The review's text as shown (removed and inserted words both present)."""
        return self._view.toPlainText()

    # --- keyboard and mouse --------------------------------------------------------------

    def keyPressEvent(self, event: QKeyEvent) -> None:
        for action, slot in self._key_actions():
            if matches(action, event):
                slot()
                event.accept()
                return
        super().keyPressEvent(event)

    def _key_actions(self) -> list[tuple[str, Callable[[], None]]]:
        # Order matters: Shift+A and Ctrl+Enter must win over A and Enter.
        return [
            ("review.accept_all", self.accept_all),
            ("review.reject_all", self.reject_all),
            ("review.apply", self.apply),
            ("review.accept", self.accept_current),
            ("review.reject", self.reject_current),
            ("review.next", self.next_hunk),
            ("review.previous", self.previous_hunk),
            ("review.regenerate", self.regenerate),
            ("review.cancel", self.cancel),
        ]

    def hunk_at(self, point: QPoint) -> int | None:
        """The hunk drawn under ``point`` (viewport coordinates of the text view)."""
        position = self._view.cursorForPosition(point).position()
        for index, (start, end) in enumerate(self._spans):
            if start <= position <= end and start < end:
                return index
        return None

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:
        if watched is self._view.viewport():
            if event.type() == QEvent.Type.MouseButtonPress and isinstance(event, QMouseEvent):
                hit = self.hunk_at(event.position().toPoint())
                if hit is not None:
                    self.select_hunk(hit)
                self.setFocus()
                return True
            if event.type() == QEvent.Type.ContextMenu and isinstance(event, QContextMenuEvent):
                menu = self.build_context_menu(event.pos())
                if menu is not None:
                    menu.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
                    menu.popup(event.globalPos())
                return True
        return super().eventFilter(watched, event)

    def build_context_menu(self, point: QPoint) -> QMenu | None:
        """Accept/reject for the hunk under ``point`` (it becomes current), plus the bulk moves."""
        hit = self.hunk_at(point)
        if hit is None and not self._decisions:
            return None
        if hit is not None:
            self.select_hunk(hit)
        menu = QMenu(self)
        if hit is not None:
            menu.addAction("Accept this change", self.accept_current)
            menu.addAction("Reject this change", self.reject_current)
            menu.addSeparator()
        menu.addAction("Accept all", self.accept_all)
        menu.addAction("Reject all", self.reject_all)
        return menu
