"""Remote engines' tokens, remembered per host: the system keyring, or a private file.

The token for ``host:port`` is kept in the system keyring (``keyring``: Secret Service, macOS
Keychain, Windows Credential Locker) under the service :data:`SERVICE`. When no usable keyring
is installed (keyring's "fail" or "null" backends, or any error from it), tokens go to
``engine-tokens.json`` in Settle's configuration folder instead, a file only its owner can
read, rewritten atomically. :attr:`CredentialStore.where` says which one is in use, so the
window can tell the user.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path
from typing import Any

from engine.remote.auth import config_dir

SERVICE = "settle-engine"
FILE_NAME = "engine-tokens.json"


def usable_keyring() -> Any | None:
    """The system keyring backend, or None when there is no real one."""
    try:
        import keyring
        from keyring.backends import fail, null

        backend = keyring.get_keyring()
    except Exception:
        return None
    if isinstance(backend, fail.Keyring | null.Keyring) or getattr(backend, "priority", 0) <= 0:
        return None
    return backend


class CredentialStore:
    """``token(host)`` / ``save(host, token)`` / ``forget(host)``; see the module docstring."""

    def __init__(self, backend: Any | None = None, folder: Path | None = None) -> None:
        self.backend = backend if backend is not None else usable_keyring()
        self.file = (folder or config_dir()) / FILE_NAME

    @property
    def where(self) -> str:
        return "the system keyring" if self.backend is not None else f"{self.file} (private)"

    def token(self, host: str) -> str:
        if self.backend is not None:
            with contextlib.suppress(Exception):
                return str(self.backend.get_password(SERVICE, host) or "")
        return str(self._read().get(host, ""))

    def save(self, host: str, token: str) -> None:
        if self.backend is not None:
            try:
                self.backend.set_password(SERVICE, host, token)
                return
            except Exception:
                self.backend = None  # a locked or broken keyring: fall back to the file
        tokens = self._read()
        tokens[host] = token
        self._write(tokens)

    def forget(self, host: str) -> None:
        if self.backend is not None:
            with contextlib.suppress(Exception):
                self.backend.delete_password(SERVICE, host)
        tokens = self._read()
        if tokens.pop(host, None) is not None:
            self._write(tokens)

    def _read(self) -> dict[str, str]:
        try:
            data = json.loads(self.file.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return {}
        if not isinstance(data, dict):
            return {}
        return {str(k): str(v) for k, v in data.items() if isinstance(v, str)}

    def _write(self, tokens: dict[str, str]) -> None:
        self.file.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd, temp = tempfile.mkstemp(dir=self.file.parent, prefix=".tokens-")  # mode 0600
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as handle:
                json.dump(tokens, handle, indent=2)
            os.replace(temp, self.file)
        except BaseException:
            Path(temp).unlink(missing_ok=True)
            raise
