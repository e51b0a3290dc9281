"""New dates inside their span (issue 28): the period a document states bounds every generated
date of a template (pairs, arrays of objects, dates by pattern), the age it gives bounds a birth
date, and a bare year property takes the period's years; an end generated before its start
swaps with it, so both stay inside."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured import ages, periods
from engine.structured.compiler import compile_json
from engine.structured.json_values import document_era
from engine.structured.tree import Fixed, Value
from tests.helpers.fills import json_fill

DATE = {"type": "string", "format": "date"}
ISO_PATTERN = {"type": "string", "pattern": "^[0-9]{4}-[0-9]{2}-[0-9]{2}$"}
# How a document states a period, and the first and last day each one covers.
STATED = [
    ("Rota for 7-20 December 2026.", "2026-12-07", "2026-12-20"),
    ("Invoices issued in October 2026.", "2026-10-01", "2026-10-31"),
    ("Festival programme, summer 2026.", "2026-06-01", "2026-08-31"),
    ("Sprint plan for Q1 2027.", "2027-01-01", "2027-03-31"),
    ("Spring term 2027 runs from 11 January to 26 March.", "2027-01-11", "2027-03-26"),
    ("Signed in early June 2026.", "2026-06-01", "2026-06-10"),
    ("The workshop runs 28-30 November 2026.", "2026-11-28", "2026-11-30"),
    ("Accounts for 2025.", "2025-01-01", "2025-12-31"),
]


def obj(properties: dict[str, object]) -> dict[str, object]:
    return {"type": "object", "required": list(properties), "properties": properties}


def dated(value: object) -> list[str]:
    """Every ISO date string in an instance."""
    if isinstance(value, dict):
        return [d for v in value.values() for d in dated(v)]
    if isinstance(value, list):
        return [d for v in value for d in dated(v)]
    return [value] if isinstance(value, str) and periods.iso_day(value) is not None else []


def test_ages_are_read_before_or_after_the_number() -> None:
    assert ages.ages("Amira, aged 9, and a 34-year-old; he is 40 years old.") == (9, 34, 40)
    assert ages.ages("The 2026 team played 12 games.") == ()
    assert ages.ages("Item aged 999 days.") == ()  # no one's age


def test_a_birth_span_near_the_calendars_start_is_no_error() -> None:
    low, high = ages.birth_span(ages.OLDEST, float(dt.date(40, 3, 1).toordinal()))
    assert low <= high


def test_a_birth_span_runs_from_the_day_after_to_the_birthday() -> None:
    on = float(dt.date(2026, 9, 1).toordinal())
    low, high = (dt.date.fromordinal(int(d)).isoformat() for d in ages.birth_span(9, on))
    assert (low, high) == ("2016-09-02", "2017-09-01")


SPAN_SCHEMA = obj({"start_date": DATE, "end_date": DATE, "issued": ISO_PATTERN,
                   "items": {"type": "array", "minItems": 3, "maxItems": 3,
                             "items": obj({"set_on": DATE, "due": DATE})}})  # fmt: skip


@given(st.sampled_from(STATED), st.integers(0, 7))
@settings(max_examples=24, deadline=None)
def test_every_new_date_falls_in_the_stated_period(stated: tuple[str, str, str], seed: int) -> None:
    document, first, last = stated
    value = json_fill(SPAN_SCHEMA, document + "\n\n", seed).value
    found = dated(value)
    assert len(found) == 9  # every date field, the pattern's one included
    assert all(first <= d <= last for d in found), (document, found)
    assert value["start_date"] <= value["end_date"]
    assert all(item["set_on"] <= item["due"] for item in value["items"])


@given(st.integers(1, 90), st.dates(dt.date(2000, 1, 1), dt.date(2030, 12, 31)), st.integers(0, 3))
@settings(max_examples=20, deadline=None)
def test_a_birth_date_fits_the_age_the_document_gives(age: int, on: dt.date, seed: int) -> None:
    document = f"Entry form for Sam, aged {age}, filled in on {on.isoformat()}.\n\n"
    value = json_fill(obj({"name": {"type": "string"}, "date_of_birth": DATE}), document, seed)
    low, high = (dt.date.fromordinal(int(d)) for d in ages.birth_span(age, on.toordinal()))
    assert low <= dt.date.fromisoformat(value.value["date_of_birth"]) <= high


YEARS = obj({"year": {"type": "integer"}, "year_founded": {"type": "integer"},
             "books": {"type": "array", "minItems": 2, "maxItems": 2,
                       "items": obj({"year_read": {"type": "integer"}})}})  # fmt: skip


@pytest.mark.parametrize("seed", range(3))
def test_a_year_property_takes_the_periods_years(seed: int) -> None:
    value = json_fill(YEARS, "The club's reading from 2024 to 2026.\n\n", seed).value
    assert 2024 <= value["year"] <= 2026
    assert all(2024 <= b["year_read"] <= 2026 for b in value["books"])
    single = json_fill(YEARS, "Accounts for 2025.\n\n", seed).value
    assert single["year"] == 2025 and single["books"][0]["year_read"] == 2025


def test_a_founding_year_is_not_held_to_the_period() -> None:
    era = document_era("Accounts for 2025.")
    members = dict(compile_json(YEARS, era=era).tree.members)  # type: ignore[union-attr]
    assert members["year"] == Fixed(2025)
    founded = members["year_founded"]
    assert isinstance(founded, Value) and founded.leaf.kind == "integer"


def test_a_year_the_schema_bounds_outside_the_period_keeps_its_bounds() -> None:
    schema = obj({"year": {"type": "integer", "minimum": 1990, "maximum": 1999}})
    assert 1990 <= json_fill(schema, "Accounts for 2025.\n\n").value["year"] <= 1999


@pytest.mark.parametrize("seed", range(3))
def test_a_document_that_writes_its_day_gives_that_day_to_its_own_dates(seed: int) -> None:
    schema = obj({"race_date": DATE, "next_race": DATE,
                  "laps": {"type": "array", "minItems": 2, "maxItems": 2,
                           "items": obj({"date": DATE})}})  # fmt: skip
    value = json_fill(schema, "The Bergen half marathon on 18 April 2027.\n\n", seed).value
    assert value["race_date"] == "2027-04-18"
    assert value["next_race"] >= "2027-04-18"  # a later date, in the era the day anchors
    assert all(lap["date"] >= "2027-04-18" for lap in value["laps"])
    stated = json_fill(schema, "Races in May 2027, the first on 2027-05-02.\n\n", seed).value
    assert "2027-05-01" <= stated["race_date"] <= "2027-05-31"  # a stated period bounds it


EVENT_DAYS = obj({"name": {"type": "string"}, "start_date": DATE, "end_date": DATE})


@pytest.mark.parametrize("seed", range(3))
def test_a_one_day_event_ends_on_its_day(seed: int) -> None:
    document = "The users' meetup is on 19 March 2027 in Aarhus, from 9:00 to 17:00.\n\n"
    value = json_fill(EVENT_DAYS, document, seed).value
    assert (value["start_date"], value["end_date"]) == ("2027-03-19", "2027-03-19")


@pytest.mark.parametrize("seed", range(2))
def test_a_day_written_as_a_start_leaves_the_end_open(seed: int) -> None:
    value = json_fill(EVENT_DAYS, "The congress starts on 9 November 2026.\n\n", seed).value
    assert value["start_date"] == "2026-11-09"
    assert value["end_date"] >= "2026-11-09"  # any day from it: nothing says which


@given(st.integers(min_value=0, max_value=10_000))
@settings(max_examples=8, deadline=None)
def test_a_thing_that_lasts_days_ends_within_a_week_of_its_start(seed: int) -> None:
    schema = {"title": "Workshop", **EVENT_DAYS}
    value = json_fill(schema, "The pottery workshop starts on 12 May 2027.\n\n", seed).value
    assert value["start_date"] == "2027-05-12"
    assert "2027-05-12" <= value["end_date"] <= "2027-05-18"


@pytest.mark.parametrize("seed", range(3))
def test_a_lease_or_an_untitled_object_keeps_the_end_its_fill_chose(seed: int) -> None:
    for title in ("Flat lease", None):
        schema = {**EVENT_DAYS, **({"title": title} if title else {})}
        filled = json_fill(schema, "The agreement starts on 12 May 2027.\n\n", seed)
        assert not any("lasts days" in note for note in filled.proposal.notes)


@pytest.mark.parametrize("seed", range(3))
def test_dates_of_array_items_come_in_order_and_differ(seed: int) -> None:
    day = {"type": "object", "required": ["date", "hours"],
           "properties": {"date": {"type": "string", "format": "date"},
                          "hours": {"type": "number", "minimum": 0, "maximum": 12}}}  # fmt: skip
    schema = {"type": "object", "required": ["days"], "properties": {
        "days": {"type": "array", "items": day, "minItems": 5, "maxItems": 5}}}  # fmt: skip
    value = json_fill(schema, "Timesheet for the week of 7-11 December 2026.\n", seed).value
    dates = [item["date"] for item in value["days"]]
    assert dates == sorted(set(dates)) and dates[0] >= "2026-12-07" and dates[-1] <= "2026-12-11"


def test_an_item_takes_its_share_of_the_era_or_all_of_a_short_one() -> None:
    from engine.structured.json_values import item_era

    era = (100.0, 149.0)
    assert item_era(era, ("sessions", 0, "date"), {("sessions",): 2}) == (100.0, 124.0)
    assert item_era(era, ("sessions", 1, "date"), {("sessions",): 2}) == (125.0, 149.0)
    assert item_era((100.0, 101.0), ("d", 2, "date"), {("d",): 3}) == (100.0, 101.0)
    assert item_era(era, ("date",), {}) == era
