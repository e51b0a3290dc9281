"""The flow of one rewrite or draft: request → settling overlay → diff review → commit.

The controller owns the state machine and nothing else draws or writes: the editor holds the
text, the overlay shows frames over it (never in it), the review panel picks hunks, and only
:meth:`EditController.apply` changes the document, in one edit block (one undo step).

Trust rules it enforces: a proposal is offered only if the document is still exactly the text
the request was made from (otherwise it is dropped with a message); locks partly inside the
selection are refused before anything runs; a new request cancels the running one.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from PySide6.QtCore import QObject, Signal

from app.worker_client import AsyncWorkerClient
from engine.config import SamplerSettings
from engine.errors import BadRequest
from engine.plan import validate_edit
from engine.protocol import (
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
from ui.editor import DocumentEditor
from ui.overlay import DraftOverlay
from ui.prompt import InstructionBar
from ui.review import DiffReview
from ui.status import EngineStatus
from ui.worddiff import WordDiff, edits_for, word_diff


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
        self.reviewing: tuple[Pending, WordDiff] | None = None
        self.draft = DraftView()  # the running request's tokens, for the status bar's counts
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
        settings = self.settings.with_changes(strength=max(strength, 0.05))
        edit = Edit(
            self.client.next_request_id(),
            self.editor.plain_text(),
            target,
            tuple(Span(s, e) for s, e in locks),
            instruction,
            self.mode,
            settings,
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
        self.message.emit("Drafting… (Esc cancels)")

    def send_fill(self, fill: Fill) -> None:
        """Run a structured fill through the same overlay, review and single-undo apply."""
        self.send(Pending(fill, ()))

    def cancel(self) -> None:
        if self.running is not None:
            self.client.cancel(self.running.edit.request_id)
            self._finish("Cancelled: nothing was changed.")

    # --- events from the worker ----------------------------------------------------------

    def on_frame(self, frame: Frame) -> None:
        if self.running is not None and frame.request_id == self.running.edit.request_id:
            self.overlay.apply_frame(frame)
            self.draft.apply(frame)
            settled = sum(1 for token in self.draft.tokens if token.state is TokenState.SETTLED)
            self.status.show_frame(frame, settled=settled)

    def on_proposal(self, proposal: Proposal) -> None:
        pending = self.running
        if pending is None or proposal.request_id != pending.edit.request_id:
            return
        self._finish("")
        if self.editor.plain_text() != pending.edit.text:
            self.message.emit(
                "The text changed while the draft settled, so it was not offered. Run it again."
            )
            return
        target = pending.edit.target
        original = pending.edit.text[target.start : target.end]
        segments = proposal.segments
        if isinstance(pending.edit, Fill):
            # A fill re-serialises its target (keys and pipes included), so it is reviewed as
            # one replacement; its locks were already checked by the engine.
            segments = (SegmentText(proposal.text, locked=False),)
        diff = word_diff(original, segments, pending.locks_in_target)
        self.reviewing = (pending, diff)
        self.status.show_metrics(proposal.metrics)
        # A fill's notes say which values it computed (totals, agreeing countries…).
        note = "\n".join([proposal.metrics.summary(), *proposal.notes])
        self.review.set_diff(diff, note=note)
        self.review.show()
        self.review.setFocus()
        self.stateChanged.emit(EditState.REVIEWING)
        if not diff.hunks and proposal.metrics.put_back:
            self.message.emit(
                "No change: the model read each change it tried as less fluent than your text "
                "and put it back."
            )
        elif not diff.hunks:
            self.message.emit("The model proposed no change.")
        else:
            self.message.emit(
                f"{len(diff.hunks)} changes to review: A accepts, R rejects, Ctrl+Enter applies."
            )

    def on_cancelled(self, event: Cancelled) -> None:
        if self.running is not None and event.request_id == self.running.edit.request_id:
            self._finish("Cancelled: nothing was changed.")

    def on_failed(self, event: Failed) -> None:
        if self.running is None:
            return
        if event.request_id in (None, self.running.edit.request_id):
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
        pending, diff = self.reviewing
        if self.editor.plain_text() != pending.edit.text:
            self.dismiss_review()
            self.message.emit("The text changed since the proposal; it was not applied.")
            return
        edits = edits_for(diff.hunks, accepted, offset=pending.edit.target.start)
        self.editor.replace_ranges(edits)
        self.dismiss_review()
        self.message.emit(f"Applied {len(edits)} of {len(diff.hunks)} changes (Ctrl+Z undoes).")

    def regenerate(self) -> None:
        if self.reviewing is None:
            return
        pending, _ = self.reviewing
        edit = pending.edit
        settings = edit.settings.with_changes(seed=edit.settings.seed + 1)
        again = replace(edit, request_id=self.client.next_request_id(), settings=settings)
        self.send(Pending(again, pending.locks_in_target))

    def dismiss_review(self) -> None:
        was_reviewing = self.reviewing is not None
        self.reviewing = None
        self.review.hide()
        self.editor.setFocus()
        if was_reviewing:
            self.stateChanged.emit(EditState.IDLE)
