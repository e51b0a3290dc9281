"""Something moves on screen at once: the first frame comes before any pass reads the model."""

from __future__ import annotations

from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, EditMode, Frame, Proposal, Span
from engine.run.edit_run import run_edit
from tests.helpers.backends import llama_backend

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
