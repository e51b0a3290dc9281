"""Register tables: the phrases a "formal" or "casual" rewrite may swap, found in a passage."""

from __future__ import annotations

import pytest

from engine.language.en.registers import CASUAL, CONTRACTIONS, FORMAL
from engine.language.en.rewordings import rewordings
from engine.passes.proofread import split_words


def offered(text: str, table) -> list[tuple[str, str]]:
    words, _ = split_words(text)
    found = rewordings(words, table, keep_last=False, first_only=False)
    return [("".join(words[r.first : r.stop]), r.text) for r in found]


def test_formal_expands_contractions_and_drops_slang_keeping_case_and_marks() -> None:
    found = offered("Hey, the report is gonna be late, so it'll be ready Thursday.", FORMAL)
    assert ("Hey,", "Hello,") in found
    assert (" gonna", " going to") in found
    assert (" it'll", " it will") in found


def test_casual_contracts_and_offers_the_long_phrase_and_its_parts() -> None:
    found = offered("We are pleased to inform you that it is ready. We are glad.", CASUAL)
    assert ("We are pleased to inform you that", "Good news:") in found
    assert (" it is", " it's") in found
    assert (" We are", " We're") in found


def test_a_curly_apostrophe_is_read_as_a_straight_one() -> None:
    assert (" it\u2019ll", " it will") in offered("so it\u2019ll be ready", FORMAL)


def test_the_last_word_may_change_in_a_register_swap() -> None:
    assert offered("Please don't", FORMAL) == [(" don't", " do not")]


@pytest.mark.parametrize("table", [FORMAL, CASUAL], ids=["formal", "casual"])
def test_every_phrase_is_lower_case_and_listed_once(table) -> None:
    phrases = [phrase for phrase, _ in table]
    assert len(set(phrases)) == len(phrases)
    assert all(phrase == phrase.lower() and phrase.strip() for phrase in phrases)
    assert all(other.strip() for _, other in table)


def test_every_contraction_is_one_word_and_its_long_form_two() -> None:
    for short, long in CONTRACTIONS:
        assert "'" in short and " " not in short, short
        assert len(long.split()) == 2 or long == "cannot", long
