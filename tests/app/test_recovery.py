"""Autosave snapshots survive a crash and come back whole."""

from __future__ import annotations

from pathlib import Path

from app.recovery import RecoveryStore


def test_snapshot_round_trip_and_discard(tmp_path: Path) -> None:
    store = RecoveryStore(tmp_path / "rec")
    store.save("doc-1", "/home/u/notes.md", "Unsaved ✓ text", [(0, 8)])
    # A new store (as after a restart) finds it.
    [snap] = RecoveryStore(tmp_path / "rec").snapshots()
    assert (snap.path, snap.text, snap.locks, snap.title) == (
        "/home/u/notes.md",
        "Unsaved ✓ text",
        [(0, 8)],
        "notes.md",
    )
    store.discard("doc-1")
    assert store.snapshots() == []


def test_a_corrupt_snapshot_is_skipped_not_fatal(tmp_path: Path) -> None:
    store = RecoveryStore(tmp_path)
    store.save("good", None, "kept", [])
    (tmp_path / "broken.json").write_text("{not json", encoding="utf-8")
    assert [s.text for s in store.snapshots()] == ["kept"]
    assert (tmp_path / "broken.json").exists()


def test_no_folder_means_nothing_to_recover(tmp_path: Path) -> None:
    assert RecoveryStore(tmp_path / "missing").snapshots() == []
