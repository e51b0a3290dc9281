"""Tests for :mod:`engine.structured.started_lengths`: a length told before the day it starts
on ends that long after it."""

from __future__ import annotations

import datetime as dt

import pytest

from engine.structured.event_days import event_days, lone_date_span
from engine.structured.told_days import told_days
from tests.helpers.fills import dates_schema, json_fill


def iso(day: float) -> str:
    return dt.date.fromordinal(int(day)).isoformat()


def ends(text: str) -> list[str]:
    """The last days of the lengths the text tells."""
    return [dt.date.fromordinal(int(t.first)).isoformat() for t in told_days(text) if t.lasting]


def test_a_length_before_its_start_verb_and_day_ends_that_long_after() -> None:
    text = "We run a two-day first-aid course at the village hall starting Saturday 5 June 2027."
    assert ends(text) == ["2027-06-06"]
    nights = "Mia has a stay of three nights at the lodge, commencing on 30 April 2027."
    assert ends(nights) == ["2027-05-03"]  # a night runs into the next day
    stressed = "Roofers will work three consecutive days starting on the first Monday of May 2027."
    assert ends(stressed) == ["2027-05-05"]


def test_a_stay_runs_from_its_check_in_or_from_the_day_told_before_it() -> None:
    cue = "Booked: the lake cabin for four nights, check-in Fri 3/9/27. Towels provided."
    assert ends(cue) == ["2027-09-07"]
    arriving = "Room 12 is yours for two nights, arriving Monday 6 June 2027."
    assert ends(arriving) == ["2027-06-08"]
    before = "We sail to Oslo on Tuesday 7 June 2027. The hotel has us for five nights."
    assert ends(before) == ["2027-06-12"]


def test_a_series_length_and_a_shift_are_no_length_of_a_thing() -> None:
    weekly = "Yoga runs on Mondays for six weeks, beginning 7 June 2027."
    assert ends(weekly) == []
    shift = "Two days after it starts on 3 March 2026 the choir meets."
    assert ends(shift) == []


def test_a_shift_after_a_started_length_counts_from_its_end_and_one_before_from_its_start() -> None:
    after = (
        "Sent Monday 4 October 2027. Kim has three working days of leave starting "
        "tomorrow and is back the working day after that."
    )
    assert [dt.date.fromordinal(int(t.first)).isoformat() for t in told_days(after)][-1] == (
        "2027-10-08"
    )
    before = "A two-day fair starting Friday 1 October 2027; passes go out the Monday before it."
    assert [t.how for t in told_days(before)][-1] == "the Monday before 2027-10-01"


def test_a_length_after_a_lead_is_read_once() -> None:
    text = "The fete runs for nine days, opening Friday 14 August 2026, on the green."
    assert ends(text) == ["2026-08-22"]


@pytest.mark.parametrize("seed", range(2))
def test_a_course_told_by_its_length_and_first_day_fills_its_last(seed: int) -> None:
    text = (
        "Booking confirmed: one place on a three-day pottery course at the Mill Studio "
        "starting Wed 13/10/27.\n\n"
    )
    filled = json_fill(dates_schema("course_start", "course_end"), text, seed)
    assert filled.value == {"course_start": "2027-10-13", "course_end": "2027-10-15"}


def test_a_length_led_by_for_runs_from_the_day_its_start_verb_or_from_writes() -> None:
    # the last day is told after the first, so a start takes the first and an end the last
    started = "The regatta runs for six days starting 3 August 2026, with a ball at the end."
    assert [t.lasting for t in told_days(started)] == [False, True]
    assert ends(started) == ["2026-08-08"]
    assert ends("Hire the marquee for four days from 12 June 2027.") == ["2027-06-15"]
    assert ends("The course runs for ten days, beginning on Monday 6 September 2027.") == [
        "2027-09-15"
    ]


def test_every_before_a_word_that_is_no_time_says_no_thing_recurs() -> None:
    # "every guest" is no series: the length that starts the day after the party ends
    text = (
        "The bakery's party is on 9 May 2026. Every guest gets a free loaf on any of the "
        "five days starting the day after the party."
    )
    assert ends(text) == ["2026-05-14"]
    weekly = "Every week for six weeks, starting Monday 4 May 2026, the choir sings at noon."
    assert ends(weekly) == []  # a series' length: :mod:`.series` reads it


def test_working_days_from_a_weekday_count_that_weekday_and_skip_the_weekend() -> None:
    shut = "The print room is shut for four working days from Tuesday 2 March 2027 for a refit."
    assert ends(shut) == ["2027-03-05"]  # Tue, Wed, Thu, Fri
    over = "Audits take place over six working days starting Thursday 4 March 2027."
    assert ends(over) == ["2027-03-11"]  # Thu, Fri, Mon to Thu


def test_a_length_closing_its_sentence_gives_its_end_member_the_last_day() -> None:
    """The last day stands where the first day's words end, at the sentence's full stop: it is
    still told in that sentence, so an end named beside it takes it and a start the first."""
    text = (
        "Folks, the county ploughing match runs for three days from 14 September 2027. "
        "Tractors must be parked two days before the start, and stewards meet on the last day."
        "\n\n"
    )
    event = event_days(text)
    assert event is not None
    members = ["match_last_day", "parking_deadline", "match_begins"]
    found = [lone_date_span(event, key, 1, members) for key in members]
    assert [None if f is None else iso(f[0]) for f in found] == [
        "2027-09-16",
        "2027-09-12",
        "2027-09-14",
    ]


def test_a_start_and_end_pair_takes_a_started_length_over_a_dated_heading() -> None:
    """Minutes dated on one day tell a job of two days: a start and an end named as a pair
    take the job's days, not the heading's one day; nor a span that does not hold them."""
    text = (
        "Record of the Birch Lane Allotment Society, Wednesday 6 January 2027. Contractors will "
        "trim the boundary hedge across two days in a row, beginning on the first Tuesday of "
        "March, and the society meets again in four weeks.\n\n"
    )
    event = event_days(text)
    assert event is not None and event.ends is not None
    assert [iso(d) for d in event.ends] == ["2027-01-06", "2027-01-06"]
    pair = event.pair_ends()
    assert pair is not None and [iso(d) for d in pair] == ["2027-03-02", "2027-03-03"]
    held = "The fair runs 1 to 9 May 2027, with a two-day market starting Saturday 8 May.\n\n"
    event = event_days(held)
    assert event is not None and event.pair_ends() == event.ends  # the fair holds the market


def test_nights_from_a_day_are_a_stay_with_no_lead_before_them() -> None:
    text = "Booking confirmed: 4 nights from Friday 9 April 2027 in the Garden Room."
    assert ends(text) == ["2027-04-13"]
    assert [t.how for t in told_days(text) if t.how] == ["end of 4 nights from 2027-04-09"]
    hours = "Parcel handed in on 9 April 2027; we refund it 48 hours from collection."
    assert ends(hours) == []  # hours from a thing shift it, no stay
