"""Template values a user would keep (issue 28): columns, vocabularies, arithmetic, agreement."""

from __future__ import annotations

import datetime as dt
import json
import math

import phonenumbers
import pycountry
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import BadRequest
from engine.core.protocol import Fill, FillKind, Span
from engine.structured import agreement, columns, relations, vocab
from engine.structured.fill import run_json
from engine.structured.markdown import find_tables
from engine.structured.slots import Filled
from engine.structured.table_plan import plan_cells
from engine.structured.tables import run_table
from tests.helpers.fills import FILLER, json_fill, md, rows, table_fill

# --- vocabularies -------------------------------------------------------------------------


def test_countries_are_found_by_name_code_and_common_name() -> None:
    assert vocab.country("Japan").alpha_2 == "JP"
    assert vocab.country("CZE").name == "Czechia"
    assert vocab.country("Russia").alpha_2 == "RU"
    assert vocab.country("RK") is None and vocab.country("") is None


def test_a_city_finds_its_country_and_a_country_its_cities() -> None:
    assert vocab.country_of_city("Vienna").alpha_2 == "AT"
    assert vocab.country_of_city("Tokyo").alpha_2 == "JP"
    assert vocab.country_of_city("Narnia") is None
    assert "Tokyo" in vocab.cities_of("JP")


def test_a_country_gives_its_currency_language_and_zones() -> None:
    assert vocab.currency_of("PL") == "PLN" and vocab.currency_of("JP") == "JPY"
    assert vocab.language_name(vocab.language_of("BR")) == "Portuguese"
    assert vocab.language_name(vocab.language_of("NO")) == "Norwegian"
    swahili = vocab.language_name(vocab.language_of("KE"))  # as ISO 639 names it
    assert pycountry.languages.lookup(swahili).alpha_3 == "swa"
    assert vocab.zones_of("SG") == ("Asia/Singapore",)
    assert vocab.language("pl").name == "Polish" and vocab.language("Klingonish") is None


@pytest.mark.parametrize("region", ["FR", "NO", "US", "JP", "BR", "IN"])
def test_phone_numbers_are_valid_for_their_region_and_differ(region: str) -> None:
    numbers = vocab.phone_numbers(region, 3, salt=5)
    assert len(set(numbers)) == 3
    for number in numbers:
        parsed = phonenumbers.parse(number)
        assert phonenumbers.is_valid_number(parsed)
        assert phonenumbers.region_code_for_number(parsed) == region


def test_an_email_is_the_name_at_the_documents_domain() -> None:
    assert vocab.email_for("Marie Dubois", "lumen.se") == "marie.dubois@lumen.se"
    assert vocab.email_for("José Núñez", "x.org", "flast") == "jnunez@x.org"
    context = agreement.Context("Write to post@harbour.no", [], [], [])
    assert context.domain == "harbour.no"
    assert agreement.Context("", [], [], []).domain == agreement.FALLBACK_DOMAIN


def test_country_choices_are_valid_neighbours_not_used_ones() -> None:
    used = ["Norway", "Sweden", "Denmark"]
    offered = agreement.choices("country", used, "name", salt=0)
    assert len(offered) == agreement.CHOICES and not set(offered) & set(used)
    for name in offered:
        place = pycountry.countries.lookup(name)
        assert agreement.world_zone(place.alpha_2) == agreement.world_zone("NO")
    assert agreement.choices("country", used, "name", 1) != offered  # rows differ


# --- columns ------------------------------------------------------------------------------


def test_column_kinds_come_from_header_and_values() -> None:
    assert columns.profile("Founded", ["1040", "", "1550"]).kind == "year"
    number = columns.profile("Price", ["4.99", "", "10.50"])
    assert (number.kind, number.decimals) == ("number", 2)
    assert columns.profile("When", ["14/09/2026", ""]).fmt == "%d/%m/%Y"
    assert columns.profile("Start", ["09:00", ""]).kind == "time"
    assert columns.profile("Country", ["Norway", ""]).kind == "country"
    assert columns.profile("Country", ["Nowhere", ""]).kind == "text"  # not a country
    assert columns.profile("Owner", ["Ines", "", "Tomasz"]).kind == "person"
    assert columns.profile("Status", ["open", "done", "open", ""]).kind == "choice"


