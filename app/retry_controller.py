"""Trying one change of the review again, with every other change and the text around it kept.

The review asks (``DiffReview.retryRequested``) for its current hunk; this controller turns it
into the engine's retry request (:func:`engine.run.retry.retry_edit`: the proposal as the
review shows it, that hunk put back to the user's words, its note's quoted words locked and
the rest of the note added to the instruction) and sends it as an ordinary edit. The review
stays open and says "trying again…" on that hunk; the try's text comes back as a new option of
that hunk only (:meth:`DiffReview.add_try`), and a try that changes nothing new, fails or is
stopped (Esc) leaves the review as it was, with a message that says which.

The proposal a try settles in shows every hunk the user has not rejected in its chosen
version, and each rejected one in the user's words: the try is settled beside the text the
user is about to keep.

Public API: :func:`hunk_retry`, :func:`try_text` (pure); :class:`RetryController`
(``begin(edit, forwards)``, ``reset()``, ``running()``; signal ``message(str)``).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from PySide6.QtCore import QObject, Signal

from app.worker_client import AsyncWorkerClient
from engine.core.errors import BadRequest
from engine.core.plan import validate_edit
from engine.core.protocol import Cancelled, Edit, Failed, Frame, Proposal, Span
from engine.core.worddiff import WordDiff, apply_hunks
from engine.run.retry import MAX_NOTE_CHARS, HunkRetry, retry_edit
from ui.editor import DocumentEditor
from ui.review import DiffReview
from ui.shortcuts import key_text
from ui.status import EngineStatus
from ui.wording import counted


def hunk_retry(
    edit: Edit, diff: WordDiff, shown: Iterable[int], index: int, note: str, attempt: int
) -> HunkRetry:
    """Hunk ``index`` of ``diff`` (the review of ``edit``) to settle again; the hunks in
    ``shown`` stand in the proposal in their new words, the others in the user's."""
    kept = set(shown) | {index}
    hunk = diff.hunks[index]
    proposal = apply_hunks(diff.target, diff.hunks, kept)
    new_start = in_proposal(diff, kept, hunk.start)
    return HunkRetry(
        text=edit.text,
        target=edit.target,
        proposal=proposal,
        old=Span(hunk.start, hunk.end),
        new=Span(new_start, new_start + len(hunk.new)),
        instruction=edit.instruction,
        note=note,
        attempt=attempt,
        locked=tuple(
            Span(in_proposal(diff, kept, start, lock_start=True), in_proposal(diff, kept, end))
            for start, end in diff.locks
        ),
    )


def in_proposal(diff: WordDiff, kept: set[int], at: int, lock_start: bool = False) -> int:
    """Where target offset ``at`` (never inside a hunk) stands in the proposal made of the
    ``kept`` hunks: hunks never touch, so the ones before it are the ones starting before it.
    A lock's start also moves past an insertion right at it, which ends the piece before it."""
    return at + sum(
        len(h.new) - len(h.old)
        for h in diff.hunks
        if h.index in kept and (h.start < at or (lock_start and h.start == at == h.end))
    )


def try_text(retry: HunkRetry, edit: Edit, proposal: Proposal) -> str | None:
    """What the try puts in its hunk, or ``None`` when it also changed the words around it
    (a hunk that only inserted opens the word on each side too)."""
    before = retry.proposal[: retry.new.start]
    after = retry.proposal[retry.new.end :]
    old = retry.old.end - retry.old.start
    start = retry.target.start
    end = start + len(before) + old + len(after)
    settled = (
        edit.text[start : edit.target.start] + proposal.text + edit.text[edit.target.end : end]
    )
    if len(settled) < len(before) + len(after):
        return None
    if not (settled.startswith(before) and settled.endswith(after)):
        return None
    return settled[len(before) : len(settled) - len(after)]


@dataclass(frozen=True)
class RunningTry:
    edit: Edit
    retry: HunkRetry
    index: int  # the hunk in the review


