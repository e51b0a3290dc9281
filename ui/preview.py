"""The Markdown preview pane: the document rendered by ``QTextDocument.setMarkdown``.

Updates are debounced (a burst of typing renders once, shortly after it stops) so a long
document never makes typing stutter. Public API: ``set_source(text)``, ``rendered_text()``.
"""

from __future__ import annotations

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QTextBrowser, QWidget

DEBOUNCE_MS = 250


class MarkdownPreview(QTextBrowser):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setOpenExternalLinks(False)
        self.setOpenLinks(False)
        self.document().setDocumentMargin(18)
        self._source = ""
        self._timer = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self._timer.timeout.connect(self._render)

    def set_source(self, text: str) -> None:
        self._source = text
        if self.isVisible():
            self._timer.start()

    def showEvent(self, event) -> None:
        super().showEvent(event)
        self._render()

    def _render(self) -> None:
        scroll = self.verticalScrollBar().value()
        self.setMarkdown(self._source)
        self.verticalScrollBar().setValue(scroll)

    def rendered_text(self) -> str:
        return self.toPlainText()
