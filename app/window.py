"""The main window: lays out the widgets and owns the menu actions, nothing more.

Flow lives in the controllers (:mod:`app.edit_controller`, :mod:`app.file_controller`,
:mod:`app.model_controller`); :mod:`app.gui` connects the actions created here to them. Every
key comes from the one table in :mod:`ui.shortcuts`.
"""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent
from PySide6.QtWidgets import QLabel, QMainWindow, QMenu, QSplitter, QVBoxLayout, QWidget

from app.identity import APP_NAME
from ui.editor import DocumentEditor
from ui.findbar import FindBar
from ui.overlay import DraftOverlay
from ui.preview import MarkdownPreview
from ui.prompt import InstructionBar
from ui.review import DiffReview
from ui.shortcuts import ShortcutsWindow, key_sequences
from ui.status import EngineBanner, EngineStatus
from ui.status_message import StatusMessage
from ui.template_panel import TemplatePanel
from ui.wording import counted

COUNT_DELAY_MS = 250

MENUS: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = (
    (
        "&File",
        (
            ("file.new", "&New"),
            ("file.open", "&Open…"),
            ("recent", ""),
            ("", ""),
            ("file.save", "&Save"),
            ("file.save_as", "Save &As…"),
            ("", ""),
            ("file.quit", "&Quit"),
        ),
    ),
    (
        "&Edit",
        (
            ("edit.undo", "&Undo"),
            ("edit.redo", "&Redo"),
            ("", ""),
            ("edit.find", "&Find…"),
            ("edit.lock", "&Lock / unlock selection"),
        ),
    ),
    (
        "&Model",
        (
            ("ask.rewrite", "&Rewrite selection…"),
            ("ask.draft", "&Draft here…"),
            ("ask.cancel", "&Cancel draft"),
            ("", ""),
            ("model.choose", "Choose &model…"),
        ),
    ),
    ("&View", (("view.preview", "Markdown &preview"), ("view.templates", "&Template panel"))),
    ("&Help", (("help.shortcuts", "&Keyboard shortcuts"),)),
)


class MainWindow(QMainWindow):
    """Signal ``closeRequested()``: the file controller decides whether the window may close."""

    closeRequested = Signal()

    def __init__(self) -> None:
        super().__init__()
        self.setWindowTitle(APP_NAME)
        self.resize(1100, 760)
        self.editor = DocumentEditor()
        self.preview = MarkdownPreview()
        self.overlay = DraftOverlay(self.editor)
        self.banner = EngineBanner()
        self.find_bar = FindBar(self.editor)
        self.bar = InstructionBar()
        self.review = DiffReview()
        self.templates = TemplatePanel()
        self.engine_status = EngineStatus()
        self.word_count = QLabel()
        self.status_message = StatusMessage()
        self.recent_menu = QMenu("Open &Recent", self)
        self.actions_by_id: dict[str, QAction] = {}
        self.shortcuts_window: ShortcutsWindow | None = None
        self.allow_close = False
        self._layout()
        self._menus()
        # Counting words and feeding the preview read the whole text: once typing pauses, not
        # per key (a 20 MB document takes most of a second to count).
        self._recount = QTimer(self, singleShot=True, interval=COUNT_DELAY_MS)
        self._recount.timeout.connect(self._text_changed)
        self.editor.textChanged.connect(self._recount.start)
        self._text_changed()

    def _layout(self) -> None:
        splitter = QSplitter(Qt.Orientation.Horizontal)
        splitter.addWidget(self.editor)
        splitter.addWidget(self.preview)
        splitter.addWidget(self.templates)
        splitter.setStretchFactor(0, 3)
        splitter.setStretchFactor(1, 2)
        self.preview.hide()
        self.templates.hide()
        central = QWidget()
        column = QVBoxLayout(central)
        column.setContentsMargins(0, 0, 0, 0)
        column.setSpacing(0)
        for widget, stretch in (
            (self.banner, 0),
            (splitter, 1),
            (self.find_bar, 0),
            (self.bar, 0),
            (self.review, 0),
        ):
            column.addWidget(widget, stretch)
        self.banner.hide()
        self.bar.hide()
        self.review.hide()
        self.setCentralWidget(central)
        self.statusBar().addWidget(self.status_message, 1)
        self.statusBar().addPermanentWidget(self.word_count)
        self.statusBar().addPermanentWidget(self.engine_status)

    def _menus(self) -> None:
        for title, entries in MENUS:
            menu = self.menuBar().addMenu(title)
            for action_id, text in entries:
                if not action_id:
                    menu.addSeparator()
                    continue
                if action_id == "recent":
                    menu.addMenu(self.recent_menu)
                    continue
                menu.addAction(self._action(action_id, text))

    def _action(self, action_id: str, text: str) -> QAction:
        action = QAction(text, self)
        action.setShortcuts(key_sequences(action_id))
        # Esc also closes bars and the review: only the window-level cancel binds it globally
        # while a draft runs (the controller enables it then).
        action.setShortcutContext(Qt.ShortcutContext.WindowShortcut)
        self.actions_by_id[action_id] = action
        self.addAction(action)
        return action

    def action(self, action_id: str) -> QAction:
        return self.actions_by_id[action_id]

    def menu(self, title: str) -> QMenu | None:
        for action in self.menuBar().actions():
            if action.text().replace("&", "") == title:
                return action.menu()
        return None

    def set_recent_files(self, paths: list[str], open_path: Callable[[str], None]) -> None:
        self.recent_menu.clear()
        for path in paths:
            action = self.recent_menu.addAction(path)
            action.triggered.connect(lambda _checked=False, p=path: open_path(p))
        self.recent_menu.setEnabled(bool(paths))

    def show_message(self, text: str) -> None:
        self.status_message.show_message(text)

    def set_document_title(self, title: str, modified: bool) -> None:
        self.setWindowTitle(f"{'• ' if modified else ''}{title} — {APP_NAME}")

    def toggle_preview(self) -> None:
        self.preview.setVisible(not self.preview.isVisible())
        self.preview.set_source(self.editor.plain_text())

    def show_shortcuts(self) -> None:
        if self.shortcuts_window is None:
            self.shortcuts_window = ShortcutsWindow(self)
        self.shortcuts_window.show()
        self.shortcuts_window.raise_()
        # With no window manager a new window is not made active: Esc would go to the editor.
        self.shortcuts_window.activateWindow()

    def _text_changed(self) -> None:
        text = self.editor.plain_text()
        self.word_count.setText(counted(len(text.split()), "word"))
        self.preview.set_source(text)

    def closeEvent(self, event: QCloseEvent) -> None:
        if self.allow_close:
            event.accept()
            return
        event.ignore()
        self.closeRequested.emit()
