"""Files in the window: open, save (atomic), bad files, unsaved-changes prompt, autosave and
recovery after a crash, locks remembered per document."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtWidgets import QFileDialog, QLineEdit, QMessageBox

from app.gui import Session, build_session
from app.recovery import RecoveryStore
from engine.process.client import ThreadWorker

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "resources" / "samples" / "engines.md"


def message_box(session: Session) -> QMessageBox:
    box = session.files._dialog
    assert isinstance(box, QMessageBox) and box.isVisible()
    return box


def test_open_edit_save_round_trip_keeps_crlf_and_locks(
    qtbot, session: Session, tmp_path: Path
) -> None:
    path = tmp_path / "doc.md"
    path.write_bytes(b"line one\r\nline two\r\n")
    assert session.files.open_path(path)
    editor = session.window.editor
    assert editor.plain_text() == "line one\nline two\n"
    editor.set_lock_spans([(0, 4)])
    cursor = editor.textCursor()
    cursor.setPosition(len(editor.plain_text()))
    editor.setTextCursor(cursor)
    qtbot.keyClicks(editor, "three")
    assert session.files.modified
    assert session.files.save()
    assert path.read_bytes() == b"line one\r\nline two\r\nthree"
    assert not session.files.modified
    # Reopened, the lock is where it was.
    session.files.open_path(path)
    assert editor.lock_spans() == [(0, 4)]


def test_binary_and_non_utf8_files_are_refused_and_nothing_is_lost(
    qtbot, session: Session, tmp_path: Path
) -> None:
    editor = session.window.editor
    editor.load_text("my unsaved words")
    for name, data in (("bad.md", b"caf\xe9"), ("img.png", b"\x89PNG\x00\x00\x01")):
        path = tmp_path / name
        path.write_bytes(data)
        assert not session.files.open_path(path)
        box = message_box(session)
        assert str(path) in box.text()
        box.close()
        assert editor.plain_text() == "my unsaved words"
    assert not session.files.open_path(tmp_path / "missing.md")
    assert "does not exist" in message_box(session).text()
    assert editor.plain_text() == "my unsaved words"


def test_saving_to_an_unwritable_place_keeps_the_text_and_the_modified_flag(
    qtbot, session: Session, tmp_path: Path
) -> None:
    editor = session.window.editor
    editor.load_text("")
    qtbot.keyClicks(editor, "precious")
    assert not session.files.save_to(tmp_path / "no-such-folder" / "doc.md")
    assert "cannot be saved: No such file or directory" in message_box(session).text()
    assert editor.plain_text() == "precious"
    assert session.files.modified
    assert not (tmp_path / "no-such-folder").exists()


def test_autosave_then_crash_then_recovery_offer(qtbot, qloop, settings, tmp_path: Path) -> None:
    recovery_dir = tmp_path / "recovery"
    first = build_session(ThreadWorker(), settings, RecoveryStore(recovery_dir))
    qtbot.addWidget(first.window)
    qtbot.keyClicks(first.window.editor, "written before the crash")
    first.window.editor.set_lock_spans([(0, 7)])
    first.files.autosave.setInterval(10)
    qtbot.waitUntil(lambda: bool(RecoveryStore(recovery_dir).snapshots()), timeout=5000)
    # The process dies here: no save, no clean close. A new start finds the snapshot.
    second = build_session(ThreadWorker(), settings, RecoveryStore(recovery_dir))
    qtbot.addWidget(second.window)
    second.files.offer_recovery()
    box = message_box(second)
    assert "Recover" in box.windowTitle()
    box.button(QMessageBox.StandardButton.Yes).click()
    assert second.window.editor.plain_text() == "written before the crash"
    assert second.window.editor.lock_spans() == [(0, 7)]
    assert second.files.modified
    assert RecoveryStore(recovery_dir).snapshots() == []
    first.files.shutdown()
    second.files.shutdown()


def test_a_failing_autosave_is_reported_not_raised(qtbot, session: Session, monkeypatch) -> None:
    messages: list[str] = []
    session.files.message.connect(messages.append)
    qtbot.keyClicks(session.window.editor, "unsaved")

    def full_disk(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr("os.replace", full_disk)
    session.files.snapshot()
    assert messages and messages[-1].startswith("Autosave failed")
    assert session.window.editor.plain_text() == "unsaved"


def test_closing_with_unsaved_changes_asks_and_cancel_keeps_everything(
    qtbot, session: Session
) -> None:
    editor = session.window.editor
    qtbot.keyClicks(editor, "draft")
    session.window.close()
    box = message_box(session)
    box.button(QMessageBox.StandardButton.Cancel).click()
    assert session.window.isVisible()
    assert editor.plain_text() == "draft"
    session.window.close()
    message_box(session).button(QMessageBox.StandardButton.Discard).click()
    qtbot.waitUntil(lambda: not session.window.isVisible(), timeout=2000)


def test_bom_and_mixed_line_endings_survive_open_edit_save(
    qtbot, session: Session, tmp_path: Path
) -> None:
    path = tmp_path / "mixed.md"
    path.write_bytes("\ufeff# Title\r\nfirst\nsecond\r\n\r\nlast\r".encode())
    assert session.files.open_path(path)
    editor = session.window.editor
    assert editor.plain_text() == "# Title\nfirst\nsecond\n\nlast\n"
    cursor = editor.textCursor()
    cursor.setPosition(editor.plain_text().index("second") + len("second"))
    editor.setTextCursor(cursor)
    qtbot.keyClicks(editor, " line")
    assert session.files.save()
    assert path.read_bytes() == "\ufeff# Title\r\nfirst\nsecond line\r\n\r\nlast\r".encode()


def test_a_fresh_window_has_nothing_to_save(qtbot, session: Session) -> None:
    assert not session.files.modified
    assert "*" not in session.window.windowTitle()
    session.files.new()
    assert session.files._dialog is None  # no "Save the changes to Untitled?"
    session.window.close()
    assert session.files._dialog is None
    qtbot.waitUntil(lambda: not session.window.isVisible(), timeout=2000)


def test_autosave_writes_only_what_changed_since_the_last_snapshot(
    qtbot, session: Session, monkeypatch
) -> None:
    written: list[str] = []
    save = session.files.recovery.save

    def counted(doc_id: str, path: str | None, text: str, locks: list) -> None:
        written.append(text)
        save(doc_id, path, text, locks)

    monkeypatch.setattr(session.files.recovery, "save", counted)
    qtbot.keyClicks(session.window.editor, "draft")
    session.files.snapshot()
    session.files.snapshot()  # nothing changed: a 20 MB document is not written again
    assert written == ["draft"]
    session.window.editor.set_lock_spans([(0, 5)])
    session.files.snapshot()  # a new lock is a change
    qtbot.keyClicks(session.window.editor, "!")
    session.files.snapshot()
    assert written == ["draft", "draft", "draft!"]


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A home folder of the test's own, with a documents folder (Qt reads $HOME when asked)."""
    folder = tmp_path / "home"
    (folder / "Documents").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(folder))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(folder / ".config"))  # no user-dirs.dirs there
    return folder


