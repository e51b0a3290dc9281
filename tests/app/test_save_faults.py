"""Saving onto a full disk or a read-only file system: a clear message, the file on disk
unchanged, the text still in the window (or, from the CLI, exit 2 and nothing written)."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QMessageBox

from app.cli import main
from app.gui import Session
from tests.helpers.mounts import fill_up, read_only, small_tmpfs

OLD = "the old text\n"


def type_a_lot(qtbot, session: Session, path: Path) -> str:
    assert session.files.open_path(path)
    editor = session.window.editor
    editor.insertPlainText("new words " * 40_000)  # 400 KB: more than the disk has
    return editor.plain_text()


def warning(session: Session) -> str:
    box = session.files._dialog
    assert isinstance(box, QMessageBox) and box.isVisible()
    return box.text()


def test_full_disk_keeps_file_and_text(qtbot, session: Session, tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "small") as disk:
        path = disk / "doc.md"
        path.write_text(OLD, encoding="utf-8")
        text = type_a_lot(qtbot, session, path)
        fill_up(disk)
        assert not session.files.save()
        assert "No space left on device" in warning(session)
        assert "unchanged" in warning(session) and "still here" in warning(session)
        assert path.read_text(encoding="utf-8") == OLD
        assert session.window.editor.plain_text() == text and session.files.modified
        assert sorted(p.name for p in disk.iterdir()) == ["doc.md", "filler"]  # no temp left


def test_read_only_file_system_keeps_file_and_text(qtbot, session: Session, tmp_path: Path) -> None:
    with small_tmpfs(tmp_path / "small") as disk:
        path = disk / "doc.md"
        path.write_text(OLD, encoding="utf-8")
        text = type_a_lot(qtbot, session, path)
        read_only(disk)
        assert not session.files.save()
        assert "read-only" in warning(session) and "unchanged" in warning(session)
        assert path.read_text(encoding="utf-8") == OLD
        assert session.window.editor.plain_text() == text and session.files.modified


def test_cli_write_onto_a_full_disk_exits_2_and_writes_nothing(tmp_path: Path, capsys) -> None:
    with small_tmpfs(tmp_path / "small") as disk:
        path = disk / "doc.md"
        path.write_text("x" * 50_000, encoding="utf-8")
        fill_up(disk)
        code = main(["draft", str(path), "--at", "0", "--model", "/nonexistent", "--write"])
        assert code == 3  # the model is checked after the input; input is fine here
        assert path.read_text(encoding="utf-8") == "x" * 50_000
