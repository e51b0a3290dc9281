"""Remote engines' tokens per host: the keyring when there is one, else a private file."""

from __future__ import annotations

import json
import stat
from pathlib import Path

from app.credentials import SERVICE, CredentialStore, usable_keyring
from tests.helpers.fake_keyring import LockedKeyring, MemoryKeyring


def test_tokens_go_to_the_keyring_when_there_is_one(tmp_path: Path) -> None:
    keyring = MemoryKeyring()
    store = CredentialStore(backend=keyring, folder=tmp_path)
    store.save("gpu.lan:8765", "token-one")
    assert keyring.passwords == {(SERVICE, "gpu.lan:8765"): "token-one"}
    assert store.token("gpu.lan:8765") == "token-one" and store.token("other:1") == ""
    assert not store.file.exists() and store.where == "the system keyring"
    store.forget("gpu.lan:8765")
    assert store.token("gpu.lan:8765") == ""


def test_without_a_keyring_tokens_go_to_a_private_file(tmp_path: Path) -> None:
    store = CredentialStore(backend=None, folder=tmp_path / "config")
    store.save("a:1", "token-a")
    store.save("b:2", "token-b")
    assert json.loads(store.file.read_text()) == {"a:1": "token-a", "b:2": "token-b"}
    assert stat.S_IMODE(store.file.stat().st_mode) == 0o600
    assert str(store.file) in store.where
    store.forget("a:1")
    assert CredentialStore(backend=None, folder=tmp_path / "config").token("b:2") == "token-b"
    assert store.token("a:1") == ""


def test_a_locked_keyring_falls_back_to_the_file(tmp_path: Path) -> None:
    store = CredentialStore(backend=LockedKeyring(), folder=tmp_path)
    store.save("gpu.lan:8765", "token-one")
    assert store.token("gpu.lan:8765") == "token-one"
    assert json.loads(store.file.read_text()) == {"gpu.lan:8765": "token-one"}


def test_a_damaged_token_file_reads_as_empty_and_is_replaced(tmp_path: Path) -> None:
    store = CredentialStore(backend=None, folder=tmp_path)
    store.file.write_text("{not json")
    assert store.token("a:1") == ""
    store.file.write_text('["a list"]')
    assert store.token("a:1") == ""
    store.save("a:1", "token-a")
    assert json.loads(store.file.read_text()) == {"a:1": "token-a"}


def test_the_tests_never_see_the_users_keyring() -> None:
    assert usable_keyring() is None  # tests/conftest.py selects keyring's null backend
