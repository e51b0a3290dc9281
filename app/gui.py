"""Start-up of the window, in named stages, and the crash handler that saves the user's text.

Stages run in order and each is named in the log and in any start-up error: ``qt`` (the
application and its identity), ``loop`` (qasync), ``window`` (widgets and controllers, shown
before anything heavy is imported), ``crash-handler``, ``worker`` (the model process, spawned
after the window is up), ``documents`` (files from the command line, then the recovery offer).
No torch or transformers is imported in this process: the worker does that.
"""

from __future__ import annotations

import asyncio
import logging
import os
import sys
import traceback
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication, QMessageBox

from app.crashlog import enable_native_crash_log
from app.credentials import CredentialStore
from app.edit_controller import EditController, EditState
from app.file_controller import FileController
from app.identity import APP_ID, APP_NAME, ORGANIZATION, version
from app.model_controller import ModelController
from app.recovery import RecoveryStore
from app.remote_controller import RemoteController
from app.settings import Settings
from app.spelling_controller import SpellingController
from app.suggestion_ranker import SuggestionRanker
from app.template_controller import TemplateController
from app.window import MainWindow
from app.worker_client import AsyncWorkerClient
from engine.process.client import WorkerClient, WorkerHandle
from ui.dialogs import open_dialog

log = logging.getLogger("settle")


@dataclass
class Session:
    """Everything the running app holds; built by :func:`build_session`, used by tests too."""

    window: MainWindow
    client: AsyncWorkerClient
    files: FileController
    edits: EditController
    models: ModelController
    settings: Settings
    templates: TemplateController
    crash_box: QMessageBox | None = field(default=None)
    remote: RemoteController | None = field(default=None)
    spelling: SpellingController | None = field(default=None)


def build_session(
    worker: WorkerClient,
    settings: Settings | None = None,
    recovery: RecoveryStore | None = None,
    credentials: CredentialStore | None = None,
) -> Session:
    """Create the window and its controllers, wired; nothing is started or shown. ``worker`` is
    the local engine; a remote one replaces it when the user connects to one."""
    settings = settings or Settings()
    window = MainWindow()
    client = AsyncWorkerClient(worker, window)
    files = FileController(window.editor, window, settings, recovery or RecoveryStore())
    edits = EditController(
        window.editor, window.overlay, window.review, window.bar, window.engine_status, client
    )
    models = ModelController(window, client, window.engine_status, window.banner, settings)
    templates = TemplateController(window.templates, window.editor, edits, client)
    session = Session(window, client, files, edits, models, settings, templates)
    session.remote = RemoteController(
        window, client, window.engine_status, settings, worker, credentials
    )
    models.remote = session.remote
    session.spelling = SpellingController(window.editor)
    session.spelling.ranker = SuggestionRanker(client)
    edits.known_words = session.spelling.known_in
    _wire(session)
    return session


def _wire(s: Session) -> None:
    w = s.window
    handlers: dict[str, Callable[[], object]] = {
        "file.new": s.files.new,
        "file.open": s.files.ask_open,
        "file.save": s.files.save,
        "file.save_as": s.files.ask_save_as,
        "file.quit": w.close,
        "edit.undo": w.editor.undo,
        "edit.redo": w.editor.redo,
        "edit.find": w.find_bar.open_bar,
        "edit.lock": w.editor.toggle_lock,
        "ask.rewrite": s.edits.begin_rewrite,
        "ask.draft": s.edits.begin_draft,
        "ask.cancel": s.edits.cancel,
        "model.choose": s.models.choose,
        "view.preview": w.toggle_preview,
        "view.templates": s.templates.toggle,
        "help.shortcuts": w.show_shortcuts,
    }
    for action_id, handler in handlers.items():
        w.action(action_id).triggered.connect(lambda _checked=False, h=handler: h())
    for controller in (s.files, s.edits, s.models, s.templates, s.remote, s.spelling):
        if controller is not None:
            controller.message.connect(w.show_message)
    w.editor.editRefused.connect(w.show_message)
    s.files.documentChanged.connect(w.set_document_title)
    s.files.recentChanged.connect(lambda: _show_recent(s))
    _show_recent(s)
    s.edits.stateChanged.connect(lambda state: _enable_for(w, state))
    # Closing waits for the close event that asked to finish: a close() inside it is ignored.
    w.closeRequested.connect(
        lambda: s.files.when_saved_or_discarded(lambda: QTimer.singleShot(0, lambda: _close(s)))
    )
    _enable_for(w, EditState.IDLE)


