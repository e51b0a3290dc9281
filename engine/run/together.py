"""Several plans of one request settled as one batch: their canvases settled together, then
each one's passes, assembly and check as if it had settled alone.

:func:`settle_together` is :func:`engine.run.pipeline.settle_shaped` for a list of shaped plans
(a rewrite's later versions, each through its passes' ``before`` already,
:mod:`engine.run.versions`) on a backend that can batch (:class:`~engine.backends.base.Batching`):
the backend settles every canvas in rounds, one forward per round over all still open, and then
each plan's ``after`` passes run as they do for one plan. Cancel is checked before every round,
the first included.

The window shows one canvas at a time, and a frame only holds what changed since the last one
of the same canvas, so the frames of the canvases settling together are not interleaved: the
first plan's go out as it settles, the others' are held until every plan before them has
settled and been checked, then sent in order (the worker coalesces them), and each later plan
goes on live from there. Each plan's frames are exactly those it would show settling alone.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from contextlib import closing
from dataclasses import dataclass, field

from engine.backends.base import Backend, Batching, Stepped, StepResult
from engine.core.config import SamplerSettings
from engine.core.protocol import Frame
from engine.run.pipeline import (
    Denoised,
    DraftTracker,
    RunContext,
    Shaped,
    Track,
    after_steps,
    initial_step,
    settle_shaped,
)


def batches(backend: Backend) -> bool:
    """Whether ``backend`` can settle several canvases in one batch."""
    return isinstance(backend, Batching)


def settle_together(
    backend: Backend,
    shaped: Sequence[Shaped],
    settings: Sequence[SamplerSettings],
    document: str,
    run: RunContext,
) -> Generator[Frame, None, list[Denoised] | None]:
    """Settle the ``shaped`` plans (:func:`engine.run.pipeline.shape_plan`, each with its own
    ``settings``: its seed) over ``document``: frames of each in turn, then their checked
    results in order, or ``None`` when cancelled. A backend that does not batch, or a canvas
    it does not batch, settles them one after another."""
    rounds = None
    if isinstance(backend, Batching):
        rounds = backend.denoise_together(
            [(s.canvas, o) for s, o in zip(shaped, settings, strict=True)]
        )
    if rounds is None:
        return (yield from one_after_another(backend, shaped, settings, document, run))
    batch = Batch(backend, shaped, document, run)
    for one, own in zip(shaped, settings, strict=True):
        batch.start(one, own)
    return (yield from batch.settle(rounds))


def reads_now(shaped: Shaped) -> int:
    """The reader's count of forwards so far (0 on a backend that cannot read)."""
    reader = shaped.ctx.reader
    return reader.forwards if reader is not None else 0


def one_after_another(
    backend: Backend,
    shaped: Sequence[Shaped],
    settings: Sequence[SamplerSettings],
    document: str,
    run: RunContext,
) -> Generator[Frame, None, list[Denoised] | None]:
    """The shaped plans settled in turn, each as :func:`settle_shaped` settles one."""
    done: list[Denoised] = []
    for one, own in zip(shaped, settings, strict=True):
        settled = yield from settle_shaped(backend, one, own, document, run)
        if settled is None:
            return None
        done.append(settled)
    return done


@dataclass
class Batch:
    """The canvases settling together: what each has shown and held back, and its result."""

    backend: Backend
    shaped: Sequence[Shaped]
    document: str
    run: RunContext
    trackers: list[DraftTracker] = field(default_factory=list)
    held: list[list[Frame]] = field(default_factory=list)  # frames not yet sent, per canvas
    first_frame_s: list[float] = field(default_factory=list)
    last: dict[int, StepResult] = field(default_factory=dict)  # canvases that have settled
    done: list[Denoised] = field(default_factory=list)  # checked, in order (a prefix)

    def start(self, shaped: Shaped, settings: SamplerSettings) -> None:
        """A canvas's first frame: every position, as it stands before the first step."""
        tracker = DraftTracker(self.run.request_id, shaped.canvas, self.backend.table)
        frame = tracker.frame(initial_step(shaped.canvas, settings.steps), self.run.elapsed())
        self.trackers.append(tracker)
        self.held.append([frame])
        self.first_frame_s.append(
            frame.elapsed_s if shaped.first_frame_s is None else shaped.first_frame_s
        )

    def settle(
        self, rounds: Generator[list[Stepped], None, None]
    ) -> Generator[Frame, None, list[Denoised] | None]:
        """Pull the rounds, cancel checked before each; send what may be shown after each."""
        yield from self.send()
        with closing(rounds):  # an abandoned batch cleans up
            while True:
                if self.run.cancelled():
                    return None
                stepped = next(rounds, None)
                if stepped is None:
                    break
                for step in stepped:
                    self.held[step.job].append(
                        self.trackers[step.job].frame(step.result, self.run.elapsed())
                    )
                    if step.last:
                        self.last[step.job] = step.result
                yield from self.send()
        for job, shaped in enumerate(self.shaped):  # a canvas no round reported: its seed
            self.last.setdefault(job, initial_step(shaped.canvas, shaped.ctx.settings.steps))
        yield from self.send()
        return self.done

    def send(self) -> Generator[Frame, None, None]:
        """The held frames of the first canvas not yet checked; when it has settled, its
        passes and check, then the same for the next one."""
        while len(self.done) < len(self.shaped):
            job = len(self.done)
            yield from self.held[job]
            self.held[job] = []
            if job not in self.last:
                return
            yield from self.finish(job)

    def finish(self, job: int) -> Generator[Frame, None, None]:
        """Canvas ``job``'s passes after the model, assembly and check, as if it settled alone
        (its reads: those before its canvas and those after it, not another plan's)."""
        shaped = self.shaped[job]
        before = reads_now(shaped) - shaped.reads
        track = Track(self.trackers[job], self.first_frame_s[job], before)
        done = yield from after_steps(
            self.backend, shaped, self.last[job], track, self.document, self.run
        )
        self.done.append(done)
