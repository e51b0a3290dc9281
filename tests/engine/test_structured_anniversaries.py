"""Anniversaries and birthdays counted from a day the document tells as done
(engine/structured/anniversaries.py), issue 28: the day that many years on, only from a day
told as something done or a birth; a member that counts the years dates the anniversary, not a
birth; a fill puts both there."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured.anniversaries import born_member, years_counted
from engine.structured.event_days import event_days, lone_date_span
from engine.structured.told_days import digits, told_days
from tests.helpers.fills import dates_schema, json_fill


def counted(text: str) -> list[tuple[str, str]]:
    """Each counted day's phrase (numbers in digits, as the readers see them) and day."""
    return [
        (digits(text)[t.start : t.end], dt.date.fromordinal(int(t.first)).isoformat())
        for t in told_days(text)
        if t.how
    ]


def test_an_anniversary_counts_from_the_day_told_as_done() -> None:
    text = "The Hallams, who wed on 3 April 2001, will throw a party on their 25th anniversary."
    assert counted(text) == [("25th anniversary", "2026-04-03")]
    born = "Member file: dob 9 May 1950; you turn 80 in the spring."
    assert counted(born) == [("turn 80", "2030-05-09")]


def test_an_anniversary_counts_from_a_day_told_as_begun_but_not_from_a_title() -> None:
    text = "The cleaning contract starts on 1 April 2027 and ends on its second anniversary."
    assert counted(text) == [("2nd anniversary", "2029-04-01")]
    title = "Harbour Open, Saturday 5 June 2027: the club marks its 10th anniversary."
    assert counted(title) == []


def test_an_ordinal_in_words_counts_too() -> None:
    text = "The boiler was fitted on 1 March 2024 and is serviced before its third anniversary."
    assert counted(text) == [("3rd anniversary", "2027-03-01")]


def test_a_day_not_told_as_done_is_the_anniversarys_own_and_counts_nothing() -> None:
    text = "On 3 June 2027 the rowing club celebrates its 25th anniversary with a regatta."
    assert counted(text) == []


def test_a_leap_day_falls_on_the_last_day_of_february_in_a_common_year() -> None:
    text = "Tom was born on 29 February 2000 and turns 25 with a trip to Rome."
    assert counted(text) == [("turns 25", "2025-02-28")]


def test_a_name_that_counts_years_dates_an_anniversary_not_a_birth() -> None:
    assert years_counted("ninetieth_birthday") == 90
    assert years_counted("25th_anniversary") == 25
    assert not born_member("ninetieth_birthday")
    assert born_member("birthday") and born_member("date_of_birth")


@given(st.dates(dt.date(1930, 1, 1), dt.date(2020, 12, 31)), st.integers(1, 100))
@settings(max_examples=40, deadline=None)
def test_the_anniversary_keeps_the_day_and_month_of_its_origin(on: dt.date, years: int) -> None:
    text = f"Founded on {on.day} {on:%B %Y}, the choir marks its {years}th anniversary in style."
    ((_, day),) = counted(text)
    found = dt.date.fromisoformat(day)
    assert found.year == on.year + years and found.month == on.month
    assert found.day == on.day or (on.month, on.day, found.day) == (2, 29, 28)


def test_a_fill_dates_the_birthday_a_name_counts() -> None:
    text = "Aunt Vera (born 14 October 1946) turns 80 this year; a party is the Saturday after.\n\n"
    filled = json_fill(dates_schema("eightieth_birthday", "party_date"), text, 0)
    assert filled.value["eightieth_birthday"] == "2026-10-14"


def test_an_anniversary_of_a_thing_counts_from_that_things_day() -> None:
    text = "The rota applies from 2 March 2027; it is reviewed on the 1st anniversary of the rota."
    ((phrase, found),) = counted(text)
    assert found == "2028-03-02" and phrase.startswith("1st anniversary")


def test_a_name_that_counts_a_birthday_takes_that_birthday() -> None:
    text = "Ava, born 5 June 2025, flies free until her second birthday.\n\n"
    assert json_fill(dates_schema("second_birthday"), text, 0).value["second_birthday"] == (
        "2027-06-05"
    )


