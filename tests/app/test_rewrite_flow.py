"""The whole rewrite flow in the real window: select → request → overlay frames → review →
per-hunk accept → one undo restores exactly. Real tiny model, real worker loop (on a thread)."""

from __future__ import annotations

from PySide6.QtCore import Qt, QTimer
from PySide6.QtGui import QTextCursor
from PySide6.QtWidgets import QLineEdit

from app.gui import Session
from engine.core.protocol import Frame, ModelReady, Proposal

# "really" is a cut a "tighter" may make (a hedge): with no such word a shorter rewrite keeps
# the passage whole, and the random model's own changes are all put back by the checks.
DOC = (
    "# Notes\n\nAda met Babbage in London in 1833. They really spoke of engines and of "
    "numbers.\n\nEnd.\n"
)
TARGET = (DOC.index("Ada"), DOC.index("\n\nEnd"))


def load_model(qtbot, session: Session) -> None:
    with qtbot.waitSignal(session.client.modelReady, timeout=60000) as ready:
        session.models.load_saved()
    assert isinstance(ready.args[0], ModelReady)


def select(session: Session, start: int, end: int) -> None:
    cursor = session.window.editor.textCursor()
    cursor.setPosition(start)
    cursor.setPosition(end, QTextCursor.MoveMode.KeepAnchor)
    session.window.editor.setTextCursor(cursor)


def lock_phrase(session: Session, phrase: str) -> None:
    start = DOC.index(phrase)
    select(session, start, start + len(phrase))
    session.window.action("edit.lock").trigger()


def ask(qtbot, session: Session, instruction: str) -> None:
    select(session, *TARGET)
    session.window.action("ask.rewrite").trigger()
    assert session.window.bar.isVisible()
    field = session.window.bar.findChild(QLineEdit)
    qtbot.keyClicks(field, instruction)
    qtbot.keyClick(field, Qt.Key.Key_Return)


