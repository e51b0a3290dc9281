"""The arithmetic and date-order rules of a filled JSON instance (engine/structured/json_sums.py,
json_rules.py): a rate times the quantity its unit names, totals named by what they add up, a
total as its base plus extras, a later date after the object's own."""

from __future__ import annotations

import datetime as dt
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured import json_sums
from engine.structured.words import core_words, name_words
from tests.helpers.fills import json_fill

NUM = {"type": "number", "minimum": 0, "maximum": 500}
COUNT = {"type": "integer", "minimum": 1, "maximum": 20}
DATE = {"type": "string", "format": "date"}


def close(got: float, want: float) -> bool:
    """Equal to the cent, as a computed amount is written."""
    return math.isclose(got, want, abs_tol=0.005)


def schema_of(**members: Any) -> dict[str, Any]:
    return {"type": "object", "required": list(members), "properties": members}


def test_names_are_read_by_their_lemmas() -> None:
    assert "renew" in name_words("renews_on") and "ticket" in name_words("tickets")
    assert "charge" in name_words("charged")
    assert "leave" not in name_words("left")  # a remainder, not a leaving
    assert core_words("total_hours") == {"total", "hour"}


def test_a_rate_says_its_unit_and_so_its_quantity() -> None:
    assert json_sums.unit_of("rate_per_km") == "km"
    assert json_sums.unit_of("hourlyRate") == "hour"
    assert json_sums.unit_of("price") is None
    members = {"tickets": 2, "seats_left": 9, "price_per_ticket": 30.0, "subtotal": 0.0}
    assert json_sums.quantity_for(members, "price_per_ticket") == "tickets"
    assert not json_sums.is_rate("total_price") and not json_sums.is_rate("tax_rate")
    assert json_sums.is_rate("unit_cost") and json_sums.is_rate("daily_rate")


COMPUTED = [
    # hours times an hourly rate is the amount due
    (schema_of(client={"type": "string"}, hours_worked=NUM, hourly_rate=NUM,
               amount_due={"type": "number"}),
     "amount_due", ("hours_worked", "*", "hourly_rate")),
    # a total with no base beside it adds the object's other amounts
    (schema_of(customer={"type": "string"}, callout=NUM, materials=NUM,
               total_cost={"type": "number"}),
     "total_cost", ("callout", "+", "materials")),
]  # fmt: skip


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize(("schema", "target", "terms"), COMPUTED)
def test_a_computed_member_is_its_terms_and_the_note_names_them(
    schema: dict[str, Any], target: str, terms: tuple[str, str, str], seed: int
) -> None:
    first, operator, second = terms
    filled = json_fill(schema, seed=seed)
    value = filled.value
    want = value[first] * value[second] if operator == "*" else value[first] + value[second]
    assert close(value[target], want)
    shown = f"{first} {'×' if operator == '*' else '+'} {second}"
    assert any(shown in note for note in filled.proposal.notes)


@pytest.mark.parametrize("seed", range(3))
def test_tickets_make_a_subtotal_and_the_fee_is_added_to_the_total(seed: int) -> None:
    schema = schema_of(tickets=COUNT, price_per_ticket=NUM, subtotal={"type": "number"},
                       booking_fee=NUM, total={"type": "number"})  # fmt: skip
    value = json_fill(schema, seed=seed).value
    assert close(value["subtotal"], value["tickets"] * value["price_per_ticket"])
    assert close(value["total"], value["subtotal"] + value["booking_fee"])


@pytest.mark.parametrize("seed", range(3))
def test_a_total_named_by_what_it_adds_up_sums_the_items(seed: int) -> None:
    trip = schema_of(date=DATE, km=NUM)
    schema = schema_of(trips={"type": "array", "items": trip, "minItems": 3, "maxItems": 3},
                       total_km={"type": "number"}, rate_per_km=NUM,
                       reimbursement={"type": "number"})  # fmt: skip
    value = json_fill(schema, "Mileage for March 2026.\n", seed).value
    assert close(value["total_km"], sum(t["km"] for t in value["trips"]))
    assert close(value["reimbursement"], value["total_km"] * value["rate_per_km"])


def test_extras_are_read_by_their_nouns_plural_or_not() -> None:
    assert json_sums.is_extra("surcharges") and json_sums.is_extra("taxes")
    assert json_sums.is_extra("service_charge") and not json_sums.is_extra("amount_charged")


def test_a_fee_is_a_rate_only_when_it_names_its_unit() -> None:
    assert not json_sums.is_rate("port_fee") and not json_sums.is_rate("fee")
    assert json_sums.is_rate("monthly_fee") and json_sums.is_rate("fee_per_night")
    assert json_sums.is_total("balance_due") and json_sums.is_total("amount_payable")
    assert not json_sums.is_total("deposit")


@pytest.mark.parametrize("seed", range(3))
def test_a_charge_from_a_rate_bears_the_tax_and_the_balance_is_both(seed: int) -> None:
    share = {"type": "number", "minimum": 0.05, "maximum": 0.25}
    free = {"type": "number"}
    schema = schema_of(lessons=COUNT, rate_per_lesson=NUM, charge=free, hourly_rate=NUM,
                       sales_tax_rate=share, sales_tax=free, balance_due=free)  # fmt: skip
    value = json_fill(schema, seed=seed).value
    assert close(value["charge"], value["lessons"] * value["rate_per_lesson"])
    assert close(value["sales_tax"], value["sales_tax_rate"] * value["charge"])
    assert close(value["balance_due"], value["charge"] + value["sales_tax"])


