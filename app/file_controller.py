"""Files: new, open, save, save as, recent files, unsaved-changes prompt, autosave and recovery.

Every dialog is shown with ``open()`` and answered through signals (never ``exec()``, which
would nest the event loop inside qasync). Saves go through :func:`app.files.write_atomically`
(a temporary file, fsync, rename), so a failed write (a full disk, a read-only file) leaves the
old file whole and says why; a failed open leaves the editor untouched. Line endings are folded
to "\\n" for editing and restored on save, with the BOM, byte for byte outside what changed
(:mod:`app.newlines`), so locks stay where they were put and no other byte moves.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject, QStandardPaths, QTimer, Signal
from PySide6.QtWidgets import QDialog, QFileDialog, QMessageBox, QWidget

from app import disk_change
from app.files import DocumentError, read_text_file, write_atomically
from app.newlines import Layout, restore, split_layout
from app.recovery import RecoveryStore, Snapshot
from app.settings import Settings
from ui.dialogs import open_dialog
from ui.editor import DocumentEditor

AUTOSAVE_MS = 5000
# Where Settle itself lives (the checkout, or the folder its package was installed into): a file
# dialog never starts there, even for a sample opened from it.
PROGRAM_FOLDER = Path(__file__).resolve().parents[1]
FILE_FILTER = "Documents (*.md *.markdown *.txt *.json);;Markdown (*.md *.markdown);;All files (*)"


class FileController(QObject):
    """Signals: ``message(str)``, ``documentChanged(str title, bool modified)``,
    ``recentChanged()``."""

    message = Signal(str)
    documentChanged = Signal(str, bool)
    recentChanged = Signal()

    def __init__(
        self, editor: DocumentEditor, window: QWidget, settings: Settings, recovery: RecoveryStore
    ) -> None:
        super().__init__(window)
        self.editor, self.window, self.settings, self.recovery = editor, window, settings, recovery
        self.path: Path | None = None
        self.layout = Layout()
        self.fingerprint: str | None = None  # of the bytes last read or written at self.path
        self._autosaved: tuple[int, tuple[tuple[int, int], ...]] | None = None  # what it held
        self.doc_id = uuid.uuid4().hex
        self._dialog: QDialog | None = None  # keeps the open dialog alive
        self.autosave = QTimer(self, interval=AUTOSAVE_MS)
        self.autosave.timeout.connect(self.snapshot)
        self.autosave.start()
        editor.document().modificationChanged.connect(self._announce)
        editor.locksChanged.connect(self._announce)

    @property
    def modified(self) -> bool:
        return self.editor.document().isModified()

    def title(self) -> str:
        return self.path.name if self.path else "Untitled"

    # --- opening -------------------------------------------------------------------------
    def new(self) -> None:
        self.when_saved_or_discarded(self._new)

    def _new(self) -> None:
        self._replace(None, "", [], Layout())

    def ask_open(self) -> None:
        def chosen(path: str) -> None:
            self.when_saved_or_discarded(lambda: self.open_path(Path(path)))

        self._file_dialog(QFileDialog.AcceptMode.AcceptOpen, chosen)

    def open_path(self, path: Path) -> bool:
        """Open ``path``; on any problem say why and leave the current document as it was."""
        try:
            text, layout = read_text_file(path)
        except DocumentError as error:
            self._warn("Cannot open the file", str(error))
            return False
        locks = [(s, e) for s, e in self.settings.locks_for(path) if e <= len(text)]
        self._replace(path, text, locks, layout)
        self.fingerprint = disk_change.fingerprint_of(restore(layout, text).encode("utf-8"))
        self.settings.add_recent(path)
        self.recentChanged.emit()
        return True

    def _replace(
        self, path: Path | None, text: str, locks: list[tuple[int, int]], layout: Layout
    ) -> None:
        self.recovery.discard(self.doc_id)
        self.doc_id = uuid.uuid4().hex
        self.path, self.layout, self.fingerprint = path, layout, None
        self._autosaved = None
        self.editor.load_text(text, locks)
        self.editor.document().setModified(False)
        self._announce()

    # --- saving --------------------------------------------------------------------------
    def save(self) -> bool:
        if self.path is None:
            self.ask_save_as()
            return False
        return self.save_to(self.path)

    def ask_save_as(self, then: Callable[[], None] | None = None) -> None:
        self._file_dialog(
            QFileDialog.AcceptMode.AcceptSave, lambda path: self.save_to(Path(path), then)
        )

    def save_to(
        self, path: Path, then: Callable[[], None] | None = None, overwrite: bool = False
    ) -> bool:
        """Write atomically with QSaveFile, then run ``then``; on failure the document stays
        modified, nothing lost. If another program changed the file since it was read or
        saved here, ask first (and return False: the answer decides)."""
        if not overwrite and self._changed_on_disk(path):
            self._ask_about_change(path, then)
            return False
        written = restore(self.layout, self.editor.plain_text())
        try:
            write_atomically(path, written)
        except DocumentError as error:
            self._warn(
                "Cannot save",
                f"{error} The file on disk is unchanged and your text is still here: "
                "save it somewhere else, or fix that and save again.",
            )
            return False
        self.path, self.layout = path, split_layout(written)[1]
        self.fingerprint = disk_change.fingerprint_of(written.encode("utf-8"))
        self.settings.set_locks(path, self.editor.lock_spans())
        self.settings.add_recent(path)
        self.recentChanged.emit()
        self.editor.document().setModified(False)
        self.recovery.discard(self.doc_id)
        self.message.emit(f"Saved {path.name}.")
        if then is not None:
            then()
        return True

    def _changed_on_disk(self, path: Path) -> bool:
        if path != self.path or self.fingerprint is None:
            return False
        now = disk_change.fingerprint(path)
        return now is not None and now != self.fingerprint

    def _ask_about_change(self, path: Path, then: Callable[[], None] | None) -> None:
        def answered(choice: str) -> None:
            if choice == "reload":
                self.open_path(path)
            elif choice == "keep":
                self.save_to(path, then, overwrite=True)
            elif choice == "compare":
                self._compare(path, then)

        self._show(disk_change.ask_about_change(self.window, path.name, answered))

    def _compare(self, path: Path, then: Callable[[], None] | None) -> None:
        try:
            on_disk, _ = read_text_file(path)
        except DocumentError as error:
            on_disk = f"(cannot be read: {error})"
        dialog = disk_change.comparison(self.window, path.name, on_disk, self.editor.plain_text())
        dialog.finished.connect(lambda _result: self._ask_about_change(path, then))
        self._show(dialog)

    # --- closing -------------------------------------------------------------------------
    def when_saved_or_discarded(self, proceed: Callable[[], None]) -> None:
        """Run ``proceed`` now, or after the user saved or discarded unsaved changes."""
        if not self.modified:
            proceed()
            return
        box = QMessageBox(
            QMessageBox.Icon.Warning,
            "Unsaved changes",
            f"Save the changes to {self.title()}?",
            QMessageBox.StandardButton.Save
            | QMessageBox.StandardButton.Discard
            | QMessageBox.StandardButton.Cancel,
            self.window,
        )
        box.setDefaultButton(QMessageBox.StandardButton.Save)

        def answered(button: int) -> None:
            choice = QMessageBox.StandardButton(button)
            if choice == QMessageBox.StandardButton.Discard:
                self.recovery.discard(self.doc_id)
                self.editor.document().setModified(False)
                proceed()
            elif choice == QMessageBox.StandardButton.Save:
                if self.path is None:
                    self.ask_save_as(then=proceed)
                else:
                    self.save_to(self.path, then=proceed)

        box.finished.connect(answered)
        self._show(box)

    # --- autosave and recovery -----------------------------------------------------------
    def snapshot(self) -> None:
        """Autosave; a failure (full disk…) is reported, never raised out of the timer's slot."""
        if not self.modified:
            return
        # Unchanged since the last snapshot: writing it again would only cost time (a 20 MB
        # document takes a good part of a second on the window's thread).
        state = (self.editor.document().revision(), tuple(self.editor.lock_spans()))
        if state == self._autosaved:
            return
        path = str(self.path) if self.path else None
        try:
            self.recovery.save(self.doc_id, path, self.editor.plain_text(), list(state[1]))
            self._autosaved = state
        except DocumentError as error:
            self.message.emit(f"Autosave failed: {error} Save your document to keep it safe.")

    def shutdown(self) -> None:
        """Stop autosaving (the window is going away)."""
        self.autosave.stop()

    def offer_recovery(self) -> None:
        snapshots = self.recovery.snapshots()
        if not snapshots:
            return
        latest = snapshots[0]
        box = QMessageBox(
            QMessageBox.Icon.Question,
            "Recover unsaved text",
            f"Settle closed without saving {latest.title}. Recover the text it had?",
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self.window,
        )
        box.finished.connect(lambda button: self._recover(latest, button))
        self._show(box)

    def _recover(self, snapshot: Snapshot, button: int) -> None:
        if QMessageBox.StandardButton(button) != QMessageBox.StandardButton.Yes:
            self.recovery.discard(snapshot.doc_id)
            return
        self.recover(snapshot)

    def recover(self, snapshot: Snapshot) -> None:
        self._replace(
            Path(snapshot.path) if snapshot.path else None,
            snapshot.text,
            list(snapshot.locks),
            self._layout_on_disk(snapshot.path),
        )
        self.editor.document().setModified(True)
        self.recovery.discard(snapshot.doc_id)
        self.message.emit(f"Recovered {snapshot.title}: save it to keep it.")

    # --- helpers -------------------------------------------------------------------------
    @staticmethod
    def _layout_on_disk(path: str | None) -> Layout:
        """The BOM and line endings of the file a recovered text came from, if it is readable."""
        try:
            return read_text_file(Path(path))[1] if path else Layout()
        except DocumentError:
            return Layout()

    def _announce(self) -> None:
        self.documentChanged.emit(self.title(), self.modified)

    def start_folder(self) -> Path:
        """Where Open and Save As start: the document's folder, else the folder last chosen in
        one, else the user's documents folder (else home); never inside Settle's own folder."""
        documents = QStandardPaths.writableLocation(
            QStandardPaths.StandardLocation.DocumentsLocation
        )
        candidates = [
            self.path.parent if self.path else None,
            self.settings.last_folder(),
            Path(documents) if documents else None,
        ]
        for folder in candidates:
            if folder is not None and folder.is_dir() and not _inside_program(folder):
                return folder
        return Path.home()

    def _file_dialog(self, mode: QFileDialog.AcceptMode, chosen: Callable[[str], None]) -> None:
        dialog = QFileDialog(
            self.window,
            "Save as" if mode == QFileDialog.AcceptMode.AcceptSave else "Open",
            str(self.start_folder()),
            FILE_FILTER,
        )
        dialog.setAcceptMode(mode)
        if mode == QFileDialog.AcceptMode.AcceptSave:
            dialog.setDefaultSuffix("md")
        dialog.fileSelected.connect(lambda path: self.settings.set_last_folder(Path(path).parent))
        dialog.fileSelected.connect(chosen)
        self._show(dialog)

    def _warn(self, title: str, text: str) -> None:
        self.message.emit(text)
        self._show(
            QMessageBox(
                QMessageBox.Icon.Warning, title, text, QMessageBox.StandardButton.Ok, self.window
            )
        )

    def _show(self, dialog: QDialog) -> None:
        self._dialog = dialog
        open_dialog(dialog)


def _inside_program(folder: Path) -> bool:
    return folder.resolve().is_relative_to(PROGRAM_FOLDER)
