"""A baby's or a puppy's age in weeks or months (engine/structured/ages.py), issue 28: it gives
the birth days it allows, counted on the day its own sentence writes, and no birth days when
that sentence writes no day; a fill's birth date then falls in them."""

from __future__ import annotations

import datetime as dt

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured.ages import told_births, young_births
from engine.structured.json_values import document_births
from tests.helpers.fills import dates_schema, json_fill


def iso(span: tuple[float, float]) -> tuple[str, str]:
    first, last = (dt.date.fromordinal(int(d)).isoformat() for d in span)
    return first, last


def test_an_age_in_weeks_counts_back_from_the_day_its_sentence_writes() -> None:
    text = "The foal was wormed on 9 June 2027, when he was six weeks old."
    assert [iso(s) for s in young_births(text)] == [("2027-04-22", "2027-04-28")]
    months = "Our kitten, 3 months old on 2 May 2027, had her check."
    assert [iso(s) for s in young_births(months)] == [("2027-01-03", "2027-02-02")]


def test_an_age_whose_sentence_writes_no_day_gives_no_births() -> None:
    text = "The foal arrived on 9 June 2027. He is wormed when he is six weeks old."
    assert young_births(text) == []
    assert document_births(text) is None


@given(st.dates(dt.date(2025, 1, 1), dt.date(2028, 12, 31)), st.integers(1, 20))
@settings(max_examples=40, deadline=None)
def test_the_birth_days_of_an_age_in_weeks_span_one_week(on: dt.date, weeks: int) -> None:
    text = f"Checked on {on.day} {on:%B %Y}, when she was {weeks} weeks old."
    (first, last), *rest = young_births(text)
    assert not rest
    assert last - first == 6 and on.toordinal() - last == 7 * weeks


def test_a_filled_birth_date_falls_in_the_days_a_young_age_allows() -> None:
    text = "The foal was wormed on 9 June 2027, when he was six weeks old.\n\n"
    filled = json_fill(dates_schema("born_on", "wormed_on"), text, 0)
    assert "2027-04-22" <= filled.value["born_on"] <= "2027-04-28"


def test_a_birth_the_document_writes_is_the_birth_date_whatever_age_it_gives() -> None:
    text = "Noor, born on 3 March 2027, starts nursery when she is 2 years old.\n\n"
    assert [iso(s) for s in told_births(text)] == [("2027-03-03", "2027-03-03")]
    born = document_births(text)
    assert born is not None and iso(born) == ("2027-03-03", "2027-03-03")
    filled = json_fill(dates_schema("date_of_birth", "nursery_start"), text, 0)
    assert filled.value["date_of_birth"] == "2027-03-03"


def test_two_births_or_a_day_far_from_the_birth_word_give_no_told_birth() -> None:
    twins = "Ada was born on 2 May 2020 and her cousin Bo was born on 9 May 2021."
    assert len(told_births(twins)) == 2
    assert document_births(twins) is None
    far = "Born in Leeds, she moved to York with her whole family on 3 May 2001."
    assert told_births(far) == ()


def test_an_age_turned_on_a_written_day_gives_the_birth_that_many_years_before() -> None:
    text = "Our dog Rolo turns 3 on Sunday 6 June 2027, so we're baking him a cake.\n\n"
    assert [iso(s) for s in told_births(text)] == [("2024-06-06", "2024-06-06")]
    filled = json_fill(dates_schema("date_of_birth", "party_day"), text, 0)
    assert filled.value["date_of_birth"] == "2024-06-06"
    assert "/date_of_birth = 2024-06-06 (3 years before 2027-06-06)" in filled.proposal.notes
