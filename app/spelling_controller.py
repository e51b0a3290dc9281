"""Spell checking in the window: the editor's underlines and suggestions, answered by the
engine's English speller (:mod:`engine.language.en.spelling`) with the user's dictionary
(:mod:`app.dictionary`), and "Add to dictionary".

The widgets may not import the engine's language code (``tests/test_layering.py``), so this
controller is the :class:`ui.spellcheck.SpellSource` the editor asks. Whether a word is
misspelt is a look-up in a set (the dictionary's 82,765 words, lemminflect's lexicon, the user's
words), cached per word, so the highlighter's line-by-line checking costs the GUI thread little
on a long document. Suggestions need SymSpell's index, which takes seconds to build: it is built
on a thread the first time a misspelt word is seen, and until it is ready the menu offers "Add
to dictionary" alone. The model's own vocabulary is not known here (no tokenizer in the GUI
process); the engine adds it when it proofreads, so a word the model knows may be underlined
and still be left as it is by "fix spelling". Suggestions are spelt the way the document
already spells (American or British, :mod:`engine.language.en.varieties`), as "fix spelling"
writes them, and put in the order the loaded model reads them in their sentence by
:class:`~app.suggestion_ranker.SuggestionRanker` when the engine can answer.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence
from dataclasses import replace

from PySide6.QtCore import QObject, Signal

from app.dictionary import DictionaryError, UserDictionary
from app.suggestion_ranker import SuggestionRanker
from engine.language.en import spelling, varieties
from ui.editor import DocumentEditor


class SpellingController(QObject):
    """Signals: ``message(str)`` for the status bar (a word added, or why it could not be)."""

    message = Signal(str)

    def __init__(self, editor: DocumentEditor, dictionary: UserDictionary | None = None) -> None:
        super().__init__(editor)
        self.editor = editor
        self.dictionary = dictionary or UserDictionary()
        self._answers: dict[tuple[str, bool], bool] = {}
        self._index_ready = threading.Event()
        self._index_started = False
        self._speller = spelling.Speller.with_words(self._words())
        self.ranker: SuggestionRanker | None = None  # the engine's reading, once there is one
        editor.set_spelling(self)

    def _words(self) -> tuple[str, ...]:
        try:
            return self.dictionary.words()
        except DictionaryError as error:
            self.message.emit(str(error))
            return ()

    # --- the editor's questions (ui.spellcheck.SpellSource) ------------------------------

    def misspelt(self, word: str, opens_sentence: bool) -> bool:
        key = (word, opens_sentence)
        answer = self._answers.get(key)
        if answer is None:
            answer = self._answers[key] = self._speller.misspelt(word, opens_sentence)
            if answer:
                self._warm_index()
        return answer

    def suggestions(self, word: str) -> list[str]:
        if not self._index_ready.is_set():
            self._warm_index()
            return []
        variety = varieties.document_variety(self.editor.plain_text())
        return list(replace(self._speller, variety=variety).suggestions(word))

    def rank(
        self,
        word: str,
        before: str,
        after: str,
        suggestions: Sequence[str],
        done: Callable[[list[str]], None],
    ) -> list[str]:
        if self.ranker is None:
            return list(suggestions)
        return self.ranker.rank(word, before, after, suggestions, done)

    def add_word(self, word: str) -> None:
        try:
            self.dictionary.add(word)
        except DictionaryError as error:
            self.message.emit(str(error))
            return
        self._speller = spelling.Speller.with_words(self._words())
        self._answers.clear()
        self.editor.recheck_spelling()
        self.message.emit(f"Added “{word}” to your dictionary ({self.dictionary.path}).")

    # --- for requests ----------------------------------------------------------------------

    def known_in(self, text: str) -> tuple[str, ...]:
        """The user's words that stand in ``text``: an edit's ``known_words``."""
        try:
            return self.dictionary.known_in(text)
        except DictionaryError:
            return ()

    def wait_for_suggestions(self, timeout_s: float) -> bool:
        """Whether suggestions are ready within ``timeout_s`` (tests and screenshots)."""
        self._warm_index()
        return self._index_ready.wait(timeout_s)

    def _warm_index(self) -> None:
        if self._index_started:
            return
        self._index_started = True
        threading.Thread(target=self._build_index, name="spelling-index", daemon=True).start()

    def _build_index(self) -> None:
        spelling.warm_up()
        self._index_ready.set()
