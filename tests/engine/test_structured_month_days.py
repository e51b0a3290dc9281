"""Days a document names within a month (engine/structured/month_days.py), issue 28: an
ordinal of "that month" or "the following month" is a day of the month told, before or after
the day told; an ordinal after a whole month told just before it is that month's, on the
weekday it names; "the 15th of each month" is a series', no one day."""

from __future__ import annotations

import datetime as dt

from engine.structured.told_days import told_days


def day(iso: str) -> float:
    return float(dt.date.fromisoformat(iso).toordinal())


def test_an_ordinal_of_that_month_is_a_day_of_the_month_told() -> None:
    """ "The 20th of that month" is in the month of the day told before it, even before that
    day; "of the following month" the month after; "of each month" is a series'."""
    text = "The lease ended on 12 January 2025; the deposit came back on the 28th of that month."
    assert [t.first for t in told_days(text)][1:] == [day("2025-01-28")]
    before = (
        "The lease ended on 12 January 2025, and notice was given on the 2nd of the same month."
    )
    assert [t.first for t in told_days(before)][1:] == [day("2025-01-02")]
    after = "The lease ended on 12 January 2025; the bond is due by the 3rd of the following month."
    assert [t.first for t in told_days(after)][1:] == [day("2025-02-03")]
    each = "The lease began on 12 January 2025; rent is paid on the 3rd of each month."
    assert [t.first for t in told_days(each)] == [day("2025-01-12")]


def test_an_ordinal_after_a_whole_month_is_that_months_day() -> None:
    text = "Rota for October 2027. Sam opens on Friday the 8th, 9am, and Jo a week later."
    assert [t.first for t in told_days(text) if t.how] == [day("2027-10-08"), day("2027-10-15")]
    wrong = "Rota for October 2027. Sam opens on Monday the 8th."  # the 8th is a Friday
    assert [t for t in told_days(wrong) if t.how] == []
    listed = "Rota for October 2027: the 8th, 15th and 22nd are Sam's."
    assert [t for t in told_days(listed) if t.how] == []


def test_a_weekend_of_a_month_is_its_saturday_and_sunday() -> None:
    text = "Notes of 4 March 2026: the plant sale is on the first weekend of May."
    assert [(t.first, t.last) for t in told_days(text)][1:] == [
        (day("2026-05-02"), day("2026-05-03"))
    ]
    last = "Notes of 4 March 2026: the plant sale is on the last weekend in October."
    assert [(t.first, t.last) for t in told_days(last)][1:] == [
        (day("2026-10-31"), day("2026-11-01"))
    ]  # its last Saturday, and the Sunday after it


def test_any_weekend_of_a_month_runs_from_its_first_saturday_to_its_last_sunday() -> None:
    """ "A weekend in May" is a span to pick in, not an error (it raised before)."""
    text = "Notes of 3 March 2027: we will visit on a weekend in May."
    assert [(t.first, t.last) for t in told_days(text)][1:] == [
        (day("2027-05-01"), day("2027-05-30"))
    ]


def test_the_nth_working_day_of_a_month_counts_monday_to_friday() -> None:
    found = told_days("Payslips for May 2027 go out on the 3rd working day of the next month.")
    assert [dt.date.fromordinal(int(t.first)) for t in found if t.how] == [dt.date(2027, 6, 3)]
    last = told_days("Timesheets close on the last business day of July 2027.")
    assert [dt.date.fromordinal(int(t.first)) for t in last] == [dt.date(2027, 7, 30)]
