"""The periods a document states (engine/structured/periods.py): the era of new dates."""

from __future__ import annotations

import calendar
import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured import ages, columns, counted_days, numeric_dates, periods, stated
from engine.structured.json_values import document_era
from tests.helpers.fills import iso_span as days


@pytest.mark.parametrize(
    ("document", "span"),
    [
        ("Runs every Tuesday from 6 October to 24 November 2026.", ("2026-10-06", "2026-11-24")),
        ("Ski week, 14-21 February 2027.", ("2027-02-14", "2027-02-21")),
        ("Open March 4-20, 2027.", ("2027-03-04", "2027-03-20")),
        ("Camp 2026, July and August.", ("2026-07-01", "2026-08-31")),
        ("League 2026/27, November 2026 to March 2027.", ("2026-11-01", "2027-03-31")),
        ("Fixtures from November to March 2027.", ("2026-11-01", "2027-03-31")),
        ("Claims for the second quarter of 2026.", ("2026-04-01", "2026-06-30")),
        ("Results for Q4 2026.", ("2026-10-01", "2026-12-31")),
        ("Craft fairs, autumn 2026.", ("2026-09-01", "2026-11-30")),
        ("Lights, winter 2026.", ("2026-12-01", "2027-02-28")),
        ("From mid-December 2026 to early January 2027.", ("2026-12-11", "2027-01-10")),
        ("Receipts scanned in March 2026.", ("2026-03-01", "2026-03-31")),
        ("Written in 2024.", ("2024-01-01", "2024-12-31")),
        ("Netball league, season 2026/27.", ("2026-07-01", "2027-06-30")),
        ("Booked 2026-12-01 to 2026-12-05.", ("2026-12-01", "2026-12-05")),
        ("Away the second week of April 2027.", ("2027-04-08", "2027-04-14")),
        ("Tasks for the second half of February 2027.", ("2027-02-16", "2027-02-28")),
        ("A two-day summit opens on 3 November 2026.", ("2026-11-03", "2026-11-04")),
        ("Camp runs from the 6th to the 10th of July 2027.", ("2027-07-06", "2027-07-10")),
        ("Talks on 2, 3 and 4 September 2026.", ("2026-09-02", "2026-09-04")),
        ("Plays on Thursday 4, Friday 5 and Saturday 6 June 2026.", ("2026-06-04", "2026-06-06")),
        ("Our week-long retreat begins 1 August 2027.", ("2027-08-01", "2027-08-07")),
        ("Evening classes for six weeks from 7 January 2027.", ("2027-01-07", "2027-02-17")),
        ("Four nights at the inn from 28 December 2026.", ("2026-12-28", "2027-01-01")),
        ("A fortnight in Crete starting 2027-05-10.", ("2027-05-10", "2027-05-23")),
        ("Open days Fri 4 – Sun 6 June 2027.", ("2027-06-04", "2027-06-06")),
        ("Sales run Monday 1 to Friday, 5 March 2027.", ("2027-03-01", "2027-03-05")),
        ("Tastings on 9 & 10 October 2026.", ("2026-10-09", "2026-10-10")),
        ("Stocktake 2026-10-05T08:00 to 2026-10-07T18:30.", ("2026-10-05", "2026-10-07")),
        ("Open 20th - 23rd of April 2027.", ("2027-04-20", "2027-04-23")),
        ("Races on 2/3/4 May 2027.", ("2027-05-02", "2027-05-04")),
        ("Sail week 2027-08-23/28.", ("2027-08-23", "2027-08-28")),
        ("Audit 2027-01-28/02-03.", ("2027-01-28", "2027-02-03")),
        ("Audit 2027-01-28/2027-02-03.", ("2027-01-28", "2027-02-03")),
        ("Open August 2nd through the 6th, 2027.", ("2027-08-02", "2027-08-06")),
        ("Harvest camp: 12-14.9.2027.", ("2027-09-12", "2027-09-14")),
        ("Harvest camp: 29.09.-02.10.2027.", ("2027-09-29", "2027-10-02")),
    ],
)
def test_a_stated_period_is_read_in_any_phrasing(document: str, span: tuple[str, str]) -> None:
    assert days(stated.read(document).period()) == span


