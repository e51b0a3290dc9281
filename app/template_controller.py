"""The template panel's flow: read the schema, find the template or table, send a ``Fill``.

What the panel shows is computed here from the document and the schema file (plain data in,
:class:`~ui.template_panel.FillChoice` out); the fill itself runs in the worker and comes back
through :class:`~app.edit_controller.EditController`, so the overlay, the diff review and the
single-undo apply are the very ones a rewrite uses.

JSON: the selection, when it parses as JSON, is the template instance (else the whole
document when it does, else the fill is inserted at the cursor). Table: the table under the
cursor. The optional fields and lockable values it lists are JSON pointers from
:mod:`engine.structured.fields`, built exactly as the compiler reads them.
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
from engine.structured.fields import leaves, optional_fields
from engine.structured.markdown import table_at
from ui.editor import DocumentEditor
from ui.template_panel import FillChoice, TemplatePanel
from ui.wording import counted


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
                f"The table under the cursor: {counted(table.columns, 'column')}, "
                f"{counted(rows, 'row')}."
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
