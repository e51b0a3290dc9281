"""The window's spell checking end to end: the engine's speller behind the editor's underlines
and menu, and "Add to dictionary" saving to the user's word list."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtGui import QTextCursor
from pytestqt.qtbot import QtBot

from app.dictionary import FILE_NAME, UserDictionary
from app.spelling_controller import SpellingController
from tests.helpers.spelling import shown_editor, underlined
from ui.editor import DocumentEditor
from ui.spellcheck import ADD_TO_DICTIONARY

INDEX_SECONDS = 600  # SymSpell's index: seconds on a free core, minutes on a busy CI machine


@pytest.fixture
def editor(qtbot: QtBot) -> DocumentEditor:
    return shown_editor(qtbot)


def test_misspellings_are_underlined_names_and_code_are_not(
    editor: DocumentEditor, tmp_path: Path
) -> None:
    editor.load_text("We told Jonh the parcel was recieved, see `recieve_all` and NASDQ.")
    SpellingController(editor, UserDictionary(tmp_path / FILE_NAME))
    assert underlined(editor) == ["recieved"]


def test_the_menu_lists_the_dictionarys_suggestions_and_add_saves_the_word(
    qtbot: QtBot, editor: DocumentEditor, tmp_path: Path
) -> None:
    text = "The parcel was recieved."
    editor.load_text(text)
    path = tmp_path / FILE_NAME
    controller = SpellingController(editor, UserDictionary(path))
    assert controller.wait_for_suggestions(INDEX_SECONDS)
    cursor = QTextCursor(editor.document())
    cursor.setPosition(text.index("recieved") + 2)
    menu = editor.build_context_menu(editor.cursorRect(cursor).center())
    texts = [a.text() for a in menu.actions()]
    assert texts[0] == "received" and ADD_TO_DICTIONARY in texts
    with qtbot.waitSignal(controller.message, timeout=1000) as said:
        next(a for a in menu.actions() if a.text() == ADD_TO_DICTIONARY).trigger()
    assert "recieved" in said.args[0]
    assert underlined(editor) == [] and UserDictionary(path).words() == ("recieved",)
    assert controller.known_in(text) == ("recieved",)
    assert editor.plain_text() == text
    menu.deleteLater()


def test_an_unreadable_dictionary_is_said_and_checking_goes_on(
    editor: DocumentEditor, tmp_path: Path
) -> None:
    folder = tmp_path / FILE_NAME
    folder.mkdir()  # a folder where the file should be: reading it fails
    editor.load_text("It was recieved.")
    controller = SpellingController(editor, UserDictionary(folder))
    assert underlined(editor) == ["recieved"]
    assert controller.known_in("It was recieved.") == ()
    controller.add_word("recieved")  # cannot be saved: said, nothing else changes
    assert underlined(editor) == ["recieved"]


@pytest.mark.parametrize(
    ("text", "spellings"),
    [
        ("The colour of the oragnisation.", ("organisation", "organization")),
        ("The color of the oragnisation.", ("organization", "organisation")),
    ],
)
def test_the_menu_spells_as_the_document_does(
    editor: DocumentEditor, tmp_path: Path, text: str, spellings: tuple[str, str]
) -> None:
    first, other = spellings
    editor.load_text(text)
    controller = SpellingController(editor, UserDictionary(tmp_path / FILE_NAME))
    assert controller.wait_for_suggestions(INDEX_SECONDS)
    cursor = QTextCursor(editor.document())
    cursor.setPosition(text.index("oragnisation") + 2)
    menu = editor.build_context_menu(editor.cursorRect(cursor).center())
    texts = [a.text() for a in menu.actions()]
    assert texts[0] == first and other not in texts
    assert editor.plain_text() == text
    menu.deleteLater()