def test_a_month_first_day_with_no_year_takes_the_nearest_year_but_a_count_is_no_day() -> None:
    assert days(stated.read("Opens June 3rd, 2027; closes June 7th.").written_span()) == (
        "2027-06-03",
        "2027-06-07",
    )
    assert stated.read("In 2027 we expect March 2 teams to join.").written_span() is None


def test_a_month_first_day_after_a_deadline_word_is_a_day_though_a_word_follows() -> None:
    found = stated.read("Open days from May 22, 2027; reply by May 15 if you want a stall.")
    assert days(found.written_span()) == ("2027-05-15", "2027-05-22")


@pytest.mark.parametrize(
    "document", ["Camp 6-8/9/2027 in Denver, USA.", "Camp 6-8/9/2027 in Lyon or Denver."]
)
def test_days_in_numbers_read_no_range_where_the_places_write_the_month_first(
    document: str,
) -> None:
    """A place that writes the month first (or places that disagree) outweighs the range's
    form: the document may mean something no reading here can tell."""
    assert numeric_dates.numeric_spans(document) == ()


@pytest.mark.parametrize(
    "document",
    [
        "Camp 6-8/9/2027, Cork, Ireland.",
        "Camp 6-8/9/2027.",
        "Camp: 6–8/9/2027, bring boots.",
        "Camp: 6.–8.9.2027, bring boots.",  # the first day keeps its ordinal dot
    ],
)
def test_a_day_range_before_its_month_is_read_day_first(document: str) -> None:
    """The range of "6-8/9/2027" is in its days, a day-first habit that month-first dates
    cannot write, so with no place to say otherwise the form itself tells the order."""
    assert days(stated.read(document).written_span()) == ("2027-09-06", "2027-09-08")


def test_an_end_verb_in_the_next_sentence_ends_the_period_but_a_later_errand_does_not() -> None:
    opening = "The fair opens on Friday 3 September 2027."
    assert days(stated.read(opening + " It closes on Sunday.").written_span()) == (
        "2027-09-03",
        "2027-09-05",
    )
    assert stated.read(opening + " Book stands by Sunday.").written_span() is None


def test_day_ordinals_in_words_are_days_and_other_ordinals_stay_words() -> None:
    assert stated.ordinals_in_digits("from the third to the twenty-first of May") == (
        "from the 3rd to the 21st of May"
    )
    assert stated.ordinals_in_digits("the first two days, the north") == (
        "the first two days, the north"
    )


def test_the_finest_period_stated_counts_and_a_yearless_day_takes_the_nearest_year() -> None:
    term = "Autumn term 2026 runs from 7 September to 18 December."
    assert days(stated.read(term).period()) == ("2026-09-07", "2026-12-18")
    spring = "Spring season 2027 (March to May)."
    assert days(stated.read(spring).period()) == ("2027-03-01", "2027-05-31")
    closing = "Entries close on 15 March; the show is on 2-4 June 2027."
    assert days(stated.read(closing).period()) == ("2027-03-15", "2027-06-04")


def test_written_dates_anchor_the_era_with_slack_and_state_no_period() -> None:
    reading = stated.read("Invoice 2026-118, issued 2026-11-20.")
    assert reading.period() is None and days((reading.points[0],) * 2)[0] == "2026-11-20"
    assert days(document_era("Issued 2026-11-20.")) == ("2026-11-20", "2027-01-19")


def test_words_that_are_also_month_abbreviations_state_nothing_alone() -> None:
    assert stated.read("Jan may come; we march on. | Jan | 500 | Mar |").periods == ()
    assert document_era("No dates here at all.") is None


def test_a_table_date_column_stays_inside_the_documents_period() -> None:
    cells = ["2026-09-03", "2026-09-10", "2026-09-17", "", ""]
    column = columns.profile("Date", cells, "Orchard log, September 2026.\n\n")
    span = columns.cell_span(column, 4)
    assert column.text(span[1]) == "2026-09-30" and column.text(span[0]) == "2026-09-17"
    empty = columns.profile("Due", ["", ""], "Week of 11-15 January 2027.")
    assert (empty.text(empty.low), empty.text(empty.high)) == ("2027-01-11", "2027-01-15")


@given(st.dates(dt.date(1900, 1, 1), dt.date(2099, 12, 1)), st.integers(0, 27))
@settings(max_examples=80, deadline=None)
def test_a_written_day_range_is_read_as_itself(start: dt.date, length: int) -> None:
    last = calendar.monthrange(start.year, start.month)[1]
    end = start.replace(day=min(start.day + length, last))
    name = calendar.month_name[start.month]
    text = f"Open {start.day}-{end.day} {name} {start.year}, all welcome."
    assert days(stated.read(text).period()) == (start.isoformat(), end.isoformat())


