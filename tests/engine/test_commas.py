"""The comma after a linking phrase that opens a sentence (engine.language.en.commas)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.worddiff import split_words
from engine.language.en.commas import comma_fixes, linking_phrases
from engine.language.en.grammar import fixes


def commas(text: str, opens: bool = True) -> list[tuple[int, str]]:
    words, _ = split_words(text)
    return [(r.first, r.text) for i in range(len(words)) for r in comma_fixes(words, i, opens)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("However the bridge stayed open.", [(0, "However,")]),
        ("For example we could walk.", [(1, " example,")]),
        ("The tram was full. In other words the bus was empty.", [(6, " words,")]),
        ("We left early; however it rained.", [(3, " however,")]),
        ("in fact it works.", [(1, " fact,")]),  # any case
        ("Instead we stayed home.", [(0, "Instead,")]),
    ],
)
def test_a_linking_phrase_opening_a_clause_is_offered_its_comma(text, expected) -> None:
    assert commas(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "However, the bridge stayed open.",  # the comma is there
        "However hard we push, it sticks.",  # "hard" is what "however" modifies
        "Thus far nothing moved.",  # an adverb
        "In addition to the fee we pay tax.",  # the phrase goes on
        "Instead of tea we drank water.",
        "The bus however was late.",  # not where a clause opens
        "For example.",  # nothing after it
        "For example, 2024 was dry.",
        "Finally 12 trains ran.",  # no word after it
    ],
)
def test_no_comma_where_the_phrase_does_not_open_a_clause(text) -> None:
    assert commas(text) == []


def test_the_first_word_opens_a_clause_only_when_the_passage_says_so() -> None:
    assert commas("however the bridge stayed open.", opens=False) == []


def test_the_longest_phrase_is_read_first() -> None:
    lengths = [len(p) for p in linking_phrases()]
    assert lengths == sorted(lengths, reverse=True)


def test_grammar_offers_the_comma_as_a_rule_of_writing() -> None:
    words, _ = split_words("Moreover the lift works.")
    found = [f for f in fixes(words) if f.rewording.text == "Moreover,"]
    assert len(found) == 1 and found[0].certain


@given(st.lists(st.sampled_from(["However", "for", "example", "we", "the", ";", "x."]), max_size=8))
def test_a_comma_fix_only_adds_a_comma_to_one_word(tokens) -> None:
    words, _ = split_words(" ".join(tokens))
    for index in range(len(words)):
        for rewording in comma_fixes(words, index, True):
            assert rewording.stop == rewording.first + 1
            assert rewording.text == words[rewording.first] + ","
