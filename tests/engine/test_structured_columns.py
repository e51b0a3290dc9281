"""What a header or a member's name says (engine/structured/columns.py), issue 28: a noun
made from a verb names that verb's act, so "arrival_date" finds "we arrive on …"."""

from __future__ import annotations

import pytest

from engine.structured.columns import verb_of


@pytest.mark.parametrize(
    ("noun", "verb"),
    [("payment", "pay"), ("arrival", "arrive"), ("departure", "depart"), ("expiry", "expire")],
)
def test_a_noun_made_from_a_verb_names_that_verbs_act(noun: str, verb: str) -> None:
    assert verb_of(noun) == {verb}


def test_a_word_that_is_more_than_a_noun_names_no_act() -> None:
    assert verb_of("final") == frozenset()  # no act of "fin"
