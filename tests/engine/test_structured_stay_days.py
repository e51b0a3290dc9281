"""Tests for :mod:`engine.structured.stay_days`: "the day we arrive" is a stay's first day and
"the morning you check out" its last."""

from __future__ import annotations

import datetime as dt

from engine.structured.told_days import told_days


def named(text: str) -> list[str]:
    """The days the text tells by a stay's edge, in order."""
    return [
        dt.date.fromordinal(int(t.first)).isoformat()
        for t in told_days(text)
        if t.how.startswith("the ")
    ]


def test_arriving_is_the_first_day_and_checking_out_the_last() -> None:
    text = (
        "We have the chalet for five nights from Saturday 6 March 2027. The ski hire opens "
        "an account for us the day we arrive, and the minibus collects us the morning we "
        "check out."
    )
    assert named(text) == ["2027-03-06", "2027-03-11"]


def test_a_period_told_last_has_edges_too() -> None:
    text = "The flat is ours from 2 to 9 May 2027; the cleaner comes the evening that they leave."
    assert named(text) == ["2027-05-09"]


def test_no_stay_told_before_names_no_day() -> None:
    assert named("Bring towels on the day you arrive at the hostel.") == []
