"""Document reading and atomic writing: clear errors, and no truncated file on a failed save."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.files import DocumentError, read_document, write_atomically


def test_reads_utf8_and_drops_a_bom(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_bytes("\ufeff# Café\n".encode())
    assert read_document(path) == "# Café\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"caf\xe9 au lait", "not UTF-8 text .byte 0xe9 at offset 3"),
        (b"\x89PNG\r\n\x1a\n\x00\x00\x00", "binary"),
    ],
)
def test_unreadable_content_is_refused_clearly(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "bad.md"
    path.write_bytes(content)
    with pytest.raises(DocumentError, match=message):
        read_document(path)
    assert path.read_bytes() == content


def test_missing_file_and_folder_are_refused(tmp_path: Path) -> None:
    with pytest.raises(DocumentError, match="does not exist"):
        read_document(tmp_path / "nope.md")
    with pytest.raises(DocumentError, match="is a folder"):
        read_document(tmp_path)


def test_atomic_write_replaces_and_keeps_mode(tmp_path: Path) -> None:
    path = tmp_path / "doc.md"
    path.write_text("old", encoding="utf-8")
    path.chmod(0o600)
    write_atomically(path, "new ✓")
    assert path.read_text(encoding="utf-8") == "new ✓"
    assert (path.stat().st_mode & 0o777) == 0o600
    assert [p.name for p in tmp_path.iterdir()] == ["doc.md"]


def test_failed_write_leaves_the_old_file_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "doc.md"
    path.write_text("precious text", encoding="utf-8")

    def refuse(*_args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", refuse)
    with pytest.raises(DocumentError, match="No space left"):
        write_atomically(path, "x" * 1000)
    assert path.read_text(encoding="utf-8") == "precious text"
    assert [p.name for p in tmp_path.iterdir()] == ["doc.md"]


def test_read_only_location_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As root every folder is writable, so the refusal the OS would give is simulated."""
    import tempfile

    def denied(*_args: object, **_kwargs: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(tempfile, "mkstemp", denied)
    with pytest.raises(DocumentError, match="cannot be saved: Permission denied"):
        write_atomically(tmp_path / "doc.md", "text")
    assert not (tmp_path / "doc.md").exists()
