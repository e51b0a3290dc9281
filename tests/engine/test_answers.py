"""A rewrite that did less than asked says so: a reason from the one list, and the
instruction-tuned family the model picker offers."""

from __future__ import annotations

import pytest

from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, EditMode, Proposal, Span
from engine.intent import read_intent
from engine.models.registry import INSTRUCTION_TUNED_FAMILIES
from engine.run.answers import (
    ALL_PUT_BACK,
    CANNOT_READ,
    FOLLOWED_IN_PART,
    MODEL_KEPT_IT,
    NOTHING_TO_FIX,
    POLISHED_ONLY,
    PROOFREAD_OFF,
    REASONS,
    REGISTER_WORDS_ONLY,
    Outcome,
    rewrite_notes,
)
from engine.run.edit_run import run_edit
from tests.helpers.backends import llama_backend

TEXT = "Ada met Babbage in London in 1833."
ALL_PASSES = ("proofread", "shorten", "reread")
GEMMA = next(iter(INSTRUCTION_TUNED_FAMILIES))
GEMMA_NAME = INSTRUCTION_TUNED_FAMILIES[GEMMA]


def outcome(
    instruction: str,
    unchanged: bool = True,
    put_back: int = 0,
    family: str = "masked",
    can_read: bool = True,
    passes: tuple[str, ...] = ALL_PASSES,
) -> Outcome:
    return Outcome(read_intent(instruction), family, unchanged, put_back, can_read, passes)


def proposal(instruction: str, before: str = "", after: str = "") -> Proposal:
    document = before + TEXT + after
    target = Span(len(before), len(before) + len(TEXT))
    edit = Edit(1, document, target, (), instruction, EditMode.REWRITE, SamplerSettings(steps=4))
    events = list(run_edit(llama_backend(), edit))
    assert isinstance(events[-1], Proposal)
    return events[-1]


def test_an_unchanged_rewrite_says_why_and_names_the_larger_model() -> None:
    result = proposal("fix grammar")  # the tiny random model's every change reads worse
    assert result.text == TEXT and result.metrics.put_back > 0
    assert f"No change: {ALL_PUT_BACK}." in result.notes
    assert any(GEMMA_NAME in note for note in result.notes)


def test_an_unchanged_paragraph_inside_a_document_says_why_too() -> None:
    """Unchanged means the target came back as the user wrote it, not the whole document."""
    result = proposal("fix grammar", before="Notes.\n\n", after="\n\nMore later.\n")
    assert result.text == TEXT
    assert f"No change: {ALL_PUT_BACK}." in result.notes


def test_an_instruction_the_model_cannot_follow_says_what_was_done_instead() -> None:
    result = proposal("as a poem")
    assert result.notes[0] == f"Not followed: \u201cpoem\u201d ({POLISHED_ONLY})."
    assert any(GEMMA_NAME in note for note in result.notes)


@pytest.mark.parametrize(
    ("case", "reason"),
    [
        (outcome("fix grammar"), NOTHING_TO_FIX),
        (outcome("fix grammar", put_back=3), ALL_PUT_BACK),
        (outcome("formal", can_read=False), CANNOT_READ),
        (outcome("casual", passes=("reread",)), PROOFREAD_OFF),
        (outcome("fix grammar", family=GEMMA), MODEL_KEPT_IT),
        (outcome(""), NOTHING_TO_FIX),
        (outcome("make it casual"), REGISTER_WORDS_ONLY),
        (outcome("more formal"), REGISTER_WORDS_ONLY),
        (outcome("formal and fix grammar"), NOTHING_TO_FIX),  # a correction was asked too
    ],
)
def test_each_unchanged_rewrite_gets_its_reason(case: Outcome, reason: str) -> None:
    notes = rewrite_notes(case)
    assert f"No change: {reason}." in notes
    named = any(GEMMA_NAME in note for note in notes)
    assert named is (case.family != GEMMA)  # the larger model is offered only by a smaller one


def test_a_rewrite_that_did_what_was_asked_has_no_notes() -> None:
    for instruction in ("tighter", "fix grammar", "formal", "", "proofread"):
        assert rewrite_notes(outcome(instruction, unchanged=False)) == ()


def test_an_instruction_tuned_model_follows_free_instructions() -> None:
    assert rewrite_notes(outcome("translate to French", unchanged=False, family=GEMMA)) == ()


def test_an_instruction_followed_in_part_says_which_part() -> None:
    (note, offer) = rewrite_notes(outcome("tighter and more vivid", unchanged=False))
    assert note == f"Not followed: \u201cvivid\u201d ({FOLLOWED_IN_PART}: shorter)."
    assert GEMMA_NAME in offer


@pytest.mark.parametrize("instruction", ["more vivid", "fix grammar", "", "make it longer"])
@pytest.mark.parametrize("unchanged", [True, False])
def test_every_note_quotes_a_reason_from_the_list(instruction: str, unchanged: bool) -> None:
    notes = rewrite_notes(outcome(instruction, unchanged=unchanged))
    explained = [n for n in notes if n.startswith(("No change", "Not followed"))]
    assert all(any(reason in note for reason in REASONS) for note in explained)
    assert bool(explained) is (unchanged or bool(read_intent(instruction).free))


def test_a_try_that_settles_on_the_change_it_replaces_says_so() -> None:
    from engine.run.answers import SAME_AS_BEFORE, retry_notes

    assert retry_notes("Monday", "Monday") == (f"No change: {SAME_AS_BEFORE}.",)
    assert retry_notes("Monday", "Friday") == ()
    assert SAME_AS_BEFORE in REASONS
