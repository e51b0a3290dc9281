"""An event's cued start and end bound its span whatever other days a document writes
(engine/structured/cued_days.py), and a day that is the n-th of a counted event starts it
earlier (engine/structured/stated.py, ``first_of``)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.structured import cued_days, event_days
from tests.helpers.fills import ends_of as ends


def written(day: dt.date) -> str:
    return f"{day.day} {day:%B %Y}"


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        # another thing's day before the start, one after the end
        ("The crew builds the stage on 1 July 2027. The folk festival begins on 3 July 2027 "
         "and concludes on 5 July 2027. Photos go online on 20 July 2027.",
         ("2027-07-03", "2027-07-05")),
        # two start cues: the nearest start-then-end pair is the event's
        ("Ticket sales start on 2 March 2027. The choir week commences on 14 April 2027 and "
         "ends on 18 April 2027.", ("2027-04-14", "2027-04-18")),
        # a start told relative to the day written before it
        ("Judges travel on 8 May 2027, and the contest opens the following afternoon. It "
         "closes on 11 May 2027.", ("2027-05-09", "2027-05-11")),
        # a weekday between the cue and the day, and a particle after the verb
        ("The camp starts off on Tuesday 6 July 2027 and finishes on Friday 9 July 2027.",
         ("2027-07-06", "2027-07-09")),
        # an end told by a clause after another day
        ("The gallery opens on 2 June 2027. The stage comes down on 9 June 2027, two days "
         "after it closes.", ("2027-06-02", "2027-06-07")),
    ],
)  # fmt: skip
def test_a_cued_start_and_end_are_the_span(document: str, expected: tuple[str, str]) -> None:
    assert ends(document) == expected


@pytest.mark.parametrize(
    "document",
    [
        "The fair opens on 3 June 2027 and runs for four days.",  # no end cue
        "Doors open at ten on 5 May 2027 for the expo.",  # "open at ten": no cue right before
        "The fair ends on 3 June 2027 and opens again on 1 July 2027.",  # an end before a start
    ],
)
def test_no_cued_pair_reads_nothing(document: str) -> None:
    assert cued_days.cued_span(document) is None


def test_a_start_too_far_from_any_end_is_no_pair() -> None:
    document = "Sales start on 1 January 2027. The fair ends on 20 September 2027."
    assert cued_days.cued_span(document) is None


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("The quiz is on 11 August 2027, the second evening of the three-day camp.",
         ("2027-08-10", "2027-08-12")),
        ("The gala is held on 4 June 2027, the final night of the four-day film week.",
         ("2027-06-01", "2027-06-04")),
        ("On 9 August 2027, the first day of the two-day course, laptops are handed out.",
         ("2027-08-09", "2027-08-10")),
    ],
)  # fmt: skip
def test_the_nth_day_of_a_counted_event_starts_it_earlier(
    document: str, expected: tuple[str, str]
) -> None:
    assert ends(document) == expected


def test_a_relative_day_needs_a_day_before_it() -> None:
    assert cued_days.relative_days("The show opens the next evening.", []) == []


@given(
    start=st.dates(dt.date(2026, 1, 1), dt.date(2030, 12, 31)),
    length=st.integers(0, 20),
    before=st.integers(3, 60),
    after=st.integers(1, 60),
)
def test_other_days_around_a_cued_event_never_move_its_span(
    start: dt.date, length: int, before: int, after: int
) -> None:
    end = start + dt.timedelta(days=length)
    sales = start - dt.timedelta(days=before)
    photos = end + dt.timedelta(days=after)
    document = (
        f"Ticket sales start on {written(sales)}. The fair opens on {written(start)} and "
        f"closes on {written(end)}. Photos are shared on {written(photos)}."
    )
    assert ends(document) == (start.isoformat(), end.isoformat())


@given(
    st.lists(
        st.sampled_from(
            ["The fair", "opens on", "closes on", "ends on", "begins", "the next", "morning",
             "two days", "a week", "after", "before", "it closes", "later,", "on 3 May 2027",
             "12 June 2027", "Friday", "the 2nd evening of the", "999-day", "camp.", ";", "\n"]
        ),
        max_size=30,
    ).map(" ".join)
)  # fmt: skip
def test_any_run_of_date_words_reads_without_error_and_in_order(document: str) -> None:
    """Whatever a user's document strings together, its span is read or not, never an
    error, and never ends before it starts."""
    span = event_days.document_ends(document)
    assert span is None or span[0] <= span[1]
