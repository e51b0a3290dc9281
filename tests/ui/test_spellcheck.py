"""The editor's spell checking: a red wavy underline under misspelt words of prose (never in a
lock, code or a link target), their suggestions first in the context menu, and "Add to
dictionary"; the source that decides is a fake here (the app's controller in the window)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from tests.helpers.spelling import FakeSpellSource, shown_editor, underlined
from ui.editor import DocumentEditor
from ui.spellcheck import ADD_TO_DICTIONARY, NO_SUGGESTIONS, plain_words

SUGGESTIONS = {"recieved": ["received", "relieved"], "definately": ["definitely"]}


@pytest.fixture
def editor(qtbot: QtBot) -> DocumentEditor:
    return shown_editor(qtbot)


def checked(editor: DocumentEditor, text: str, locks=()) -> FakeSpellSource:  # type: ignore[no-untyped-def]
    source = FakeSpellSource(SUGGESTIONS)
    editor.load_text(text, locks)
    editor.set_spelling(source)
    return source


def menu_texts(editor: DocumentEditor, text: str, word: str) -> list[str]:
    cursor = QTextCursor(editor.document())
    cursor.setPosition(text.index(word) + 2)
    menu = editor.build_context_menu(editor.cursorRect(cursor).center())
    texts = [action.text() for action in menu.actions()]
    menu.deleteLater()
    return texts


def test_a_misspelt_word_gets_the_wavy_underline(editor: DocumentEditor) -> None:
    checked(editor, "It was recieved, and Definately so.")
    assert underlined(editor) == ["recieved", "Definately"]


def test_no_underline_in_locks_code_spans_fences_or_link_targets(editor: DocumentEditor) -> None:
    text = (
        "Locked recieved here, `recieved` in code, [recieved](https://x.io/definately).\n"
        "```\nrecieved in a fence\n```\nhttps://definately.example/recieved and recieved."
    )
    lock = (text.index("recieved"), text.index("recieved") + len("recieved"))
    checked(editor, text, [lock])
    assert underlined(editor) == ["recieved", "recieved"]  # the link's text, the last word


def test_a_new_lock_takes_the_underline_away_and_unlocking_gives_it_back(
    editor: DocumentEditor,
) -> None:
    text = "It was recieved."
    checked(editor, text)
    start = text.index("recieved")
    editor.set_lock_spans([(start, start + len("recieved"))])
    assert underlined(editor) == []
    editor.set_lock_spans([])
    assert underlined(editor) == ["recieved"]


def test_the_context_menu_offers_the_suggestions_first_and_each_replaces_the_word(
    editor: DocumentEditor,
) -> None:
    text = "It was recieved today."
    checked(editor, text)
    texts = menu_texts(editor, text, "recieved")
    assert texts[:3] == ["received", "relieved", ADD_TO_DICTIONARY]
    assert texts[3] == ""  # a separator, then Qt's own menu
    cursor = QTextCursor(editor.document())
    cursor.setPosition(text.index("recieved") + 1)
    menu = editor.build_context_menu(editor.cursorRect(cursor).center())
    menu.actions()[0].trigger()
    assert editor.plain_text() == "It was received today."
    assert underlined(editor) == []
    editor.undo()
    assert editor.plain_text() == text
    menu.deleteLater()


def test_a_correct_word_gets_no_spelling_entries(editor: DocumentEditor) -> None:
    text = "It was recieved today."
    checked(editor, text)
    assert ADD_TO_DICTIONARY not in menu_texts(editor, text, "today")


def test_add_to_dictionary_asks_the_source_and_the_underline_goes(editor: DocumentEditor) -> None:
    text = "It was recieved, recieved."
    source = checked(editor, text)
    cursor = QTextCursor(editor.document())
    cursor.setPosition(text.index("recieved") + 1)
    menu = editor.build_context_menu(editor.cursorRect(cursor).center())
    next(a for a in menu.actions() if a.text() == ADD_TO_DICTIONARY).trigger()
    editor.recheck_spelling()  # what the app's controller does once the word is saved
    assert source.added == ["recieved"] and underlined(editor) == []
    assert editor.plain_text() == text
    menu.deleteLater()


def test_a_word_without_suggestions_says_so(editor: DocumentEditor) -> None:
    source = checked(editor, "A zzqx here.")
    source.table["zzqx"] = []
    editor.recheck_spelling()
    texts = menu_texts(editor, "A zzqx here.", "zzqx")
    assert texts[:2] == [NO_SUGGESTIONS, ADD_TO_DICTIONARY]


def test_typing_rechecks_only_the_line_typed_in(editor: DocumentEditor) -> None:
    text = "\n".join(f"Line {i} was fine." for i in range(50))
    source = checked(editor, text)
    source.asked.clear()
    cursor = QTextCursor(editor.document())
    cursor.setPosition(len(text))
    cursor.insertText(" recieved")
    assert underlined(editor) == ["recieved"]
    assert set(source.asked) <= {"Line", "was", "fine", "recieved"}
    assert len(source.asked) <= 5


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["ok", "recieved", "`x`", "a.b", "Ada.", "(it)", "x@y"])))
def test_every_plain_word_found_is_the_text_at_its_place(words: list[str]) -> None:
    line = " ".join(words)
    for word in plain_words(line):
        assert line[word.start : word.end] == word.word and word.word.isalpha()
