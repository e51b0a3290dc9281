"""Spell checking in the editor, as the widgets see it: which words of a line to check, what
answers them, and how a misspelt word is drawn.

The widgets never decide what is misspelt: a :class:`SpellSource` does (the app's
``SpellingController``, over the engine's English speller, which ``ui/`` may not import). The
highlighter (:mod:`ui.highlight`) asks it about the plain words of each line as it highlights
that line, so a keystroke re-checks only its own line and a long document is checked as Qt
highlights it, line by line; the source's answers are dictionary look-ups, cached per word.
Words inside code spans, fenced code, link targets, URLs and locked text are never asked about.

Pure functions and a protocol: no engine, no model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtGui import QAction, QTextCharFormat
from PySide6.QtWidgets import QMenu

from ui.palette import MISSPELT_INK

# Suggestions a context menu lists at most (the dictionary offers up to five).
MENU_SUGGESTIONS = 5
ADD_TO_DICTIONARY = "Add to dictionary"
NO_SUGGESTIONS = "No suggestions"

# A word as the checker sees it: letters with inner apostrophes or hyphens; what touches
# digits, "_", "@", "/" or "." inside a run of non-space characters is not prose.
_RUN = re.compile(r"\S+")
_WORD = re.compile(r"[A-Za-z]+")
_PLAIN_RUN = re.compile(r"[\"'(\[*_]*[A-Za-z]+[.,;:!?\"')\]*_]*")
_SENTENCE_END = re.compile(r"[.!?][\"')\]*_]*$")


class SpellSource(Protocol):
    """What answers the editor's spelling questions (the app provides it)."""

    def misspelt(self, word: str, opens_sentence: bool) -> bool:
        """Whether ``word`` (letters only) is misspelt where it stands."""
        ...

    def suggestions(self, word: str) -> list[str]:
        """What ``word`` may be instead, best first (empty while none are known yet)."""
        ...

    def add_word(self, word: str) -> None:
        """Add ``word`` to the user's dictionary (it is then never misspelt)."""
        ...


@dataclass(frozen=True)
class LineWord:
    """A plain word of a line: its letters, where they start, and whether it opens a sentence."""

    start: int
    word: str
    opens_sentence: bool

    @property
    def end(self) -> int:
        return self.start + len(self.word)


def plain_words(masked: str) -> Iterator[LineWord]:
    """The plain words of one line whose code spans and link targets are already masked out
    (``"\\0"``): each run of non-space characters that is letters with prose marks around them."""
    opens = True
    for run in _RUN.finditer(masked):
        text = run.group()
        if "\0" not in text and _PLAIN_RUN.fullmatch(text):
            letters = _WORD.search(text)
            assert letters is not None  # the run's pattern holds letters
            yield LineWord(run.start() + letters.start(), letters.group(), opens)
        opens = bool(_SENTENCE_END.search(text))


def misspelt_format() -> QTextCharFormat:
    """A red wavy underline, as every writing app draws a misspelt word."""
    fmt = QTextCharFormat()
    fmt.setUnderlineStyle(QTextCharFormat.UnderlineStyle.SpellCheckUnderline)
    fmt.setUnderlineColor(MISSPELT_INK)
    return fmt


def spelling_actions(
    menu: QMenu, word: str, source: SpellSource, replace: Callable[[str], None]
) -> list[QAction]:
    """Put ``word``'s suggestions (each replaces it through ``replace``) and "Add to
    dictionary" at the top of ``menu``, above a separator; the actions, in menu order."""
    first = menu.actions()[0] if menu.actions() else None
    actions = []
    suggestions = source.suggestions(word)[:MENU_SUGGESTIONS]
    for suggestion in suggestions:
        action = QAction(suggestion, menu)
        action.triggered.connect(lambda _checked=False, s=suggestion: replace(s))
        actions.append(action)
    if not suggestions:
        empty = QAction(NO_SUGGESTIONS, menu)
        empty.setEnabled(False)
        actions.append(empty)
    add = QAction(ADD_TO_DICTIONARY, menu)
    add.triggered.connect(lambda _checked=False: source.add_word(word))
    actions.append(add)
    for action in actions:
        menu.insertAction(first, action)  # type: ignore[arg-type]  # None appends
    if first is not None:
        menu.insertSeparator(first)
    return actions
