"""Origins a schema names (engine/structured/member_origins.py), issue 28: a counted day whose
thing the text never dates counts from the day of the member named for that thing; a member
whose name the text writes only as such a thing gives up a day another member's own word
dates; a thing the text dates itself keeps its day."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured.event_days import event_days, lone_date_span


def day(text: str, key: str, members: list[str]) -> str | None:
    event = event_days(text)
    assert event is not None
    found = lone_date_span(event, key, 1, members)
    return None if found is None else dt.date.fromordinal(int(found[0])).isoformat()


def written(when: dt.date) -> str:
    return f"{when:%A} {when.day} {when:%B %Y}"


@pytest.mark.parametrize(
    ("text", "members", "days"),
    [
        (  # the show's day is the one day no other member's word dates
            "Matinee of The Tempest: Saturday 14 March 2026, 2.30pm. Paid in full on 2 January "
            "2026. Seats may be swapped until three days before the performance.",
            ["payment_date", "performance_date", "swap_deadline"],
            ["2026-01-02", "2026-03-14", "2026-03-11"],
        ),
        (  # "before the race": counted from the race's day, not from the entries' opening
            "The Larkfield fun run starts at 10am on Sunday 10 May 2026; entry fees were paid "
            "on 1 February 2026. Bibs are posted no later than five working days before the race.",
            ["entry_fee_paid", "race_day", "bibs_posted_by"],
            ["2026-02-01", "2026-05-10", "2026-05-04"],
        ),
        (  # "within five working days of the new visit date": the moved day, not the first
            "Because of flooding, the Year 6 aquarium visit planned for Friday 12 June 2026 has "
            "been pushed back by exactly one week. If your child can no longer go, tell us and "
            "the £15 will be refunded within five working days of the new visit date.",
            ["original_visit_date", "new_visit_date", "refund_by"],
            ["2026-06-12", "2026-06-19", "2026-06-26"],
        ),
        (  # "within 21 days of the draw": the draw's day, told after the sale's
            "Tickets go on sale on Monday 4 May 2026. The prize draw will be held in the big "
            "marquee at the fete itself, on the last Saturday of that month. Prizes not claimed "
            "within 21 days of the draw go to the hospice shop.",
            ["sales_open", "draw_date", "claim_deadline"],
            ["2026-05-04", "2026-05-30", "2026-06-20"],
        ),
        (  # the second "after the recital" counts from no day the first only guessed
            "Grade 5 piano retake: Sat 12 June 2027, 10:00, Studio 2. Entries close 14 May 2027. "
            "Practice log due 5 days before the recital. Certificates posted 3 weeks after the "
            "recital.",
            ["certificates_posted", "log_due", "entries_close", "retake_recital"],
            ["2027-07-03", "2027-06-07", "2027-05-14", "2027-06-12"],
        ),
    ],
)
def test_a_counted_day_counts_from_the_member_its_thing_names(
    text: str, members: list[str], days: list[str]
) -> None:
    assert [day(text, key, members) for key in members] == days


@pytest.mark.parametrize(
    ("text", "members", "days"),
    [
        (
            "Your bike was reported stolen to the police on Monday 2 March 2026. We wait 21 days "
            "from the police report for it to turn up, and if it has not, we pay out on that day.",
            ["theft_reported", "payout_date"],
            ["2026-03-02", "2026-03-23"],
        ),
        (
            "Minutes of the allotment committee, 4 May 2026. The summer show is on 25 July 2026; "
            "entries must be in a week before the show, and prizes are handed out a fortnight "
            "after the show.",
            ["meeting_date", "show_date", "entry_deadline", "prize_day"],
            ["2026-05-04", "2026-07-25", "2026-07-18", "2026-08-08"],
        ),
    ],
)
def test_a_word_naming_a_shifts_thing_finds_the_day_counted_from_it_last(
    text: str, members: list[str], days: list[str]
) -> None:
    assert [day(text, key, members) for key in members] == days


def test_a_thing_the_text_dates_keeps_its_own_day() -> None:
    text = (
        "Tickets for the Riverside Festival go on sale on 2 March 2026 and can be resold until "
        "14 days before the gates open on Friday 3 July 2026."
    )
    members = ["sale_start", "gates_open"]
    assert [day(text, key, members) for key in members] == ["2026-03-02", "2026-07-03"]


@given(
    st.dates(dt.date(2025, 1, 1), dt.date(2029, 12, 31)),
    st.integers(15, 200),
    st.integers(1, 10),
)
@settings(max_examples=40, deadline=None)
def test_a_member_named_only_as_the_thing_takes_the_day_left(
    show: dt.date, paid_before: int, notice: int
) -> None:
    paid = show - dt.timedelta(days=paid_before)
    text = (
        f"Order 2291: two seats, {written(show)}, 7.30pm. Paid by card on {paid.day} "
        f"{paid:%B %Y}. Seats may be exchanged up to {notice} days before the concert."
    )
    members = ["paid_on", "concert_date", "exchange_by"]
    last = show - dt.timedelta(days=notice)
    wanted = [paid.isoformat(), show.isoformat(), last.isoformat()]
    assert [day(text, key, members) for key in members] == wanted
