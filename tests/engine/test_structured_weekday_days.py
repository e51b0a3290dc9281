"""A day named only by its weekday (engine/structured/weekday_days.py), issue 28: it is the
first such weekday on or after the day told before it, a range of two weekdays their days, and
after "last" the one before; a weekday that recurs, that counts a week, or that heads a
written day is no such day."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured.event_days import event_days, lone_date_span
from engine.structured.series_counts import WEEKDAYS
from engine.structured.told_days import told_days


def counted(document: str) -> list[tuple[str, str]]:
    """The first and last day of each counted (not written) day the document tells."""
    return [(iso(t.first), iso(t.last)) for t in told_days(document) if t.how]


def iso(day: float) -> str:
    return dt.date.fromordinal(int(day)).isoformat()


def test_a_lone_weekday_is_the_first_on_or_after_the_day_told_before_it() -> None:
    text = "The kayaks arrive on Thursday 8 April 2027 and we paddle them out Saturday morning."
    assert counted(text) == [("2027-04-10", "2027-04-10")]
    same = "Wednesday 7 April 2027: the glazier says he will fit the pane on Wednesday afternoon."
    assert counted(same) == [("2027-04-07", "2027-04-07")]


def test_a_lone_weekday_after_a_period_under_a_week_that_holds_it_is_its_own() -> None:
    text = "The congress runs 4-6 May 2027 in Leeds; the dinner is on Wednesday."
    assert counted(text) == [("2027-05-05", "2027-05-05")]
    outside = "The congress runs 4-6 May 2027 in Leeds; the tour is on Friday."
    assert counted(outside) == [("2027-05-07", "2027-05-07")]


def test_two_weekdays_joined_are_a_range_and_last_counts_back() -> None:
    text = "Note of 2 July 2027 (a Friday): the roofers can come Tuesday to Thursday."
    assert counted(text) == [("2027-07-06", "2027-07-08")]
    back = "On 9 July 2027 the boiler failed; it had been serviced last Monday."
    assert counted(back) == [("2027-07-05", "2027-07-05")]


def test_no_lone_weekday_in_a_written_day_a_series_or_a_numbered_week() -> None:
    assert counted("The fete is on Saturday 14 August 2027 at noon.") == []
    assert counted("From 5 January 2027 we meet every Tuesday; bring boots on Tuesday.") == []
    nought = "The course starts on Monday 4 January 2027; the exam is the Friday of week 0."
    assert counted(nought) == []
    assert counted("The cafe opens on Sunday.") == []  # no day told before it


@settings(max_examples=50, deadline=None)
@given(
    start=st.dates(dt.date(2000, 1, 1), dt.date(2090, 12, 31)),
    weekday=st.sampled_from(WEEKDAYS),
)
def test_any_lone_weekday_falls_within_the_week_from_the_day_before_it(
    start: dt.date, weekday: str
) -> None:
    text = f"The crates left the depot on {start.day} {start:%B %Y} and reach us {weekday.title()}."
    found = counted(text)
    assert len(found) == 1
    day = dt.date.fromisoformat(found[0][0])
    assert 0 <= (day - start).days < 7 and day.strftime("%A").lower() == weekday


def test_next_weekday_after_a_day_of_that_weekday_is_a_week_on() -> None:
    text = "Friday 9 July 2027: the piano tuner comes next Friday."
    assert counted(text) == [("2027-07-16", "2027-07-16")]


def test_weekdays_before_a_day_their_sentence_writes_are_of_that_day() -> None:
    text = "Sign-up closes on 2 May 2027. The course runs Monday to Thursday, from 7 June."
    assert counted(text) == []
    alone = "Sign-up closes on 2 May 2027. The course runs Monday to Thursday."
    assert counted(alone) == [("2027-05-03", "2027-05-06")]


def test_a_weekday_of_that_week_is_of_the_week_holding_the_day_told() -> None:
    """ "Tuesday that week" may come before the day told (weeks start on Monday); "the
    following week" is the week after; "every week" is a series, no one day."""
    text = "The kiln is fired on Friday 14 May 2027; glaze the pots by Wednesday that week."
    assert counted(text) == [("2027-05-12", "2027-05-12")]
    later = "The kiln is fired on Friday 14 May 2027, and cooled Monday of the following week."
    assert counted(later) == [("2027-05-17", "2027-05-17")]
    every = "The kiln is fired on Friday 14 May 2027 and swept on Tuesday every week."
    assert counted(every) == []


@given(st.dates(dt.date(2025, 1, 1), dt.date(2028, 12, 31)), st.sampled_from(WEEKDAYS))
@settings(max_examples=40, deadline=None)
def test_a_weekday_of_the_same_week_falls_between_its_monday_and_sunday(
    day: dt.date, name: str
) -> None:
    written = f"{day:%A} {day.day} {day:%B %Y}"
    text = f"The van comes on {written}; we pack on {name.title()} of the same week."
    found = [t.first for t in told_days(text) if t.how]
    monday = day - dt.timedelta(days=day.weekday())
    assert found == [float((monday + dt.timedelta(days=WEEKDAYS.index(name))).toordinal())]


def test_a_weekday_of_this_week_is_of_the_documents_own_week() -> None:
    text = (
        "Notes, Tuesday 2 March 2027. The audit is on the last Friday of this month; Ravi sends"
        " the files by Thursday of this week."
    )
    found = [t for t in told_days(text) if "this week" in t.how]
    assert [dt.date.fromordinal(int(t.first)) for t in found] == [dt.date(2027, 3, 4)]


def test_the_same_day_is_the_one_day_told_before_it() -> None:
    text = "The boiler was serviced on Tuesday 9 March 2027 and the flue was swept the same day."
    assert counted(text) == [("2027-03-09", "2027-03-09")]
    very = "Keys are handed over on 2 June 2027; that very date the meter is read."
    assert counted(very) == [("2027-06-02", "2027-06-02")]


def test_the_same_day_as_another_thing_or_of_the_month_is_no_repeat() -> None:
    named = "Rent starts on 1 May 2027 and the deposit is due the same day as the first payment."
    assert counted(named) == []
    monthly = "The plan began on 5 April 2027; it is billed on the same day of every month."
    assert counted(monthly) == []
    period = "The hall is ours from 3 to 5 June 2027, and the caterers come the same day."
    assert counted(period) == []  # which of the three days is not said


def test_a_member_named_beside_the_same_day_takes_the_day_before_it() -> None:
    text = (
        "Receipt dated 24/05/2027: two new batteries were fitted the same day, with payment "
        "owed 14 days after the receipt date. A free health check is offered up to three "
        "months after fitting.\n\n"
    )
    members = ["payment_due", "fitting_date", "health_check_until"]
    event = event_days(text)
    assert event is not None
    found = [lone_date_span(event, key, 1, members) for key in members]
    assert [None if f is None else (iso(f[0]), iso(f[1])) for f in found] == [
        ("2027-06-07", "2027-06-07"),
        ("2027-05-24", "2027-05-24"),
        ("2027-08-24", "2027-08-24"),
    ]
