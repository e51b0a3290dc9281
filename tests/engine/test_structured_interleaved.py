"""The rota in the weeks an every-other series skips (engine/structured/interleaved.py), issue
28: a member named in the clause that says "in between" takes the rota's meeting, a week after
the series' own; the series' members keep theirs, and nothing changes without such a clause."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured.event_days import event_days, lone_date_span

ROTA = (
    "From Monday 3 May 2027 the hall is cleaned by the scouts every other Monday, and the "
    "choir takes the Mondays in between."
)


def span(text: str, key: str, members: list[str]) -> tuple[str, str] | None:
    event = event_days(text)
    assert event is not None
    found = lone_date_span(event, key, 1, members)
    return None if found is None else tuple(dt.date.fromordinal(int(d)).isoformat() for d in found)


@pytest.mark.parametrize(
    ("key", "day"),
    [
        ("first_scouts_clean", "2027-05-03"),
        ("second_scouts_clean", "2027-05-17"),
        ("choir_first_clean", "2027-05-10"),
        ("choir_third_clean", "2027-06-07"),
    ],
)
def test_a_member_named_in_the_between_clause_takes_the_rotas_meeting(key: str, day: str) -> None:
    members = ["first_scouts_clean", "second_scouts_clean", "choir_first_clean"]
    assert span(ROTA, key, [*members, "choir_third_clean"]) == (day, day)


def test_without_a_between_clause_every_member_counts_the_series() -> None:
    text = "From Monday 3 May 2027 the scouts clean the hall every other Monday."
    assert span(text, "second_clean", ["first_clean", "second_clean"]) == ("2027-05-17",) * 2


@given(st.dates(dt.date(2025, 1, 1), dt.date(2029, 12, 31)), st.integers(1, 4))
@settings(max_examples=30, deadline=None)
def test_the_rota_meets_on_the_series_weekday_a_week_after_its_meeting(
    start: dt.date, nth: int
) -> None:
    weekday = start.strftime("%A")
    text = (
        f"Starting {weekday} {start.day} {start:%B %Y}, Ana waters the plot every other "
        f"{weekday}, and Ben covers the {weekday}s in between."
    )
    ordinal = ["first", "second", "third", "fourth"][nth - 1]
    found = span(text, f"ben_{ordinal}_turn", [f"ben_{ordinal}_turn"])
    assert found is not None
    day = dt.date.fromisoformat(found[0])
    assert day == start + dt.timedelta(days=14 * (nth - 1) + 7)
