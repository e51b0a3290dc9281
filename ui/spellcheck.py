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
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from PySide6.QtGui import QAction, QTextCharFormat
from PySide6.QtWidgets import QMenu
from shiboken6 import isValid

from ui.palette import MISSPELT_INK

# Suggestions a context menu lists at most (the dictionary offers up to five).
MENU_SUGGESTIONS = 5
# The text around a misspelt word its suggestions are ranked in: its sentence and some of
# the one before (the model reads a few dozen tokens of it).
RANK_BEFORE_CHARS = 400
RANK_AFTER_CHARS = 100
ADD_TO_DICTIONARY = "Add to dictionary"
NO_SUGGESTIONS = "No suggestions"

# A word as the checker sees it: letters with inner apostrophes or hyphens; what touches
# digits, "_", "@", "/" or "." inside a run of non-space characters is not prose.
_RUN = re.compile(r"\S+")
# Letters, and one apostrophe inside a contraction or a possessive ("doesn't", "dosen't").
_WORD = re.compile(r"[A-Za-z]+(?:['\u2019][A-Za-z]+)?")
_PLAIN_RUN = re.compile(r"[\"'(\[*_]*[A-Za-z]+(?:['\u2019][A-Za-z]+)?[.,;:!?\"')\]*_]*")
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

    def rank(
        self,
        word: str,
        before: str,
        after: str,
        suggestions: Sequence[str],
        done: Callable[[list[str]], None],
    ) -> list[str]:
        """``suggestions`` for ``word`` between ``before`` and ``after`` in the best order
        known now; when a better one comes later (the model's reading), ``done`` gets it."""
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


@dataclass(frozen=True)
class MisspeltWord:
    """A misspelt word where a menu opens on it, and the text on either side of it."""

    word: str
    before: str
    after: str


def spelling_actions(
    menu: QMenu, misspelt: MisspeltWord, source: SpellSource, replace: Callable[[str], None]
) -> list[QAction]:
    """Put the word's suggestions (each replaces it through ``replace``), in the best order
    the source knows, and "Add to dictionary" at the top of ``menu``, above a separator; the
    actions, in menu order. When the source learns a better order while the menu is open and
    the pointer is on none of them, the suggestions take it in place."""
    first = menu.actions()[0] if menu.actions() else None
    word = misspelt.word
    shown = source.suggestions(word)[:MENU_SUGGESTIONS]
    actions: list[QAction] = []  # filled below; the source answers a better order later
    ordered = source.rank(
        word, misspelt.before, misspelt.after, shown, lambda order: _reorder(menu, actions, order)
    )
    actions += [_suggestion(menu, suggestion, replace) for suggestion in ordered]
    if not actions:
        empty = QAction(NO_SUGGESTIONS, menu)
        empty.setEnabled(False)
        actions.append(empty)
    add = QAction(ADD_TO_DICTIONARY, menu)
    add.triggered.connect(lambda _checked=False: source.add_word(word))
    for action in [*actions, add]:
        menu.insertAction(first, action)  # type: ignore[arg-type]  # None appends
    if first is not None:
        menu.insertSeparator(first)
    return [*actions, add]


def _suggestion(menu: QMenu, suggestion: str, replace: Callable[[str], None]) -> QAction:
    """A suggestion's action: it puts whatever suggestion it holds now (``data``) in place."""
    action = QAction(suggestion, menu)
    action.setData(suggestion)
    action.triggered.connect(lambda _checked=False: replace(str(action.data())))
    return action


def _reorder(menu: QMenu, actions: Sequence[QAction], order: Sequence[str]) -> None:
    """Give ``actions`` the suggestions of ``order`` in turn, unless the menu is gone or the
    pointer (or the keyboard) is on one of them: a suggestion never moves under the user."""
    if not isValid(menu) or menu.activeAction() in actions:
        return
    held = [action for action in actions if action.data() is not None]
    if sorted(str(action.data()) for action in held) != sorted(order):
        return  # another set of suggestions: not this menu's answer
    for action, suggestion in zip(held, order, strict=False):
        action.setText(suggestion)
        action.setData(suggestion)
