"""Persistent preferences in ``QSettings`` under the app id: recent files, the folder last
chosen in a file dialog, locks per document, the last model and device, remote-code consent per
model, the remote engine in use and the ones used before, window geometry.

Locks are kept per document path (not in a sidecar file beside it), so opening a file never
litters its folder and a file shared with others carries no Settle state.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from PySide6.QtCore import QByteArray, QSettings

from app.identity import APP_ID, ORGANIZATION

MAX_RECENT = 10


class Settings:
    def __init__(self, store: QSettings | None = None) -> None:
        self.store = store or QSettings(ORGANIZATION, APP_ID)

    # recent files ----------------------------------------------------------------------
    def recent_files(self) -> list[str]:
        value = self.store.value("files/recent", [])
        items = [value] if isinstance(value, str) else list(value or [])
        return [str(item) for item in items if item]

    def add_recent(self, path: Path) -> None:
        entry = str(path.resolve())
        recent = [entry, *(p for p in self.recent_files() if p != entry)][:MAX_RECENT]
        self.store.setValue("files/recent", recent)

    def last_folder(self) -> Path | None:
        """The folder of the file last chosen in an Open or Save As dialog, if any."""
        value = str(self.store.value("files/last_folder", "") or "")
        return Path(value) if value else None

    def set_last_folder(self, folder: Path) -> None:
        self.store.setValue("files/last_folder", str(folder.resolve()))

    # locks per document ----------------------------------------------------------------
    def locks_for(self, path: Path) -> list[tuple[int, int]]:
        raw = self.store.value(self._lock_key(path), "")
        try:
            return [(int(s), int(e)) for s, e in json.loads(str(raw) or "[]")]
        except (ValueError, TypeError):
            return []

    def set_locks(self, path: Path, locks: list[tuple[int, int]]) -> None:
        key = self._lock_key(path)
        if locks:
            self.store.setValue(key, json.dumps([list(lock) for lock in locks]))
        else:
            self.store.remove(key)

    @staticmethod
    def _lock_key(path: Path) -> str:
        digest = hashlib.sha1(str(path.resolve()).encode("utf-8")).hexdigest()
        return f"locks/{digest}"

    # model -----------------------------------------------------------------------------
    def model(self) -> tuple[str, str]:
        return str(self.store.value("model/id", "embedded")), str(
            self.store.value("model/device", "auto")
        )

    def set_model(self, model_id: str, device: str) -> None:
        self.store.setValue("model/id", model_id)
        self.store.setValue("model/device", device)

    def remote_code_allowed(self, model_id: str) -> bool:
        return model_id in self._consents()

    def allow_remote_code(self, model_id: str) -> None:
        self.store.setValue("model/remote_code_consent", sorted({*self._consents(), model_id}))

    def _consents(self) -> set[str]:
        value = self.store.value("model/remote_code_consent", [])
        return {value} if isinstance(value, str) and value else {str(v) for v in (value or [])}

    # remote engine (the token is not here: app/credentials.py keeps it) -----------------
    def engine_url(self) -> str:
        """The remote engine in use, or "" for the local worker."""
        return str(self.store.value("engine/url", "") or "")

    def set_engine_url(self, url: str, ca_file: str = "") -> None:
        """Use ``url`` ("" for the local worker); ``ca_file`` verifies a self-signed engine."""
        self.store.setValue("engine/url", url)
        self.store.setValue("engine/ca_file", ca_file)
        if url:
            known = [url, *(u for u in self.engine_urls() if u != url)][:MAX_RECENT]
            self.store.setValue("engine/known", known)

    def engine_ca_file(self) -> str:
        return str(self.store.value("engine/ca_file", "") or "")

    def engine_urls(self) -> list[str]:
        value = self.store.value("engine/known", [])
        items = [value] if isinstance(value, str) else list(value or [])
        return [str(item) for item in items if item]

    # window ----------------------------------------------------------------------------
    def geometry(self) -> QByteArray | None:
        value = self.store.value("window/geometry")
        return value if isinstance(value, QByteArray) else None

    def set_geometry(self, geometry: QByteArray) -> None:
        self.store.setValue("window/geometry", geometry)
