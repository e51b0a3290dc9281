"""Tests for :mod:`engine.structured.day_order`: a member whose name finds another member's day,
or none, takes the day told where it stands in the schema's order."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured.day_order import settled
from engine.structured.day_readers import Told
from tests.helpers.fills import dates_schema, json_fill

# A document of one sentence per day, each told ten characters after the one before.
STEP = 10


def told(*days: int) -> list[Told]:
    """Single days told in this order, at ten characters each."""
    return [Told(i * STEP, i * STEP + 5, float(d), float(d)) for i, d in enumerate(days)]


def test_the_later_of_two_members_on_one_day_takes_the_day_left_after_it() -> None:
    days = told(100, 160)
    assert settled([days[0], days[0]], [False, False], days, set()) == [days[0], days[1]]


def test_the_earlier_takes_the_day_left_before_it_when_the_next_member_has_none() -> None:
    # "notice_given_on" and "last_working_day" both beside the last day; a holiday member
    # after them with no day may be the one the day after is told for
    days = told(100, 128, 132)
    claims = [days[1], days[1], None]
    assert settled(claims, [False, False, False], days, set())[:2] == [days[0], days[1]]


def test_no_member_moves_when_two_days_are_left_where_it_would_go() -> None:
    days = told(100, 160, 170)
    assert settled([days[0], days[0]], [False, False], days, set()) == [days[0], days[0]]


def test_a_day_a_series_meeting_takes_is_no_day_left() -> None:
    days = told(100, 114, 128)
    claims = [days[0], None, days[2]]
    meeting = {(114.0, 114.0)}  # the day a "third_session" takes by the series
    assert settled(claims, [False, True, False], days, meeting) == claims
    assert settled(claims, [False, True, False], days, set())[1] == days[1]


def test_a_free_member_with_no_day_takes_the_one_told_between_its_neighbours() -> None:
    days = told(50, 100, 104, 300)  # a letter's own date first, then three days
    claims = [days[1], None, days[3]]
    assert settled(claims, [False, True, False], days, set()) == [days[1], days[2], days[3]]
    # not a member its name keeps from it (a later thing, a pair's end)
    assert settled(claims, [False, False, False], days, set()) == claims


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 9), min_size=1, max_size=6),
    st.lists(st.one_of(st.none(), st.integers(0, 5)), min_size=1, max_size=5),
    st.lists(st.booleans(), min_size=5, max_size=5),
)
def test_each_day_settled_is_a_claim_or_a_told_day_no_other_member_takes(
    told_at: list[int], claimed: list[int | None], free: list[bool]
) -> None:
    days = told(*[700_000 + d for d in told_at])
    claims = [days[c] if c is not None and c < len(days) else None for c in claimed]
    result = settled(claims, free[: len(claims)], days, set())
    claimed_days = {(t.first, t.last) for t in claims if t is not None}
    new = [t for t, c in zip(result, claims, strict=True) if t is not None and t is not c]
    assert all(t in days and (t.first, t.last) not in claimed_days for t in new)
    assert len({(t.first, t.last) for t in new}) == len(new)  # a day left goes to one member


@pytest.mark.parametrize("seed", range(2))
def test_a_second_thing_named_like_the_first_takes_the_day_counted_after_it(seed: int) -> None:
    text = (
        "The first deposit for the hall was paid on 3 June 2027. The second deposit, of the "
        "same sum, is payable 30 days after that.\n\n"
    )
    filled = json_fill(dates_schema("deposit_paid_on", "next_deposit_due"), text, seed)
    assert filled.value == {"deposit_paid_on": "2027-06-03", "next_deposit_due": "2027-07-03"}
    assert "/next_deposit_due = 2027-07-03 (30 days after 2027-06-03)" in filled.proposal.notes


@pytest.mark.parametrize("seed", range(2))
def test_a_member_no_word_names_takes_the_day_told_between_its_neighbours(seed: int) -> None:
    # the note's own date is a day no member takes too, so counting days left is not enough
    text = (
        "Note written 20 September 2027. Our tortoise was weighed on 14 March 2027, the vet "
        "saw him the Thursday after, and he goes back in his box on 1 November 2027.\n\n"
    )
    keys = ("weighed_on", "health_check", "hibernation_starts")
    filled = json_fill(dates_schema(*keys), text, seed)
    assert filled.value["health_check"] == "2027-03-18"
    assert "/health_check = 2027-03-18 (the Thursday after 2027-03-14)" in filled.proposal.notes


# Documents and the day each date member takes, in the schema's order (the expected keys').
TOLD_IN_ORDER = [
    pytest.param(
        "The tenant moves in on Monday 6 September 2027 and has to be gone by the same "
        "weekday eight weeks later.\n\n",
        {"move_in": "2027-09-06", "move_out": "2027-11-01"},
        id="a leaving day named beside the arrival is the one counted after it",
    ),
    pytest.param(  # the document writes no span of its own for the pair's rule to take
        "Plasterer booked: his crew arrives on Thu 9/8/29 and should be out of the house "
        "the Tuesday after. Cover the piano.\n\n",
        {"start_date": "2029-08-09", "end_date": "2029-08-14"},
        id="a start and end no word names take the two days told in order",
    ),
    pytest.param(
        "Interviews are held on 9 March 2029 and the successful candidate starts on Monday"
        " 2 April 2029, with a review after twelve weeks.\n\n",
        {"interview_date": "2029-03-09", "start_date": "2029-04-02"},
        id="a lone start takes the day told after its verb",
    ),
    pytest.param(  # "gala" stands right before the entries' day: no start or end of the gala
        "Autumn 2028 swimming gala: entries close on 9 September 2028. Heats are held on"
        " weekdays from 2 October to 13 October 2028, and results are posted a week after the"
        " gala ends.\n\n",
        {"entries_close": "2028-09-09", "gala_start": "2028-10-02", "gala_end": "2028-10-13"},
        id="a start and end that find one single day take the written ends",
    ),
]


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize(("text", "expected"), TOLD_IN_ORDER)
def test_each_member_takes_the_day_told_for_it(
    text: str, expected: dict[str, str], seed: int
) -> None:
    filled = json_fill(dates_schema(*expected), text, seed)
    assert filled.value == expected