class RetryController(QObject):
    """Signals: ``message(str)`` for the status bar."""

    message = Signal(str)

    def __init__(
        self,
        review: DiffReview,
        editor: DocumentEditor,
        status: EngineStatus,
        client: AsyncWorkerClient,
        parent: QObject | None = None,
    ) -> None:
        super().__init__(parent)
        self.review, self.editor, self.status, self.client = review, editor, status, client
        self._edit: Edit | None = None  # the rewrite under review
        self._forwards = 0  # the model reads it took, to compare a try's against
        self._attempts: dict[int, int] = {}
        self._running: RunningTry | None = None
        review.set_note_limit(MAX_NOTE_CHARS)
        review.retryRequested.connect(self.retry)
        review.retryCancelled.connect(self.stop)
        client.frame.connect(self.on_frame)
        client.proposal.connect(self.on_proposal)
        client.cancelled.connect(self.on_cancelled)
        client.failed.connect(self.on_failed)

    def begin(self, edit: Edit | None, forwards: int = 0) -> None:
        """A review of ``edit`` opened (``None``: one whose changes cannot be tried alone)."""
        self.reset()
        self._edit, self._forwards = edit, forwards
        self.review.allow_tries(edit is not None)

    def reset(self) -> None:
        """The review closed: stop its try, forget its attempts."""
        self.stop()
        self._edit, self._attempts = None, {}

    def running(self) -> Edit | None:
        """The try's request while it runs."""
        return self._running.edit if self._running is not None else None

    def retry(self, index: int, note: str) -> None:
        try:
            self._running = self._start(index, note)
        except (BadRequest, ValueError) as error:
            self.review.end_try()
            self.message.emit(f"{str(error).rstrip('.')}. The change is as it was.")
            return
        self.client.edit(self._running.edit)
        self.message.emit(f"Trying change {index + 1} again… ({key_text('review.cancel')} stops)")

    def _start(self, index: int, note: str) -> RunningTry:
        edit = self._edit
        if edit is None:
            raise ValueError("This change cannot be tried alone: ask again instead")
        if self.client.dead:
            raise ValueError("The engine is not running: restart it from the banner first")
        if self.editor.plain_text() != edit.text:
            raise ValueError("The text changed since the proposal")
        attempt = self._attempts.get(index, 0) + 1
        shown = set(range(len(self.review.diff().hunks))) - self.review.rejected()
        retry = hunk_retry(edit, self.review.diff(), shown, index, note, attempt)
        settings = edit.settings.with_changes(alternatives=1)
        request = retry_edit(self.client.next_request_id(), retry, settings)
        validate_edit(request)
        self._attempts[index] = attempt
        return RunningTry(request, retry, index)

    def stop(self) -> None:
        """Stop the running try (Esc in the review, or the review closing)."""
        if self._running is not None:
            self.client.cancel(self._running.edit.request_id)
            self._running = None
            self.status.show_ended("cancelled")
            self.message.emit("The try was stopped: the change is as it was.")

    # --- events from the worker ----------------------------------------------------------

    def _ours(self, request_id: int | None) -> RunningTry | None:
        running = self._running
        if running is not None and request_id in (None, running.edit.request_id):
            self._running = None
            return running
        return None

    def on_frame(self, frame: Frame) -> None:
        if self._running is not None and frame.request_id == self._running.edit.request_id:
            self.status.show_frame(frame)

    def on_proposal(self, proposal: Proposal) -> None:
        running = self._ours(proposal.request_id)
        if running is None:
            return
        self.status.show_metrics(proposal.metrics)
        text = try_text(running.retry, running.edit, proposal)
        if text is None or self.editor.plain_text() != running.retry.text:
            self.review.end_try()
            reason = "the text changed meanwhile" if text else "it changed the words around it"
            self.message.emit(f"The try was not used: {reason}. The change is as it was.")
            return
        old = self.review.diff().hunks[running.index].old
        added = self.review.add_try(running.index, text)
        self.message.emit(_outcome(running, proposal, added, text == old, self._forwards))

    def on_cancelled(self, event: Cancelled) -> None:
        if self._ours(event.request_id) is not None:
            self.review.end_try()
            self.message.emit("The try was stopped: the change is as it was.")

    def on_failed(self, event: Failed) -> None:
        if self._ours(event.request_id) is not None:
            self.review.end_try()
            self.status.show_ended("failed")
            self.message.emit(f"{event.message} The change is as it was.")


def _outcome(
    running: RunningTry, proposal: Proposal, added: bool, as_typed: bool, forwards: int
) -> str:
    """What the status bar says about a try that came back: its cost, or that it is unchanged."""
    attempt, number = running.retry.attempt, running.index + 1
    if not added:
        kept = "your own words" if as_typed else "a version already offered"
        said = f"Try {attempt} of change {number} came back unchanged ({kept})."
    else:
        reads = counted(proposal.metrics.forwards, "model read")
        if forwards:
            reads += f"; the rewrite took {forwards}"
        said = f"Try {attempt} of change {number}: {reads}."
    return " ".join([said, *proposal.notes])
