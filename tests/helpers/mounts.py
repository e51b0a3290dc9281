"""A small tmpfs of our own, to fill up or make read-only (needs root and mount; else skip).

Permission bits stop nobody when the tests run as root (as CI does), so a read-only file is
made the way root cannot write it either: on a file system remounted read-only.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest


def _mount(*args: str) -> bool:
    done = subprocess.run(["mount", *args], capture_output=True, check=False)
    return done.returncode == 0


@contextmanager
def small_tmpfs(folder: Path, kilobytes: int = 256) -> Iterator[Path]:
    """Mount a ``kilobytes`` tmpfs on ``folder`` for the duration, or skip the test."""
    folder.mkdir(parents=True, exist_ok=True)
    options = f"size={kilobytes}k"
    if os.geteuid() != 0 or not _mount("-t", "tmpfs", "-o", options, "tmpfs", str(folder)):
        pytest.skip("needs root and mount(8) to make a small file system")
    try:
        yield folder
    finally:
        subprocess.run(["umount", "-l", str(folder)], capture_output=True, check=False)


def fill_up(folder: Path) -> None:
    """Write into ``folder`` until the file system has no room left."""
    with (folder / "filler").open("wb", buffering=0) as out:
        try:
            while True:
                out.write(b"\0" * 4096)
        except OSError:
            pass


def read_only(folder: Path) -> None:
    """Remount the tmpfs at ``folder`` read-only."""
    if not _mount("-o", "remount,ro", str(folder)):
        pytest.skip("cannot remount the test file system read-only")
