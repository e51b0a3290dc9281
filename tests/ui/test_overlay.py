"""Draft overlay: shows frames over the target, coalesces repaints, never touches the document."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QColor, QTextCursor
from pytestqt.qtbot import QtBot

from engine.core.protocol import Frame, TokenState, TokenView
from ui.editor import DocumentEditor
from ui.overlay import NOISE_PLACEHOLDER, DraftOverlay, token_format

TEXT = "Title\n\nCall Ada Lovelace today about the loom.\n\nAfter."
TARGET = (TEXT.index("Call"), TEXT.index("loom.") + 5)


@pytest.fixture
def editor(qtbot: QtBot) -> DocumentEditor:
    widget = DocumentEditor()
    qtbot.addWidget(widget)
    widget.resize(600, 300)
    widget.load_text(TEXT, [(TEXT.index("Ada"), TEXT.index("Ada") + 12)])
    widget.show()
    qtbot.waitExposed(widget)
    return widget


def _frame(step: int, tokens: list[tuple[str, TokenState]], request_id: int = 1) -> Frame:
    views = tuple(TokenView(i, text, state, 0.5) for i, (text, state) in enumerate(tokens))
    return Frame(request_id, step, 8, len(views), views)


TOKENS = [
    ("Phone", TokenState.SETTLED),
    (" ", TokenState.SETTLED),
    ("Ada Lovelace", TokenState.LOCKED),
    (" soon", TokenState.PROVISIONAL),
    ("", TokenState.NOISE),
    (" loom", TokenState.NOISE),
]


def test_the_overlay_never_changes_the_document(qtbot: QtBot, editor: DocumentEditor) -> None:
    document = editor.document()
    revision, locks = document.revision(), editor.lock_spans()
    overlay = DraftOverlay(editor)
    overlay.show_for(*TARGET)
    for step in range(1, 6):
        overlay.apply_frame(_frame(step, TOKENS))
        qtbot.waitUntil(lambda: overlay.view.text() == "Phone Ada Lovelace soon loom", timeout=1000)
    qtbot.waitUntil(lambda: not overlay.repaint_pending(), timeout=1000)
    overlay.clear()
    assert editor.toPlainText() == TEXT
    assert document.revision() == revision
    assert not document.isUndoAvailable()
    assert not document.isModified()
    assert editor.lock_spans() == locks


def test_frames_are_coalesced_into_one_rebuild(qtbot: QtBot, editor: DocumentEditor) -> None:
    overlay = DraftOverlay(editor)
    overlay.show_for(*TARGET)
    before = overlay.rebuilds
    for step in range(1, 9):
        overlay.apply_frame(_frame(step, TOKENS))
    assert overlay.rebuilds == before  # nothing yet: the timer has not fired
    qtbot.waitUntil(lambda: overlay.rebuilds == before + 1, timeout=1000)
    assert overlay.rendered_text() == f"Phone Ada Lovelace soon{NOISE_PLACEHOLDER}  loom"


def test_partial_updates_only_change_the_positions_they_name(
    qtbot: QtBot, editor: DocumentEditor
) -> None:
    overlay = DraftOverlay(editor)
    overlay.show_for(*TARGET)
    overlay.apply_frame(_frame(1, TOKENS))
    later = Frame(1, 2, 8, len(TOKENS), (TokenView(4, " by", TokenState.SETTLED, 1.0),))
    overlay.apply_frame(later)
    qtbot.waitUntil(lambda: "soon by loom" in overlay.rendered_text(), timeout=1000)


def test_states_are_drawn_differently() -> None:
    formats = {state: token_format(TokenView(0, "x", state, 0.5)) for state in TokenState}
    assert formats[TokenState.PROVISIONAL].fontItalic()
    assert not formats[TokenState.SETTLED].fontItalic()
    assert formats[TokenState.LOCKED].background().color().alpha() > 0
    hex_argb = QColor.NameFormat.HexArgb
    inks = {formats[s].foreground().color().name(hex_argb) for s in TokenState}
    assert len(inks) >= 3  # noise, provisional and settled ink all differ


def test_the_overlay_covers_the_target_and_follows_edits_above_it(
    qtbot: QtBot, editor: DocumentEditor
) -> None:
    overlay = DraftOverlay(editor)
    overlay.show_for(*TARGET)
    start = QTextCursor(editor.document())
    start.setPosition(TARGET[0])
    top = editor.cursorRect(start).top()
    assert overlay.isVisible()
    assert overlay.geometry().top() <= top < overlay.geometry().bottom()
    cursor = QTextCursor(editor.document())
    cursor.insertText("New line\n\n")
    qtbot.waitUntil(lambda: overlay.geometry().top() > top, timeout=1000)


def test_clicking_the_footer_asks_to_cancel(qtbot: QtBot, editor: DocumentEditor) -> None:
    overlay = DraftOverlay(editor)
    overlay.show_for(*TARGET)
    with qtbot.waitSignal(overlay.cancelRequested, timeout=1000):
        qtbot.mouseClick(
            overlay,
            Qt.MouseButton.LeftButton,
            pos=QPoint(overlay.width() - 20, overlay.height() - 8),
        )


def test_clicking_the_draft_text_does_not_cancel(qtbot: QtBot, editor: DocumentEditor) -> None:
    overlay = DraftOverlay(editor)
    overlay.show_for(*TARGET)
    with qtbot.assertNotEmitted(overlay.cancelRequested):
        qtbot.mouseClick(overlay, Qt.MouseButton.LeftButton, pos=QPoint(12, 8))


def test_clear_hides_and_forgets(editor: DocumentEditor) -> None:
    overlay = DraftOverlay(editor)
    overlay.show_for(*TARGET)
    overlay.apply_frame(_frame(1, TOKENS))
    overlay.clear()
    assert not overlay.isVisible()
    assert overlay.view.tokens == []
    assert overlay.rendered_text() == ""
