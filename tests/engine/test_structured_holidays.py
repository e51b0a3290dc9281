"""Days a document writes by a holiday's name (engine/structured/holiday_days.py), issue 28:
the names and days come from python-holidays, a name's year from the days written around it,
and a name written short dates a day only where it cannot be something else."""

from __future__ import annotations

import datetime as dt
import itertools

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured.holiday_days import holiday_days
from engine.structured.told_days import digits, told_days
from engine.structured.written_days import written_phrases


def written(text: str) -> list[tuple[str, str]]:
    """Each single day ``text`` writes: its phrase and the day."""
    return [
        (text[s:e], dt.date.fromordinal(int(what)).isoformat())
        for s, e, what in written_phrases(text)
        if isinstance(what, float)
    ]


def test_a_holiday_takes_the_year_written_after_it_or_that_of_the_day_before() -> None:
    assert written("Closed on Boxing Day 2026.") == [("Boxing Day 2026", "2026-12-26")]
    text = "Rota for December 2026: Ann works Christmas Eve, Raj covers Boxing Day."
    assert written(text) == [("Christmas Eve", "2026-12-24"), ("Boxing Day", "2026-12-26")]


def test_a_holiday_half_a_year_before_the_day_written_before_it_is_the_next_years() -> None:
    text = "Rota for 2026: Sam works New Year's Eve and the shop reopens after New Year's Day."
    assert written(text)[-2:] == [
        ("New Year's Eve", "2026-12-31"),
        ("New Year's Day", "2027-01-01"),
    ]


def test_a_moving_holiday_is_on_its_own_day_each_year() -> None:
    assert written("Spring term 2027 ends on Good Friday.") == [("Good Friday", "2027-03-26")]
    monday = "Bins go out every other Monday from 4 January 2027, and on Easter Monday too."
    found = [t for t in told_days(monday) if t.first == dt.date(2027, 3, 29).toordinal()]
    assert [digits(monday)[t.start : t.end] for t in found] == ["Easter Monday"]


def test_a_short_name_dates_a_day_only_where_it_can_be_nothing_else() -> None:
    assert written("Carols at Christmas 2027 in the square.") == [("Christmas 2027", "2027-12-25")]
    assert written("The Christmas party is on 18 December 2027.") == [
        ("18 December 2027", "2027-12-18")
    ]
    assert all(day != "2027-05-01" or phrase != "May" for phrase, day in written("Due May 2027."))
    assert written("We fly to Australia in 2027.") == []


def test_a_document_that_writes_no_year_dates_no_holiday() -> None:
    assert written("The library is closed on Christmas Eve.") == []


def test_the_first_weekday_after_a_holiday_counts_from_the_holiday() -> None:
    text = "Rota for 2025: the shop opens again on the second weekday after Boxing Day."
    shifted = [t for t in told_days(text) if t.how]
    assert [dt.date.fromordinal(int(t.first)).isoformat() for t in shifted] == ["2025-12-30"]


def test_the_days_are_python_holidays_and_most_calendars_agree_on_christmas_eve() -> None:
    days = holiday_days(2030)
    assert dt.date.fromordinal(int(days["christmas eve"])) == dt.date(2030, 12, 24)
    assert dt.date.fromordinal(int(days["good friday"])) == dt.date(2030, 4, 19)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.sampled_from(["Boxing", "Day", "New", "Year's", "Eve", "Christmas", "May",
                                 "2027", "on", "the", "party", "Easter", "Monday", "."]),
                max_size=14))  # fmt: skip
def test_any_words_read_as_days_in_order_that_never_overlap(words: list[str]) -> None:
    phrases = written_phrases(" ".join(words))
    assert all(a[1] <= b[0] for a, b in itertools.pairwise(phrases))
