"""The review's row for the current change: its versions, "try again", and a rejection note.

Under the review's header, for the change the frame is on: a version picker (shown only when
the change has more than one text to choose from: other versions of the rewrite, or tries),
a "Try again" button, a "Reject with a note" button, and a one-line note field that opens in
place of the buttons. The row holds no review state: :class:`ui.review.DiffReview` fills it
for each change and listens to its signals.

Public API of :class:`HunkTools`:

- ``show_change(labels, chosen, note, trying, active=True)`` — the current change's option
  labels (none: nothing to pick), the chosen one, its note, whether a try of it is running.
- ``open_note(text)`` / ``close_note()`` / ``note_open()`` / ``note_field`` — the note field;
  ``set_note_limit(n)`` caps its length; ``allow_tries(bool)`` shows or hides the buttons.
- signals ``optionChosen(int)``, ``retryClicked()``, ``noteClicked()``,
  ``noteSubmitted(str)``, ``noteClosed()``
"""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QKeyEvent
from PySide6.QtWidgets import QComboBox, QHBoxLayout, QLabel, QLineEdit, QPushButton, QWidget

from ui import palette
from ui.shortcuts import key_text, matches

NOTE_PLACEHOLDER = "What was wrong? Quote words to keep, e.g. keep 'Tuesday'"
TRYING = "Trying again…"
NEW_NOTE = "Reject with a note…"
EDIT_NOTE = "Edit the note…"


class NoteField(QLineEdit):
    """The note's line edit: Enter rejects with the note, Esc closes it and keeps nothing.
    Neither key reaches the review (its Enter would accept, its Esc close it)."""

    closed = Signal()
    submitted = Signal(str)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if matches("review.cancel", event):
            self.closed.emit()
        elif matches("prompt.submit", event):
            self.submitted.emit(self.text())
        else:
            super().keyPressEvent(event)
            return
        event.accept()


class HunkTools(QWidget):
    """The current change's versions, retry and note; see the module docstring for the API."""

    optionChosen = Signal(int)
    retryClicked = Signal()
    noteClicked = Signal()
    noteSubmitted = Signal(str)
    noteClosed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._caption = QLabel("Version")
        self._picker = QComboBox()
        self._retry = QPushButton("Try again")
        self._note_button = QPushButton(NEW_NOTE)
        self._field = NoteField()
        self._state = QLabel()
        self._allowed = True
        self._build()

    @property
    def note_field(self) -> QLineEdit:
        return self._field

    @property
    def picker(self) -> QComboBox:
        return self._picker

    def button(self, name: str) -> QPushButton:
        """``"retry"`` or ``"note"``."""
        return {"retry": self._retry, "note": self._note_button}[name]

    def _build(self) -> None:
        self._caption.setStyleSheet(palette.text_colour(palette.SECONDARY_HEX))
        self._state.setStyleSheet(palette.text_colour(palette.MUTED_HEX))
        self._picker.setFocusPolicy(Qt.FocusPolicy.NoFocus)  # keys belong to the review
        self._picker.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self._picker.setToolTip(
            f"The versions of this change ({key_text('review.previous_version')} / "
            f"{key_text('review.next_version')})"
        )
        self._picker.activated.connect(self.optionChosen)
        for button, action, signal in (
            (self._retry, "review.retry", self.retryClicked),
            (self._note_button, "review.note", self.noteClicked),
        ):
            button.setFocusPolicy(Qt.FocusPolicy.NoFocus)
            button.setToolTip(f"{button.text().rstrip('…')} ({key_text(action)})")
            button.clicked.connect(signal)
        self._field.setPlaceholderText(NOTE_PLACEHOLDER)
        self._field.setClearButtonEnabled(True)
        self._field.submitted.connect(self.noteSubmitted)
        self._field.closed.connect(self.noteClosed)
        self._field.hide()
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.setSpacing(6)
        for widget in (self._caption, self._picker, self._retry, self._note_button):
            layout.addWidget(widget)
        layout.addWidget(self._field, 1)
        layout.addWidget(self._state)
        layout.addStretch(1)

    def allow_tries(self, allowed: bool) -> None:
        """Show the retry and note buttons only where a change can be tried alone."""
        self._allowed = allowed
        for button in (self._retry, self._note_button):
            button.setVisible(allowed and not self.note_open())

    def set_note_limit(self, characters: int) -> None:
        self._field.setMaxLength(characters)

    def show_change(
        self, labels: list[str], chosen: int, note: str, trying: bool, active: bool = True
    ) -> None:
        """Fill the row for one change: ``labels`` names its options (empty: nothing to pick,
        every version agrees); ``active`` False: there is no current change."""
        self._caption.setVisible(bool(labels))
        self._picker.setVisible(bool(labels))
        self._picker.clear()
        self._picker.addItems(labels)
        self._picker.setCurrentIndex(chosen)
        self._picker.setEnabled(not trying)
        self._retry.setEnabled(active and not trying)
        self._note_button.setEnabled(active and not trying)
        # The note itself shows beside the change in the diff; here only whether one is kept.
        self._note_button.setText(EDIT_NOTE if note else NEW_NOTE)
        self._state.setText(TRYING if trying else "")

    def open_note(self, text: str) -> None:
        self._retry.hide()
        self._note_button.hide()
        self._field.setText(text)
        self._field.show()
        self._field.setFocus()
        self._field.selectAll()

    def close_note(self) -> None:
        self._field.hide()
        self._retry.setVisible(self._allowed)
        self._note_button.setVisible(self._allowed)

    def note_open(self) -> bool:
        return self._field.isVisibleTo(self)
