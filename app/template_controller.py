"""The template panel's flow: read the schema, find the template or table, send a ``Fill``.

What the panel shows is computed here from the document and the schema file (plain data in,
:class:`~ui.template_panel.FillChoice` out); the fill itself runs in the worker and comes back
through :class:`~app.edit_controller.EditController`, so the overlay, the diff review and the
single-undo apply are the very ones a rewrite uses.

JSON: the selection, when it parses as JSON, is the template instance (else the whole
document when it does, else the fill is inserted at the cursor). Table: the table under the
cursor, followed while the panel is open (moving into a table shows it; a ragged one says which
line breaks it). Positions are the editor's Python indices (``QTextCursor`` counts an emoji as
two), so a table after an emoji is still found. The optional fields and lockable values it
lists are JSON pointers from :mod:`engine.structured.fields`, built exactly as the compiler
reads them.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from PySide6.QtCore import QObject, QTimer, Signal

from app.edit_controller import EditController
from app.files import DocumentError, read_document
from app.worker_client import AsyncWorkerClient
from engine.core.errors import BadRequest
from engine.core.protocol import Fill, FillKind, Span
from engine.structured.fields import leaves, optional_fields
from engine.structured.markdown import table_at, table_spans
from ui.editor import DocumentEditor
from ui.template_panel import NO_TABLE, TABLE_PAGE, FillChoice, TemplatePanel
from ui.wording import counted

FOLLOW_MS = 150  # the table under the cursor is looked up once the cursor rests


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
        # Where the tables of the text last read lie, and what each says (parsed once per text).
        self._tables: tuple[str | None, list[Span]] = (None, [])
        self._described: dict[Span, str] = {}
        self._follow = QTimer(self, singleShot=True, interval=FOLLOW_MS)
        self._follow.timeout.connect(self.follow_cursor)
        panel.schemaChosen.connect(self.choose_schema)
        panel.fillRequested.connect(self.fill)
        panel.kind.currentIndexChanged.connect(lambda _index: self.follow_cursor())
        editor.cursorPositionChanged.connect(self._cursor_moved)
        editor.textChanged.connect(self._cursor_moved)

    def toggle(self) -> None:
        if self.panel.isVisible():
            self.panel.hide()
        else:
            self.open_panel()

    def open_panel(self) -> None:
        """Show the panel for what is under the cursor: a table, else a JSON template."""
        in_table, description = self.table_here()
        if in_table:
            self.panel.show_table(description)
        else:
            self.panel.show_json()
            self.show_template()
            self.panel.describe_table(description)
        self.panel.show()

    def cursor(self) -> int:
        """The cursor as a Python index into the editor's text."""
        return self.editor.position_map().from_qt(self.editor.textCursor().position())

    def table_here(self) -> tuple[bool, str]:
        """Whether the cursor is in a table (a ragged one too), and what the panel says of it."""
        text = self.editor.plain_text()  # the editor keeps one copy until the next change
        if self._tables[0] != text:
            self._tables = (text, table_spans(text))
            self._described.clear()
        cursor = self.cursor()
        span = next((s for s in self._tables[1] if s.start <= cursor <= s.end), None)
        if span is None:
            return False, NO_TABLE
        if span not in self._described:
            self._described[span] = self._describe(text, span)
        return True, self._described[span]

    @staticmethod
    def _describe(text: str, span: Span) -> str:
        try:
            table = table_at(text, span.start)
        except BadRequest as error:
            return str(error)
        assert table is not None  # span came from the same text
        rows = len(table.body)
        return (
            f"The table under the cursor: {counted(table.columns, 'column')}, "
            f"{counted(rows, 'row')}."
        )

    def _cursor_moved(self) -> None:
        if self.panel.isVisible():
            self._follow.start()

    def follow_cursor(self) -> None:
        """While the panel is open: say what table the cursor is in; moving into one shows the
        table page, unless a schema was chosen (the user is filling JSON)."""
        if not self.panel.isVisible():
            return
        in_table, description = self.table_here()
        if in_table and not self.panel.schema_path and self.panel.kind.currentIndex() != TABLE_PAGE:
            self.panel.show_table(description)
        else:
            self.panel.describe_table(description)

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
        cursor = self.cursor()
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
            table = table_at(text, self.cursor())
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
