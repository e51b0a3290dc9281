"""The diff review panel: the proposal's word-level hunks, accepted or rejected one by one.

The panel shows the target with each hunk inline (removed words struck through in red,
inserted words in green; locked text keeps the lock tint and is never a hunk), a frame around
the current hunk, and a row of buttons. Hunks start undecided; only accepted ones are applied.
The panel never touches the document: it emits the accepted set and the controller applies
it (``DocumentEditor.replace_ranges(edits_for(...))``, one undo step).

A rewrite may offer several versions and any change may be tried again: the panel shows a
:class:`ui.versions.VersionSet`, one hunk per slot, each with the option the user chose (the
row of :class:`ui.hunk_tools.HunkTools` picks it for the current change). Trying a change
again asks the controller (``retryRequested``); the hunk says "trying again…" until the try
comes back (``add_try``) or ends (``end_try``), and no other hunk moves. A rejection may carry
a note, shown beside the hunk and sent with the next try of it.

Keys (from :mod:`ui.shortcuts`): A/Enter accept, R/Backspace reject, E reject with a note,
T try again, [ and ] the previous/next version, N/J/↓/→ next, P/K/↑/← previous, Shift+A
accept all, Shift+R reject all, Ctrl+Enter apply, G ask again, Esc stop the try or cancel.
Mouse: click a hunk to make it current, the buttons act on the current hunk, and a
right-click offers accept/reject for the hunk under the pointer.

Public API of :class:`DiffReview`:

- ``set_diff(diff, note="")`` — show a :class:`engine.core.worddiff.WordDiff` (all hunks
  undecided);
  ``set_versions(versions, note="")`` the same for several versions.
- ``diff()`` — the hunks with the chosen options (what ``apply`` applies); ``versions()``,
  ``choice(i)``, ``choose(i, option)``, ``next_version()``, ``previous_version()``
- ``retry_current()``, ``trying()``, ``add_try(i, text) -> bool``, ``end_try()``;
  ``note_current()``, ``note(i)``, ``set_note_limit(n)``, ``allow_tries(bool)``; ``tools`` —
  the current change's row
- ``accepted()`` / ``rejected()`` — decided hunk indices; ``current()`` — the current index.
- slots ``accept_current()``, ``reject_current()``, ``next_hunk()``, ``previous_hunk()``,
  ``select_hunk(i)``, ``accept_all()``, ``reject_all()``, ``apply()``, ``regenerate()``,
  ``cancel()``
- signals ``applyRequested(object)`` (a ``set[int]``), ``regenerateRequested()``,
  ``retryRequested(int hunk, str note)``, ``retryCancelled()``, ``dismissed()``,
  ``currentChanged(int)``
- ``decision(i)`` — a hunk's :class:`ui.review_state.Decision`; ``view_text()`` — the shown text
- ``hunk_at(point)`` / ``hunk_rects(index)`` — hit-testing and geometry in the text view
- ``build_context_menu(point)`` — the right-click menu (built, not shown; tests use it)
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QObject, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QContextMenuEvent, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QHBoxLayout,
    QLabel,
    QMenu,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from engine.core.worddiff import WordDiff
from ui import palette
from ui.diffview import DiffView
from ui.hunk_tools import HunkTools
from ui.review_state import Decision, ReviewState
from ui.shortcuts import key_text, matches
from ui.versions import VersionSet, from_diff

__all__ = ["Decision", "DiffReview"]

TRYING_MARK = " ⟳ trying again…"
NOTE_MARK = " ✎ "


class DiffReview(QWidget):
    """Hunk-by-hunk review of a proposal; see the module docstring for the API."""

    applyRequested = Signal(set)  # the accepted hunks' indices
    regenerateRequested = Signal()
    retryRequested = Signal(int, str)  # the hunk to try again, and its note
    retryCancelled = Signal()
    dismissed = Signal()
    currentChanged = Signal(int)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self._state = ReviewState(VersionSet("", ()))
        self._tries_allowed = True
        self._spans: list[tuple[int, int]] = []  # each hunk's range in the view's text
        self._title = QLabel()
        self._summary = QLabel()
        self._note = QLabel()
        self._view = DiffView(self)
        self.tools = HunkTools(self)
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
        layout.addWidget(self.tools)
        layout.addWidget(self._view, 1)
        layout.addLayout(self._button_row())
        self.tools.optionChosen.connect(lambda option: self.choose(self.current(), option))
        self.tools.retryClicked.connect(self.retry_current)
        self.tools.noteClicked.connect(self.note_current)
        self.tools.noteSubmitted.connect(self._reject_with_note)
        self.tools.noteClosed.connect(self._close_note)

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
        self.set_versions(from_diff(diff), note)

    def set_versions(self, versions: VersionSet, note: str = "") -> None:
        """Show every change of ``versions`` undecided, each with its first option."""
        self._state = ReviewState(versions)
        self._note.setText(note)
        self.tools.close_note()
        self._render()
        self.currentChanged.emit(self.current())

    def diff(self) -> WordDiff:
        """The hunks as chosen now: what :meth:`apply`'s indices refer to."""
        return self._state.diff()

    def versions(self) -> VersionSet:
        return self._state.versions

    def accepted(self) -> set[int]:
        return self._state.accepted()

    def rejected(self) -> set[int]:
        return self._state.rejected()

    def current(self) -> int:
        return self._state.current

    def decision(self, index: int) -> Decision:
        return self._state.decisions[index]

    def choice(self, index: int) -> int:
        """The option hunk ``index`` shows (an index into its slot's options)."""
        return self._state.choices[index]

    def note(self, index: int) -> str:
        return self._state.note(index)

    def trying(self) -> int | None:
        """The hunk a try is running for, if any."""
        return self._state.trying

    def set_note_limit(self, characters: int) -> None:
        self.tools.set_note_limit(characters)

    def allow_tries(self, allowed: bool) -> None:
        """Whether this review's changes can be tried again one by one (not a fill's)."""
        self._tries_allowed = allowed
        self._update_tools()

    def select_hunk(self, index: int) -> None:
        if self._state.select(index):
            self._render()
            self.currentChanged.emit(index)

    def next_hunk(self) -> None:
        self.select_hunk(min(self.current() + 1, len(self._state.decisions) - 1))

    def previous_hunk(self) -> None:
        self.select_hunk(max(self.current() - 1, 0))

    def accept_current(self) -> None:
        self._decide(Decision.ACCEPTED)

    def reject_current(self) -> None:
        self._decide(Decision.REJECTED)

    def accept_all(self) -> None:
        self._state.decide_all(Decision.ACCEPTED)
        self._render()

    def reject_all(self) -> None:
        self._state.decide_all(Decision.REJECTED)
        self._render()

    def _decide(self, decision: Decision, advance: bool = True) -> None:
        if self._state.decide(decision, advance):
            self.currentChanged.emit(self.current())
        self._render()

    def choose(self, index: int, option: int) -> None:
        """Show option ``option`` in hunk ``index``; no other hunk changes."""
        if self._state.choose(index, option):
            self._render()

    def next_version(self) -> None:
        if self._state.step_version(1):
            self._render()

    def previous_version(self) -> None:
        if self._state.step_version(-1):
            self._render()

    def apply(self) -> None:
        """Emit the accepted hunks; with none accepted (or a try running) nothing happens."""
        if self.accepted() and self.trying() is None:
            self.applyRequested.emit(self.accepted())

    def regenerate(self) -> None:
        if self.trying() is None:
            self.regenerateRequested.emit()

    def cancel(self) -> None:
        """Esc: close the note field, else stop the running try, else close the review."""
        if self.tools.note_open():
            self._close_note()
        elif self.trying() is not None:
            self.end_try()
            self.retryCancelled.emit()
        else:
            self.dismissed.emit()

    # --- tries and notes -----------------------------------------------------------------

    def retry_current(self) -> None:
        """Ask for the current hunk again, with its note; one try runs at a time."""
        index = self._state.start_try() if self._tries_allowed else None
        if index is not None:
            self._render()
            self.retryRequested.emit(index, self.note(index))

    def add_try(self, index: int, text: str) -> bool:
        """A try of hunk ``index`` came back as ``text``: shown there, undecided. False when
        nothing new was added (an option already offered, or the user's own words)."""
        added = self._state.add_try(index, text)
        self._render()
        return added

    def end_try(self) -> None:
        """The try ended without a text (cancelled or failed): the review is as it was."""
        self._state.end_try()
        self._render()

    def note_current(self) -> None:
        """Open the note field on the current hunk (Enter rejects it with the note)."""
        if self.current() >= 0 and self.trying() is None and self._tries_allowed:
            self.tools.open_note(self.note(self.current()))

    def _reject_with_note(self, text: str) -> None:
        self._state.set_note(self.current(), text)
        self._close_note()
        self._decide(Decision.REJECTED, advance=False)  # the change stays current for its try

    def _close_note(self) -> None:
        self.tools.close_note()
        self.setFocus()

    # --- rendering -----------------------------------------------------------------------

    def _render(self) -> None:
        asides = {index: self._aside(index) for index in range(len(self._state.decisions))}
        self._spans = self._view.show_diff(self.diff(), self._state.decisions, asides)
        current = self.current()
        self._view.frame_range = self._spans[current] if current >= 0 else None
        if current >= 0:
            self._view.reveal(*self._spans[current])
        self._view.viewport().update()
        self._update_labels()

    def _aside(self, index: int) -> str:
        """Beside a hunk, outside its frame: "trying again…" while a try runs, and its note."""
        trying = TRYING_MARK if index == self.trying() else ""
        note = f"{NOTE_MARK}{self.note(index)}" if self.note(index) else ""
        # A space after it, so the aside never runs into the word that follows the hunk.
        return f"{trying}{note} " if trying or note else ""

    def _update_labels(self) -> None:
        total = len(self._state.decisions)
        accepted, rejected = len(self.accepted()), len(self.rejected())
        if total == 0:
            self._title.setText("No changes")
            self._summary.setText("The proposal is the same as the text.")
        else:
            self._title.setText(f"Change {self.current() + 1} of {total}")
            undecided = total - accepted - rejected
            self._summary.setText(
                f"· {accepted} accepted · {rejected} rejected · {undecided} to decide"
            )
        self._buttons["apply"].setText(f"Apply {accepted}" if accepted else "Apply")
        self._buttons["apply"].setEnabled(accepted > 0 and self.trying() is None)
        self._buttons["regenerate"].setEnabled(self.trying() is None)
        for name in ("accept", "reject", "accept_all", "reject_all", "previous", "next"):
            self._buttons[name].setEnabled(total > 0)
        self._update_tools()

    def _update_tools(self) -> None:
        """The current change's row: its options, note, and whether a try of it runs."""
        current = self.current()
        if current < 0:
            self.tools.show_change([], 0, "", trying=False, active=False)
            return
        slot = self.versions().slots[current]
        labels = [option.describe() for option in slot.options]
        named = len(labels) > 1 or slot.differs(self.versions().count)
        self.tools.show_change(
            labels if named else [],
            self.choice(current),
            self.note(current),
            trying=self.trying() == current,
        )
        self.tools.allow_tries(self._tries_allowed)

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
            ("review.retry", self.retry_current),
            ("review.note", self.note_current),
            ("review.next_version", self.next_version),
            ("review.previous_version", self.previous_version),
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
        if hit is None and not self._state.decisions:
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
