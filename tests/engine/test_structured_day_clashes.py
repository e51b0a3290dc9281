"""Tests for :mod:`engine.structured.day_clashes`: of the members whose names find one day,
those whose names also find another day beside words the others lack move to it."""

from __future__ import annotations

import datetime as dt

from engine.structured.day_clashes import moved_on, named_later
from engine.structured.event_days import event_days, lone_date_span
from engine.structured.member_days import told_span
from engine.structured.told_days import told_days
from tests.helpers.fills import lone_days


def test_the_member_that_finds_another_day_by_its_own_word_moves_to_it() -> None:
    text = (
        "Our club lease on the pavilion ends on 30 June 2027. The council will extend the lease "
        "from 1 July 2027 to 31 December 2027.\n\n"
    )
    # listed against the text's order, so the schema's order alone would swap them
    assert lone_days(text, ["extension_end", "current_lease_end"]) == ["2027-12-31", "2027-06-30"]


def test_no_member_moves_onto_a_day_told_before_its_word() -> None:
    text = "Tiling starts on 4 May 2027, with grouting a week later.\n\n"
    told = told_days(text)
    members = ("grouting_date", "handover_date")
    claims = [told[-1], told[-1]]  # both on the later day, as a misread would leave them
    assert told_span(told, text, "grouting_date") == told[-1]
    # the 4th is told before "grouting" (tiling's), and "handover" finds no day at all
    assert moved_on(told, text, members, claims) == claims


def test_members_that_find_the_same_day_and_nothing_else_stay_for_the_schema_order() -> None:
    text = "The fair and the parade are both on Saturday 12 June 2027.\n\n"
    told = told_days(text)
    claims = [told[0], told[0]]
    assert moved_on(told, text, ("fair_date", "parade_date"), claims) == claims


def test_a_first_one_and_a_follow_up_of_one_thing_keep_their_named_order() -> None:
    text = (
        "Letter of 3 March 2027. A gas safety check of your flat is set for Monday 15 March "
        "2027. A follow-up check comes four weeks after the first check. Please keep the "
        "boiler cupboard clear.\n\n"
    )
    # listed against the text's order: the follow-up first
    members = ["follow_up_check", "notice_date", "first_check"]
    assert lone_days(text, members) == ["2027-04-12", "2027-03-03", "2027-03-15"]


def test_a_first_one_of_another_thing_is_no_start_of_a_deadline() -> None:
    """ "first_rent_payment" and "cancel_deadline" name two things: the names set no order."""
    assert not named_later("cancel_deadline", "first_rent_payment")
    assert named_later("follow_up_check", "first_check")


def test_the_one_member_whose_own_word_finds_the_day_keeps_it() -> None:
    """Both names find 4 March by "entry"; only "junior" finds it by a word of its own, so
    the general deadline takes the next day its whole name finds."""
    text = (
        "League news: entries for the junior division are wanted by 4 March 2027, while every "
        "other team's deadline falls on 18 March 2027.\n\n"
    )
    event = event_days(text)
    assert event is not None
    members = ["general_entry_deadline", "junior_entry_deadline"]
    found = [lone_date_span(event, key, 1, members) for key in members]
    last = [None if f is None else dt.date.fromordinal(int(f[1])).isoformat() for f in found]
    assert last == ["2027-03-18", "2027-03-04"]


def test_the_latest_start_of_a_window_is_its_last_day() -> None:
    text = (
        "Your rail rover, bought 3 March 2027, is good for trips starting between 1 May 2027 "
        "and 31 October 2027.\n\n"
    )
    members = ["latest_trip_start", "bought_on", "earliest_trip_start"]
    assert lone_days(text, members) == ["2027-10-31", "2027-03-03", "2027-05-01"]
