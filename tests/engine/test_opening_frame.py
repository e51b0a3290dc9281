"""Something moves on screen at once: the first frame comes before any pass reads the model."""

from __future__ import annotations

import pytest

from engine.core.config import SamplerSettings
from engine.core.protocol import Cancelled, Edit, EditMode, Frame, Proposal, Span
from engine.run.edit_run import run_edit
from tests.helpers.backends import counting_forwards, llama_backend

TEXT = "Intro. Yesterday we goes home and she explain it to the guide."


def test_the_first_frame_comes_before_the_passes_read_the_model() -> None:
    backend = llama_backend()
    reader = backend.reader()
    assert reader is not None
    edit = Edit(1, TEXT, Span(7, len(TEXT)), (), "fix grammar", EditMode.REWRITE,
                SamplerSettings(steps=4))  # fmt: skip
    events = run_edit(backend, edit)
    before = reader.forwards
    first = next(events)
    assert isinstance(first, Frame) and first.length > 0
    assert reader.forwards == before  # shown before proofreading read anything
    rest = list(events)
    assert reader.forwards > before  # the passes did read the model after it
    proposal = rest[-1]
    assert isinstance(proposal, Proposal)
    assert proposal.metrics.time_to_first_frame_s <= proposal.metrics.time_to_settle_s


def test_a_passage_too_long_for_the_model_still_gets_its_clear_refusal() -> None:
    backend = llama_backend()
    text = "word " * 2000
    edit = Edit(1, text, Span(0, len(text)), (), "fix grammar", EditMode.REWRITE)
    events = run_edit(backend, edit)
    assert isinstance(next(events), Frame)  # the opening frame is only for showing
    try:
        list(events)
    except Exception as error:
        assert type(error).__name__ == "BadRequest" and "too long" in str(error)
    else:
        raise AssertionError("a passage longer than the model takes must be refused")


REWRITES = (
    "fix grammar", "fix spelling", "proofread", "tighter", "make it shorter", "formal",
    "casual", "clearer", "polish", "", "more vivid", "as a haiku", "tighter and more formal",
)  # fmt: skip


@pytest.mark.parametrize("instruction", REWRITES)
def test_every_rewrite_shows_a_frame_before_the_model_reads_anything(instruction: str) -> None:
    """Whatever a rewrite asks, the first frame comes before any forward of the model: the
    passes' reads (proofreading, pricing cuts) and the denoising steps all come after it."""
    backend = llama_backend()
    edit = Edit(1, TEXT, Span(7, len(TEXT)), (), instruction, EditMode.REWRITE,
                SamplerSettings(steps=2))  # fmt: skip
    with counting_forwards(backend.model) as forwards:
        events = run_edit(backend, edit)
        first = next(events)
        assert isinstance(first, Frame) and first.length > 0
        assert forwards.count == 0
        rest = list(events)
    assert forwards.count > 0
    proposal = rest[-1]
    assert isinstance(proposal, Proposal)
    # the metric is the moment the first frame was made, not when its reader took it
    assert proposal.metrics.time_to_first_frame_s == first.elapsed_s


PASSAGE = (
    "Intro. We really fixed the new page and the small bugs today, and then we quickly left "
    "the old office."
)


# A passage whose cut takes two rounds of pricing: the cut of PASSAGE is priced in one read,
# and the read after the steps (the reread) finds nothing to read once the shorten pass has
# put the tiny model's mending back to the checked seed.
TIGHTER_PASSAGE = (
    "Intro. Basically we really fixed the new page and the small bugs today, and then we "
    "quickly left the old office."
)


@pytest.mark.parametrize(
    ("instruction", "passage"),
    [("tighter", TIGHTER_PASSAGE), ("fix grammar", PASSAGE), ("formal", PASSAGE)],
)
def test_a_cancel_while_the_passes_read_ends_the_request_before_the_next_read(
    instruction: str, passage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Proofreading and pricing cuts read the model several times before the canvas; a cancel
    asked during the first read ends the request there: no second read, no denoising step."""
    backend = llama_backend()
    reader = backend.reader()
    assert reader is not None
    calls: list[str] = []  # the passes' reads (a read of cuts reads through ``read``: one)
    depth = [0]
    for name in ("read", "read_cuts"):
        method = getattr(reader, name)

        def counted(*args, _method=method, _name=name, **kwargs):
            if not depth[0]:
                calls.append(_name)
            depth[0] += 1
            try:
                return _method(*args, **kwargs)
            finally:
                depth[0] -= 1

        monkeypatch.setattr(reader, name, counted)
    edit = Edit(1, passage, Span(7, len(passage)), (), instruction, EditMode.REWRITE,
                SamplerSettings(steps=4))  # fmt: skip
    uncancelled = list(run_edit(backend, edit))
    assert isinstance(uncancelled[-1], Proposal) and len(calls) >= 2  # it reads more than once
    calls.clear()
    with counting_forwards(backend.model) as forwards:
        events = list(run_edit(backend, edit, cancelled=lambda: bool(calls)))
        read_forwards = forwards.count
    assert isinstance(events[-1], Cancelled)
    assert len(calls) == 1  # the one read under way when the cancel came, none after it
    assert all(isinstance(e, Frame) and e.step == 0 for e in events[:-1])  # no denoising step
    assert read_forwards > 0


def test_the_frames_before_the_steps_name_the_pass_reading_next_and_the_reads_so_far() -> None:
    backend = llama_backend()
    edit = Edit(1, PASSAGE, Span(7, len(PASSAGE)), (), "tighter and more formal",
                EditMode.REWRITE, SamplerSettings(steps=2))  # fmt: skip
    frames = [e for e in run_edit(backend, edit) if isinstance(e, Frame)]
    staged = [(f.stage, f.reads) for f in frames if f.stage]
    assert [stage for stage, _ in staged] == ["proofread", "shorten"]
    assert staged[0][1] == 0 and staged[1][1] > 0  # proofreading read the model in between
    assert frames[0].stage == "proofread" and not frames[1].updates  # a stage, no new tokens
    assert all(not f.stage for f in frames[len(staged) :])  # the denoising steps: no stage
    plain = Edit(1, PASSAGE, Span(7, len(PASSAGE)), (), "", EditMode.REWRITE,
                 SamplerSettings(steps=2))  # fmt: skip
    assert not any(e.stage for e in run_edit(backend, plain) if isinstance(e, Frame))
