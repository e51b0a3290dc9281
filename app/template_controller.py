"""The template panel's flow: read the schema, find the template or table, send a ``Fill``.

What the panel shows is computed here from the document and the schema file (plain data in,
:class:`~ui.template_panel.FillChoice` out); the fill itself runs in the worker and comes back
through :class:`~app.edit_controller.EditController`, so the overlay, the diff review and the
single-undo apply are the very ones a rewrite uses.

JSON: the selection, when it parses as JSON, is the template instance (else the whole
document when it does, else the fill is inserted at the cursor). Table: the table under the
cursor.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, Signal

from app.edit_controller import EditController
from app.files import DocumentError, read_document
from app.worker_client import AsyncWorkerClient
from engine.errors import BadRequest
from engine.protocol import Fill, FillKind, Span
from engine.structured.markdown import table_at
from ui.editor import DocumentEditor
from ui.template_panel import FillChoice, TemplatePanel

MAX_DEPTH = 4  # how deep the panel lists optional fields and lockable values
VALUE_PREVIEW = 40


class TemplateController(QObject):
    """Signal ``message(str)`` for the status bar."""

    message = Signal(str)

    def __init__(
        self,
        panel: TemplatePanel,
        editor: DocumentEditor,
        edits: EditController,
        client: AsyncWorkerClient,
    ) -> None:
        super().__init__(panel)
        self.panel, self.editor, self.edits, self.client = panel, editor, edits, client
        self.schema_text = ""
        panel.schemaChosen.connect(self.choose_schema)
        panel.fillRequested.connect(self.fill)

    def toggle(self) -> None:
        if self.panel.isVisible():
            self.panel.hide()
        else:
            self.open_panel()

    def open_panel(self) -> None:
        """Show the panel for what is under the cursor: a table, else a JSON template."""
        text = self.editor.plain_text()
        table = table_at(text, self.editor.textCursor().position())
        if table is not None:
            rows = len(table.body)
            self.panel.show_table(
                f"The table under the cursor: {table.columns} columns, {rows} rows."
            )
        else:
            self.panel.show_json()
            self.show_template()
        self.panel.show()

    def show_template(self) -> None:
        target, template = self.json_target()
        if template is None:
            self.panel.set_template(
                "No JSON selected: the filled instance is inserted at the cursor.", []
            )
            return
        where = (
            "the selection"
            if target.start or target.end != len(self.editor.plain_text())
            else "the document"
        )
        self.panel.set_template(
            f"Template: the JSON in {where}. Tick values to keep.", leaves(template)
        )

    def choose_schema(self, path: str) -> None:
        try:
            text = read_document(Path(path))
            schema = json.loads(text)
        except (DocumentError, json.JSONDecodeError) as error:
            self.message.emit(f"That schema could not be read: {error}")
            return
        self.schema_text = text
        title = (
            schema.get("title", Path(path).name) if isinstance(schema, dict) else Path(path).name
        )
        about = schema.get("description", "") if isinstance(schema, dict) else ""
        self.panel.set_schema(path, f"<b>{title}</b><br>{about}", optional_fields(schema))

    def json_target(self) -> tuple[Span, Any]:
        """The template's span and value, or the cursor and ``None`` when there is none."""
        text = self.editor.plain_text()
        start, end = self.editor.selection_span()
        candidates = [Span(start, end)] if start != end else [Span(0, len(text))]
        for span in candidates:
            try:
                return span, json.loads(text[span.start : span.end])
            except json.JSONDecodeError:
                continue
        cursor = self.editor.textCursor().position()
        return Span(cursor, cursor), None

    def fill(self, choice: FillChoice) -> None:
        try:
            request = self.request_for(choice)
        except BadRequest as error:
            self.message.emit(str(error))
            return
        self.edits.send_fill(request)

    def request_for(self, choice: FillChoice) -> Fill:
        text = self.editor.plain_text()
        request_id = self.client.next_request_id()
        settings = self.edits.settings
        if choice.kind == "table":
            table = table_at(text, self.editor.textCursor().position())
            if table is None:
                raise BadRequest("Put the cursor in a Markdown table first.")
            return Fill(
                request_id,
                FillKind.TABLE,
                text,
                table.span,
                cells=choice.cells,
                add_rows=choice.add_rows,
                settings=settings,
            )
        if not self.schema_text:
            raise BadRequest("Choose a JSON Schema file first.")
        target, _ = self.json_target()
        return Fill(
            request_id,
            FillKind.JSON,
            text,
            target,
            schema=self.schema_text,
            locks=choice.locks,
            include=choice.include,
            settings=settings,
        )


def optional_fields(schema: Any, depth: int = 0, prefix: str = "", root: Any = None) -> list[str]:
    """JSON pointers of the optional properties (inside required objects, too)."""
    root = schema if root is None else root
    schema = _local(schema, root)
    if not isinstance(schema, dict) or depth > MAX_DEPTH:
        return []
    required = set(schema.get("required", []))
    found = []
    for key, sub in schema.get("properties", {}).items():
        pointer = f"{prefix}/{key}"
        if key not in required:
            found.append(pointer)
        else:
            found += optional_fields(sub, depth + 1, pointer, root)
    return found


def _local(schema: Any, root: Any) -> Any:
    """Follow a local ``#/...`` reference (what the panel needs to list nested fields)."""
    ref = schema.get("$ref") if isinstance(schema, dict) else None
    if not isinstance(ref, str) or not ref.startswith("#/"):
        return schema
    node = root
    for part in ref[2:].split("/"):
        node = node.get(part, {}) if isinstance(node, dict) else {}
    return node


def leaves(value: Any, prefix: str = "", depth: int = 0) -> list[tuple[str, str]]:
    """(pointer, short value text) of every scalar in a template instance."""
    if isinstance(value, dict) and depth <= MAX_DEPTH:
        return [p for k, v in value.items() for p in leaves(v, f"{prefix}/{k}", depth + 1)]
    if isinstance(value, list) and depth <= MAX_DEPTH:
        return [p for i, v in enumerate(value) for p in leaves(v, f"{prefix}/{i}", depth + 1)]
    shown = json.dumps(value, ensure_ascii=False)
    return [(prefix, shown if len(shown) <= VALUE_PREVIEW else shown[: VALUE_PREVIEW - 1] + "…")]