def test_a_category_column_offers_its_labels_before_any_repeats() -> None:
    level = columns.profile("Level", ["Beginner", "Intermediate", "", "Advanced"])
    assert (level.kind, level.values) == ("choice", ("Beginner", "Intermediate", "Advanced"))
    assert columns.profile("Room type", ["Single", "Suite", ""]).kind == "choice"
    assert columns.profile("Status", ["In progress", "Done", ""]).kind == "choice"
    assert columns.profile("Level", ["Beginner", ""]).kind == "text"  # one label is no set
    assert columns.profile("Topic", ["Knots", "Maps", ""]).kind == "text"  # not a category
    said = ["Runs every morning before work", "Short walk after lunch", ""]
    assert columns.profile("Type", said).kind == "text"  # sentences, not labels


def test_a_column_that_repeats_one_value_offers_that_value() -> None:
    assert columns.profile("From", ["Oban", "Oban", "", "Oban"]).kind == "choice"
    assert columns.profile("Note", ["late", ""]).kind == "text"  # once is no pattern
    ferry = md(["Sailing", "From", "To"], [["F1", "Oban", "Mull"], ["F2", "Oban", "Mull"],
                                           ["F3", "", "Mull"], ["F4", "Oban", ""]])  # fmt: skip
    for seed in range(2):
        assert [r[1:] for r in rows(table_fill(ferry, seed).value)] == [["Oban", "Mull"]] * 4


def test_an_empty_date_column_takes_the_documents_era() -> None:
    column = columns.profile("Due", ["", ""], "Notes of the meeting on 3 June 2025.")
    low, high = (dt.date.fromordinal(round(v)) for v in (column.low, column.high))
    assert low <= dt.date(2025, 6, 3) <= high and high - low < dt.timedelta(days=200)


def test_a_year_column_never_goes_past_the_documents_years() -> None:
    column = columns.profile("Founded", ["1040", "1252", ""], "Written in 2024.")
    assert column.high <= max(2024, dt.date.today().year) and column.low >= columns.YEARS[0]


def test_an_ordered_column_puts_a_new_date_between_its_neighbours() -> None:
    column = columns.profile("Due", ["2026-12-02", "", "2026-12-11"])
    span = columns.cell_span(column, 1)
    assert column.text(span[0]) == "2026-12-02" and column.text(span[1]) == "2026-12-11"
    assert columns.default(column, 1, 3, span) == "2026-12-06"


def test_a_race_time_column_keeps_its_seconds_and_its_order() -> None:
    column = columns.profile("Finish", ["01:12:44", "01:15:02", "", "01:21:30"])
    assert column.kind == "time" and column.fmt == columns.SECONDS
    span = columns.cell_span(column, 2)
    assert column.text(span[0]) == "01:15:02" and column.text(span[1]) == "01:21:30"
    new = columns.default(column, 2, 4, span)
    assert columns.fits(column, new, span) == new and new.count(":") == 2
    assert columns.fits(column, "01:30:00", span) is None
    assert columns.fits(column, "No", span) is None


@given(st.integers(0, 24 * 3600 - 1))
@settings(max_examples=80, deadline=None)
def test_a_clock_with_seconds_reads_back_what_it_writes(seconds: int) -> None:
    column = columns.Column("time", "Time", fmt=columns.SECONDS)
    assert column.number(column.text(seconds)) == seconds


@given(st.lists(st.integers(-500, 5000), min_size=1, max_size=6), st.integers(0, 2))
@settings(max_examples=60, deadline=None)
def test_a_number_cell_fits_its_column_or_is_refused(values: list[int], places: int) -> None:
    texts = [f"{v / 10**places:.{places}f}" for v in values]
    column = columns.profile("Amount", [*texts, ""])
    span = columns.cell_span(column, len(texts))
    repaired = columns.default(column, len(texts), len(texts) + 1, span)
    assert columns.fits(column, repaired, span) == repaired
    beyond = column.high + 10 * (abs(column.high) + abs(column.low) + 1)  # above any range
    assert columns.fits(column, str(beyond), span) is None
    assert columns.fits(column, "abc", span) is None


# --- relations ----------------------------------------------------------------------------


def line(label: str, *values: float | None, decimals: int = 0) -> relations.Line:
    return relations.Line(label, tuple(math.nan if v is None else v for v in values), decimals)


