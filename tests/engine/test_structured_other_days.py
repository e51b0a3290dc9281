"""A deadline or a moved thing's old day is no day of the span of what a document is about
(engine/structured/other_days.py); other readers still read the document as written."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.structured import json_values, other_days, stated
from tests.helpers.fills import ends_of as ends
from tests.helpers.fills import json_fill

DATE = {"type": "string", "format": "date"}


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("The fair opens on 5 June 2027 and closes on 7 June 2027. Pay by 1 June 2027.",
         ("2027-06-05", "2027-06-07")),
        ("Book tables no later than 2 May 2027. The gala opens on 12 May 2027 and ends on "
         "13 May 2027.", ("2027-05-12", "2027-05-13")),
        ("Send abstracts before Friday 3 September 2027. The forum opens on 20 September 2027 "
         "and closes on 22 September 2027.", ("2027-09-20", "2027-09-22")),
        ("The match was postponed from 4 April 2027 to 11 April 2027.",
         ("2027-04-11", "2027-04-11")),
        ("The launch has been moved from 1 March 2027 to 8 March 2027, in the main hall.",
         ("2027-03-08", "2027-03-08")),
        ("Last year the show ran from 3 to 5 May 2026. This year it runs from 2 to 4 May 2027.",
         ("2027-05-02", "2027-05-04")),  # an earlier edition, told in the past
        ("The 2026 race was held on 3 and 4 June 2026; the 2027 race will be on 9 and 10 June "
         "2027.", ("2027-06-09", "2027-06-10")),
    ],
)  # fmt: skip
def test_a_deadline_or_an_old_day_is_no_end_of_the_span(
    document: str, expected: tuple[str, str]
) -> None:
    assert ends(document) == expected


@pytest.mark.parametrize(
    "document",
    [
        "The course runs from 3 May 2027 to 7 May 2027.",  # a range, no verb of moving
        "Delays are likely from 3 May 2027 to 7 May 2027.",  # "delays": a noun, not a move
        "Registration is open until 9 November 2026.",  # no deadline word
        "The picnic is on 9 July 2027 and the clean-up on 10 July 2027.",
        # told in the past, but only weeks before: what was done ahead of it, kept
        "Tickets went on sale on 1 March 2027. The concert is on 20 March 2027.",
        # all told in the past: a report on the thing itself
        "The fair opened on 3 May 2026. It closed on 5 May 2026.",
    ],
)
def test_days_of_the_thing_itself_are_kept(document: str) -> None:
    assert other_days.event_text(document) == document


def test_a_document_whose_only_day_is_a_deadline_keeps_it() -> None:
    document = "Please reply by 12 October 2027."
    assert other_days.event_text(document) == document


def test_other_readers_still_read_the_deadline() -> None:
    document = "The fair opens on 5 June 2027 and closes on 7 June 2027. Pay by 1 June 2027."
    assert dt.date(2027, 6, 1).toordinal() in stated.read(document).points


@given(st.dates(dt.date(2000, 1, 1), dt.date(2090, 12, 1)), st.integers(1, 30))
def test_a_blanked_text_keeps_every_position(day: dt.date, ahead: int) -> None:
    later = day + dt.timedelta(days=ahead)
    document = f"The expo opens on {later:%d %B %Y}. Register before {day:%d %B %Y}."
    text = other_days.event_text(document)
    assert len(text) == len(document)
    assert json_values.written_days(document) == (later.toordinal(),)


@pytest.mark.parametrize("seed", range(2))
def test_an_events_start_is_not_its_booking_deadline(seed: int) -> None:
    properties = {"name": {"type": "string"}, "start_date": DATE, "end_date": DATE}
    schema = {"title": "Conference", "type": "object", "required": list(properties),
              "properties": properties}  # fmt: skip
    document = (
        "The surgery conference starts on 20 May 2027. Rooms must be booked before 2 May 2027."
    )
    value = json_fill(schema, document + "\n\n", seed).value
    assert value["start_date"] == "2027-05-20" and value["end_date"] >= value["start_date"]
