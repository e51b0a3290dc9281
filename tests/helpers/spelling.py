"""A fake spell source for the editor's tests: a fixed set of misspellings and suggestions,
and the words "added to the dictionary" remembered."""

from __future__ import annotations


class FakeSpellSource:
    """Misspelt: the words of ``suggestions`` (any case) not added since; counts its questions."""

    def __init__(self, suggestions: dict[str, list[str]]) -> None:
        self.table = {word.lower(): list(found) for word, found in suggestions.items()}
        self.added: list[str] = []
        self.asked: list[str] = []

    def misspelt(self, word: str, opens_sentence: bool) -> bool:
        self.asked.append(word)
        return word.lower() in self.table and word.lower() not in self.added

    def suggestions(self, word: str) -> list[str]:
        return list(self.table.get(word.lower(), []))

    def add_word(self, word: str) -> None:
        self.added.append(word.lower())
