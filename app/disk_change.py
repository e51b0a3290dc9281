"""Noticing that another program changed the open file, before Settle's save would overwrite it.

The file controller keeps a fingerprint (a SHA-256 of the bytes) of what it last read or wrote.
Before saving over the same path it compares it with the file on disk; when they differ it asks,
as every serious editor does: **Reload** (take the file on disk, drop the window's text),
**Keep mine** (save over it), **Compare** (a read-only unified diff of disk against the window,
after which the question comes back) or Cancel. Dialogs are shown with ``open()``.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path

from PySide6.QtGui import QFontDatabase
from PySide6.QtWidgets import (
    QAbstractButton,
    QDialog,
    QDialogButtonBox,
    QMessageBox,
    QPlainTextEdit,
    QVBoxLayout,
    QWidget,
)

from app.textdiff import unified_diff

CHOICES = ("reload", "keep", "compare", "cancel")


def fingerprint_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def fingerprint(path: Path) -> str | None:
    """The file's fingerprint now, or None when it is gone or cannot be read."""
    try:
        return fingerprint_of(path.read_bytes())
    except OSError:
        return None


def ask_about_change(parent: QWidget, name: str, answered: Callable[[str], None]) -> QMessageBox:
    """The question (not yet shown); ``answered`` receives one of :data:`CHOICES`."""
    box = QMessageBox(
        QMessageBox.Icon.Warning,
        "The file changed on disk",
        f"Another program changed {name} since Settle opened or saved it.\n\n"
        "Reload it (your changes here are dropped), keep yours (the other program's changes are "
        "overwritten), or compare the two first?",
        QMessageBox.StandardButton.Cancel,
        parent,
    )
    buttons: dict[QAbstractButton, str] = {
        box.addButton("Reload", QMessageBox.ButtonRole.DestructiveRole): "reload",
        box.addButton("Keep mine", QMessageBox.ButtonRole.AcceptRole): "keep",
        box.addButton("Compare", QMessageBox.ButtonRole.ActionRole): "compare",
    }
    box.setDefaultButton(QMessageBox.StandardButton.Cancel)
    box.buttonClicked.connect(lambda button: answered(buttons.get(button, "cancel")))
    return box


def comparison(parent: QWidget, name: str, on_disk: str, mine: str) -> QDialog:
    """A read-only diff of the file on disk (a/) against the window's text (b/)."""
    dialog = QDialog(parent)
    dialog.setWindowTitle(f"{name}: on disk → in Settle")
    view = QPlainTextEdit(dialog)
    view.setReadOnly(True)
    view.setFont(QFontDatabase.systemFont(QFontDatabase.SystemFont.FixedFont))
    view.setPlainText(unified_diff(on_disk, mine, name) or "The texts are the same.")
    close = QDialogButtonBox(QDialogButtonBox.StandardButton.Close, dialog)
    close.rejected.connect(dialog.reject)
    layout = QVBoxLayout(dialog)
    layout.addWidget(view)
    layout.addWidget(close)
    dialog.resize(720, 480)
    return dialog
