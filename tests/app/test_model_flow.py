"""Models in the window: the picker lists what discovery finds, a model that cannot load is
explained without blocking the editor, remote-code consent is remembered per model, and a
draft at the cursor goes through the same review and single undo as a rewrite."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLineEdit, QMessageBox

from app.gui import Session
from engine.core.protocol import Failed
from tests.app.test_rewrite_flow import load_model


def test_picker_lists_the_embedded_default_without_loading_torch_in_the_gui(
    qtbot, session: Session
) -> None:
    session.models.choose()
    picker = session.models.picker
    assert picker is not None and picker.isVisible()
    picker.set_current("smollm2-135m-instruct", "cpu")
    chosen = picker.selected()
    assert chosen is not None
    assert chosen.source == "embedded" and chosen.display_name.startswith("SmolLM2-135M")
    picker.close()


def test_a_model_that_cannot_load_is_explained_and_the_editor_stays_usable(
    qtbot, session: Session, tmp_path: Path
) -> None:
    with qtbot.waitSignal(session.client.failed, timeout=30000) as failed:
        session.models.on_requested(str(tmp_path / "no-model-here"), "cpu", False)
    event: Failed = failed.args[0]
    assert event.kind == "model-load"
    box = session.models.message_box
    assert isinstance(box, QMessageBox) and box.isVisible()
    assert "no-model-here" in box.text() and "editor keeps working" in box.text()
    box.close()
    qtbot.keyClicks(session.window.editor, "still typing")
    assert session.window.editor.plain_text() == "still typing"


def test_remote_code_consent_is_remembered_per_model(qtbot, session: Session) -> None:
    settings = session.settings
    assert not settings.remote_code_allowed("org/llada")
    session.client.load = lambda *args: None  # type: ignore[method-assign]  # no real load here
    session.models.on_requested("org/llada", "cpu", True)
    assert settings.remote_code_allowed("org/llada")
    assert not settings.remote_code_allowed("org/dream")
    assert settings.model() == ("org/llada", "cpu")


def test_draft_at_the_cursor_is_reviewed_and_undone_in_one_step(qtbot, session: Session) -> None:
    load_model(qtbot, session)
    editor = session.window.editor
    text = "First paragraph.\n\nSecond paragraph.\n"
    editor.load_text(text)
    at = text.index("Second")
    cursor = editor.textCursor()
    cursor.setPosition(at)
    editor.setTextCursor(cursor)
    session.edits.settings = session.edits.settings.with_changes(steps=4, draft_tokens=8)
    with qtbot.waitSignal(session.client.proposal, timeout=60000) as got:
        session.window.action("ask.draft").trigger()
        field = session.window.bar.findChild(QLineEdit)
        qtbot.keyClicks(field, "a sentence about engines")
        qtbot.keyClick(field, Qt.Key.Key_Return)
    proposal = got.args[0]
    assert editor.plain_text() == text
    review = session.window.review
    qtbot.waitUntil(review.isVisible)
    qtbot.keyClick(review, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)  # accept all
    qtbot.keyClick(review, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    assert editor.plain_text() == text[:at] + proposal.text + text[at:]
    editor.undo()
    assert editor.plain_text() == text