@given(st.text(max_size=200))
@settings(max_examples=120, deadline=None)
def test_any_text_reads_without_error_into_ordered_spans(text: str) -> None:
    reading = stated.read(text)
    assert all(low <= high for _, low, high in reading.periods)
    span = reading.period()
    assert span is None or span[0] <= span[1]


def test_the_days_a_document_writes_are_its_ranges_before_its_other_dates() -> None:
    said = stated.read("Papers are due 1 March; the workshop is 9-10 April 2027.")
    assert days(said.written_span()) == ("2027-04-09", "2027-04-10")
    assert days(stated.read("Sent 2027-01-04, paid 2027-01-20.").written_span()) == (
        "2027-01-04", "2027-01-20"
    )  # fmt: skip
    assert stated.read("Plans for March 2027.").written_span() is None  # no day written


def test_a_duration_later_than_a_day_writes_that_day() -> None:
    reading = stated.read("Leaves on 6 April 2027 and comes home ten days later.")
    assert sorted(days((p, p)) for p in reading.points) == [
        ("2027-04-06", "2027-04-06"), ("2027-04-16", "2027-04-16")
    ]  # fmt: skip
    assert reading.period() is None


@pytest.mark.parametrize(
    "document",
    [
        "A three-day course, on 4 May or 11 May 2027.",  # two days: which one it counts from?
        "A three-day course.",  # no day at all
        "Held on 4 May 2027. Delivery takes a week.",  # another sentence, about another thing
    ],
)
def test_a_duration_with_no_one_day_beside_it_states_nothing(document: str) -> None:
    assert counted_days.durations(document) == ((), ())


def test_an_age_in_words_is_read_as_its_number() -> None:
    assert ages.ages("Report for a ten-year-old pupil.") == (10,)
    said = "She is nine years old; her brother is thirty-four years of age."
    assert ages.ages(said) == (9, 34)
    assert ages.ages("One of the two pupils.") == ()


@settings(max_examples=200, deadline=None)
@given(st.text(max_size=80))
def test_reading_ages_never_fails_on_any_text(document: str) -> None:
    assert all(0 <= age <= ages.OLDEST for age in ages.ages(document))


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("Talks on the 2nd, 3rd and 4th of April 2027.", ("2027-04-02", "2027-04-04")),
        ("Workshop 20.–22. May 2027 in Jena.", ("2027-05-20", "2027-05-22")),
        ("Course: 28/6–2/7/2027 in Leeds.", ("2027-06-28", "2027-07-02")),
        ("Camp: 2027-03-15 – 18 in Tampere.", ("2027-03-15", "2027-03-18")),
        ("Hack week 2027-10-04 to 08, at home.", ("2027-10-04", "2027-10-08")),
        ("It meets September 14, 15 and 16, 2027.", ("2027-09-14", "2027-09-16")),
        ("We meet on 9 and 10 and 11 May 2027.", ("2027-05-09", "2027-05-11")),  # was 10-11
    ],
)
def test_listed_ordinals_dotted_days_and_a_range_with_both_months_are_read(
    document: str, expected: tuple[str, str]
) -> None:
    assert days(stated.read(document).written_span()) == expected


def test_an_iso_days_short_end_must_close_its_phrase() -> None:
    assert stated.read("Issued 2027-04-12 to 15 people.").written_span() is None  # a count
    assert stated.read("From 2027-04-12 to 10:00.").written_span() is None  # a time


def test_a_numeric_range_with_both_months_and_no_place_is_not_guessed() -> None:
    """ "5/7–9/7/2027" is a range a month-first habit writes too (May 7 to September 7)."""
    assert numeric_dates.numeric_spans("Camp 5/7–9/7/2027, bring boots.") == ()


@pytest.mark.parametrize("word", ["Aprons", "Junebug", "Marching", "Decking"])
def test_a_month_abbreviation_inside_a_longer_word_is_no_month(word: str) -> None:
    text = f"Classes from 8 January 2026, 7 till 9. {word} provided."
    assert [p for p in periods.phrase_spans(text) if p[0] >= text.index("7 till")] == []
