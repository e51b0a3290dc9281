"""The template panel: structured infill of a JSON instance or a Markdown table (DESIGN §7).

A plain Qt widget that knows nothing of schemas or models: the controller
(:mod:`app.template_controller`) hands it plain data (a schema's title and description, the
optional properties it may tick, the template values it may lock, the table under the cursor)
and receives a :class:`FillChoice` when the user presses Fill. Results come back through the
same diff review as a rewrite, so the panel never touches the document.

Signals: ``schemaChosen(str)`` a schema file path, ``fillRequested(FillChoice)``,
``closed()``.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import (
    QComboBox,
    QFileDialog,
    QFormLayout,
    QFrame,
    QHBoxLayout,
    QLabel,
    QListWidget,
    QListWidgetItem,
    QPushButton,
    QSpinBox,
    QStackedWidget,
    QVBoxLayout,
    QWidget,
)

from ui.dialogs import open_dialog

JSON_PAGE, TABLE_PAGE = 0, 1
NO_TABLE = "Put the cursor in a Markdown table."
SCHEMA_FILTER = "JSON Schema (*.json);;All files (*)"
CELL_CHOICES = (("Empty cells", "empty"), ("All cells", "all"))


@dataclass(frozen=True)
class FillChoice:
    """What the user asked for: ``kind`` "json" or "table", and that kind's options."""

    kind: str
    schema_path: str = ""
    include: tuple[str, ...] = ()
    locks: tuple[str, ...] = ()
    cells: str = "empty"
    add_rows: int = 0


class TemplatePanel(QFrame):
    schemaChosen = Signal(str)
    fillRequested = Signal(FillChoice)
    closed = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("templatePanel")
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.schema_path = ""
        self.kind = QComboBox()
        self.kind.addItems(["JSON from a schema", "Markdown table"])
        self.pages = QStackedWidget()
        self.pages.addWidget(self._json_page())
        self.pages.addWidget(self._table_page())
        self.fill_button = QPushButton("Fill")
        self.fill_button.setDefault(True)
        close = QPushButton("Close")
        top = QHBoxLayout()
        top.addWidget(QLabel("<b>Template</b>"))
        top.addWidget(self.kind, 1)
        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(close)
        buttons.addWidget(self.fill_button)
        column = QVBoxLayout(self)
        column.addLayout(top)
        column.addWidget(self.pages, 1)
        column.addLayout(buttons)
        self.kind.currentIndexChanged.connect(self.pages.setCurrentIndex)
        self.fill_button.clicked.connect(self._fill)
        close.clicked.connect(self._close)

    def _json_page(self) -> QWidget:
        page = QWidget()
        self.schema_label = QLabel("No schema chosen.")
        self.schema_label.setWordWrap(True)
        self.template_label = QLabel("")
        self.template_label.setWordWrap(True)
        browse = QPushButton("Choose schema…")
        browse.clicked.connect(self._browse)
        self.optional = QListWidget()
        self.optional.setObjectName("optionalFields")
        self.lockable = QListWidget()
        self.lockable.setObjectName("lockableValues")
        form = QFormLayout(page)
        form.addRow(browse, self.schema_label)
        form.addRow(self.template_label)
        form.addRow("Optional fields", self.optional)
        form.addRow("Lock values", self.lockable)
        return page

    def _table_page(self) -> QWidget:
        page = QWidget()
        self.table_label = QLabel(NO_TABLE)
        self.table_label.setWordWrap(True)
        self.cells = QComboBox()
        for text, value in CELL_CHOICES:
            self.cells.addItem(text, value)
        self.add_rows = QSpinBox()
        self.add_rows.setRange(0, 50)
        form = QFormLayout(page)
        form.addRow(self.table_label)
        form.addRow("Fill", self.cells)
        form.addRow("Add rows like these", self.add_rows)
        return page

    # --- what the controller tells the panel ------------------------------------------------

    def show_json(self) -> None:
        self.kind.setCurrentIndex(JSON_PAGE)

    def show_table(self, description: str) -> None:
        self.table_label.setText(description)
        self.kind.setCurrentIndex(TABLE_PAGE)

    def describe_table(self, description: str) -> None:
        """What the table page says about the cursor's table, without switching to it."""
        self.table_label.setText(description)

    def set_schema(self, path: str, title: str, optional: list[str]) -> None:
        """A schema was read: its title and the optional fields the user may tick."""
        self.schema_path = path
        self.schema_label.setText(title)
        _fill_list(self.optional, optional)

    def set_template(self, description: str, lockable: list[tuple[str, str]]) -> None:
        """The instance used as template: (pointer, value text) pairs the user may lock."""
        self.template_label.setText(description)
        self.lockable.clear()
        for pointer, value in lockable:
            item = QListWidgetItem(f"{pointer}  =  {value}")
            item.setData(Qt.ItemDataRole.UserRole, pointer)
            item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
            item.setCheckState(Qt.CheckState.Unchecked)
            self.lockable.addItem(item)

    # --- what the user asks for -------------------------------------------------------------

    def choice(self) -> FillChoice:
        if self.kind.currentIndex() == TABLE_PAGE:
            return FillChoice(
                "table", cells=str(self.cells.currentData()), add_rows=self.add_rows.value()
            )
        return FillChoice(
            "json",
            schema_path=self.schema_path,
            include=_checked(self.optional),
            locks=_checked(self.lockable),
        )

    def _fill(self) -> None:
        self.fillRequested.emit(self.choice())

    def _browse(self) -> QFileDialog:
        """The schema chooser, opened with ``open()`` (the static chooser nests an event loop)."""
        dialog = QFileDialog(self, "Choose a JSON Schema", "", SCHEMA_FILTER)
        dialog.setFileMode(QFileDialog.FileMode.ExistingFile)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self.schemaChosen)
        open_dialog(dialog)
        return dialog

    def _close(self) -> None:
        self.hide()
        self.closed.emit()


def _fill_list(widget: QListWidget, pointers: list[str]) -> None:
    widget.clear()
    for pointer in pointers:
        item = QListWidgetItem(pointer)
        item.setData(Qt.ItemDataRole.UserRole, pointer)
        item.setFlags(item.flags() | Qt.ItemFlag.ItemIsUserCheckable)
        item.setCheckState(Qt.CheckState.Unchecked)
        widget.addItem(item)


def _checked(widget: QListWidget) -> tuple[str, ...]:
    return tuple(
        str(widget.item(i).data(Qt.ItemDataRole.UserRole))
        for i in range(widget.count())
        if widget.item(i).checkState() == Qt.CheckState.Checked
    )
