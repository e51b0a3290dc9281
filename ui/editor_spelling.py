"""The editor's spell checking: the underlines (drawn by the highlighter), the context menu's
suggestions for the word under the pointer, and the lines to check again when locks change.

:class:`ui.editor.DocumentEditor` owns one; what is misspelt is the :class:`~ui.spellcheck.
SpellSource`'s answer (the app's), never this module's.
"""

from __future__ import annotations

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QMenu, QPlainTextEdit

from ui.highlight import MarkdownHighlighter
from ui.locks import LockSet
from ui.spellcheck import (
    RANK_AFTER_CHARS,
    RANK_BEFORE_CHARS,
    MisspeltWord,
    SpellSource,
    spelling_actions,
)


class EditorSpelling:
    """Spell checking for one editor, its highlighter and its locks (off until a source is
    set)."""

    def __init__(
        self, editor: QPlainTextEdit, highlighter: MarkdownHighlighter, locks: LockSet
    ) -> None:
        self.editor = editor
        self.highlighter = highlighter
        self.locks = locks
        self.source: SpellSource | None = None
        self._known_locks: set[tuple[int, int]] = set()  # the locks the underlines know

    def set_source(self, source: SpellSource | None) -> None:
        self.source = source
        self._known_locks = set(self.locks.spans())
        self.highlighter.set_spelling(source, self._locked)

    def _locked(self, start: int, end: int) -> bool:
        return self.locks.touches(start, end, inserting=False)

    def recheck(self) -> None:
        if self.source is not None:
            self.highlighter.rehighlight()

    def offer(self, menu: QMenu, cursor: QTextCursor) -> None:
        """Put the suggestions for the misspelt word at ``cursor`` (if it is one) on ``menu``."""
        if self.source is None:
            return
        block = cursor.block()
        word = self.highlighter.misspelt_at(block, cursor.positionInBlock())
        if word is None:
            return
        start, end = block.position() + word.start, block.position() + word.end
        text = self.editor.toPlainText()
        around = MisspeltWord(
            word.word,
            text[max(0, start - RANK_BEFORE_CHARS) : start],
            text[end : end + RANK_AFTER_CHARS],
        )
        spelling_actions(menu, around, self.source, lambda text: self.replace(start, end, text))

    def replace(self, start: int, end: int, text: str) -> None:
        """Put a suggestion in place of the word at document positions ``start:end`` (one
        undo step)."""
        if self.locks.touches(start, end):
            return  # the underline is never drawn in a lock; a lock made since keeps its text
        cursor = QTextCursor(self.editor.document())
        cursor.setPosition(start)
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(text)

    def locks_changed(self) -> None:
        """Check again the lines of locks made or removed: a locked word loses its underline."""
        spans = set(self.locks.spans())
        changed, self._known_locks = spans ^ self._known_locks, spans
        if self.source is None:
            return
        document = self.editor.document()
        for start, end in changed:
            block = document.findBlock(start)
            while block.isValid() and block.position() <= end:
                self.highlighter.rehighlightBlock(block)
                block = block.next()
