"""A noun's "'s" read as a verb or a possessive by the word after it
(engine/language/en/clitics.py), which formal writes out."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.language.en.clitics import contracted_nouns, noun_clitics, verb_readings
from engine.passes.offers import EXPANDED
from engine.passes.proofread import split_words


def written_out(text: str) -> list[str]:
    words, _ = split_words(text)
    return [r.text.strip() for r in noun_clitics(words, EXPANDED)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("So the data's a mess today.", ["data is"]),  # an article: no possessive
        ("I think the team's been told.", ["team has"]),
        ("The report's on the desk.", ["report is"]),  # a preposition
        ("Nobody's sure where it went.", ["Nobody is"]),  # an adjective ending its phrase
        ("The printer's making a noise.", ["printer is"]),
        ("The kettle's boiling.", ["kettle is"]),  # an "-ing" form that is only a verb
        ("The store's closing early.", ["store is"]),  # a noun too, but its phrase goes on
        ("The city's not ready.", ["city is", "city has"]),  # the model reading chooses
        ("The file's saved.", ["file is", "file has"]),
        ("The lot's closed tomorrow.", ["lot is", "lot has"]),  # "tomorrow" says when
        ("John's my friend.", ["John is"]),
    ],
)
def test_a_clitic_the_next_word_shows_is_a_verb_is_written_out(
    text: str, expected: list[str]
) -> None:
    assert written_out(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The team's plan is good.",  # what it owns
        "The team's new plan is good.",
        "The company's marketing team met.",
        "The car's inside door is stuck.",  # "inside" describes here
        "So it's late.",  # a pronoun's: the package's table writes it out
        "This is the team's.",  # nothing after it
        "We met at the club's opening.",  # an "-ing" form that is a noun too: owned
        "She came to my sister's wedding.",
    ],
)
def test_a_possessive_or_a_pronouns_clitic_is_left_alone(text: str) -> None:
    assert written_out(text) == []


def test_nothing_after_the_clitic_reads_as_no_verb() -> None:
    assert verb_readings(",", None) == ()


HEADS = frozenset({"it", "there", "that", "what"})


def contracted(text: str) -> list[str]:
    words, _ = split_words(text)
    return [r.text.strip() for r in contracted_nouns(words, HEADS)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The meeting is postponed until May.", ["meeting's"]),
        ("Maria is late again.", ["Maria's"]),
        ("The team has been told.", ["team's"]),
        ("The report is on the desk.", ["report's"]),
    ],
)
def test_casual_contracts_a_nouns_is_where_it_reads_as_the_verb(
    text: str, expected: list[str]
) -> None:
    assert contracted(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The team has a plan.",  # "the team's a plan" reads as a possessive
        "The office is closed today.",  # a hiss before the "'s"
        "The problem is that we wait.",
        "It is late.",  # a pronoun's: the package's table contracts it
        "The plan is, as always, late.",  # a mark after "is"
        "The team is meeting.",  # "the team's meeting." would read as a possessive
    ],
)
def test_casual_leaves_a_noun_and_is_that_would_not_read_so(text: str) -> None:
    assert contracted(text) == []


WORDS = st.lists(
    st.sampled_from(
        [
            " the",
            " team's",
            " is",
            " has",
            " been",
            " plan",
            " ready",
            " a",
            ".",
            " Maria",
            " not",
            " saved",
            " on",
            " where",
            " office",
            "'s",
            " making",
            " noise",
            ",",
        ]
    ),
    max_size=12,
)


@given(WORDS)
def test_every_reading_writes_one_word_out_in_place(words: list[str]) -> None:
    """Whatever the words, each change stays in the passage and only writes a "'s" out or in:
    its other words (the noun, the marks) are as written."""
    for rewording in noun_clitics(words, EXPANDED):
        assert 0 <= rewording.first < rewording.stop <= len(words)
        was = words[rewording.first]
        assert rewording.text.split()[0] == was.split("'")[0].strip()
    for rewording in contracted_nouns(words, HEADS):
        assert rewording.stop == rewording.first + 2 <= len(words)
        assert rewording.text == words[rewording.first].rstrip() + "'s"
