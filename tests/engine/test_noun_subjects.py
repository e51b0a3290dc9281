"""The noun a verb agrees with across prepositional phrases, and where that reading gives up."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.language.en.form_risks import PLAIN_PRESENT_TAG, THIRD_SINGULAR_TAG
from engine.language.en.noun_subjects import noun_subject_person, number_held, subject_nouns
from engine.passes.proofread import split_words


def person(text: str) -> str | None:
    """What the subject asks of the last word of ``text``."""
    words, _ = split_words(text)
    return noun_subject_person(words, len(words) - 1)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The printer in the hall jams", THIRD_SINGULAR_TAG),
        ("The old printers near the big windows jam", PLAIN_PRESENT_TAG),
        ("The plates behind it sits", PLAIN_PRESENT_TAG),
        ("It is late, and the cups beside it is", PLAIN_PRESENT_TAG),
        ("The printer jams", THIRD_SINGULAR_TAG),
        ("The colour of the walls is", None),  # "of": the head may be either noun
        ("A lot of people is", None),
        ("The staff are", None),  # a number the lexicon reads both ways
        ("The dog and the cat sleeps", None),  # two subjects
        ("In the hall jams", None),  # no subject before the phrase
        ("We wait until the end comes", THIRD_SINGULAR_TAG),  # a clause "until" opens
        ("We wait in the end comes", None),  # the phrase opens no clause
        ("Printers in the hall jam", None),  # no determiner: unsure
    ],
)
def test_the_head_of_a_noun_subject_says_what_its_verb_agrees_with(
    text: str, expected: str | None
) -> None:
    assert person(text) == expected


def test_the_nouns_of_the_subject_are_listed_nearest_first() -> None:
    words, _ = split_words("The kettle on the counters leaks")
    assert subject_nouns(words, 5) == (4, 1)


def test_the_nouns_of_a_subject_hold_their_number_and_others_do_not() -> None:
    words, _ = split_words("The kettle on the counters leaks a little.")
    assert number_held(words, 1) and number_held(words, 4)
    assert not number_held(words, 7)
    words, _ = split_words("We cleaned the counters today.")
    assert not number_held(words, 3)


WORDS = st.sampled_from(["the", "a", "cups", "cup", "in", "on", "it", ",", "and", "of", "is"])


@given(st.lists(WORDS, min_size=1, max_size=10))
def test_a_subject_noun_always_stands_before_its_verb(tokens: list[str]) -> None:
    words, _ = split_words(" ".join(tokens))
    for index in range(len(words)):
        found = subject_nouns(words, index)
        assert all(0 <= at < index for at in found)
        assert list(found) == sorted(found, reverse=True)


def test_a_head_whose_number_a_word_before_refuses_is_no_guide() -> None:
    """ "Each students have": "each" asks for one, so the noun is what is wrong; its number
    says nothing of the verb's form, and the noun may take the number asked."""
    assert person("Each students have") is None
    assert person("Each student has") == THIRD_SINGULAR_TAG
