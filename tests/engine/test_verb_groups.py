"""Verb groups in the wrong shape for what they say, and the one-word forms offered for them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.language.en.verb_groups import verb_group_fixes
from engine.passes.proofread import split_words


def offered(text: str) -> list[tuple[str, str]]:
    """Each fix of ``text``: the words it replaces and its text, both stripped."""
    words, _ = split_words(text)
    return [
        ("".join(words[r.first : r.stop]).strip(), r.text.strip())
        for index in range(len(words))
        for r in verb_group_fixes(words, index)
    ]


@pytest.mark.parametrize(
    ("text", "fix"),
    [
        ("I am agree that it works.", ("am agree", "agree")),
        ("She is agree with us.", ("is agree", "agrees")),
        ("Last month we have visited the museum.", ("have visited", "visited")),
        ("We have visited it yesterday.", ("have visited", "visited")),
        ("When I was small, we have lived in town.", ("have lived", "lived")),
        ("If it will rain on Saturday, we stay in.", ("will rain", "rains")),
        ("When she will arrive, call me.", ("will arrive,", "arrives,")),
        ("The quiz was more easy than the first.", ("more easy", "easier")),
        ("That was most simple.", ("most simple.", "simplest.")),
    ],
)
def test_a_verb_group_in_the_wrong_shape_is_offered_its_one_word_form(
    text: str, fix: tuple[str, str]
) -> None:
    assert offered(text) == [fix]


@pytest.mark.parametrize(
    "text",
    [
        "The results are mixed.",  # a participle after "be"
        "The plan is change for the better.",  # a noun too
        "We have visited it often.",  # no finished time
        "I wonder if she will come.",  # a question's "if": "will" is right
        "This is more easy work.",  # "more" may count the work
        "It is more beautiful now.",  # no one-word comparative
        "It is the most simple way.",
    ],
)
def test_what_is_right_or_unsure_is_offered_nothing(text: str) -> None:
    assert offered(text) == []


WORDS = st.sampled_from(["I", "am", "is", "have", "will", "if", "more", "easy", "agree", ","])


@given(st.lists(WORDS, max_size=8))
def test_a_fix_only_ever_joins_two_words_into_one(tokens: list[str]) -> None:
    words, _ = split_words(" ".join(tokens))
    for index in range(len(words)):
        for rewording in verb_group_fixes(words, index):
            assert rewording.first == index and rewording.stop == index + 2
            assert len(rewording.text.split()) == 1
