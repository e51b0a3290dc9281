"""The comma after a linking phrase and a paragraph's full stop (engine.language.en.punctuation)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.worddiff import split_words
from engine.language.en.grammar import fixes
from engine.language.en.punctuation import (
    closes_paragraph,
    comma_fixes,
    ends_prose_paragraph,
    final_stop,
    linking_phrases,
)


def commas(text: str, opens: bool = True) -> list[tuple[int, str]]:
    words, _ = split_words(text)
    return [(r.first, r.text) for i in range(len(words)) for r in comma_fixes(words, i, opens)]


def test_the_comma_holds_the_whole_phrase_and_its_capital() -> None:
    words, _ = split_words("so. for instance we ran.")
    capital, plain = comma_fixes(words, 1, True)
    assert (capital.first, capital.stop, capital.text) == (1, 3, " For instance,")
    assert plain.text == " for instance,"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("However the bridge stayed open.", [(0, "However,")]),
        ("For example we could walk.", [(0, "For example,")]),
        ("The tram was full. In other words the bus was empty.", [(4, " In other words,")]),
        ("We left early; however it rained.", [(3, " however,")]),  # no capital after ";"
        ("in fact it works.", [(0, "In fact,"), (0, "in fact,")]),  # with its capital or not
        ("Instead we stayed home.", [(0, "Instead,")]),
        ("Also the lift was slow.", [(0, "Also,")]),
        ("Also remember the keys.", [(0, "Also,")]),  # an imperative opens a clause
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
        "Also included are two maps.",  # a participle: the clause is inverted
        "Attached is the form. Also attached are the maps.",
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
def test_a_comma_fix_adds_a_comma_and_at_most_a_capital(tokens) -> None:
    words, _ = split_words(" ".join(tokens))
    for index in range(len(words)):
        for rewording in comma_fixes(words, index, True):
            was = "".join(words[rewording.first : rewording.stop])
            assert rewording.first == index and rewording.text.lower() == was.lower() + ","


def stopped(text: str) -> list[str]:
    words, _ = split_words(text)
    return [r.text for r in final_stop(words)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We must leave before the rain", [" rain"]),
        ("The hall was full. they stayed outside for an hour", [" hour"]),
        ("Notes\nThe room is booked until noon", [" noon"]),  # its own line
        ("The gate code is 4471", [" 4471"]),
        ("2024 was the year we moved", [" moved"]),  # a number is no item number
    ],
)
def test_a_last_sentence_with_no_end_mark_is_offered_a_full_stop(text, expected) -> None:
    assert stopped(text) == [e + "." for e in expected]


@pytest.mark.parametrize(
    "text",
    [
        "We must leave before the rain.",  # it has one
        "Is it far?",
        "Notes from the long trip north",  # a title: no word only a clause has
        "Welcome to the new office",
        "It was late",  # too short to tell from a label
        "- we will bring the food",  # a list item
        "# What we will build next",  # a heading
        "| it is | a row |",
        "We will meet at (the usual place)",  # ends in a mark
        "",
    ],
)
def test_no_full_stop_where_the_line_is_no_open_sentence(text) -> None:
    assert stopped(text) == []


@pytest.mark.parametrize(
    ("following", "closes"),
    [
        ("", True),
        ("\n\nNext one.", True),
        ("  \n", True),
        (" and more", False),
        ("[link](x)", False),
    ],
)
def test_a_passage_closes_its_paragraph_before_a_line_break_or_the_end(following, closes) -> None:
    assert closes_paragraph(following) is closes


def test_grammar_offers_the_full_stop_only_where_the_paragraph_ends() -> None:
    words, _ = split_words("They will call us tomorrow")
    assert any(f.rewording.text == " tomorrow." and f.certain for f in fixes(words, closes=True))
    assert not any(f.rewording.text.endswith(".") for f in fixes(words))


@pytest.mark.parametrize(
    ("preceding", "ends"),
    [
        ("", True),
        ("Intro.\n\n", True),
        ("We met. ", True),
        ("- ", False),  # a list item's locked mark before the text
        ("Notes:\n  * ", False),
        ("3. ", False),
        ("## ", False),
        ("| a | ", False),
    ],
)
def test_a_full_stop_only_closes_a_paragraph_of_prose(preceding, ends) -> None:
    assert ends_prose_paragraph(preceding, "\n") is ends
    assert not ends_prose_paragraph(preceding, " more words")
