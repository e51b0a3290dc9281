"""Keyring backends for tests: one that keeps passwords in memory, one that always fails.

Tests never touch the user's real keyring (tests/conftest.py selects keyring's null backend
for the whole session); these stand in where a test needs a keyring that works, or breaks.
"""

from __future__ import annotations

from keyring.backend import KeyringBackend
from keyring.errors import KeyringError, PasswordDeleteError


class MemoryKeyring(KeyringBackend):
    priority = 1  # type: ignore[assignment]

    def __init__(self) -> None:
        super().__init__()
        self.passwords: dict[tuple[str, str], str] = {}

    def get_password(self, service: str, username: str) -> str | None:
        return self.passwords.get((service, username))

    def set_password(self, service: str, username: str, password: str) -> None:
        self.passwords[(service, username)] = password

    def delete_password(self, service: str, username: str) -> None:
        if self.passwords.pop((service, username), None) is None:
            raise PasswordDeleteError(username)


class LockedKeyring(MemoryKeyring):
    """A keyring that refuses every write, as a locked Secret Service collection does."""

    def set_password(self, service: str, username: str, password: str) -> None:
        raise KeyringError("the collection is locked")
