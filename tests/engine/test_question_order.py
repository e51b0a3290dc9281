"""A question held inside a sentence takes a statement's order."""

from __future__ import annotations

import pytest

from engine.core.worddiff import split_words
from engine.language.en.grammar import fixes
from engine.language.en.question_order import question_order_fixes
from tests.helpers.words import at_each_word


def reordered(text: str) -> list[str]:
    return at_each_word(question_order_fixes, text)


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        ("Please tell me where is the ferry?", "Please tell me where the ferry is?"),
        ("We know why is it.", "We know why it is."),
        ("Ask them what is the new code.", "Ask them what the new code is."),
        ("I wonder how does the lock open.", "I wonder how the lock opens."),
        ("She asked what did they want.", "She asked what they wanted."),
        ("Do you know where is Oslo?", "Do you know where is Oslo?"),  # a name: left
    ],
)
def test_a_held_question_takes_the_statements_order(text: str, fixed: str) -> None:
    assert reordered(text) == ([fixed] if fixed != text else [])


@pytest.mark.parametrize(
    "text",
    [
        "Where is the ferry?",  # a direct question
        "Tell me where the ferry is.",  # already a statement's order
        "I know what is important.",  # no subject after "is"
        "Tell me where is the ferry from Oslo.",  # the clause goes on: unsure
        "I know who does the cooking.",  # "who" is the subject
    ],
)
def test_a_question_in_the_right_order_or_unsure_is_left(text: str) -> None:
    assert reordered(text) == []


def test_the_order_is_a_rule_of_writing() -> None:
    words, _ = split_words("Tell me where is the ferry.")
    found = [f for f in fixes(words) if f.rewording.text.strip() == "the ferry is."]
    assert found and all(f.certain for f in found)