def test_a_difference_is_found_with_its_result_as_target() -> None:
    lines = [line("Revenue", 120, 135, None, 160), line("Costs", 90, None, 101, 104),
             line("Margin", 30, None, None, 56)]  # fmt: skip
    (found,) = relations.detect("row", lines)
    assert (found.kind, found.target, found.terms) == ("difference", 2, (0, 1))


def test_a_named_total_needs_one_complete_place_others_two() -> None:
    total = [line("Apples", 12, 15), line("Pears", 7, 9), line("Total", 19, None)]
    assert [r.kind for r in relations.detect("row", total)] == ["sum"]
    unnamed = [line("A", 12, 15), line("B", 7, 9), line("C", 19, None)]
    assert relations.detect("row", unnamed) == []


def test_a_coincidence_that_fails_once_is_no_relation() -> None:
    lines = [line("A", 2, 4, 1), line("B", 3, 4, 7), line("C", 5, 9, 2)]
    assert relations.detect("column", lines) == []


def test_small_counts_that_agree_by_chance_are_no_relation() -> None:
    quiz = [line("Round 1", 4, 3, 7), line("Round 2", 6, 5, 8), line("Round 3", 2, 2, None)]
    assert relations.detect("column", quiz) == []  # 6 - 4 = 2 and 5 - 3 = 2, by chance
    zeros = [line("Mon", 0, 0, 2), line("Tue", 3, 5, None), line("Wed", 3, 5, 4)]
    assert relations.detect("column", zeros) == []  # 3 - 0 = 3: a zero term is no evidence


def test_a_tally_of_small_counts_is_found_by_its_label() -> None:
    table = [line("Played", 5, 5, None, 5), line("Won", 3, 1, 2, 0), line("Drawn", 1, 2, 0, 1),
             line("Lost", 1, 2, 2, 4), line("Points", 10, 5, 6, 1)]  # fmt: skip
    (found,) = relations.detect("column", table)
    assert (found.kind, found.target, found.terms) == ("sum", 0, (1, 2, 3))
    unnamed = [line("A", 5, 5, None, 5), *table[1:]]
    assert relations.detect("column", unnamed) == []  # by chance alone, this is no evidence
    broken = [line("Played", 5, 6, None, 5), *table[1:]]
    assert relations.detect("column", broken) == []  # a tally that fails once is none


def test_a_total_that_is_also_a_product_is_read_as_a_sum() -> None:
    lines = [line("A", 2, 1, None), line("B", 2, 1, 1), line("Total", 4, None, 2)]
    (found,) = relations.detect("column", lines)  # 2 × 2 = 2 + 2 = 4: a "Total" adds
    assert (found.kind, found.target, found.terms) == ("sum", 2, (0, 1))


def test_a_relation_of_larger_numbers_needs_two_places() -> None:
    sold = [line("Adults", 84, 132, 57), line("Children", 61, 18, None),
            line("Tickets", 145, 150, None)]  # fmt: skip
    (found,) = relations.detect("column", sold)
    assert (found.kind, found.target, found.terms) == ("sum", 2, (0, 1))


@given(st.lists(st.tuples(st.integers(20, 999), st.integers(20, 999)), min_size=2, max_size=5))
@settings(max_examples=60, deadline=None)
def test_a_sum_of_two_columns_is_always_found(pairs: list[tuple[int, int]]) -> None:
    lines = [line("A", *(a for a, _ in pairs)), line("B", *(b for _, b in pairs)),
             line("C", *(a + b for a, b in pairs))]  # fmt: skip
    found = relations.detect("column", lines)
    assert [(r.kind, r.target, r.terms) for r in found] == [("sum", 2, (0, 1))]


def test_solve_fills_the_target_or_the_one_open_term() -> None:
    rule = relations.Relation("product", "column", 2, (0, 1))
    grid = {(0, 0): 4.0, (1, 0): 2.5, (0, 1): 3.0, (2, 1): 30.0}
    found = relations.solve(rule, lambda li, p: grid.get((li, p)), 2)
    assert found == {(2, 0): 10.0, (1, 1): 10.0}


# --- tables -------------------------------------------------------------------------------

QUARTERS = md(["Metric", "Q1", "Q2", "Q3", "Q4"], [
    ["Revenue", "120", "135", "", "160"], ["Costs", "90", "", "101", "104"],
    ["Margin", "30", "", "", "56"]])  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_a_margin_row_is_revenue_minus_costs_after_the_fill(seed: int) -> None:
    filled = table_fill(QUARTERS, seed)
    revenue, costs, margin = (list(map(float, r[1:])) for r in rows(filled.value))
    assert all(r - c == m for r, c, m in zip(revenue, costs, margin, strict=True))
    assert any("Margin = Revenue − Costs" in note for note in filled.proposal.notes)


