"""The review loop in the real window (issue 29): one change tried again with the rest kept,
versions of a rewrite picked per change, a rejection note steering the next try, and one undo
after any combination. The worker is scripted (tests/helpers/scripted_worker.py) so the
answers are known: the window's handling is under test, not the model."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QTextCursor

from app.gui import Session, build_session
from app.recovery import RecoveryStore
from app.settings import Settings
from engine.core.protocol import Edit, Failed, Proposal
from engine.run.retry import MAX_NOTE_CHARS
from tests.helpers.scripted_worker import ScriptedWorker, proposal_for
from ui.review import Decision

Key = Qt.Key
Mod = Qt.KeyboardModifier

DOC = "# Notes\n\nCall Ada on Tuesday evening about the loom and the cards.\n\nEnd.\n"
TARGET_TEXT = "Call Ada on Tuesday evening about the loom and the cards."
FIRST = "Phone Ada on Friday about the loom and the punched cards."
SECOND = "Ring Ada on Friday about the loom and the old cards."
THIRD = FIRST  # the engine never repeats a version; a merged one must still show once
START = DOC.index(TARGET_TEXT)


class Script:
    """The rewrite's versions, then the tries of each hunk's words, in order."""

    def __init__(self, tries: dict[str, list[str]] | None = None) -> None:
        self.tries = tries or {}
        self.fail_tries = False

    def __call__(self, edit: Edit) -> Proposal | Failed:
        span = edit.text[edit.target.start : edit.target.end]
        if span == TARGET_TEXT:
            return proposal_for(edit, [FIRST, SECOND][: edit.settings.alternatives], forwards=64)
        if self.fail_tries:
            return Failed(edit.request_id, "internal", "The engine could not settle it.")
        answers = self.tries.get(span, [])
        return proposal_for(edit, [answers.pop(0) if answers else span], forwards=6)


@pytest.fixture
def script() -> Script:
    return Script({"Tuesday evening": ["Tuesday night", "Tuesday evening"]})


@pytest.fixture
def worker(script: Script) -> ScriptedWorker:
    return ScriptedWorker(script)


@pytest.fixture
def scripted(
    qtbot, qloop, settings: Settings, tmp_path: Path, worker: ScriptedWorker
) -> Iterator[Session]:
    built = build_session(worker, settings, RecoveryStore(tmp_path / "recovery"))
    qtbot.addWidget(built.window)
    built.window.show()
    built.client.start()
    built.window.editor.load_text(DOC)
    yield built
    built.files.shutdown()
    built.client.close()


def rewrite(qtbot, session: Session, versions: int = 1) -> None:
    cursor = session.window.editor.textCursor()
    cursor.setPosition(START)
    cursor.setPosition(START + len(TARGET_TEXT), QTextCursor.MoveMode.KeepAnchor)
    session.window.editor.setTextCursor(cursor)
    session.edits.begin_rewrite()
    session.window.bar.set_instruction("warmer")
    session.window.bar.set_alternatives(versions)
    with qtbot.waitSignal(session.client.proposal, timeout=10000):
        session.window.bar.submit()
    qtbot.waitUntil(session.window.review.isVisible)


def texts(session: Session) -> list[tuple[str, str]]:
    return [(h.old, h.new) for h in session.window.review.diff().hunks]


def decisions(session: Session) -> list[Decision]:
    review = session.window.review
    return [review.decision(i) for i in range(len(review.diff().hunks))]


def until_try_ends(qtbot, session: Session) -> Callable[[], None]:
    return lambda: qtbot.waitUntil(lambda: session.window.review.trying() is None, timeout=10000)


def test_t_tries_one_change_again_in_place_and_the_others_stay(
    qtbot, scripted: Session, worker: ScriptedWorker
) -> None:
    review = scripted.window.review
    rewrite(qtbot, scripted)
    assert texts(scripted) == [("Call", "Phone"), ("Tuesday evening", "Friday"), ("", "punched ")]
    qtbot.keyClick(review, Key.Key_A)  # accept "Phone"; "Friday" is current
    worker.hold = True
    qtbot.keyClick(review, Key.Key_T)
    assert review.trying() == 1 and "trying again…" in review.view_text()
    assert not review.button("apply").isEnabled()
    sent = worker.edits[-1]
    # The try settles the proposal as shown, with this hunk back in the user's words.
    assert sent.text == DOC.replace(
        TARGET_TEXT, "Phone Ada on Tuesday evening about the loom and the punched cards."
    )
    assert sent.text[sent.target.start : sent.target.end] == "Tuesday evening"
    assert sent.instruction == "warmer" and sent.settings.alternatives == 1
    with qtbot.waitSignal(scripted.client.proposal, timeout=10000):
        worker.release()
    assert texts(scripted) == [
        ("Call", "Phone"),
        ("Tuesday evening", "Tuesday night"),
        ("", "punched "),
    ]
    assert decisions(scripted) == [Decision.ACCEPTED, Decision.PENDING, Decision.PENDING]
    assert review.versions().slots[1].options[-1].label() == "try 1"
    assert "Try 1 of change 2: 6 model reads; the rewrite took 64" in (
        scripted.window.status_message.full_text()
    )


def test_a_try_that_comes_back_the_same_says_so_and_a_new_seed_runs_each_time(
    qtbot, scripted: Session, worker: ScriptedWorker
) -> None:
    review = scripted.window.review
    rewrite(qtbot, scripted)
    review.select_hunk(1)
    for _ in range(2):  # "Tuesday night", then the user's own "Tuesday evening"
        with qtbot.waitSignal(scripted.client.proposal, timeout=10000):
            qtbot.keyClick(review, Key.Key_T)
        until_try_ends(qtbot, scripted)()
    assert "came back unchanged (your own words)" in scripted.window.status_message.full_text()
    assert texts(scripted)[1] == ("Tuesday evening", "Tuesday night")
    seeds = [edit.settings.seed for edit in worker.edits[1:]]
    assert len(set(seeds)) == len(seeds) == 2


def test_a_note_is_shown_and_its_quoted_words_lock_in_the_next_try(
    qtbot, scripted: Session, worker: ScriptedWorker
) -> None:
    review = scripted.window.review
    rewrite(qtbot, scripted)
    review.select_hunk(1)
    qtbot.keyClick(review, Key.Key_E)
    field = review.tools.note_field
    assert field.isVisible() and field.maxLength() == MAX_NOTE_CHARS
    qtbot.keyClicks(field, "keep 'Tuesday', sound warmer")
    qtbot.keyClick(field, Key.Key_Return)
    assert review.decision(1) is Decision.REJECTED and not field.isVisible()
    assert "✎ keep 'Tuesday', sound warmer" in review.view_text()
    with qtbot.waitSignal(scripted.client.proposal, timeout=10000):
        qtbot.keyClick(review, Key.Key_T)
    sent = worker.edits[-1]
    assert [sent.text[lock.start : lock.end] for lock in sent.locks] == ["Tuesday"]
    assert sent.instruction.startswith("warmer") and "sound warmer" in sent.instruction
    assert review.note(1) == "keep 'Tuesday', sound warmer"


def test_versions_are_picked_per_change_and_applied_with_a_try_as_one_undo_step(
    qtbot, scripted: Session
) -> None:
    review, editor = scripted.window.review, scripted.window.editor
    rewrite(qtbot, scripted, versions=2)
    assert scripted.client.worker.edits[0].settings.alternatives == 2  # type: ignore[attr-defined]
    assert scripted.edits.running is None and len(review.diff().hunks) == 3
    assert review.tools.picker.count() == 2  # "Phone" and "Ring"
    qtbot.keyClick(review, Key.Key_BracketRight)  # version 2 on the first change
    assert texts(scripted)[0] == ("Call", "Ring")
    qtbot.keyClick(review, Key.Key_A)
    review.select_hunk(1)  # both versions say "Friday": one option, no picker
    assert not review.tools.picker.isVisibleTo(review)
    with qtbot.waitSignal(scripted.client.proposal, timeout=10000):
        qtbot.keyClick(review, Key.Key_T)  # tried again: "Tuesday night"
    until_try_ends(qtbot, scripted)()
    qtbot.keyClick(review, Key.Key_A)
    assert review.current() == 2 and texts(scripted)[2] == ("", "punched ")
    qtbot.keyClick(review, Key.Key_A)
    with qtbot.waitSignal(review.applyRequested, timeout=1000):
        qtbot.keyClick(review, Key.Key_Return, Mod.ControlModifier)
    combined = "Ring Ada on Tuesday night about the loom and the punched cards."
    assert editor.plain_text() == DOC.replace(TARGET_TEXT, combined)
    editor.undo()
    assert editor.plain_text() == DOC
    editor.redo()
    assert editor.plain_text() == DOC.replace(TARGET_TEXT, combined)


def test_esc_stops_a_try_and_leaves_the_review_as_it_was(
    qtbot, scripted: Session, worker: ScriptedWorker
) -> None:
    review = scripted.window.review
    rewrite(qtbot, scripted, versions=2)
    qtbot.keyClick(review, Key.Key_R)
    before = (texts(scripted), decisions(scripted), review.view_text())
    worker.hold = True
    qtbot.keyClick(review, Key.Key_T)
    assert review.trying() == 1
    with qtbot.waitSignal(scripted.client.cancelled, timeout=10000):
        qtbot.keyClick(review, Key.Key_Escape)
    assert worker.cancels == [worker.edits[-1].request_id]
    assert review.isVisible() and review.trying() is None
    assert (texts(scripted), decisions(scripted), review.view_text()) == before
    assert "stopped" in scripted.window.status_message.full_text()
    qtbot.keyClick(review, Key.Key_Escape)  # no try runs: Esc closes the review
    assert not review.isVisible()
    assert scripted.window.editor.plain_text() == DOC


def test_a_failed_try_leaves_the_review_as_it_was(qtbot, scripted: Session, script: Script) -> None:
    review = scripted.window.review
    rewrite(qtbot, scripted)
    qtbot.keyClick(review, Key.Key_A)
    before = (texts(scripted), decisions(scripted), review.view_text())
    script.fail_tries = True
    with qtbot.waitSignal(scripted.client.failed, timeout=10000):
        qtbot.keyClick(review, Key.Key_T)
    assert review.trying() is None
    assert (texts(scripted), decisions(scripted), review.view_text()) == before
    message = scripted.window.status_message.full_text()
    assert message == "The engine could not settle it. The change is as it was."


def test_a_try_is_refused_once_the_text_changed(qtbot, scripted: Session) -> None:
    review, editor = scripted.window.review, scripted.window.editor
    rewrite(qtbot, scripted)
    editor.insertPlainText("!")
    sent = len(scripted.client.worker.edits)  # type: ignore[attr-defined]
    review.retry_current()
    assert review.trying() is None
    assert len(scripted.client.worker.edits) == sent  # type: ignore[attr-defined]
    assert "The text changed since the proposal" in scripted.window.status_message.full_text()


def test_a_note_that_keeps_every_word_is_refused_clearly(
    qtbot, scripted: Session, worker: ScriptedWorker
) -> None:
    review = scripted.window.review
    rewrite(qtbot, scripted)
    review.select_hunk(0)  # "Call": the note keeps all of it, so nothing is left to settle
    review.note_current()
    review.tools.noteSubmitted.emit("keep 'Call'")
    before = (texts(scripted), decisions(scripted), len(worker.edits))
    review.retry_current()
    assert review.trying() is None
    assert (texts(scripted), decisions(scripted), len(worker.edits)) == before
    assert scripted.window.status_message.full_text().endswith("The change is as it was.")
