"""Register tables: the phrases a "formal" or "casual" rewrite may swap, found in a passage."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.language.en.registers import (
    CASUAL,
    CONTRACTIONS,
    EXPANSIONS,
    FORMAL,
    FORMAL_SWAPS,
    FORMAL_WORDS,
    SLANG,
    question_tags,
)
from engine.language.en.rewordings import rewordings
from engine.passes.proofread import reworded, split_words


def offered(text: str, table) -> list[tuple[str, str]]:
    words, _ = split_words(text)
    found = rewordings(words, table, keep_last=False, first_only=False)
    return [("".join(words[r.first : r.stop]), r.text) for r in found]


def test_formal_expands_contractions_and_slang_keeping_case_and_marks() -> None:
    found = offered("Hey, the report is gonna be late, so it'll be ready Thursday.", FORMAL)
    assert ("Hey,", "Hello,") in found
    assert (" gonna", " going to") in found
    assert (" it'll", " it will") in found


def test_a_word_formal_english_writes_with_its_apostrophe_is_kept() -> None:
    """The package expands "o'clock" as "of the clock": no register writes that today."""
    assert not offered("We meet at nine o'clock.", FORMAL)
    assert not any("clock" in long for _, long in CASUAL)


def test_a_colloquial_word_is_written_out_like_slang_with_a_word_per_sense() -> None:
    found = offered("Yeah, the plan looks ok and the chart is awesome.", FORMAL_WORDS)
    assert ("Yeah,", "Yes,") in found
    assert (" ok", " all right") in found and (" ok", " acceptable") in found
    assert (" awesome.", " excellent.") in found
    # a phrase that is not always drop-in stays a swap the reading must find no worse
    assert (" lots of", " many") in offered("We have lots of time.", FORMAL_SWAPS)
    assert not offered("We have lots of time.", FORMAL_WORDS)


def test_a_contraction_that_opens_a_sentence_keeps_its_capital_both_ways() -> None:
    assert ("Don't", "Do not") in offered("Don't go. We can't.", FORMAL)
    assert (" can't.", " cannot.") in offered("Don't go. We can't.", FORMAL)
    assert ("Do not", "Don't") in offered("Do not go. We are late.", CASUAL)
    assert (" We are", " We're") in offered("Do not go. We are late.", CASUAL)


def test_i_keeps_its_capital_in_a_contraction_and_its_expansion() -> None:
    assert (" I'm", " I am") in offered("so I'm late", FORMAL)
    assert (" I am", " I'm") in offered("so I am late", CASUAL)


def test_casual_contracts_with_the_packages_own_contractions() -> None:
    found = offered("It is ready and we will not wait, as they are not here.", CASUAL)
    assert ("It is", "It's") in found
    assert (" will not", " won't") in found
    assert (" are not", " aren't") in found
    assert all(short != " 'tis" for _, short in found)  # not its first word: not offered


def test_every_contraction_in_the_table_reads_back_to_itself() -> None:
    """Casual's table is formal's read backwards: each expansion it contracts is one that
    formal's table gives for that same contraction."""
    expansions = {short: long.lower() for short, long in CONTRACTIONS}
    for long, short in CASUAL:
        if short.lower() in expansions:
            assert expansions[short.lower()] == long, short


def test_a_clitic_that_reads_two_ways_is_offered_both_ways_to_formal_only() -> None:
    assert {("it's", "it is"), ("it's", "it has"), ("we'd", "we would"), ("we'd", "we had")} <= set(
        EXPANSIONS
    )
    assert ("let's", "let us") in EXPANSIONS and ("let's", "let has") not in EXPANSIONS
    assert ("it has", "it's") not in CASUAL  # "it has a lid" is no "it's a lid"


def test_a_curly_apostrophe_is_read_as_a_straight_one() -> None:
    assert (" it\u2019ll", " it will") in offered("so it\u2019ll be ready", FORMAL)


def test_the_last_word_may_change_in_a_register_swap() -> None:
    assert offered("Please don't", FORMAL) == [(" don't", " do not")]


def test_an_ordinary_word_spelled_like_a_contraction_is_not_slang() -> None:
    slang = {word for word, _ in SLANG}
    assert {"gonna", "wanna", "thx"} <= slang
    assert not {"shell", "well", "cause", "its", "lets", "were", "hell"} & slang


@pytest.mark.parametrize("table", [FORMAL, CASUAL], ids=["formal", "casual"])
def test_every_phrase_is_lower_case_and_has_another_text(table) -> None:
    assert all(phrase == phrase.lower() and phrase.strip() for phrase, _ in table)
    assert all(other.strip() and other != phrase for phrase, other in table)
    assert len(set(table)) == len(table)


def test_every_contraction_is_one_word_with_one_apostrophe() -> None:
    for short, long in CONTRACTIONS:
        assert short.count("'") == 1 and " " not in short, short
        assert long.strip() and "'" not in long, long


WORD = st.sampled_from(
    ["the", "report", "is", "late", "we", "can't", "don't", "it's", "I'm", "ready,", "soon."]
)


@settings(max_examples=200, deadline=None)
@given(st.lists(WORD, min_size=1, max_size=12))
def test_expanding_contractions_changes_no_other_word(picked: list[str]) -> None:
    """A formal rewrite's expansions, all made at once, change each contraction into what it
    stands for and leave every other word of the passage as it was, in its place."""
    words, _ = split_words(" ".join(picked))
    found = rewordings(words, CONTRACTIONS, keep_last=False, first_only=False)
    assert sorted(r.first for r in found) == [i for i, w in enumerate(picked) if "'" in w]
    text = "".join(words)
    for change in sorted(found, key=lambda r: -r.first):
        assert change.stop == change.first + 1
        text = reworded(split_words(text)[0], change)
    long = dict(CONTRACTIONS)
    expected = [w.lower() for p in picked for w in long.get(p.lower(), p).split()]
    assert [w.lower() for w in re.findall(r"\S+", text)] == expected


def test_formal_drops_a_question_tag_and_ends_the_sentence() -> None:
    words, _ = split_words("Push the fix before noon, ok? Then we test it, right?")
    found = question_tags(words)
    assert [reworded(words, r) for r in found] == [
        "Push the fix before noon. Then we test it, right?",
        "Push the fix before noon, ok? Then we test it.",
    ]
    # a question that only ends in the word, with no comma before it, is a question
    assert not question_tags(split_words("Is the layout ok? Which one is right?")[0])


def test_chat_words_have_formal_readings() -> None:
    found = offered("Hi guys, pls send the stuff till Friday, my bad.", FORMAL_WORDS)
    assert (" guys,", " everyone,") in found
    assert (" pls", " please") in found
    assert (" stuff", " material") in found
    assert (" till", " until") in found
    assert (" my bad.", " my mistake.") in found


def test_casual_says_sorry_for_a_stiff_regret() -> None:
    assert ("We regret", "We're sorry") in offered("We regret the delay.", CASUAL)
