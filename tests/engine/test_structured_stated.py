"""What a sentence counts from its one written day (engine/structured/stated.py): durations,
and days written in numbers."""

from __future__ import annotations

import calendar
import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.structured import counted_days, numeric_dates, stated
from tests.helpers.fills import written_span_of as span


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("Held 13/11/2027 to 15/11/2027.", ("2027-11-13", "2027-11-15")),  # 13 is no month
        ("Due 11/25/2027, paid 11/02/2027.", ("2027-11-02", "2027-11-25")),  # 25 is no month
        ("Held 3.11.2027 to 5.11.2027.", ("2027-11-03", "2027-11-05")),  # dots: day first
        ("Workshop, 03/11/2027 - 05/11/2027, Paris.", ("2027-11-03", "2027-11-05")),
        ("Workshop, 03/11/2027 - 05/11/2027, Denver.", ("2027-03-11", "2027-05-11")),
        ("Held 3.11.27 to 5.11.27.", ("2027-11-03", "2027-11-05")),  # two-digit years
        ("Signed 30/06/98, renewed 14/07/98.", ("1998-06-30", "1998-07-14")),  # strptime's %y
        ("Sold 23/12/2027 - exchanges until 15 January.", ("2027-12-23", "2028-01-15")),
    ],
)
def test_days_written_in_numbers_are_read_in_the_order_the_document_shows(
    document: str, expected: tuple[str, str]
) -> None:
    assert span(document) == expected


@pytest.mark.parametrize(
    "document",
    [
        "Workshop, 03/11/2027 - 05/11/2027.",  # nothing says which is the day
        "Seen 13/11/2027 and 11/25/2027.",  # both orders at once
        "Workshop, 03/11/2027, Paris, and 04/11/2027, Denver.",  # two countries' orders
        "Firmware v1.12.10 is out.",  # a version, not a day
    ],
)
def test_numeric_days_are_not_guessed(document: str) -> None:
    assert numeric_dates.numeric_days(document) == ()


@given(st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2090, 12, 31)))
def test_a_day_above_twelve_fixes_the_order(day: dt.date) -> None:
    anchor = f"{day.day:02d}/{day.month:02d}/{day.year}"
    found = numeric_dates.numeric_days(f"From 28/01/{day.year} and {anchor}.")
    assert day.toordinal() in found


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("Talks on 4 March 2027, and site visits the following day.", ("2027-03-04", "2027-03-05")),
        ("Practice is on 9 May 2027 and again the day after.", ("2027-05-09", "2027-05-10")),
        ("A course of three whole days from 6 April 2027.", ("2027-04-06", "2027-04-08")),
        ("A 36-hour relay starting 2 June 2027.", ("2027-06-02", "2027-06-03")),
        ("A two-hour talk on 2 June 2027, then drinks.", None),  # the day it starts: one day
        ("A one-and-a-half-day clinic from 8 May 2027.", ("2027-05-08", "2027-05-09")),
        ("Two and a half weeks of trials from 1 March 2027.", ("2027-03-01", "2027-03-18")),
        (
            "The relay finishes on 9 October 2027; it starts three days earlier.",
            ("2027-10-06", "2027-10-09"),
        ),
        (
            "The race is on 5 June 2027, and bib pickup the day before.",
            ("2027-06-04", "2027-06-05"),
        ),
        ("Entries close a week before the race on 12 March 2027.", ("2027-03-05", "2027-03-12")),
        ("A fair on 14 August 2027 and on three further days.", ("2027-08-14", "2027-08-17")),
        ("It opens on 9 May 2027 with an extra day of workshops.", ("2027-05-09", "2027-05-10")),
        ("Opens on 3 June 2027. Concerts go on for two more days.", ("2027-06-03", "2027-06-05")),
        # a shift in the sentence just after the day's counts from it
        (
            "The trip leaves on 4 April 2027. The group returns five days later.",
            ("2027-04-04", "2027-04-09"),
        ),
        ("The fair ends on 9 May 2027. It opens two days earlier.", ("2027-05-07", "2027-05-09")),
        ("Talks on 4 March 2027. Site visits follow the next day.", ("2027-03-04", "2027-03-05")),
        # a length beside a day written as an end ends on it
        ("The two-day market ends on 16 May 2027.", ("2027-05-15", "2027-05-16")),
        ("Rehearsals run for a week until 20 June 2027.", ("2027-06-14", "2027-06-20")),
        ("The show opens 3 June 2027 and plays the next 3 nights.", ("2027-06-03", "2027-06-06")),
        # a length in the sentence just after, about what that one is about ("It", "This")
        ("The trip leaves on 4 April 2027. It lasts five days.", ("2027-04-04", "2027-04-08")),
        ("Camp opens 2 August 2027. This means ten nights away.", ("2027-08-02", "2027-08-12")),
        ("The fair ends on 9 May 2027. It lasts three days.", ("2027-05-07", "2027-05-09")),
        ("Start: 12 April 2027\nDuration: 5 days\nVenue: Leuven", ("2027-04-12", "2027-04-16")),
        # days listed with commas only
        ("Screenings on 7, 8, 9 May 2027 in the park.", ("2027-05-07", "2027-05-09")),
    ],
)
def test_an_end_stated_relatively_counts_from_the_one_day(
    document: str, expected: tuple[str, str] | None
) -> None:
    assert span(document) == expected


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("Seminar, 04/10/2027 - 06/10/2027, in Nantes, France.", ("2027-10-04", "2027-10-06")),
        ("Meetup, 10/04/2027 - 10/06/2027, Austin, United States.", ("2027-10-04", "2027-10-06")),
    ],
)
def test_a_named_country_says_the_order_of_numeric_days(
    document: str, expected: tuple[str, str]
) -> None:
    assert span(document) == expected