def test_a_city_table_agrees_with_its_rows() -> None:
    doc = md(["City", "Country", "Founded"], [["Oslo", "Norway", "1040"], ["", "Japan", ""],
             ["Helsinki", "", "1550"]])  # fmt: skip
    filled = rows(table_fill(doc).value)
    assert filled[1][0] == "Tokyo" and filled[2][1] == "Finland"
    assert filled[1][2].isdigit() and len(filled[1][2]) == 4  # a year, never a country


def test_an_empty_cell_keeps_the_columns_padding() -> None:
    doc = "| City | Country |\n|---|---|\n| Oslo | Norway |\n| Helsinki | |\n"
    text = table_fill(doc).value
    assert "| Helsinki | Finland |" in text


@pytest.mark.parametrize("seed", range(3))
def test_columns_that_share_their_values_choose_among_them(seed: int) -> None:
    doc = md(["Date", "Home", "Away"], [["2026-09-12", "Larks", "Otters"],
             ["2026-09-19", "Otters", "Badgers"], ["2026-09-26", "Badgers", ""],
             ["2026-10-03", "", "Larks"]])  # fmt: skip
    filled = rows(table_fill(doc, seed).value)
    assert filled[2][2] in ("Larks", "Otters") and filled[3][1] in ("Otters", "Badgers")


def test_contacts_get_valid_phones_and_name_based_emails() -> None:
    doc = md(["Name", "Email", "Phone", "Country"], [
        ["Anna Berg", "anna.berg@lumen.se", "+46 70 123 45 67", "Sweden"],
        ["Marie Dubois", "", "", "France"]])  # fmt: skip
    _, marie = rows(table_fill(doc).value)
    assert marie[1] == "marie.dubois@lumen.se"
    assert vocab.phone_region(marie[2]) == "FR" and " " in marie[2]


# Terms of 1 or more: where every term is 0, "Total = B" fits the table as well as "A + B".
@given(st.lists(st.tuples(st.integers(1, 60), st.integers(1, 60)), min_size=3, max_size=5),
       st.integers(0, 3))  # fmt: skip
@settings(max_examples=25, deadline=None)
def test_a_total_column_adds_up_whatever_is_left_open(
    pairs: list[tuple[int, int]], seed: int
) -> None:
    body = [[f"r{i}", str(a), str(b), str(a + b)] for i, (a, b) in enumerate(pairs)]
    body[-1][1] = ""  # one term open: solved, or generated and the total computed
    body[-2][3] = ""  # one total open
    filled = table_fill(md(["Row", "A", "B", "Total"], body), seed)
    for _, a, b, total in rows(filled.value):
        assert int(a) + int(b) == int(total)


@given(st.integers(0, 5))
@settings(max_examples=6, deadline=None)
def test_new_dates_fall_in_their_columns_span(seed: int) -> None:
    doc = md(["Task", "Due"], [["a", "2026-12-02"], ["b", ""], ["c", "2026-12-11"], ["d", ""]])
    due = [r[1] for r in rows(table_fill(doc, seed).value)]
    assert due[1] >= "2026-12-02" and due[1] <= "2026-12-11"
    assert due[3].startswith("2026-12") or due[3].startswith("2027-01")


def test_an_end_the_model_puts_before_its_start_is_moved() -> None:
    doc = md(["Bug", "Opened", "Closed"], [["a", "2026-03-02", "2026-03-04"],
             ["b", "2026-03-03", "2026-03-10"], ["c", "", "2026-03-12"]])  # fmt: skip
    for seed in range(4):
        for _, opened, closed in rows(table_fill(doc, seed).value):
            assert opened <= closed


def test_detection_ignores_the_label_column() -> None:
    doc = md(["Match", "Home", "Away", "Margin"], [["1", "3", "1", "2"], ["2", "2", "2", "0"]])
    plan = plan_cells(find_tables(doc)[0], (), 0, "")
    assert [(r.kind, [plan.label("column", m[i]) for i in r.terms]) for r, m in plan.found] == [
        ("difference", ["Home", "Away"])
    ]


