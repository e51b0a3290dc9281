"""One edit, start to finish: request → plan → the denoising pipeline → proposal.

:func:`run_edit` is a generator: every yield is an event (:class:`Frame`, then a
:class:`Proposal` or :class:`Cancelled`); cancel is a predicate checked before every denoising
step; errors propagate to the caller, which reports them as ``Failed``. The same generator
serves the worker process, the in-process test worker and the headless CLI. The steps
themselves are :func:`engine.run.pipeline.denoise_plan`, which structured fills share; a
rewrite asking for several versions settles each of them (:mod:`engine.run.versions`), and the
first is the proposal, the others its alternatives.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator

from engine.backends.base import Backend
from engine.core.plan import plan_edit
from engine.core.protocol import Cancelled, Edit, Frame, Proposal
from engine.run.answers import versions_note
from engine.run.pipeline import RunContext, make_metrics, never
from engine.run.versions import alternatives, denoise_versions, merged, version_count

EditEvent = Frame | Proposal | Cancelled


def run_edit(
    backend: Backend,
    edit: Edit,
    cancelled: Callable[[], bool] = never,
    clock: Callable[[], float] = time.perf_counter,
) -> Iterator[EditEvent]:
    """Run one edit, yielding frames, then exactly one ``Proposal`` or ``Cancelled``."""
    run = RunContext.starting(edit.request_id, cancelled, clock)
    plan = plan_edit(edit)
    versions = yield from denoise_versions(backend, plan, edit.settings, edit.text, run)
    if versions is None:
        yield Cancelled(edit.request_id)
        return
    done = versions[0]
    # The request's cost is every version's: their forwards and what they generated.
    forwards = sum(version.forwards for version in versions)
    generated = sum(version.generated for version in versions)
    metrics = make_metrics(
        done.first_frame_s, run.elapsed(), forwards, generated, done.churn, done.put_back
    )
    original = edit.text[edit.target.start : edit.target.end]
    others = alternatives(versions, original)
    asked = version_count(plan, edit.settings)
    note = versions_note(asked, 1 + len(others), merged(versions, original, asked))
    notes = (*done.notes, *note)
    yield Proposal(
        edit.request_id, edit.target, done.text, done.segments, plan.locked_texts, metrics,
        notes, others,
    )  # fmt: skip
