"""The spelling menu ranked by the loaded model, end to end: the window's menu opens in the
dictionary's order, asks the engine (the worker loop on a thread, a tiny model), takes the
model's order in place, and opens in it at once the next time; without a model it asks
nothing and keeps the dictionary's order."""

from __future__ import annotations

from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QMenu

from app.gui import Session
from engine.core.protocol import SuggestionsRanked
from tests.app.test_rewrite_flow import load_model
from tests.app.test_spelling_controller import INDEX_SECONDS
from ui.spellcheck import ADD_TO_DICTIONARY

TEXT = "The cleark at the front desk gave me the key."


def menu_on(session: Session, word: str) -> QMenu:
    editor = session.window.editor
    cursor = QTextCursor(editor.document())
    cursor.setPosition(TEXT.index(word) + 2)
    return editor.build_context_menu(editor.cursorRect(cursor).center())


def suggestions(menu: QMenu) -> list[str]:
    texts = [action.text() for action in menu.actions()]
    return texts[: texts.index(ADD_TO_DICTIONARY)]


def test_the_menu_takes_the_models_order_and_keeps_it(qtbot, session: Session) -> None:
    load_model(qtbot, session)
    session.window.editor.load_text(TEXT)
    assert session.spelling is not None
    assert session.spelling.wait_for_suggestions(INDEX_SECONDS)
    menu = menu_on(session, "cleark")
    dictionary = suggestions(menu)
    assert dictionary[:3] == ["clear", "clark", "clerk"]  # edits, then how common
    with qtbot.waitSignal(session.client.ranked, timeout=30000) as answered:
        pass  # the menu asked as it opened
    answer: SuggestionsRanked = answered.args[0]
    assert sorted(answer.suggestions) == sorted(dictionary) and len(answer.nats) == len(dictionary)
    assert suggestions(menu) == list(answer.suggestions)
    menu.deleteLater()
    with qtbot.assertNotEmitted(session.client.ranked, wait=200):
        again = menu_on(session, "cleark")  # kept: no second read
    assert suggestions(again) == list(answer.suggestions)
    again.deleteLater()


def test_without_a_model_the_menu_keeps_the_dictionarys_order(qtbot, session: Session) -> None:
    session.window.editor.load_text(TEXT)
    assert session.spelling is not None
    assert session.spelling.wait_for_suggestions(INDEX_SECONDS)
    with qtbot.assertNotEmitted(session.client.ranked, wait=200):
        menu = menu_on(session, "cleark")
    assert suggestions(menu)[:3] == ["clear", "clark", "clerk"]
    menu.deleteLater()
