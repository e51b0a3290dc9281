"""Tests for :mod:`engine.structured.age_days`: the day a young one reaches an age in weeks or
months counts from its birth."""

from __future__ import annotations

import datetime as dt

import pytest

from engine.structured.told_days import told_days
from tests.helpers.fills import dates_schema, json_fill


def counted(text: str) -> list[str]:
    """The days the text counts (not those it writes), in order."""
    return [dt.date.fromordinal(int(t.first)).isoformat() for t in told_days(text) if t.how]


def test_an_age_to_be_reached_counts_from_the_birth_written() -> None:
    text = (
        "Our foal Pepper was born on 2 May 2027 and had her first check on 9 May 2027. "
        "The farrier comes when she is 10 weeks old."
    )
    assert counted(text) == ["2027-07-11"]


def test_without_a_birth_an_age_counts_from_the_last_day_written_before_it() -> None:
    text = (
        "Our rabbit Clover had five kits on 3 April 2028. They can be rehomed at ten weeks "
        "old and should be spayed once they turn 4 months."
    )
    assert counted(text) == ["2028-06-12", "2028-08-03"]  # both from the kits' day


def test_a_past_age_and_two_births_give_no_day() -> None:
    past = "When he was 6 weeks old, on 9 June 2027, the calf was weighed."
    assert counted(past) == []
    twins = "Ada was born on 1 May 2027, Bo was born on 3 May 2027; shots are at 8 weeks old."
    assert counted(twins) == []


@pytest.mark.parametrize("seed", range(2))
def test_a_fill_dates_a_check_at_an_age(seed: int) -> None:
    text = (
        "Welcome to the world, Rosa, born 11 January 2029! The health visitor calls when "
        "she is 6 weeks old.\n\n"
    )
    filled = json_fill(dates_schema("birth_date", "health_visitor_call"), text, seed)
    assert filled.value == {"birth_date": "2029-01-11", "health_visitor_call": "2029-02-22"}