def _show_recent(s: Session) -> None:
    def open_recent(path: str) -> None:
        s.files.when_saved_or_discarded(lambda: s.files.open_path(Path(path)))

    s.window.set_recent_files(s.settings.recent_files(), open_recent)


def _enable_for(window: MainWindow, state: str) -> None:
    """Esc cancels only while a draft runs; Ctrl+Enter belongs to the review while it shows."""
    edit_state = EditState(state)  # the signal carries the enum's string
    window.action("ask.cancel").setEnabled(edit_state is EditState.RUNNING)
    for action_id in ("ask.rewrite", "ask.draft"):
        window.action(action_id).setEnabled(edit_state is not EditState.REVIEWING)


def _close(session: Session) -> None:
    session.files.shutdown()
    session.files.recovery.discard(session.files.doc_id)
    session.settings.set_geometry(session.window.saveGeometry())
    session.window.allow_close = True
    session.window.close()
    QApplication.quit()


def install_crash_handler(session: Session) -> None:
    """On any unhandled error: snapshot the text to recovery first, then say so (non-modal)."""

    def handle(kind: type[BaseException], error: BaseException, tb: TracebackType | None) -> None:
        details = "".join(traceback.format_exception(kind, error, tb))
        log.error("unhandled error\n%s", details)
        saved = _rescue_text(session)
        box = QMessageBox(
            QMessageBox.Icon.Critical,
            f"{APP_NAME} hit an error",
            f"Something went wrong: {error}\n\n{saved}",
            QMessageBox.StandardButton.Ok,
            session.window,
        )
        box.setDetailedText(details)
        session.crash_box = box
        open_dialog(box)

    sys.excepthook = handle
    crash_log = enable_native_crash_log()
    log.info("native crashes are logged to %s", crash_log or "nowhere (log folder not writable)")


def _smoke_quit(session: Session) -> None:
    """The packaging smoke test's way out: say the window was up, then quit as Ctrl+Q does."""
    shown = session.window.isVisible()
    print(f"settle: smoke test: window shown: {shown}; quitting", file=sys.stderr, flush=True)
    session.window.close()


def _rescue_text(session: Session) -> str:
    files = session.files
    try:
        path = str(files.path) if files.path else None
        files.recovery.save(
            files.doc_id,
            path,
            session.window.editor.plain_text(),
            session.window.editor.lock_spans(),
        )
    except Exception as error:
        return f"Your text could not be saved to recovery ({error}); save it now."
    return "Your text is safe: a copy was saved for recovery. Save your document to be sure."


def start_engine(session: Session) -> None:
    """The remote engine used last time (its token remembered), else the local worker."""
    if session.remote is not None and session.remote.start_saved():
        return
    session.client.start()
    session.models.load_saved()


def run_gui(args: Sequence[str]) -> int:
    stage = "qt"
    try:
        app = QApplication.instance() or QApplication([sys.argv[0], *args])
        app.setApplicationName(APP_NAME)
        app.setOrganizationName(ORGANIZATION)
        app.setApplicationVersion(version())
        app.setDesktopFileName(APP_ID)
        stage = "loop"
        import qasync

        loop = qasync.QEventLoop(app)
        asyncio.set_event_loop(loop)
        stage = "window"
        session = build_session(WorkerHandle())
        geometry = session.settings.geometry()
        if geometry is not None:
            session.window.restoreGeometry(geometry)
        session.window.show()
        stage = "crash-handler"
        install_crash_handler(session)
        stage = "worker"
        start_engine(session)
        stage = "documents"
        for name in args:
            session.files.open_path(Path(name))
        if not args:
            session.files.offer_recovery()
    except Exception:
        log.exception("start-up failed in stage %r", stage)
        print(f"settle: start-up failed in stage {stage!r}", file=sys.stderr)
        return 1
    quit_after = os.environ.get("SETTLE_SMOKE_QUIT_MS")  # packaging/smoke.sh
    if quit_after:
        QTimer.singleShot(int(quit_after), lambda: _smoke_quit(session))
    with loop:
        loop.run_forever()
    session.client.close()
    return 0