def test_an_age_turned_on_a_written_day_counts_nothing_from_an_earlier_day() -> None:
    text = "Invoice paid on 2 March 2026. Our owner, Sam, turns 40 on 2 April 2026."
    assert [t.how for t in told_days(text)] == ["", ""]
    later = "She was born on 3 May 1950 and turns 80 this year."
    assert [t.how for t in told_days(later)][1] == "turns 80 from 1950-05-03"


@pytest.mark.parametrize(
    ("text", "found"),
    [
        # the cue that a day was done may stand further back in its sentence, not in another
        ("Dana passed her advanced pool lifeguard course on 2 May 2025; it lapses on its 2nd"
         " anniversary.", [("2nd anniversary", "2027-05-02")]),
        ("We moved last spring. The club night on 4 June 2027 marks our 10th anniversary.", []),
        # one word may say what an anniversary is of
        ("Priya was hired on 6 January 2025 and gets a bonus on her third work anniversary.",
         [("3rd work anniversary", "2028-01-06")]),
        # a birthday counts from the birth, not from a later day
        ("Sam, born 2 February 2010, starts college on 8 September 2027 and signs alone on his"
         " 18th birthday.", [("18th birthday", "2028-02-02")]),
        # a thing done again every so many months or years is next due that long after
        ("The lift was inspected on 12 May 2026 and must be inspected every two years.",
         [("every 2 years", "2028-05-12")]),
        ("Filters were changed on 30 August 2027; change them every eighteen months.",
         [("every 18 months", "2029-02-28")]),
        ("On 12 May 2026 we inspect the lift, as we do every 2 years.", []),
    ],
)  # fmt: skip
def test_anniversaries_and_renewals_count_from_the_day_told_as_done(
    text: str, found: list[tuple[str, str]]
) -> None:
    assert counted(text) == found


@pytest.mark.parametrize(
    ("text", "members", "days"),
    [
        (
            "Born 17 July 2008, Sam turns 18 next summer and can then vote.",
            ["eighteenth_birthday"],
            ["2026-07-17"],
        ),
        (  # the party counts from the birthday the name counts, not from the birth
            "Grandad was born on 4 October 1946; we'll all have lunch with him on the Sunday "
            "after his birthday.",
            ["eightieth_birthday", "lunch_date"],
            ["2026-10-04", "2026-10-11"],
        ),
    ],
)
def test_a_member_that_counts_a_birthday_takes_it_from_the_one_birth_written(
    text: str, members: list[str], days: list[str]
) -> None:
    event = event_days(text)
    found = [lone_date_span(event, key, 1, members) for key in members]
    assert [
        None if f is None else dt.date.fromordinal(int(f[0])).isoformat() for f in found
    ] == days


@pytest.mark.parametrize(
    ("text", "day"),
    [
        (
            "Grandma was born on 3 March 1946, and we're throwing a party for her 80th on the "
            "day itself.",
            "2026-03-03",
        ),
        (
            "Founded on 14 August 1926, the club will celebrate its centenary with a gala match "
            "on the anniversary.",
            "2026-08-14",
        ),
        (
            "Our shop opened on 1 October 2016. To mark 10 years we'll hold a sale on the "
            "anniversary.",
            "2026-10-01",
        ),
    ],
)
def test_an_ordinal_after_a_possessive_and_the_anniversary_count_their_years(
    text: str, day: str
) -> None:
    last = told_days(text)[-1]
    assert dt.date.fromordinal(int(last.first)).isoformat() == day


@pytest.mark.parametrize(
    "text",
    [
        "Signed on 3 May 2026. The fitting is booked for the 20th.",  # a day of the month
        "Jess ran her first parkrun on 4 January 2025; we'll bring cake for her 50th.",  # no birth
        "He started on 7 September 2026. His first assessment is in June.",
    ],
)
def test_an_ordinal_that_counts_no_years_from_a_birth_is_no_anniversary(text: str) -> None:
    assert not any(
        "from" in t.how and t.first - told_days(text)[0].first > 3000 for t in told_days(text)
    )


def test_the_anniversary_of_a_dated_thing_with_no_years_told_is_a_year_on() -> None:
    text = (
        "The gym opened its doors on 8 March 2027. "
        "Members get a free shake on the anniversary of the opening."
    )
    assert counted(text) == [("the anniversary of", "2028-03-08")]
    told = (
        "The charity was founded on 2 May 2017; "
        "to mark 10 years we dine on the anniversary of its founding."
    )
    assert [day for _, day in counted(told)] == ["2027-05-02"]
