"""The status bar's passing message: elided to the room it has, never drawn under its neighbours.

``QStatusBar.showMessage`` paints over the bar's left part and runs into the permanent widgets
beside it ("…UTF-8 first0 words"). :class:`StatusMessage` is an ordinary stretchable label in the
bar instead: a long message is cut with "…" where the room ends (the whole text is its tooltip),
and it clears itself after a while.

Public API: ``show_message(text, timeout_ms=8000)``, ``full_text()``, ``clear_message()``.
"""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QWidget


class StatusMessage(QLabel):
    """A one-line, elided, self-clearing message label; see the module docstring."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setContentsMargins(4, 0, 12, 0)  # a gap before the permanent widgets
        self._timer = QTimer(self, singleShot=True)
        self._timer.timeout.connect(self.clear_message)

    def show_message(self, text: str, timeout_ms: int = 8000) -> None:
        self._text = text
        self.setToolTip(text)
        self._elide()
        self._timer.start(timeout_ms)

    def full_text(self) -> str:
        return self._text

    def clear_message(self) -> None:
        self.show_message("", 0)
        self._timer.stop()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._elide()

    def _elide(self) -> None:
        room = max(0, self.contentsRect().width())
        line = " ".join(self._text.split())
        self.setText(self.fontMetrics().elidedText(line, Qt.TextElideMode.ElideRight, room))
