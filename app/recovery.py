"""Autosave snapshots for crash recovery, kept in a folder of small JSON files.

The window writes a snapshot of each unsaved document every few seconds and deletes it when the
document is saved or closed on purpose. Whatever is left on the next start came from a crash
(or a kill) and is offered back to the user. Snapshots are written atomically, so a crash during
an autosave never corrupts the previous snapshot.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from app.files import write_atomically


def default_recovery_dir() -> Path:
    state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(os.environ.get("SETTLE_RECOVERY_DIR") or Path(state) / "settle" / "recovery")


@dataclass(frozen=True)
class Snapshot:
    doc_id: str
    path: str | None  # the file the text belongs to, or None for an untitled document
    text: str
    locks: list[tuple[int, int]]
    saved_at: float

    @property
    def title(self) -> str:
        return Path(self.path).name if self.path else "Untitled"


class RecoveryStore:
    def __init__(self, folder: Path | None = None) -> None:
        self.folder = folder or default_recovery_dir()

    def save(self, doc_id: str, path: str | None, text: str, locks: list[tuple[int, int]]) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        snapshot = Snapshot(doc_id, path, text, [tuple(lock) for lock in locks], time.time())
        write_atomically(self._file(doc_id), json.dumps(asdict(snapshot), ensure_ascii=False))

    def discard(self, doc_id: str) -> None:
        self._file(doc_id).unlink(missing_ok=True)

    def snapshots(self) -> list[Snapshot]:
        """Every readable snapshot, newest first; unreadable ones are skipped, not deleted."""
        found = []
        for file in sorted(self.folder.glob("*.json")) if self.folder.is_dir() else []:
            try:
                data = json.loads(file.read_text(encoding="utf-8"))
                data["locks"] = [tuple(lock) for lock in data.get("locks", [])]
                found.append(Snapshot(**data))
            except (OSError, ValueError, TypeError):
                continue
        return sorted(found, key=lambda s: s.saved_at, reverse=True)

    def _file(self, doc_id: str) -> Path:
        safe = "".join(ch for ch in doc_id if ch.isalnum() or ch in "-_") or "document"
        return self.folder / f"{safe}.json"
