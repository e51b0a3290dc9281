"""Verb groups in the wrong shape for what they say, and the one-word forms offered for them."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.language.en.verb_groups import (
    present_since_a_point,
    verb_group_fixes,
    verb_group_rules,
    will_after_condition,
    would_have_in_condition,
)
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


@pytest.mark.parametrize(
    ("text", "fix"),
    [
        ("If she would have called, we could go.", ("would have", "had")),
        ("We left early if they would have known it.", None),  # "if" not at the clause's start
        ("I would have called if I knew.", None),  # the other clause's "would" is right
    ],
)
def test_would_have_in_a_condition_is_the_past_perfect(
    text: str, fix: tuple[str, str] | None
) -> None:
    words, _ = split_words(text)
    found = [
        ("".join(words[r.first : r.stop]).strip(), r.text.strip())
        for i in range(len(words))
        for r in would_have_in_condition(words, i)
    ]
    assert found == ([fix] if fix else [])


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("I will ring you when I will land.", [("will land.", "land.")]),
        ("We'll eat when the kettle will boil.", [("will boil.", "boils.")]),
        ("I wonder when she will come.", []),  # a question's clause: "will" is right
        ("Tell me if it will rain.", []),  # "if" may ask whether
    ],
)
def test_will_in_a_clause_of_time_after_a_future_one(text: str, expected: list) -> None:
    words, _ = split_words(text)
    found = [
        ("".join(words[r.first : r.stop]).strip(), r.text.strip())
        for i in range(len(words))
        for r in will_after_condition(words, i)
    ]
    assert found == expected


def test_a_perfect_beside_a_word_of_finished_time_is_a_rule() -> None:
    words, _ = split_words("She has been to the market yesterday.")
    assert [(r.first, r.text.strip()) for r in verb_group_rules(words, 1)] == [(1, "was")]
    clause, _ = split_words("When I was small, we have lived in town.")
    assert verb_group_rules(clause, 5) == []  # a clause's finished time: the reading's choice


@pytest.mark.parametrize(
    ("text", "groups"),
    [
        ("She works here since 2015.", ["has worked", "has been working"]),
        ("I am here since Monday.", ["have been"]),
        ("My aunt lives in Hull since last year.", ["has lived", "has been living"]),
        ("We stay in since it rains.", []),  # "since" and a clause: it may say why
        ("I have lived here since 2019.", []),  # a perfect already
        ("He works hard since he must.", []),
        ("It is the best year since 2015.", []),  # the phrase's time, not the verb's
    ],
)
def test_a_present_since_a_point_in_time_is_a_perfect(text: str, groups: list[str]) -> None:
    words, _ = split_words(text)
    found = [r.text.strip() for i in range(len(words)) for r in present_since_a_point(words, i)]
    assert found == groups
