"""What a header or a member's name says (engine/structured/columns.py), issue 28: a noun
made from a verb names that verb's act, so "arrival_date" finds "we arrive on …"."""

from __future__ import annotations

import datetime as dt

import pytest

from engine.structured.columns import phrasal_verb, verb_of
from engine.structured.event_days import event_days


@pytest.mark.parametrize(
    ("noun", "verb"),
    [("payment", "pay"), ("arrival", "arrive"), ("departure", "depart"), ("expiry", "expire")],
)
def test_a_noun_made_from_a_verb_names_that_verbs_act(noun: str, verb: str) -> None:
    assert verb_of(noun) == {verb}


def test_a_word_that_is_more_than_a_noun_names_no_act() -> None:
    assert verb_of("final") == frozenset()  # no act of "fin"


@pytest.mark.parametrize(
    ("compound", "verb"), [("pickup", "pick"), ("dropoff", "drop"), ("handover", "hand")]
)
def test_a_verb_and_particle_written_as_one_word_name_that_verbs_act(
    compound: str, verb: str
) -> None:
    assert phrasal_verb(compound) == {verb}


def test_a_verb_that_only_ends_like_a_particle_is_no_compound() -> None:
    assert phrasal_verb("begin") == frozenset()  # no "beg" and "in"
    assert phrasal_verb("margin") == frozenset()


def test_a_compound_name_takes_the_day_told_after_its_verb_and_particle() -> None:
    text = "The van was collected on 2 May 2027. We drop the van off at the depot on 9 May 2027."
    event = event_days(text)
    assert event is not None
    found = event.own_day("dropoff_date", ("pickup_date", "dropoff_date"))
    assert found is not None and found.first == dt.date(2027, 5, 9).toordinal()