def test_a_weekday_before_a_numeric_date_says_its_order() -> None:
    assert span("Open Sun 1/3/26 to Tue 3/3/26.") == ("2026-03-01", "2026-03-03")
    days = numeric_dates.numeric_days("Doors open Wednesday, 03/11/2026 at nine.")
    assert [dt.date.fromordinal(int(d)).isoformat() for d in days] == ["2026-03-11"]
    assert numeric_dates.numeric_days("Doors open Monday 1/3/26.") == ()  # neither fits


@pytest.mark.parametrize(
    ("document", "day"),
    [
        ("Committee notes, Tues 4/2/25.", "2025-02-04"),  # Tuesday 4 February, not 2 April
        ("Lesson moved to Thurs 6/3/25.", "2025-03-06"),
        ("Wednes. 5/2/25, the hall.", "2025-02-05"),
    ],
)
def test_a_weekday_cut_short_after_three_letters_says_the_order(document: str, day: str) -> None:
    days = numeric_dates.numeric_days(document)
    assert [dt.date.fromordinal(int(d)).isoformat() for d in days] == [day]


@given(st.dates(min_value=dt.date(2000, 1, 1), max_value=dt.date(2068, 12, 31)))
def test_a_day_whose_number_is_its_months_needs_no_order(day: dt.date) -> None:
    same = day.replace(day=day.month)  # "3/3/26" is 3 March in either order
    days = numeric_dates.numeric_days(f"Meet at 7am on {same.day}/{same.month}/{same:%y}.")
    assert days == (same.toordinal(),)
    other = numeric_dates.numeric_days(f"Meet on {same.day}/{same.month % 12 + 1}/{same:%y}.")
    assert other == ()  # any other pair still needs the document's order


def test_a_code_or_a_year_first_country_says_no_order() -> None:
    assert numeric_dates.numeric_days("Held 03/11/2027 by the IT team.") == ()  # a code, not Italy
    assert numeric_dates.numeric_days("Held 03/11/2027 in Canada.") == ()  # Canada: 2027-11-03
    assert numeric_dates.numeric_days("Held 03/11/2027 in Nantes, France or Canada.") != ()


@pytest.mark.parametrize(
    ("document", "days_after"),
    [
        ("The fair lasts three days, with stalls in the square.", 2.0),
        ("Lessons run for two weeks, in the evening.", 13.0),
        ("Four nights at the lodge, breakfast included.", 4.0),
        ("The fair lasts three days. A two-day trip follows.", None),  # lengths disagree
        ("The fair opens on 2 May 2027 and lasts three days.", None),  # a day beside it
        ("We heard back three days later.", None),  # a later day, not a length
    ],
)
def test_a_length_stated_with_no_day_beside_it_is_what_a_start_counts(
    document: str, days_after: float | None
) -> None:
    assert stated.lasting(document) == days_after


@pytest.mark.parametrize(
    "document",
    [
        "The trip leaves on 4 April 2027. Visas take five days.",  # another thing's length
        "Shipped on 4 April 2027. Duration of the warranty: two weeks.",  # no label of its own
        # not the sentence just after the day's
        "The trip leaves on 4 April 2027. Parking is free. We return five days later.",
        "Trips leave on 4 April or 9 April 2027. We return five days later.",  # two days before it
    ],
)
def test_a_shift_in_another_sentence_counts_only_from_the_one_day_just_before(
    document: str,
) -> None:
    assert counted_days.durations(document) == ((), ())


@given(st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2090, 12, 31)), st.integers(2, 9))
def test_a_length_beside_a_written_end_ends_on_that_day(day: dt.date, length: int) -> None:
    written = f"{day.day} {calendar.month_name[day.month]} {day.year}"
    found = span(f"The {length}-day fair closes on {written}.")
    assert found == ((day - dt.timedelta(days=length - 1)).isoformat(), day.isoformat())


@given(
    st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2090, 12, 31)),
    st.integers(2, 9),
    st.sampled_from(["It", "Delivery", "The wait"]),
)
def test_a_length_in_the_next_sentence_is_its_subjects_only_when_it_refers_back(
    day: dt.date, length: int, subject: str
) -> None:
    written = f"{day.day} {calendar.month_name[day.month]} {day.year}"
    found = span(f"The market opens on {written}. {subject} lasts {length} days.")
    if subject == "It":
        assert found == (day.isoformat(), (day + dt.timedelta(days=length - 1)).isoformat())
    else:
        assert found is None


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("The meetup is on 19 March 2027 in Aarhus, from 9:00 to 17:00.", "2027-03-19"),
        ("Quiz night in the town hall on 2 April 2027.", "2027-04-02"),
        ("The talk is on 4 May 2027. It lasts two hours.", "2027-05-04"),  # within its day
        ("The congress starts on 9 November 2026.", None),  # a start: the end is open
        ("Registration closes on 30 September 2026.", None),  # an end: the start is open
        ("The fair is on 4 May 2027. It lasts three days.", None),  # a period of days
        ("Trip out on 4 May 2027 and back on 9 May.", None),  # two days
    ],
)
def test_one_day_is_the_one_day_written_with_nothing_saying_it_goes_on(
    document: str, expected: str | None
) -> None:
    day = stated.one_day(document)
    assert (None if day is None else dt.date.fromordinal(int(day)).isoformat()) == expected
