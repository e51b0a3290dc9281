"""A shift that opens a sentence before its day counts from the day before it, and a shift
before a clause names no day of its own (engine/structured/counted_days.py)."""

from __future__ import annotations

import datetime as dt

import pytest

from engine.structured import counted_days, json_values


def days(document: str) -> list[str]:
    return [dt.date.fromordinal(int(d)).isoformat() for d in json_values.written_days(document)]


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        # "later" before the sentence's own day: from the day of the sentence before
        ("The rally sets off on 4 April 2027. Two days later the cars reach Turin, and the "
         "rally finishes in Nice on 9 April 2027.", ["2027-04-04", "2027-04-06", "2027-04-09"]),
        ("The fair opens on 1 June 2027. A week later, on 8 June 2027, it closes.",
         ["2027-06-01", "2027-06-08"]),
        # "before" with its object counts from the day after it, as ever
        ("Entries close a week before the race on 12 March 2027.",
         ["2027-03-05", "2027-03-12"]),
        # after the day, the shift counts from it, as ever
        ("We set out on 3 July 2027 and come home ten days later.",
         ["2027-07-03", "2027-07-13"]),
        # a shift before a clause says when the day falls beside another thing's
        ("The crew leaves on 20 May 2027, a day after the show closes.", ["2027-05-20"]),
    ],
)  # fmt: skip
def test_a_shift_counts_from_the_day_it_follows(document: str, expected: list[str]) -> None:
    assert days(document) == expected


def test_a_shift_ahead_of_a_day_with_no_day_before_names_nothing() -> None:
    periods, points = counted_days.durations("Two days later, on 8 June 2027, the fair closes.")
    assert (periods, points) == ((), ())
