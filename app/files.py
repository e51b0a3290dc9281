"""Reading and writing the user's documents safely, shared by the CLI and the window.

Reads are strict UTF-8 with messages a writer understands (a missing file, a folder, a binary
file, bytes that are not UTF-8 and where). Writes are atomic: the new text goes to a temporary
file beside the target, is flushed to disk, then renamed over it, so a failed write never leaves
a truncated document.

:func:`read_text_file` and :func:`write_text_file` keep a file's byte-order mark and line
endings (see :mod:`app.newlines`): the text is edited with "\\n" line ends and written back with
every unchanged byte as it was.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from pathlib import Path

from app.newlines import BOM, Layout, restore, split_layout

MAX_DOCUMENT_BYTES = 64 * 1024 * 1024


class DocumentError(Exception):
    """A document could not be read or written; the message is for the user."""


def read_document(path: Path) -> str:
    """Return the file's text (without a BOM), or raise :class:`DocumentError` saying plainly
    what is wrong."""
    return read_raw(path).removeprefix(BOM)


def read_text_file(path: Path) -> tuple[str, Layout]:
    """The file's text with "\\n" line ends, and the layout :func:`write_text_file` restores."""
    return split_layout(read_raw(path))


def write_text_file(path: Path, layout: Layout, text: str) -> None:
    """Save edited ``text`` atomically with the file's BOM and surviving line endings."""
    write_atomically(path, restore(layout, text))


def read_raw(path: Path) -> str:
    """The file's decoded text, BOM included."""
    try:
        if path.is_dir():
            raise DocumentError(f"{path} is a folder, not a document.")
        data = path.read_bytes()
    except FileNotFoundError:
        raise DocumentError(f"{path} does not exist.") from None
    except PermissionError:
        raise DocumentError(f"{path} cannot be read: permission denied.") from None
    except OSError as error:
        raise DocumentError(f"{path} cannot be read: {error.strerror or error}.") from None
    return decode_document(path, data)


def decode_document(path: Path, data: bytes) -> str:
    if len(data) > MAX_DOCUMENT_BYTES:
        raise DocumentError(f"{path} is larger than {MAX_DOCUMENT_BYTES // 2**20} MiB.")
    if b"\x00" in data[:8192]:
        raise DocumentError(f"{path} looks like a binary file, not text.")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise DocumentError(
            f"{path} is not UTF-8 text (byte 0x{data[error.start]:02x} at offset {error.start}). "
            "Convert it to UTF-8 first; nothing was changed."
        ) from None
    return text


def write_atomically(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one rename; on any failure the old file is untouched."""
    folder = path.resolve().parent
    if path.exists() and not os.access(path, os.W_OK):  # a rename would replace it regardless
        raise DocumentError(f"{path} cannot be saved: the file is read-only.")
    try:
        mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o644
        handle, temp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise DocumentError(f"{path} cannot be saved: {error.strerror or error}.") from None
    try:
        with os.fdopen(handle, "w", encoding="utf-8", newline="") as out:
            out.write(text)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(temp_name, mode)
        os.replace(temp_name, path)
    except OSError as error:
        with contextlib.suppress(OSError):
            os.unlink(temp_name)
        raise DocumentError(f"{path} cannot be saved: {error.strerror or error}.") from None
