"""The flow of one rewrite or draft: request → settling overlay → diff review → commit.

The controller owns the state machine and nothing else draws or writes: the editor holds the
text, the overlay shows frames over it (never in it), the review panel picks hunks, and only
:meth:`EditController.apply` changes the document, in one edit block (one undo step).

Esc stops a draft at once in the window (the overlay goes, the status says "Cancelling…") and
the status bar says "cancelled" once the engine confirms: every request ends with exactly one
``Proposal``, ``Cancelled`` or ``Failed``, and the first of those for the cancelled request is
its confirmation.

Trust rules it enforces: a proposal is offered only if the document is still exactly the text
the request was made from (otherwise it is dropped with a message); locks partly inside the
selection are refused before anything runs; a new request cancels the running one.

A rewrite may come back in several versions (the bar's versions control): the review offers,
per change, the versions that differ there (:func:`ui.versions.align_versions`), and one
change may be tried again with the rest kept (:class:`app.retry_controller.RetryController`).
Whatever the user combined, the apply is still one undo step.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum

from PySide6.QtCore import QObject, Signal

from app.retry_controller import RetryController
from app.worker_client import AsyncWorkerClient
from engine.core.config import SamplerSettings
from engine.core.errors import BadRequest
from engine.core.plan import validate_edit
from engine.core.protocol import (
    Cancelled,
    DraftView,
    Edit,
    EditMode,
    Failed,
    Fill,
    Frame,
    Proposal,
    SegmentText,
    Span,
    TokenState,
)
from engine.core.worddiff import edits_for
from ui.editor import DocumentEditor
from ui.overlay import DraftOverlay
from ui.prompt import InstructionBar
from ui.review import DiffReview
from ui.shortcuts import key_text
from ui.status import EngineStatus
from ui.versions import VersionSet, align_versions
from ui.wording import counted, metrics_summary

CANCELLED = "Cancelled: nothing was changed."


@dataclass(frozen=True)
class Applied:
    """The last apply: how many changes it made and the undo steps the document had after it."""

    changes: int
    undo_steps: int


@dataclass(frozen=True)
class Pending:
    edit: Edit | Fill  # a structured fill (the template panel) runs the same flow
    locks_in_target: tuple[tuple[int, int], ...]  # target-relative


class EditState(StrEnum):
    """Where the edit flow stands; the window enables its actions from it."""

    IDLE = "idle"
    RUNNING = "running"  # a draft is settling
    REVIEWING = "reviewing"  # the diff review is open


class EditController(QObject):
    """Signals: ``message(str)`` for the status bar; ``stateChanged(str)``: an
    :class:`EditState` (a ``StrEnum``, so it crosses the signal as its string)."""

    message = Signal(str)
    stateChanged = Signal(str)

    def __init__(
        self,
        editor: DocumentEditor,
        overlay: DraftOverlay,
        review: DiffReview,
        bar: InstructionBar,
        status: EngineStatus,
        client: AsyncWorkerClient,
        settings: SamplerSettings | None = None,
    ) -> None:
        super().__init__(editor)
        self.editor, self.overlay, self.review, self.bar = editor, overlay, review, bar
        self.status, self.client = status, client
        self.settings = settings or SamplerSettings()
        self.mode = EditMode.REWRITE
        self.running: Pending | None = None
        self.cancelling: int | None = None  # the request cancelled and not yet confirmed
        self.reviewing: Pending | None = None
        self.draft = DraftView()  # the running request's tokens, for the status bar's counts
        # The user's dictionary words that stand in a text (app.spelling_controller sets it).
        self.known_words: Callable[[str], tuple[str, ...]] = lambda _text: ()
        self._applied: Applied | None = None
        self.retries = RetryController(review, editor, status, client, self)
        self._connect()

    def _connect(self) -> None:
        self.bar.submitted.connect(self.submit)
        self.overlay.cancelRequested.connect(self.cancel)
        self.review.applyRequested.connect(self.apply)
        self.review.regenerateRequested.connect(self.regenerate)
        self.review.dismissed.connect(self.dismiss_review)
        self.client.frame.connect(self.on_frame)
        self.client.proposal.connect(self.on_proposal)
        self.client.cancelled.connect(self.on_cancelled)
        self.client.failed.connect(self.on_failed)
        self.editor.textChanged.connect(self._after_text_change)
        self.retries.message.connect(self.message)

    # --- starting ------------------------------------------------------------------------

    def begin_rewrite(self) -> None:
        start, end = self.editor.selection_span()
        if start == end:
            self.message.emit("Select the text to rewrite first.")
            return
        self.mode = EditMode.REWRITE
        self.bar.open_for(draft=False)

    def begin_draft(self) -> None:
        self.mode = EditMode.DRAFT
        self.bar.open_for(draft=True)

    def submit(self, instruction: str, strength: float) -> None:
        try:
            pending = self._prepare(instruction, strength)
        except (BadRequest, ValueError) as error:
            self.message.emit(str(error))
            return
        self.send(pending)

    def _prepare(self, instruction: str, strength: float) -> Pending:
        start, end = self.editor.selection_span()
        if self.mode is EditMode.DRAFT:
            start = end
        target = Span(start, end)
        locks = self._locks_for(target) if self.mode is EditMode.REWRITE else ()
        settings = self.settings.with_changes(
            strength=max(strength, 0.05), alternatives=self.bar.alternatives()
        )
        edit = Edit(
            self.client.next_request_id(),
            self.editor.plain_text(),
            target,
            tuple(Span(s, e) for s, e in locks),
            instruction,
            self.mode,
            settings,
            self.known_words(self.editor.text_range(start, end)),
        )
        validate_edit(edit)
        relative = tuple((s - start, e - start) for s, e in locks)
        return Pending(edit, relative)

    def _locks_for(self, target: Span) -> list[tuple[int, int]]:
        inside = []
        for start, end in self.editor.lock_spans():
            lock = Span(start, end)
            if target.contains(lock):
                inside.append((start, end))
            elif target.overlaps(lock):
                raise BadRequest(
                    "A lock crosses the edge of the selection: select all of it or none."
                )
        return inside

    def send(self, pending: Pending) -> None:
        if self.client.dead:
            self.message.emit("The engine is not running: restart it from the banner first.")
            return
        if self.running is not None:
            self.client.cancel(self.running.edit.request_id)
        self.dismiss_review()
        self.running = pending
        self.client.edit(pending.edit)
        self.draft = DraftView()
        target = pending.edit.target
        self.bar.hide()
        self.overlay.show_for(target.start, target.end)
        self.stateChanged.emit(EditState.RUNNING)
        self.message.emit(f"Drafting… ({key_text('ask.cancel')} cancels)")

    def send_fill(self, fill: Fill) -> None:
        """Run a structured fill through the same overlay, review and single-undo apply."""
        self.send(Pending(fill, ()))

    def cancel(self) -> None:
        if self.running is None:
            return
        self.cancelling = self.running.edit.request_id
        self.client.cancel(self.cancelling)
        self.status.show_cancelling()
        self._finish("Cancelling…")

    def _confirms_cancel(self, request_id: int | None) -> bool:
        """Whether this ending answers the cancel; the status bar then says it is done."""
        if self.cancelling is None or request_id not in (None, self.cancelling):
            return False
        self.cancelling = None
        if self.running is None:  # no newer request has taken over the status bar
            self.status.show_ended("cancelled")
            self.message.emit(CANCELLED)
        return True

    # --- events from the worker ----------------------------------------------------------

    def on_frame(self, frame: Frame) -> None:
        if self.running is not None and frame.request_id == self.running.edit.request_id:
            self.overlay.apply_frame(frame)
            self.draft.apply(frame)
            settled = sum(1 for token in self.draft.tokens if token.state is TokenState.SETTLED)
            self.status.show_frame(frame, settled=settled)

    def on_proposal(self, proposal: Proposal) -> None:
        if self._confirms_cancel(proposal.request_id):
            return
        pending = self.running
        if pending is None or proposal.request_id != pending.edit.request_id:
            return
        self._finish("")
        self.status.show_metrics(proposal.metrics)
        if self.editor.plain_text() != pending.edit.text:
            self.message.emit(
                "The text changed while the draft settled: it was dropped. Run it again."
            )
            return
        versions = self._versions_of(pending, proposal)
        self.reviewing = pending
        # A fill's notes say which values it computed (totals, agreeing countries…).
        note = "\n".join([metrics_summary(proposal.metrics), *proposal.notes])
        self.review.set_versions(versions, note=note)
        tried_alone = isinstance(pending.edit, Edit) and pending.edit.mode is EditMode.REWRITE
        self.retries.begin(pending.edit if tried_alone else None, proposal.metrics.forwards)
        self.review.show()
        self.review.setFocus()
        self.stateChanged.emit(EditState.REVIEWING)
        self.message.emit(_review_message(versions, proposal))

    @staticmethod
    def _versions_of(pending: Pending, proposal: Proposal) -> VersionSet:
        """The proposal and its alternatives, aligned on the target's words."""
        target = pending.edit.target
        original = pending.edit.text[target.start : target.end]
        if isinstance(pending.edit, Fill):
            # A fill re-serialises its target (keys and pipes included), so it is reviewed as
            # one replacement; its locks were already checked by the engine.
            whole = [(SegmentText(proposal.text, locked=False),)]
            return align_versions(original, whole, pending.locks_in_target)
        versions = [proposal.segments, *(other.segments for other in proposal.alternatives)]
        return align_versions(original, versions, pending.locks_in_target)

    def on_cancelled(self, event: Cancelled) -> None:
        if self._confirms_cancel(event.request_id):
            return
        if self.running is not None and event.request_id == self.running.edit.request_id:
            self.status.show_ended("cancelled")
            self._finish(CANCELLED)

    def on_failed(self, event: Failed) -> None:
        # A failure with no request id (the engine died) also ends whatever runs now.
        if self._confirms_cancel(event.request_id) and event.request_id is not None:
            return
        if self.running is not None and event.request_id in (None, self.running.edit.request_id):
            self.status.show_ended("failed")
            self._finish(f"{event.message} Nothing was changed.")

    def _finish(self, message: str) -> None:
        self.running = None
        self.overlay.clear()
        self.stateChanged.emit(EditState.IDLE)
        if message:
            self.message.emit(message)

    # --- review --------------------------------------------------------------------------

    def apply(self, accepted: set[int]) -> None:
        if self.reviewing is None:
            return
        pending, diff = self.reviewing, self.review.diff()  # the versions the user chose
        if self.editor.plain_text() != pending.edit.text:
            self.dismiss_review()
            self.message.emit("The text changed since the proposal; it was not applied.")
            return
        edits = edits_for(diff.hunks, accepted, offset=pending.edit.target.start)
        self.editor.replace_ranges(edits)
        self.dismiss_review()
        self._applied = Applied(len(edits), self.editor.document().availableUndoSteps())
        self.message.emit(
            f"Applied {len(edits)} of {counted(len(diff.hunks), 'change')} "
            f"({key_text('edit.undo')} undoes)."
        )

    def _after_text_change(self) -> None:
        """Once an undo has taken the applied changes back, the status bar says so (its
        "Applied 5 of 8 changes" would no longer be true)."""
        if self._applied is None:
            return
        document = self.editor.document()
        if document.availableUndoSteps() >= self._applied.undo_steps:
            return  # the apply still holds (typing after it only adds steps)
        undone, self._applied = self._applied, None
        if document.availableRedoSteps() > 0:  # an undo, not a new document
            self.message.emit(
                f"Undone: {counted(undone.changes, 'change')} taken back "
                f"({key_text('edit.redo')} redoes)."
            )

    def regenerate(self) -> None:
        if self.reviewing is None:
            return
        pending = self.reviewing
        edit = pending.edit
        settings = edit.settings.with_changes(seed=edit.settings.seed + 1)
        again = replace(edit, request_id=self.client.next_request_id(), settings=settings)
        self.send(Pending(again, pending.locks_in_target))

    def dismiss_review(self) -> None:
        was_reviewing = self.reviewing is not None
        self.retries.reset()
        self.reviewing = None
        self.review.hide()
        self.editor.setFocus()
        if was_reviewing:
            self.stateChanged.emit(EditState.IDLE)


def _review_message(versions: VersionSet, proposal: Proposal) -> str:
    """The status bar's line when a review opens: how many changes, and the keys to use."""
    changes = len(versions.slots)
    if not changes and proposal.metrics.put_back:
        return "No change: each change the model tried read worse than your text."
    if not changes:
        return "The model proposed no change."
    several = sum(1 for slot in versions.slots if slot.differs(versions.count))
    offered = (
        f" ({several} differ between the {versions.count} versions: "
        f"{key_text('review.next_version')} picks another)"
        if versions.count > 1
        else ""
    )
    return (
        f"{counted(changes, 'change')} to review{offered}: {key_text('review.accept')} "
        f"accepts, {key_text('review.reject')} rejects, {key_text('review.retry')} tries one "
        f"again, {key_text('review.apply')} applies."
    )