def test_a_cell_budget_too_small_for_a_date_is_a_clear_error() -> None:
    doc = md(["Task", "Due"], [["a", "2026-12-02"], ["b", ""]])
    table = find_tables(doc)[0]
    with pytest.raises(BadRequest, match="cannot hold"):
        list(run_table(FILLER, Fill(1, FillKind.TABLE, doc, table.span, cell_tokens=1)))


# --- JSON ---------------------------------------------------------------------------------

NUM = {"type": "number", "minimum": 0}
INVOICE = {
    "type": "object",
    "required": ["items", "subtotal", "tax_rate", "tax", "total", "currency", "country"],
    "properties": {
        "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": {
            "type": "object", "required": ["quantity", "unit_price", "amount"],
            "properties": {"quantity": {"type": "integer", "minimum": 1, "maximum": 9},
                           "unit_price": NUM, "amount": NUM}}},
        "subtotal": NUM, "tax_rate": {"type": "number", "minimum": 0, "maximum": 0.3},
        "tax": NUM, "total": NUM, "currency": {"type": "string"}, "country": {"type": "string"},
    },
}  # fmt: skip


@pytest.mark.parametrize("seed", range(4))
def test_an_invoice_adds_up_and_its_currency_is_its_countrys(seed: int) -> None:
    filled = json_fill(INVOICE, seed=seed)
    value = filled.value
    for item in value["items"]:
        assert item["amount"] == round(item["quantity"] * item["unit_price"], 2)
    assert value["subtotal"] == pytest.approx(sum(i["amount"] for i in value["items"]), abs=0.01)
    assert value["tax"] == pytest.approx(value["tax_rate"] * value["subtotal"], abs=0.01)
    assert value["total"] == pytest.approx(value["subtotal"] + value["tax"], abs=0.01)
    place = pycountry.countries.lookup(value["country"])
    assert value["currency"] == vocab.currency_of(place.alpha_2)
    assert any("quantity × unit_price" in note for note in filled.proposal.notes)


def test_a_country_code_property_gets_only_valid_codes() -> None:
    schema = {"type": "object", "required": ["country_code"], "properties": {
        "country_code": {"type": "string", "pattern": "^[A-Z]{2}$"}}}  # fmt: skip
    for seed in range(5):
        code = json_fill(schema, seed=seed).value["country_code"]
        assert pycountry.countries.get(alpha_2=code) is not None


def test_the_description_opts_a_field_out_of_arithmetic() -> None:
    schema = {"type": "object", "required": ["subtotal", "tax", "total"], "properties": {
        "subtotal": NUM, "tax": NUM,
        "total": {**NUM, "description": "Entered by hand, not computed."}}}  # fmt: skip
    filled = json_fill(schema, seed=1)
    assert not any("/total" in note for note in filled.proposal.notes)


def test_an_end_date_is_not_before_its_start_and_an_age_fits_its_birth_date() -> None:
    date = {"type": "string", "format": "date"}
    schema = {"type": "object", "required": ["start_date", "end_date", "birth_date", "age"],
              "properties": {"start_date": date, "end_date": date, "birth_date": date,
                             "age": {"type": "integer", "minimum": 0, "maximum": 120}}}  # fmt: skip
    for seed in range(4):
        value = json_fill(schema, "Planned on 2026-05-04.\n", seed).value
        assert value["end_date"] >= value["start_date"]
        born = dt.date.fromisoformat(value["birth_date"])
        assert abs((dt.date(2026, 5, 4) - born).days / 365.2425 - value["age"]) <= 1


@pytest.mark.parametrize("seed", range(4))
def test_a_bounded_age_bounds_its_birth_date(seed: int) -> None:
    schema = {"type": "object", "required": ["date_of_birth", "age"], "properties": {
        "date_of_birth": {"type": "string", "format": "date"},
        "age": {"type": "integer", "minimum": 8, "maximum": 16}}}  # fmt: skip
    value = json_fill(schema, "Squad registration, spring term 2027.\n", seed).value
    born = dt.date.fromisoformat(value["date_of_birth"])
    assert 8 <= value["age"] <= 16
    assert abs((dt.date(2027, 5, 31) - born).days / 365.2425 - value["age"]) <= 1


