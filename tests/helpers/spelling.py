"""A fake spell source for the editor's tests: a fixed set of misspellings and suggestions,
and the words "added to the dictionary" remembered."""

from __future__ import annotations

from PySide6.QtGui import QTextCharFormat
from pytestqt.qtbot import QtBot

from ui.editor import DocumentEditor


class FakeSpellSource:
    """Misspelt: the words of ``suggestions`` (any case) not added since; counts its questions."""

    def __init__(self, suggestions: dict[str, list[str]]) -> None:
        self.table = {word.lower(): list(found) for word, found in suggestions.items()}
        self.added: list[str] = []
        self.asked: list[str] = []
        self.ranked: dict[str, list[str]] = {}  # an order the source already knows, per word
        self.ranking: list[tuple] = []  # type: ignore[type-arg]  # each menu's question

    def misspelt(self, word: str, opens_sentence: bool) -> bool:
        self.asked.append(word)
        return word.lower() in self.table and word.lower() not in self.added

    def suggestions(self, word: str) -> list[str]:
        return list(self.table.get(word.lower(), []))

    def add_word(self, word: str) -> None:
        self.added.append(word.lower())

    def rank(self, word, before, after, suggestions, done):  # type: ignore[no-untyped-def]
        """As given (or as ranked before); ``done`` kept: a test answers as the engine would."""
        self.ranking.append((word, before, after, list(suggestions), done))
        return list(self.ranked.get(word.lower(), suggestions))


WAVY = QTextCharFormat.UnderlineStyle.SpellCheckUnderline


def underlined(editor: DocumentEditor) -> list[str]:
    """The words drawn with the wavy underline, in document order."""
    found = []
    block = editor.document().begin()
    while block.isValid():
        for piece in block.layout().formats():
            if piece.format.underlineStyle() == WAVY:
                found.append(block.text()[piece.start : piece.start + piece.length])
        block = block.next()
    return found


def shown_editor(qtbot: QtBot) -> DocumentEditor:
    """An editor of a readable size, closed with the test."""
    widget = DocumentEditor()
    qtbot.addWidget(widget)
    widget.resize(600, 300)
    return widget
