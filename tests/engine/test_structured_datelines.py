"""A document's dateline is when it was written, not a day of what it is about
(engine/structured/datelines.py), and a day named only by ordinal or weekday in a sentence
without a day counts from it."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.structured import datelines, stated
from tests.helpers.fills import iso_span, json_fill

DATE = {"type": "string", "format": "date"}


def period(document: str) -> tuple[str, str] | None:
    return iso_span(stated.read(document).period())


def days(document: str) -> list[str]:
    return sorted({dt.date.fromordinal(int(d)).isoformat() for d in stated.read(document).points})


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("Minutes recorded 2 March 2027. The fun run is on 14 March 2027.", ["2027-03-14"]),
        ("Dated 1 July 2027. Our picnic is on 10 July 2027.", ["2027-07-10"]),
        ("Message sent on 5 May 2027, 09:30. Pickup is on 8 May 2027.", ["2027-05-08"]),
        ("This page was last updated 3 January 2027. Rehearsal: 20 January 2027.",
         ["2027-01-20"]),
        ("Posted 2 April 2027: the bake sale opens on 11 April 2027.", ["2027-04-11"]),
    ],
)  # fmt: skip
def test_a_dateline_is_not_a_day_of_what_the_document_is_about(
    document: str, expected: list[str]
) -> None:
    assert days(document) == expected


@pytest.mark.parametrize(
    "document",
    [
        "Parcel sent on 3 June 2027 and opened on 5 June 2027.",  # a parcel's own day
        "Sent 3 June 2027. Opened 5 June 2027.",  # "sent" alone may be a parcel's too
        "As of 1 June 2027 the library opens on 4 June 2027.",  # "as of" starts something
        "Written by Ana on 3 June 2027, our fair opens 5 June 2027.",  # not only calendar words
    ],
)
def test_what_is_not_a_dateline_is_read_as_before(document: str) -> None:
    assert datelines.about(document) == document
    assert len(days(document)) == 2  # both days stay the object's


def test_a_dateline_that_is_the_only_day_stays_the_era() -> None:
    document = "Notes written 12 May 2027. The choir needs new folders."
    assert datelines.about(document) == document
    assert days(document) == ["2027-05-12"]


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("Memo dated 10 March 2027. The audit runs for three days from the 22nd.",
         ("2027-03-22", "2027-03-24")),
        ("Memo dated 28 March 2027. The audit starts on the 5th, for two days.",
         ("2027-04-05", "2027-04-06")),  # the 5th after 28 March is in April
        ("Email written Monday 1 March 2027. The stall is open on Friday for a whole day.",
         ("2027-03-05", "2027-03-05")),
    ],
)  # fmt: skip
def test_a_named_day_in_a_dayless_sentence_counts_from_the_dateline(
    document: str, expected: tuple[str, str]
) -> None:
    assert period(document) == expected


def test_a_sentence_with_its_own_day_counts_its_named_days_from_it() -> None:
    document = "Notes written 1 May 2027. The fair opens on 20 May 2027 and closes on the 23rd."
    assert period(document) == ("2027-05-20", "2027-05-23")


def test_a_weekday_range_after_a_dateline_is_a_habit() -> None:
    document = "Posted on 3 May 2027: the shop is open Monday to Friday."
    assert datelines.about(document) == document  # no day of its own: the dateline stays


@given(
    st.dates(dt.date(2000, 1, 1), dt.date(2090, 12, 31)),
    st.integers(min_value=1, max_value=28),
)
def test_an_ordinal_is_the_first_such_day_after_the_dateline(written: dt.date, day: int) -> None:
    suffix = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd"}.get(day, "th")
    document = f"Notes written {written:%d %B %Y}. The drive is on the {day}{suffix}."
    (found,) = days(document)
    when = dt.date.fromisoformat(found)
    assert when.day == day and written < when <= written + dt.timedelta(days=31)


def dated_object(name: str, start: str, end: str) -> dict[str, object]:
    properties = {name: {"type": "string"}, start: DATE, end: DATE}
    return {"type": "object", "required": list(properties), "properties": properties}


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize(
    ("keys", "document", "expected"),
    [
        (("carrier", "shipped_date", "delivered_date"),
         "The crate was shipped on 8 September 2027 and delivered on 13 September 2027.",
         ("2027-09-08", "2027-09-13")),  # "shipped" names a later date of an order too
        (("name", "start_date", "end_date"),
         "Notes written 4 October 2027. The summit is held over two days from the 18th.",
         ("2027-10-18", "2027-10-19")),  # a conference planned in dated notes
    ],
)  # fmt: skip
def test_an_objects_start_and_end_take_the_days_the_document_writes(
    keys: tuple[str, str, str], document: str, expected: tuple[str, str], seed: int
) -> None:
    value = json_fill(dated_object(*keys), document + "\n\n", seed).value
    assert (value[keys[1]], value[keys[2]]) == expected
