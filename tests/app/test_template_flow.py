"""The template panel in the real window: schema → tick/lock → Fill → review → one undo.

Real tiny model and worker loop (on a thread); the panel only ever sees plain data.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from app.gui import Session
from app.template_controller import leaves, optional_fields
from engine.core.protocol import ModelReady, Span
from ui.template_panel import JSON_PAGE, NO_TABLE, TABLE_PAGE, FillChoice, TemplatePanel

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


# --- the table under the cursor ------------------------------------------------------------

TABLE = "| who | role |\n|-----|------|\n| Ada |  |"
INTRO = "# Team\n\nWho does what:\n\n"
TABLE_DOCS = {
    "at the end, no final newline": INTRO + TABLE,
    "at the end, with a newline": INTRO + TABLE + "\n",
    "at the start": TABLE + "\n\nEnd.\n",
    "after emoji": "# Team 😀🎉\n\nWho does what 👩‍💻:\n\n" + TABLE + "\n\nEnd.\n",
    "indented by two spaces": INTRO + TABLE.replace("|", "  |", 1).replace("\n|", "\n  |") + "\n",
    "in a list item": "- people:\n\n  " + TABLE.replace("\n", "\n  ") + "\n",
    "with a ragged table elsewhere": "| a | b |\n|---|---|\n| 1 |\nnot a row\n\n" + TABLE + "\n",
}
DESCRIBED = "The table under the cursor: 2 columns, 1 row."


def put_cursor_at(session: Session, index: int) -> None:
    """The cursor at a Python index into the text (Qt counts an emoji as two positions)."""
    put_cursor(session, session.window.editor.position_map().to_qt(index))


def table_span(text: str) -> tuple[int, int]:
    start = text.index("| who")
    return start, text.index("|  |", start) + len("|  |")


@pytest.mark.parametrize("where", ["start", "middle", "end"])
@pytest.mark.parametrize("name", sorted(TABLE_DOCS))
def test_the_panel_finds_the_table_under_the_cursor(
    qtbot, session: Session, name: str, where: str
) -> None:
    text = TABLE_DOCS[name]
    session.window.editor.load_text(text)
    start, end = table_span(text)
    put_cursor_at(session, {"start": start, "middle": text.index("Ada"), "end": end}[where])
    session.window.action("view.templates").trigger()
    panel = session.window.templates
    assert panel.kind.currentIndex() == TABLE_PAGE
    assert panel.table_label.text() == DESCRIBED
    fill = session.templates.request_for(FillChoice("table"))
    line_start = text.rfind("\n", 0, start) + 1  # a table's span starts with its first line
    assert fill.target == Span(line_start, end)


def test_a_crlf_file_s_table_is_found(qtbot, session: Session, tmp_path: Path) -> None:
    path = tmp_path / "team.md"
    path.write_bytes((INTRO + TABLE + "\n").replace("\n", "\r\n").encode("utf-8"))
    session.files.open_path(path)
    text = session.window.editor.plain_text()
    put_cursor_at(session, text.index("Ada"))
    session.window.action("view.templates").trigger()
    assert session.window.templates.table_label.text() == DESCRIBED


def test_the_panel_follows_the_cursor_into_and_out_of_a_table(qtbot, session: Session) -> None:
    text = INTRO + TABLE + "\n\nEnd.\n"
    session.window.editor.load_text(text)
    put_cursor_at(session, 0)
    session.window.action("view.templates").trigger()
    panel = session.window.templates
    assert panel.kind.currentIndex() == JSON_PAGE
    panel.kind.setCurrentIndex(TABLE_PAGE)
    assert panel.table_label.text() == NO_TABLE
    put_cursor_at(session, text.index("Ada"))  # the user clicks into the table
    qtbot.waitUntil(lambda: panel.table_label.text() == DESCRIBED)
    put_cursor_at(session, text.index("End"))
    qtbot.waitUntil(lambda: panel.table_label.text() == NO_TABLE)
    panel.kind.setCurrentIndex(JSON_PAGE)
    put_cursor_at(session, text.index("Ada"))  # entering a table shows the table page again
    qtbot.waitUntil(lambda: panel.kind.currentIndex() == TABLE_PAGE)
    assert panel.table_label.text() == DESCRIBED


def test_a_line_that_joins_the_table_is_named_not_a_crash(qtbot, session: Session) -> None:
    text = INTRO + TABLE + "\nA sentence right below the table.\n"
    session.window.editor.load_text(text)
    put_cursor_at(session, text.index("Ada"))
    messages: list[str] = []
    session.templates.message.connect(messages.append)
    session.window.action("view.templates").trigger()
    panel = session.window.templates
    assert panel.kind.currentIndex() == TABLE_PAGE
    line = text[: text.index("A sentence")].count("\n") + 1
    assert panel.table_label.text().startswith(f"Line {line} reads as one more row of the table")
    panel.fill_button.click()
    assert messages and messages[-1].startswith(f"Line {line} reads as one more row")
    assert session.edits.running is None and session.window.editor.plain_text() == text
