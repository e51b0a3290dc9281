"""The editor's spell checking: a red wavy underline under misspelt words of prose (never in a
lock, code or a link target), their suggestions first in the context menu, and "Add to
dictionary"; the source that decides is a fake here (the app's controller in the window)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QMenu
from pytestqt.qtbot import QtBot
from shiboken6 import isValid

from tests.helpers.spelling import FakeSpellSource, shown_editor, underlined
from ui.editor import DocumentEditor
from ui.spellcheck import ADD_TO_DICTIONARY, NO_SUGGESTIONS, plain_words

SUGGESTIONS = {
    "recieved": ["received", "relieved"],
    "definately": ["definitely"],
    "dosen't": ["doesn't"],
}


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


def test_a_misspelt_contraction_is_underlined_whole(editor: DocumentEditor) -> None:
    checked(editor, "She dosen't mind, and it's the team's call.")
    assert underlined(editor) == ["dosen't"]


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


# --- the model's order (a source that learns it after the menu opens) --------------------


def open_menu(editor: DocumentEditor, text: str, word: str) -> QMenu:
    cursor = QTextCursor(editor.document())
    cursor.setPosition(text.index(word) + 1)
    return editor.build_context_menu(editor.cursorRect(cursor).center())


def test_the_menu_asks_with_the_text_around_the_word(editor: DocumentEditor) -> None:
    text = "First line.\nIt was recieved today."
    source = checked(editor, text)
    menu = open_menu(editor, text, "recieved")
    word, before, after, shown, _done = source.ranking[-1]
    assert (word, before, after) == ("recieved", "First line.\nIt was ", " today.")
    assert shown == ["received", "relieved"]
    menu.deleteLater()


def test_a_better_order_learnt_while_the_menu_is_open_is_taken_in_place(
    editor: DocumentEditor,
) -> None:
    text = "It was recieved today."
    source = checked(editor, text)
    menu = open_menu(editor, text, "recieved")
    before = [a.text() for a in menu.actions()]
    source.ranking[-1][-1](["relieved", "received"])  # the engine's answer
    after = [a.text() for a in menu.actions()]
    assert after[:2] == ["relieved", "received"] and after[2:] == before[2:]
    menu.actions()[0].trigger()
    assert editor.plain_text() == "It was relieved today."
    menu.deleteLater()


def test_a_suggestion_never_moves_under_the_pointer(editor: DocumentEditor) -> None:
    text = "It was recieved today."
    source = checked(editor, text)
    menu = open_menu(editor, text, "recieved")
    menu.setActiveAction(menu.actions()[1])  # the user is on "relieved"
    source.ranking[-1][-1](["relieved", "received"])
    assert [a.text() for a in menu.actions()[:2]] == ["received", "relieved"]
    menu.deleteLater()


def test_an_answer_for_another_set_or_a_closed_menu_changes_nothing(
    qtbot: QtBot, editor: DocumentEditor
) -> None:
    text = "It was recieved today."
    source = checked(editor, text)
    menu = open_menu(editor, text, "recieved")
    source.ranking[-1][-1](["relieved", "retrieved"])  # not what this menu lists
    assert [a.text() for a in menu.actions()[:2]] == ["received", "relieved"]
    done = source.ranking[-1][-1]
    menu.deleteLater()
    qtbot.waitUntil(lambda: not isValid(menu))
    done(["relieved", "received"])  # the menu is gone: nothing to do, nothing raised


def test_an_order_the_source_knows_already_is_shown_at_once(editor: DocumentEditor) -> None:
    text = "It was recieved today."
    source = checked(editor, text)
    source.ranked["recieved"] = ["relieved", "received"]
    menu = open_menu(editor, text, "recieved")
    assert [a.text() for a in menu.actions()[:2]] == ["relieved", "received"]
    menu.deleteLater()
