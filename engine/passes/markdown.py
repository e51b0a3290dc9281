"""Markdown structure locked on its own: a rewrite may change the words, never the markup.

Asked for "tighter" on a paragraph with bold text, a link and inline code, the model wrote
"* **No faster** than the one in the [ [full changelog](…)": a list mark and a stray bracket
added, the sentence broken. The words inside a link or an emphasis are prose like any other,
but their marks, a link's target and a code span are not the model's to write.

So before any other pass, :class:`MarkdownLocks` splits each free segment of a rewrite at the
Markdown structure markdown-it-py finds in the target
(:func:`engine.passes.markdown_structure.structure_spans`): each stretch of structure becomes a
:class:`~engine.core.plan.Locked` segment marked ``structure``, the words between stay free.
Locked segments keep their bytes by construction and are checked like the user's own
(:func:`engine.core.canvas.check_proposal`); the proposal shows them as free text
(:func:`engine.core.canvas.as_user_locked`), so its locked segments are still exactly the
user's locks. Plain prose has no structure: its plan is left as it was.

After the last step, the result must re-parse to the structure the user's text had (the same
blocks, links and targets, code spans and emphasis count:
:func:`~engine.passes.markdown_structure.structure_of`), and no word of a link's text may
have moved outside it ("[style guide](…)" as "style [guide](…)":
:func:`~engine.passes.markdown_structure.moved_out_of_links`). Locks keep the marks, but free words
next to them can still undo one (a space written just inside ``**``, a word that empties an
emphasis). When it does not, the simplest honest answer is taken: every changed run is put
back as the canvas's seed had it (the proofread seed; a shorter rewrite's seed keeps its
cuts), and the proposal says so (:data:`engine.run.answers.STRUCTURE_PUT_BACK`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from engine.core.canvas import Kind, assemble
from engine.core.plan import EditPlan, Free, Locked, Segment, plan_text, segment_text
from engine.core.protocol import EditMode
from engine.passes.base import Pass, PassContext, Settled
from engine.passes.markdown_structure import (
    Span,
    moved_out_of_links,
    structure_of,
    structure_spans,
)
from engine.passes.reread import changed_runs
from engine.run.answers import STRUCTURE_PUT_BACK


def split_free(seed: str, offset: int, spans: Sequence[Span], vary: bool = False) -> list[Segment]:
    """A free ``seed`` (at ``offset`` in the target) cut at ``spans``: structure locked, each
    free piece varied as the segment was (:attr:`Free.vary`)."""
    pieces: list[Segment] = []
    at = 0
    for begin, end in spans:
        begin, end = max(begin - offset, at), min(end - offset, len(seed))
        if end <= begin:
            continue
        if begin > at:
            pieces.append(Free(seed=seed[at:begin], vary=vary))
        pieces.append(Locked(seed[begin:end], structure=True))
        at = end
    if at < len(seed):
        pieces.append(Free(seed=seed[at:], vary=vary))
    return pieces


def lock_structure(plan: EditPlan) -> EditPlan:
    """``plan`` with the Markdown structure of its free segments locked (as it was if none)."""
    target = plan_text(plan.segments)
    spans = structure_spans(target)
    if not spans:
        return plan
    segments: list[Segment] = []
    offset = 0
    for segment in plan.segments:
        text = segment_text(segment)
        if isinstance(segment, Free) and segment.budget is None:
            segments += split_free(text, offset, spans, segment.vary)
        else:
            segments.append(segment)
        offset += len(text)
    return replace(plan, segments=tuple(segments))


class MarkdownLocks(Pass):
    """Before: Markdown structure locked; after: a result that re-parses otherwise put back."""

    name = "markdown"

    def __init__(self) -> None:
        self.structure: tuple[object, ...] | None = None
        self.target = ""

    def before(self, plan: EditPlan, ctx: PassContext) -> EditPlan:
        if plan.mode is not EditMode.REWRITE:
            return plan
        self.target = plan_text(plan.segments)
        self.structure = structure_of(self.target)
        return lock_structure(plan)

    def after(self, settled: Settled, ctx: PassContext) -> Settled:
        if self.structure is None:
            return settled
        canvas, ids = settled.canvas, settled.last.ids
        text = "".join(piece.text for piece in assemble(canvas, ids, ctx.table))
        if structure_of(text) == self.structure and not moved_out_of_links(self.target, text):
            return settled
        filler = ctx.table.specials.filler_id
        seed = [
            (canvas.seed_ids[i] if canvas.seeded[i] else filler) if kind is Kind.FREE else ids[i]
            for i, kind in enumerate(canvas.kinds)
        ]
        put_back = len(changed_runs(canvas, ids, filler))
        reverted = settled.with_ids(seed, put_back)
        return replace(reverted, notes=(*settled.notes, f"Markdown kept: {STRUCTURE_PUT_BACK}."))