def test_rewrite_is_reviewed_applied_per_hunk_and_undone_in_one_step(
    qtbot, session: Session
) -> None:
    load_model(qtbot, session)
    editor = session.window.editor
    editor.load_text(DOC)
    lock_phrase(session, "Babbage")
    lock_phrase(session, "1833")
    frames: list[Frame] = []
    session.client.frame.connect(frames.append)
    with qtbot.waitSignal(session.client.proposal, timeout=60000) as got:
        ask(qtbot, session, "tighter")
        qtbot.waitUntil(lambda: bool(frames), timeout=60000)
        assert session.window.overlay.isVisible()
        assert editor.plain_text() == DOC  # the draft is drawn over the text, never in it
    proposal: Proposal = got.args[0]
    assert editor.plain_text() == DOC
    review = session.window.review
    qtbot.waitUntil(review.isVisible)
    hunks = review.diff().hunks
    assert hunks, "a random model rewrites something"
    assert all("Babbage" not in h.old and "1833" not in h.old for h in hunks)
    qtbot.keyClick(review, Qt.Key.Key_A)  # accept the first hunk
    if len(hunks) > 1:
        qtbot.keyClick(review, Qt.Key.Key_R)  # reject the second
    with qtbot.waitSignal(review.applyRequested):
        qtbot.keyClick(review, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    changed = editor.plain_text()
    first = hunks[0]
    start = TARGET[0] + first.start
    assert changed[:start] == DOC[:start]
    assert changed[start : start + len(first.new)] == first.new
    assert "Babbage" in changed and "1833" in changed
    assert changed.endswith(DOC[TARGET[1] :])
    assert proposal.locks == ("Babbage", "1833")
    editor.undo()
    assert editor.plain_text() == DOC
    editor.redo()
    assert editor.plain_text() == changed


def test_esc_cancels_a_running_draft_and_the_next_request_works(qtbot, session: Session) -> None:
    load_model(qtbot, session)
    editor = session.window.editor
    editor.load_text(DOC)
    session.edits.settings = session.edits.settings.with_changes(steps=4000, block_length=0)
    with qtbot.waitSignal(session.client.cancelled, timeout=60000):
        with qtbot.waitSignal(session.client.frame, timeout=60000):
            ask(qtbot, session, "formal")
        qtbot.keyClick(editor, Qt.Key.Key_Escape)
    assert not session.window.overlay.isVisible()
    assert editor.plain_text() == DOC
    session.edits.settings = session.edits.settings.with_changes(steps=4)
    with qtbot.waitSignal(session.client.proposal, timeout=60000):
        ask(qtbot, session, "formal")
    assert editor.plain_text() == DOC


def test_the_gui_keeps_processing_events_while_the_worker_generates(
    qtbot, session: Session
) -> None:
    load_model(qtbot, session)
    session.window.editor.load_text(DOC)
    session.edits.settings = session.edits.settings.with_changes(steps=200, block_length=0)
    ticks: list[int] = []
    timer = QTimer(interval=5)
    timer.timeout.connect(lambda: ticks.append(1))
    frames: list[Frame] = []
    session.client.frame.connect(frames.append)
    timer.start()
    with qtbot.waitSignal(session.client.proposal, timeout=120000):
        ask(qtbot, session, "clearer")
        qtbot.waitUntil(lambda: len(frames) >= 3, timeout=120000)
        during = len(ticks)
    timer.stop()
    assert during >= 3  # the timer fired between frames: the loop never stood still


def test_a_typed_change_during_the_draft_drops_the_stale_proposal(qtbot, session: Session) -> None:
    load_model(qtbot, session)
    editor = session.window.editor
    editor.load_text(DOC)
    messages: list[str] = []
    session.edits.message.connect(messages.append)
    session.edits.settings = session.edits.settings.with_changes(steps=400, block_length=0)
    with qtbot.waitSignal(session.client.proposal, timeout=120000):
        with qtbot.waitSignal(session.client.frame, timeout=60000):
            ask(qtbot, session, "tighter")
        cursor = editor.textCursor()
        cursor.movePosition(QTextCursor.MoveOperation.End)
        editor.setTextCursor(cursor)
        qtbot.keyClicks(editor, "P.S.")
    assert not session.window.review.isVisible()
    assert editor.plain_text() == DOC + "P.S."
    assert any("changed while the draft settled" in m for m in messages)


def test_a_lock_crossing_the_selection_edge_is_refused(qtbot, session: Session) -> None:
    editor = session.window.editor
    editor.load_text(DOC)
    editor.set_lock_spans([(TARGET[1] - 3, TARGET[1] + 3)])
    messages: list[str] = []
    session.edits.message.connect(messages.append)
    ask(qtbot, session, "tighter")
    assert session.edits.running is None
    assert any("crosses the edge" in m for m in messages)
    assert editor.plain_text() == DOC


def test_a_rewrite_its_check_put_back_entirely_says_so(qtbot, session: Session) -> None:
    from app.edit_controller import Pending
    from engine.core.protocol import Edit, EditMode, Metrics, SegmentText, Span

    session.window.editor.load_text(DOC)
    edit = Edit(7, DOC, Span(*TARGET), (), "formal", EditMode.REWRITE)
    session.edits.running = Pending(edit, ())
    messages: list[str] = []
    session.edits.message.connect(messages.append)
    original = DOC[TARGET[0] : TARGET[1]]
    metrics = Metrics(0.1, 1.0, 8, 10, 20, 2.0, 0.0, 20.0, put_back=3)
    segments = (SegmentText(original, locked=False),)
    session.edits.on_proposal(Proposal(7, Span(*TARGET), original, segments, (), metrics))
    assert "read worse than your text" in messages[-1]
    assert not session.window.review.diff().hunks
    assert "3 put back by the model's check" in metrics.summary()
    assert session.window.editor.plain_text() == DOC


def offer_one_change(session: Session, messages: list[str]) -> None:
    """A proposal that changes one word of the target, as the engine would send it."""
    from app.edit_controller import Pending
    from engine.core.protocol import Edit, EditMode, Metrics, SegmentText, Span

    session.window.editor.load_text(DOC)
    edit = Edit(9, DOC, Span(*TARGET), (), "formal", EditMode.REWRITE)
    session.edits.running = Pending(edit, ())
    session.edits.message.connect(messages.append)
    changed = DOC[TARGET[0] : TARGET[1]].replace("spoke", "talked")
    metrics = Metrics(0.1, 1.0, 8, 10, 20, 2.0, 0.0, 20.0)
    segments = (SegmentText(changed, locked=False),)
    session.edits.on_proposal(Proposal(9, Span(*TARGET), changed, segments, (), metrics))


def test_one_change_is_worded_in_the_singular(qtbot, session: Session) -> None:
    messages: list[str] = []
    offer_one_change(session, messages)
    assert len(session.window.review.diff().hunks) == 1
    assert messages[-1].startswith("1 change to review: ")
    session.window.review.accept_current()
    session.window.review.apply()
    assert messages[-1].startswith("Applied 1 of 1 change (")


def test_the_applied_message_goes_once_an_undo_takes_the_changes_back(
    qtbot, session: Session
) -> None:
    messages: list[str] = []
    offer_one_change(session, messages)
    editor, shown = session.window.editor, session.window.status_message
    session.window.review.accept_all()
    session.window.review.apply()
    assert shown.full_text().startswith("Applied 1 of 1 change")
    cursor = editor.textCursor()
    cursor.movePosition(QTextCursor.MoveOperation.End)
    editor.setTextCursor(cursor)
    qtbot.keyClicks(editor, "more")  # typing after the apply: the apply still holds
    assert shown.full_text().startswith("Applied 1 of 1 change")
    editor.undo()  # the typing
    assert shown.full_text().startswith("Applied 1 of 1 change")
    editor.undo()  # the apply
    assert editor.plain_text() == DOC
    assert shown.full_text().startswith("Undone: 1 change taken back")
    assert not any(m.startswith("Applied") for m in messages[messages.index(shown.full_text()) :])