def test_the_births_of_a_bounded_age_span_its_youngest_to_its_oldest() -> None:
    from engine.structured.json_values import schema_births
    from engine.structured.schema import Conjunct, flatten

    on = float(dt.date(2027, 1, 1).toordinal())
    age = flatten([Conjunct({"type": "integer", "minimum": 2, "maximum": 5}, None)], "/age")
    first, last = schema_births(age, on) or (0.0, 0.0)
    assert dt.date.fromordinal(int(first)) == dt.date(2021, 1, 2)  # 5 and a day short of 6
    assert dt.date.fromordinal(int(last)) == dt.date(2025, 1, 1)  # 2 that day
    unbounded = flatten([Conjunct({"type": "integer", "minimum": 0}, None)], "/age")
    assert schema_births(unbounded, on) is None


def test_the_city_a_document_names_is_the_objects_and_the_rest_agree() -> None:
    text = {"type": "string"}
    office = {"type": "object", "required": ["city"], "properties": {"city": text}}
    offices = {"type": "array", "minItems": 2, "maxItems": 2, "items": office}
    schema = {"type": "object", "required": ["venue_city", "country", "timezone", "offices"],
              "properties": {"venue_city": text, "country": text, "timezone": text,
                             "offices": offices}}  # fmt: skip
    for seed in range(3):
        value = json_fill(schema, "Our meetup is in Lisbon on 3 May 2027.\n", seed).value
        assert (value["venue_city"], value["country"]) == ("Lisbon", "Portugal")
        assert value["timezone"] == "Europe/Lisbon"
        assert [o["city"] for o in value["offices"]] != ["Lisbon", "Lisbon"]  # items: their own


def test_a_document_names_a_city_only_by_a_whole_run_of_capitalised_words() -> None:
    assert vocab.named_cities("Casey Smith met Davis in New York.") == ("New York",)
    assert vocab.named_cities("Paris Fashion Week. Then Paris.") == ("Paris",)
    assert vocab.named_cities("Buenos Aires and Oslo") == ("Buenos Aires", "Oslo")
    assert all("/" not in city for city in vocab.cities_of("AR"))  # not "Argentina/Cordoba"


def test_an_enum_named_like_a_vocabulary_keeps_its_enum() -> None:
    schema = {"type": "object", "required": ["country"],
              "properties": {"country": {"enum": ["Atlantis", "Lemuria"]}}}  # fmt: skip
    assert json_fill(schema).value["country"] in ("Atlantis", "Lemuria")


def test_a_stay_arrives_before_it_departs_and_a_flight_departs_before_it_arrives() -> None:
    from engine.structured.json_rules import ordered_pairs

    assert ordered_pairs(["guest", "arrival", "departure"]) == [("arrival", "departure")]
    assert ordered_pairs(["departure_time", "arrival_time"]) == [("departure_time", "arrival_time")]
    date = {"type": "string", "format": "date"}
    schema = {"type": "object", "required": ["arrival", "departure"],
              "properties": {"arrival": date, "departure": date}}  # fmt: skip
    for seed in range(4):
        value = json_fill(schema, "Summer camp 2026, July and August.\n", seed).value
        assert "2026-07-01" <= value["arrival"] <= value["departure"]


def test_a_profit_is_revenue_less_costs_unless_opted_out() -> None:
    members = {"revenue": NUM, "costs": NUM, "profit": {"type": "number"}}
    schema = {"type": "object", "required": list(members), "properties": members}
    for seed in range(3):
        filled = json_fill(schema, seed=seed)
        value = filled.value
        assert math.isclose(value["profit"], value["revenue"] - value["costs"], abs_tol=0.005)
    schema["properties"]["profit"] = {"type": "number", "description": "Not computed."}
    assert not any("/profit" in n for n in json_fill(schema).proposal.notes)


def test_a_template_start_and_a_stated_length_give_the_end() -> None:
    schema = {"type": "object", "required": ["start_date", "end_date"],
              "properties": {"start_date": {"type": "string", "format": "date"},
                             "end_date": {"type": "string", "format": "date"}}}  # fmt: skip
    document = "The fair lasts three days.\n\n"
    template = '{\n  "start_date": "2027-05-02"\n}'
    text = document + template
    request = Fill(1, FillKind.JSON, text, Span(len(document), len(text)),
                   schema=json.dumps(schema), locks=("/start_date",))  # fmt: skip
    filled = next(e for e in run_json(FILLER, request) if isinstance(e, Filled))
    assert filled.value == {"start_date": "2027-05-02", "end_date": "2027-05-04"}
    assert any("length the document states" in note for note in filled.proposal.notes)