def test_a_total_beside_a_count_is_not_the_sum_of_every_number() -> None:
    schema = schema_of(guests=COUNT, deposit=NUM, total={"type": "number"})
    filled = json_fill(schema, seed=0)
    assert not any(note.startswith("/total =") for note in filled.proposal.notes)


def test_a_principal_and_interest_make_the_total_repayable() -> None:
    schema = schema_of(principal=NUM, interest=NUM, total_repayable={"type": "number"})
    value = json_fill(schema, seed=2).value
    assert close(value["total_repayable"], value["principal"] + value["interest"])


def test_a_variance_is_the_budget_less_the_actual() -> None:
    schema = schema_of(budgeted=NUM, actual=NUM, variance={"type": "number"})
    value = json_fill(schema, seed=1).value
    assert close(value["variance"], value["budgeted"] - value["actual"])


def test_numbers_with_no_rate_or_total_are_left_as_written() -> None:
    schema = schema_of(guests=COUNT, rooms=COUNT, floor=COUNT)
    filled = json_fill(schema, seed=0)
    assert not any("×" in note or "sum of" in note for note in filled.proposal.notes)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**31 - 1))
def test_a_later_date_comes_after_the_objects_own(seed: int) -> None:
    schema = schema_of(purchased_on=DATE, renews_on=DATE, warranty_expires=DATE)
    value = json_fill(schema, "Bought on 14 June 2026.\n", seed).value
    bought = dt.date.fromisoformat(value["purchased_on"])
    assert dt.date.fromisoformat(value["renews_on"]) > bought
    assert dt.date.fromisoformat(value["warranty_expires"]) > bought


@pytest.mark.parametrize(
    ("document", "ends"),
    [
        ("A four-day regatta from 14 July 2027.\n", ("2027-07-14", "2027-07-17")),
        ("Sailing out on 2026-12-20, home again on 2027-01-03.\n", ("2026-12-20", "2027-01-03")),
    ],
)
def test_the_start_and_end_of_what_a_document_is_about_are_its_first_and_last_day(
    document: str, ends: tuple[str, str]
) -> None:
    schema = schema_of(event={"type": "string"}, starts_on=DATE, ends_on=DATE)
    for seed in range(3):
        filled = json_fill(schema, document, seed)
        value = filled.value
        assert (value["starts_on"], value["ends_on"]) == ends
        # one note per value, naming the value offered (not an era's repair it replaced)
        notes = [n for n in filled.proposal.notes if n.startswith(("/starts_on", "/ends_on"))]
        assert len(notes) == len({n.split(" = ")[0] for n in notes})
        assert all(n.split(" = ")[1].split(" ")[0] in ends for n in notes)


def test_a_pickup_comes_before_its_drop_off() -> None:
    from engine.structured.json_rules import ordered_pairs

    assert ordered_pairs(["pickup_date", "dropoff_date"]) == [("pickup_date", "dropoff_date")]
    assert ordered_pairs(["clock_in", "clock_out"]) == [("clock_in", "clock_out")]
    assert ordered_pairs(["outbound", "inbound"]) == [("outbound", "inbound")]


@pytest.mark.parametrize("seed", range(3))
def test_a_stays_nights_are_its_dates_apart_and_priced_by_the_night(seed: int) -> None:
    schema = schema_of(check_in=DATE, check_out=DATE, nights=COUNT, nightly_rate=NUM,
                       cost={"type": "number"})  # fmt: skip
    value = json_fill(schema, "A cottage for 15-20 February 2027.\n", seed).value
    apart = dt.date.fromisoformat(value["check_out"]) - dt.date.fromisoformat(value["check_in"])
    assert value["nights"] == apart.days  # the filler's dates differ on every seed here
    assert close(value["cost"], value["nights"] * value["nightly_rate"])


def test_a_computed_value_the_schema_refuses_is_replaced_and_the_note_says_so() -> None:
    from engine.structured.fill import REFUSED_NOTE

    capped = {"type": "number", "minimum": 0, "maximum": 5}
    schema = schema_of(hours_worked=COUNT, hourly_rate=COUNT, amount_due=capped)
    for seed in range(3):
        filled = json_fill(schema, seed=seed)
        value = filled.value
        assert value["hours_worked"] * value["hourly_rate"] > 5  # what the filler writes
        assert value["amount_due"] <= 5
        assert f"/amount_due: {REFUSED_NOTE}" in filled.proposal.notes
        assert not any("/amount_due =" in note for note in filled.proposal.notes)


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(min_size=1, max_size=20), min_size=1, max_size=5, unique=True))
def test_any_property_names_are_read_without_failing(keys: list[str]) -> None:
    members = {key: 2.0 for key in keys}
    for key in keys:
        json_sums.unit_of(key)
        if json_sums.is_rate(key):
            json_sums.quantity_for(members, key)
    assert json_sums.product_target(members, (keys[0], keys[-1])) in (None, *keys)
