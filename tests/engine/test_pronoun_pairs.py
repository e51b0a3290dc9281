"""A pronoun joined to another person by "and" takes the case its place asks."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.worddiff import split_words
from engine.language.en.grammar import fixes
from engine.language.en.pronoun_pairs import pair_fixes


def pairs(text: str) -> list[tuple[str, str]]:
    words, _ = split_words(text)
    return [
        ("".join(words[r.first : r.stop]).strip(), r.text.strip())
        for index in range(len(words))
        for r in pair_fixes(words, index, True)
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Me and my uncle painted the shed.", ("Me and my uncle", "My uncle and I")),
        ("Him and his dog walk there daily.", ("Him and his dog", "He and his dog")),
        ("Me and him left early.", ("Me and him", "He and I")),
        ("My aunt and me are cooking.", ("My aunt and me", "My aunt and I")),
        ("Me and Priya will drive.", ("Me and Priya", "Priya and I")),
        ("Her and her brother live nearby.", ("Her and her brother", "She and her brother")),
        ("We left when me and Tom were tired.", ("me and Tom", "Tom and I")),
    ],
)
def test_a_pair_that_opens_a_clause_is_its_subject(text: str, expected: tuple[str, str]) -> None:
    assert pairs(text) == [expected]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Please write to my aunt and I by Friday.", ("I", "me")),
        ("It was hard for Ravi and she.", ("she.", "her.")),
        ("Between you and I, it failed.", ("I,", "me,")),
        ("The parcel came for Mia and I yesterday.", ("I", "me")),  # a phrase of time after it
        ("She will write to Leo and I next Monday.", ("I", "me")),
        ("He wrote to Ana and I last month.", ("I", "me")),
    ],
)
def test_a_pair_after_a_preposition_is_its_object(text: str, expected: tuple[str, str]) -> None:
    assert pairs(text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "My uncle and I painted the shed.",
        "He gave the keys to Priya and me.",
        "After Sam and I left, it rained.",  # "after" opens a clause: "I" is its subject
        "It was hard in this case and I also think so.",  # "I" opens a clause
        "Before Jonas and I last spoke, it rained.",  # "last" before a verb: no time
        "Me and my uncle's shed.",  # no verb follows: no clause
        "I and my brother went home.",  # the speaker first is courtesy, not case
        "They thanked him and her for it.",  # after a verb: no rule here
    ],
)
def test_a_pair_in_its_right_case_or_out_of_reach_is_left(text: str) -> None:
    assert pairs(text) == []


def test_a_pair_fix_is_a_rule_of_writing() -> None:
    words, _ = split_words("Me and my uncle painted the shed.")
    found = [f for f in fixes(words) if f.rewording.text.strip() == "My uncle and I"]
    assert found and all(f.certain for f in found)


NAMES = st.sampled_from(["Anna", "Tom", "my uncle", "his friend", "him", "her", "them"])
VERBS = st.sampled_from(["went", "are", "will stay", "cooked"])


@given(NAMES, VERBS, st.sampled_from(["Me", "Him", "Them"]))
def test_a_pair_fix_changes_only_the_pair(other: str, verb: str, pronoun: str) -> None:
    text = f"{pronoun} and {other} {verb} home today."
    words, trail = split_words(text)
    for index in range(len(words)):
        for r in pair_fixes(words, index, True):
            rewritten = "".join([*words[: r.first], r.text, *words[r.stop :]]) + trail
            assert rewritten.endswith(f" {verb} home today.")
            assert r.first == 0 and r.stop == 3 + other.count(" ")
