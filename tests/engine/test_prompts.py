"""A draft's prompt reaches the model as the request it was trained on ("Write ... .")."""

from __future__ import annotations

from engine.backends.gemma.prompt import request_of
from engine.core.context import instruction_ids
from engine.core.plan import plan_edit
from engine.core.protocol import Edit, EditMode, Span
from engine.language.en.prompts import draft_request
from tests.helpers.backends import tiny_table

DOC = "We reached the harbour at noon."


def draft(prompt: str) -> Edit:
    return Edit(1, DOC, Span(len(DOC), len(DOC)), (), prompt, EditMode.DRAFT)


def test_a_prompt_saying_what_to_write_becomes_a_request_to_write_it() -> None:
    assert draft_request("what we did the next morning") == "Write what we did the next morning."
    assert (
        draft_request(" a reminder about the deadline. ") == "Write a reminder about the deadline."
    )
    assert draft_request("plans for Monday") == "Write plans for Monday."


def test_a_prompt_that_already_asks_is_only_capitalised_and_ended() -> None:
    assert draft_request("describe the harbour") == "Describe the harbour."
    assert draft_request("list the steps!") == "List the steps."
    assert draft_request("   ") == ""


def test_the_masked_header_carries_the_prompt_as_written_and_a_rewrite_keeps_its_words() -> None:
    table = tiny_table()
    plan = plan_edit(draft("what we did next"))
    assert table.decode(instruction_ids(plan, table)) == "Instruction: what we did next\n\n"
    rewrite = plan_edit(Edit(1, DOC, Span(0, len(DOC)), (), "tighter"))
    assert table.decode(instruction_ids(rewrite, table)) == "Instruction: tighter\n\n"
    assert instruction_ids(plan_edit(draft("")), table) == []


def test_an_instruction_tuned_model_reads_the_draft_request_after_its_task() -> None:
    turn = request_of(plan_edit(draft("what we did next")))
    assert turn.startswith("Write the text that belongs") and turn.endswith(
        "Write what we did next."
    )
    assert request_of(plan_edit(Edit(1, DOC, Span(0, 3), (), "more formal"))) == "more formal"
