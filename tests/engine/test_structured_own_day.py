"""Tests for the document's own day (:func:`engine.structured.day_readers.own_day`): the day
it writes right after naming itself or "today", wherever it writes it, is the day a shift or a
limit from "today" or "the date of this letter" counts from."""

from __future__ import annotations

import datetime as dt

from engine.structured.told_days import told_days


def counted(text: str) -> list[str]:
    """The days the text counts, in order."""
    return [dt.date.fromordinal(int(t.first)).isoformat() for t in told_days(text) if t.how]


def test_a_day_set_off_after_the_date_of_this_letter_is_the_letters_own() -> None:
    text = (
        "Your bike went in for repair on 4 May 2027. Please settle the bill within ten days "
        "of the date of this letter, 12 May 2027, or call us."
    )
    assert counted(text) == ["2027-05-22"]
    later = (
        "The lease began on 1 March 2027. "
        "Answer within 3 weeks of the date of this notice, 9 April 2027."
    )
    assert counted(later) == ["2027-04-30"]


def test_a_day_in_brackets_after_today_is_the_documents_own() -> None:
    text = (
        "The cabin is yours from 2 August 2027. "
        "We need a deposit within five days of today (11 June 2027)."
    )
    assert counted(text) == ["2027-06-16"]
    comma = (
        "Lessons start on 6 September 2027; "
        "the first bill falls due ten days from today, 1 July 2027."
    )
    assert counted(comma) == ["2027-07-11"]


def test_without_a_day_named_so_the_first_written_day_stays_the_own_day() -> None:
    text = "Minutes of 3 May 2027. We meet again fourteen days from today."
    assert counted(text) == ["2027-05-17"]


def test_an_ordinal_of_next_month_before_the_documents_named_day_counts_from_it() -> None:
    text = (
        "Your boiler check is booked for the 9th of next month. "
        "This notice is dated 20 August 2027; call us if that day is no good."
    )
    found = [t for t in told_days(text) if t.how]
    assert dt.date.fromordinal(int(found[0].first)).isoformat() == "2027-09-09"
