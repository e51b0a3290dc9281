"""The template panel in the real window: schema → tick/lock → Fill → review → one undo.

Real tiny model and worker loop (on a thread); the panel only ever sees plain data.
"""

from __future__ import annotations

import json
from pathlib import Path

from jsonschema import Draft202012Validator
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from app.gui import Session
from app.template_controller import leaves, optional_fields
from engine.protocol import ModelReady
from ui.template_panel import FillChoice, TemplatePanel

SCHEMA = {
    "title": "Person",
    "type": "object",
    "properties": {
        "name": {"type": "string", "maxLength": 20},
        "age": {"type": "integer", "minimum": 0, "maximum": 120},
        "nickname": {"type": "string"},
    },
    "required": ["name", "age"],
}
TEMPLATE = '{"name": "Ada", "age": 36}'
DOC = "# People\n\n" + TEMPLATE + "\n\n| who | role |\n|-----|------|\n| Ada |  |\n\nEnd.\n"


def load_model(qtbot, session: Session) -> None:
    with qtbot.waitSignal(session.client.modelReady, timeout=60000) as ready:
        session.models.load_saved()
    assert isinstance(ready.args[0], ModelReady)


def put_cursor(session: Session, start: int, end: int | None = None) -> None:
    cursor = session.window.editor.textCursor()
    cursor.setPosition(start)
    if end is not None:
        cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    session.window.editor.setTextCursor(cursor)


def check(panel: TemplatePanel, list_name: str, pointer: str) -> None:
    widget = getattr(panel, list_name)
    for i in range(widget.count()):
        if widget.item(i).data(Qt.ItemDataRole.UserRole) == pointer:
            widget.item(i).setCheckState(Qt.CheckState.Checked)
            return
    raise AssertionError(f"{pointer} not offered in {list_name}")


def test_json_fill_keeps_the_lock_and_applies_as_one_undo(
    qtbot, session: Session, tmp_path: Path
) -> None:
    load_model(qtbot, session)
    schema_path = tmp_path / "person.schema.json"
    schema_path.write_text(json.dumps(SCHEMA), encoding="utf-8")
    editor = session.window.editor
    editor.load_text(DOC)
    start = DOC.index(TEMPLATE)
    put_cursor(session, start, start + len(TEMPLATE))
    session.window.action("view.templates").trigger()
    panel = session.window.templates
    assert panel.isVisible()
    panel.schemaChosen.emit(str(schema_path))
    check(panel, "optional", "/nickname")
    check(panel, "lockable", "/name")
    with qtbot.waitSignal(session.client.proposal, timeout=60000):
        panel.fill_button.click()
    review = session.window.review
    qtbot.waitUntil(review.isVisible)
    with qtbot.waitSignal(review.applyRequested):
        qtbot.keyClick(review, Qt.Key.Key_A, Qt.KeyboardModifier.ShiftModifier)  # accept all
        qtbot.keyClick(review, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    changed = editor.plain_text()
    filled_text = changed[start : changed.index("\n\n| who")]
    filled = json.loads(filled_text)
    assert Draft202012Validator(SCHEMA).is_valid(filled)
    assert filled["name"] == "Ada" and "nickname" in filled
    assert changed.endswith(DOC[start + len(TEMPLATE) :])
    editor.undo()
    assert editor.plain_text() == DOC


def test_table_fill_from_the_cursor_keeps_the_header(qtbot, session: Session) -> None:
    load_model(qtbot, session)
    editor = session.window.editor
    editor.load_text(DOC)
    put_cursor(session, DOC.index("| Ada |"))
    session.window.action("view.templates").trigger()
    panel = session.window.templates
    assert panel.choice() == FillChoice("table")
    panel.add_rows.setValue(1)
    with qtbot.waitSignal(session.client.proposal, timeout=60000) as got:
        panel.fill_button.click()
    text = got.args[0].text
    assert text.startswith("| who | role |\n|-----|------|\n| Ada |")
    assert len(text.splitlines()) == 4


def test_the_review_names_the_values_a_fill_computed(qtbot, session: Session) -> None:
    from PySide6.QtWidgets import QLabel

    load_model(qtbot, session)
    doc = (
        "| item | qty | price | amount |\n|---|---|---|---|\n| a | 2 | 3.00 | 6.00 |\n"
        "| b | 4 | 1.50 | 6.00 |\n| c | 5 | 2.00 |  |\n"
    )
    session.window.editor.load_text(doc)
    put_cursor(session, doc.index("| c |"))
    session.window.action("view.templates").trigger()
    with qtbot.waitSignal(session.client.proposal, timeout=60000) as got:
        session.window.templates.fill_button.click()
    assert "| c | 5 | 2.00 | 10.00 |" in got.args[0].text
    review = session.window.review
    qtbot.waitUntil(review.isVisible)
    notes = " ".join(label.text() for label in review.findChildren(QLabel))
    assert "Computed amount = qty × price (row 3, amount)" in notes


def test_panel_data_helpers() -> None:
    schema = {
        "type": "object",
        "properties": {"a": {"$ref": "#/$defs/inner"}, "b": {"type": "string"}},
        "required": ["a"],
        "$defs": {"inner": {"properties": {"x": {}, "y": {}}, "required": ["x"]}},
    }
    assert optional_fields(schema) == ["/a/y", "/b"]
    assert leaves({"a": [1, {"b": "x" * 60}]}) == [("/a/0", "1"), ("/a/1/b", '"' + "x" * 38 + "…")]
