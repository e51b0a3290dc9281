"""The status bar's passing message: cut at a word where the room ends, never drawn under its
neighbours, and readable in full.

``QStatusBar.showMessage`` paints over the bar's left part and runs into the permanent widgets
beside it ("…UTF-8 first0 words"). :class:`StatusMessage` is an ordinary stretchable label in the
bar instead. A message that does not fit ends at the last whole word that does, followed by "…"
(never "…than your tex…"); the whole text is its tooltip, and a click on a cut message shows it
at once. It clears itself after a while.

Public API: ``show_message(text, timeout_ms=8000)``, ``full_text()``, ``is_cut()``,
``clear_message()``; :func:`fit_words` (the cutting rule, for tests).
"""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QFontMetrics, QMouseEvent, QResizeEvent
from PySide6.QtWidgets import QLabel, QSizePolicy, QToolTip, QWidget

ELLIPSIS = "…"
MESSAGE_MS = 8000
# Cut after a word: the text before a space (a word's trailing punctuation goes with it).
_WORD_END = re.compile(r"\S(?=\s)")
_CUT_PUNCTUATION = ",;:—–-"  # dropped before the "…": "tried,…" reads as a stutter


def fit_words(text: str, metrics: QFontMetrics, room: int) -> str:
    """``text`` if it fits in ``room`` pixels, else its longest run of whole words that fits
    with "…" after it; a first word too long for the room is cut inside, as a last resort."""
    if metrics.horizontalAdvance(text) <= room:
        return text
    cuts = [_cut(text, m.end()) for m in _WORD_END.finditer(text)]
    fitting = [cut for cut in cuts if cut != ELLIPSIS and metrics.horizontalAdvance(cut) <= room]
    if fitting:
        return fitting[-1]  # widths grow with the end: the last one that fits is the longest
    return metrics.elidedText(text, Qt.TextElideMode.ElideRight, room)


def _cut(text: str, end: int) -> str:
    return text[:end].rstrip(_CUT_PUNCTUATION).rstrip() + ELLIPSIS


class StatusMessage(QLabel):
    """A one-line, word-cut, self-clearing message label; see the module docstring."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._text = ""
        self.setTextFormat(Qt.TextFormat.PlainText)
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.setContentsMargins(4, 0, 12, 0)  # a gap before the permanent widgets
        self._timer = QTimer(self, singleShot=True)
        self._timer.timeout.connect(self.clear_message)

    def show_message(self, text: str, timeout_ms: int = MESSAGE_MS) -> None:
        self._text = " ".join(text.split())
        self.setToolTip(self._text)
        self._fit()
        self._timer.start(timeout_ms)

    def full_text(self) -> str:
        return self._text

    def is_cut(self) -> bool:
        """Whether the message shown is shorter than the message."""
        return self.text() != self._text

    def clear_message(self) -> None:
        self.show_message("", 0)
        self._timer.stop()

    def resizeEvent(self, event: QResizeEvent) -> None:
        super().resizeEvent(event)
        self._fit()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        # On release, and accepted: any press or release Qt delivers after the tooltip is up
        # (the status bar's, were the event passed on to it) hides it again.
        if not self.is_cut():
            super().mouseReleaseEvent(event)
            return
        self._timer.start(MESSAGE_MS)  # the reader gets the time to read it
        QToolTip.showText(event.globalPosition().toPoint(), self._text, self, self.rect())
        event.accept()

    def _fit(self) -> None:
        room = max(0, self.contentsRect().width())
        self.setText(fit_words(self._text, self.fontMetrics(), room))
