"""A request for spelling alone keeps the proofread text (engine.passes.proofread.Proofread.after):
the canvas's other changes are put back; every other request keeps the canvas's words."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.config import SamplerSettings
from engine.intent import read_intent
from engine.passes.base import PassContext, Settled
from engine.passes.proofread import Proofread
from tests.helpers.backends import tiny_table
from tests.helpers.readers import RecordingReader
from tests.helpers.settled import settled_rewrite

FAST = SamplerSettings(steps=12)
TEXT = "The big dog ran home."


def settled_as(rewritten: str) -> tuple[Settled, list[int]]:
    """A settled canvas of :data:`TEXT` whose free text came back as ``rewritten``."""
    settled = settled_rewrite(TEXT, rewritten, FAST)
    return settled, list(settled.canvas.seed_ids)


def after(settled: Settled, instruction: str, reader: object | None = None) -> Settled:
    ctx = PassContext(tiny_table(), FAST, read_intent(instruction), reader)  # type: ignore[arg-type]
    return Proofread().after(settled, ctx)


def test_spelling_alone_puts_back_every_change_the_canvas_made() -> None:
    settled, seed = settled_as("The small cat ran home.")
    out = after(settled, "fix spelling", RecordingReader())
    assert out.last.ids == seed
    assert out.put_back == 0  # never asked for: not reported as the check's work


def test_other_requests_keep_the_canvas_words() -> None:
    settled, _ = settled_as("The small cat ran home.")
    for instruction in ("fix grammar", "proofread", "fix spelling and make it shorter", ""):
        assert after(settled, instruction, RecordingReader()) is settled


def test_without_a_reader_the_canvas_is_the_only_fixer_and_stays() -> None:
    settled, _ = settled_as("The small cat ran home.")
    assert after(settled, "fix spelling") is settled


@settings(max_examples=30, deadline=None)
@given(st.text(alphabet="abcdefg .", max_size=24))
def test_whatever_the_canvas_wrote_spelling_alone_gives_the_seed(rewritten: str) -> None:
    settled, seed = settled_as(rewritten)
    assert after(settled, "fix the typos", RecordingReader()).last.ids == seed
