"""The model picker: which model to load and on which device.

Lists the models the controller found (the embedded default, the Hugging Face cache, folders
picked before), lets the user add a local folder, and pick a device (auto/CUDA/MPS/CPU).
Models that need ``trust_remote_code`` (LLaDA, Dream) say so, and cannot be loaded until the
user ticks the consent box for that model (DESIGN §5: never by default).

Show it with ``open()``, never ``exec()``: a nested event loop inside an async slot breaks
qasync (DESIGN §8). The folder chooser is opened the same way.

Public API of :class:`ModelPicker`:

- signals ``modelChosen(str model_id, str device)`` and
  ``modelRequested(str model_id, str device, bool allow_remote_code)`` (both on Load)
- ``set_models(entries)`` — :class:`ModelEntry` objects or plain dicts with the same keys
- ``set_current(model_id, device)`` — preselect what is loaded now
- ``set_available_devices(devices)`` — e.g. ``["cpu"]``; the rest are shown disabled
- ``add_folder(path)`` — add (and select) a local folder; what "Open a folder…" calls
- ``choose_folder()`` — open the folder chooser (non-blocking)
- ``selected()`` → :class:`ModelEntry` | None; ``device()`` → "auto" | "cuda" | "mps" | "cpu"
- ``load()`` — what the Load button does
- signal ``remoteRequested()`` — "Remote engine…": the user wants an engine on another machine
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from PySide6.QtCore import Qt, Signal
from PySide6.QtGui import QStandardItemModel
from PySide6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from ui import palette
from ui.dialogs import open_dialog

DEVICES: tuple[tuple[str, str], ...] = (
    ("auto", "Auto (best available)"),
    ("cuda", "CUDA GPU"),
    ("mps", "Apple GPU (MPS)"),
    ("cpu", "CPU"),
)

_ID_ROLE = Qt.ItemDataRole.UserRole


@dataclass(frozen=True)
class ModelEntry:
    """One model the picker lists. ``source``: "embedded", "Hugging Face cache", "folder"…"""

    id: str
    display_name: str
    source: str
    needs_remote_code: bool = False
    note: str = ""  # e.g. "135M parameters · base, not adapted"

    @classmethod
    def coerce(cls, value: ModelEntry | Mapping[str, Any]) -> ModelEntry:
        if isinstance(value, ModelEntry):
            return value
        return cls(
            id=str(value["id"]),
            display_name=str(value.get("display_name") or value.get("name") or value["id"]),
            source=str(value.get("source", "")),
            needs_remote_code=bool(value.get("needs_remote_code", False)),
            note=str(value.get("note", "")),
        )


class ModelPicker(QDialog):
    """Choose a model and device; see the module docstring for the API."""

    modelChosen = Signal(str, str)
    modelRequested = Signal(str, str, bool)
    remoteRequested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Choose a model")
        self.resize(640, 420)
        self._entries: list[ModelEntry] = []
        self._list = QTreeWidget()
        self._list.setColumnCount(3)
        self._list.setRootIsDecorated(False)
        self._list.setUniformRowHeights(True)
        self._device = QComboBox()
        self._consent = QCheckBox()
        self._warning = QLabel()
        self._warning.setWordWrap(True)
        self._detail = QLabel()
        self._detail.setWordWrap(True)
        self._detail.setStyleSheet(palette.text_colour(palette.SECONDARY_HEX))
        self._buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self._load = self._buttons.addButton("Load", QDialogButtonBox.ButtonRole.AcceptRole)
        self._build()

    @property
    def load_button(self) -> QPushButton:
        return self._load

    @property
    def consent_box(self) -> QCheckBox:
        """Consent to run a model's own code, asked for each model that needs it."""
        return self._consent

    @property
    def device_box(self) -> QComboBox:
        return self._device

    # --- construction ----------------------------------------------------------------------

    def _build(self) -> None:
        self._setup_list()
        for value, label in DEVICES:
            self._device.addItem(label, value)
        self._warning.setStyleSheet(
            f"background: {palette.WARNING_PAPER_HEX}; "
            f"border: 1px solid {palette.WARNING_BORDER_HEX}; border-radius: 4px; padding: 6px;"
        )
        intro = QLabel("Models found on this computer, and folders you opened.")
        intro.setStyleSheet(palette.text_colour(palette.SECONDARY_HEX))
        layout = QVBoxLayout(self)
        layout.setSpacing(8)
        for widget in (intro, self._list, self._detail, self._warning, self._consent):
            layout.addWidget(widget, 1 if widget is self._list else 0)
        layout.addLayout(self._folder_and_device_row())
        layout.addWidget(self._buttons)
        self._consent.toggled.connect(self._update_load_button)
        self._buttons.accepted.connect(self.load)
        self._buttons.rejected.connect(self.reject)
        self._on_selection()

    def _setup_list(self) -> None:
        self._list.setHeaderLabels(["Model", "Source", ""])
        self._list.setStyleSheet("QTreeWidget::item { padding: 5px 2px; }")
        self._list.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        header = self._list.header()
        header.setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        header.setSectionResizeMode(1, QHeaderView.ResizeMode.ResizeToContents)
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(False)
        self._list.itemSelectionChanged.connect(self._on_selection)
        self._list.itemDoubleClicked.connect(lambda *_: self.load())

    def _folder_and_device_row(self) -> QHBoxLayout:
        folder = QPushButton("Open a folder…")
        folder.clicked.connect(self.choose_folder)
        remote = QPushButton("Remote engine…")
        remote.setToolTip("Use a model running on another machine (settle serve)")
        remote.clicked.connect(self._ask_remote)
        row = QHBoxLayout()
        row.addWidget(folder)
        row.addWidget(remote)
        row.addStretch(1)
        row.addWidget(QLabel("Device"))
        row.addWidget(self._device)
        return row

    # --- public API ----------------------------------------------------------------------

    def set_models(self, entries: Iterable[ModelEntry | Mapping[str, Any]]) -> None:
        self._entries = [ModelEntry.coerce(e) for e in entries]
        self._list.clear()
        for entry in self._entries:
            self._add_row(entry)
        rows = self._rows()
        if rows:
            self._list.setCurrentItem(rows[0])

    def set_current(self, model_id: str, device: str = "auto") -> None:
        for item in self._rows():
            if item.data(0, _ID_ROLE) == model_id:
                self._list.setCurrentItem(item)
        index = self._device.findData(device)
        if index >= 0:
            self._device.setCurrentIndex(index)

    def set_available_devices(self, devices: Iterable[str]) -> None:
        """Disable devices this machine lacks ("auto" is always available)."""
        available = {"auto", *devices}
        model = self._device.model()
        assert isinstance(model, QStandardItemModel)
        for row in range(self._device.count()):
            item = model.item(row)
            item.setEnabled(self._device.itemData(row) in available)
        if self._device.currentData() not in available:
            self._device.setCurrentIndex(0)

    def add_folder(self, path: str) -> None:
        if not path:
            return
        folder = Path(path)
        entry = ModelEntry(str(folder), folder.name or str(folder), "folder", note=str(folder))
        if all(e.id != entry.id for e in self._entries):
            self._entries.append(entry)
            self._add_row(entry)
        self.set_current(entry.id, self.device())

    def choose_folder(self) -> QFileDialog:
        """Open the folder chooser with ``open()``; the picked folder arrives via a signal."""
        dialog = QFileDialog(self, "Choose a model folder")
        dialog.setFileMode(QFileDialog.FileMode.Directory)
        dialog.setOption(QFileDialog.Option.ShowDirsOnly, True)
        dialog.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        dialog.fileSelected.connect(self.add_folder)
        open_dialog(dialog)
        return dialog

    def selected(self) -> ModelEntry | None:
        item = self._list.currentItem()
        if item is None:
            return None
        model_id = item.data(0, _ID_ROLE)
        return next((e for e in self._entries if e.id == model_id), None)

    def device(self) -> str:
        return str(self._device.currentData())

    def load(self) -> None:
        entry = self.selected()
        if entry is None or not self._load.isEnabled():
            return
        allow = entry.needs_remote_code and self._consent.isChecked()
        self.modelChosen.emit(entry.id, self.device())
        self.modelRequested.emit(entry.id, self.device(), allow)
        self.accept()

    # --- internals -----------------------------------------------------------------------

    def _ask_remote(self) -> None:
        self.remoteRequested.emit()
        self.accept()

    def _rows(self) -> list[QTreeWidgetItem]:
        root = self._list.invisibleRootItem()
        return [item for r in range(root.childCount()) if (item := root.child(r)) is not None]

    def _add_row(self, entry: ModelEntry) -> None:
        badge = "runs its own code" if entry.needs_remote_code else ""
        item = QTreeWidgetItem(self._list, [entry.display_name, entry.source, badge])
        item.setData(0, _ID_ROLE, entry.id)
        item.setToolTip(0, entry.id)
        if badge:
            item.setForeground(2, Qt.GlobalColor.darkYellow)

    def _on_selection(self) -> None:
        entry = self.selected()
        needs_code = entry is not None and entry.needs_remote_code
        self._detail.setText(entry.note or entry.id if entry else "No model selected.")
        self._warning.setVisible(needs_code)
        self._consent.setVisible(needs_code)
        self._consent.setChecked(False)  # consent is per model, asked again on every switch
        if needs_code and entry is not None:
            self._warning.setText(
                f"{entry.display_name} ships its own Python code, which would run on this "
                "computer with your permissions. Load it only if you trust its authors."
            )
            self._consent.setText(f"I trust {entry.display_name}: allow its code to run")
        self._update_load_button()

    def _update_load_button(self) -> None:
        entry = self.selected()
        ready = entry is not None and (not entry.needs_remote_code or self._consent.isChecked())
        self._load.setEnabled(ready)

    def exec(self) -> int:
        raise RuntimeError("ModelPicker must be shown with open(), not exec() (DESIGN §8)")