def file_dialog(session: Session) -> QFileDialog:
    dialog = session.files._dialog
    assert isinstance(dialog, QFileDialog) and dialog.isVisible()
    return dialog


def choose(dialog: QFileDialog, path: Path) -> None:
    """What a user does: type the name into the dialog and press Save or Open."""
    field = dialog.findChild(QLineEdit, "fileNameEdit")
    field.setText(str(path))
    dialog.accept()


def test_save_as_starts_in_the_documents_folder_never_the_programs(
    qtbot, session: Session, home: Path
) -> None:
    session.window.editor.load_text("new text")
    session.window.action("file.save").trigger()  # untitled: Save asks where
    assert Path(file_dialog(session).directory().absolutePath()) == home / "Documents"
    file_dialog(session).reject()
    session.files.open_path(SAMPLE)  # a sample Settle ships: its folder is Settle's own
    for action in ("file.save_as", "file.open"):
        session.window.action(action).trigger()
        shown = Path(file_dialog(session).directory().absolutePath())
        assert shown == home / "Documents", action
        assert not shown.is_relative_to(ROOT)
        file_dialog(session).reject()


def test_file_dialogs_start_in_the_folder_last_chosen(
    qtbot, session: Session, home: Path, tmp_path: Path
) -> None:
    elsewhere = tmp_path / "projects" / "letters"
    elsewhere.mkdir(parents=True)
    session.window.editor.load_text("a letter")
    session.window.action("file.save_as").trigger()
    choose(file_dialog(session), elsewhere / "letter.md")
    assert (elsewhere / "letter.md").read_text(encoding="utf-8") == "a letter"
    session.files.open_path(SAMPLE)
    session.window.action("file.save_as").trigger()
    assert Path(file_dialog(session).directory().absolutePath()) == elsewhere
    file_dialog(session).reject()
    session.window.action("file.new").trigger()
    session.window.action("file.open").trigger()  # a fresh document: the last folder still
    assert Path(file_dialog(session).directory().absolutePath()) == elsewhere
    assert session.settings.last_folder() == elsewhere.resolve()
