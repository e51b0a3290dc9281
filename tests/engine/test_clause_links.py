"""A sentence's two clauses linked once: "Although it rained, but we went" loses its "but"."""

from __future__ import annotations

import pytest

from engine.core.worddiff import split_words
from engine.language.en.clause_links import doubled_link
from engine.language.en.grammar import fixes
from tests.helpers.words import at_each_word


def doubled(text: str) -> list[str]:
    return at_each_word(doubled_link, text)


@pytest.mark.parametrize(
    ("text", "fixed"),
    [
        (
            "Although the van was full, but we fit the boxes.",
            "Although the van was full, we fit the boxes.",
        ),
        (
            "Because the lift broke, so we took the stairs.",
            "Because the lift broke, we took the stairs.",
        ),
        ("Even though she ran, but she missed it.", "Even though she ran, she missed it."),
        ("It was late. Though it rained, yet we left.", "It was late. Though it rained, we left."),
    ],
)
def test_a_doubled_link_loses_its_coordinator(text: str, fixed: str) -> None:
    assert doubled(text) == [fixed]


@pytest.mark.parametrize(
    "text",
    [
        "Although the van was full, we fit the boxes, but one fell.",  # not the first comma
        "The van was full, but we fit the boxes.",  # no subordinator opens the sentence
        "Because the lift broke, so did the light on the stairs.",  # an inverted clause
        "When the lift broke, but only then, we walked.",  # "when" pairs with no "but"
    ],
)
def test_a_link_said_once_is_left(text: str) -> None:
    assert doubled(text) == []


def test_the_doubled_link_is_a_rule_of_writing() -> None:
    words, _ = split_words("Although it rained, but we went out.")
    assert [f.certain for f in fixes(words) if f.rewording.text.strip() == "rained,"] == [True]
