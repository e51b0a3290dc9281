"""The days a document tells in order (engine/structured/told_days.py), issue 28: a shift counts
from the last day told before it, a weekday of a month takes its year or month from the days
around it, and a top-level date member takes the day told right after a word of its own name,
fixed in the fill and noted in the review."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured.event_days import LEAD_DAYS, event_days, lone_date_span
from engine.structured.member_days import told_span
from engine.structured.told_days import told_days
from tests.helpers.fills import json_fill

DATE = {"type": "string", "format": "date"}


def day(iso: str) -> float:
    return float(dt.date.fromisoformat(iso).toordinal())


def told_on(document: str, key: str) -> tuple[str, str] | None:
    found = told_span(told_days(document), document, key)
    if found is None:
        return None
    first, last = (dt.date.fromordinal(int(d)).isoformat() for d in (found.first, found.last))
    return first, last


def obj(properties: dict[str, object]) -> dict[str, object]:
    return {"type": "object", "required": list(properties), "properties": properties}


def test_a_shift_counts_from_a_day_written_in_numbers() -> None:
    text = "The ferry leaves Oban on 14/10/2026 at noon. The way back is six nights later."
    assert [t.first for t in told_days(text)] == [day("2026-10-14"), day("2026-10-20")]
    ranges = "The fair is on 3-5.6.2027; the stalls come down a day later."
    first = told_days(ranges)[0]
    assert (first.first, first.last) == (day("2027-06-03"), day("2027-06-05"))


def test_a_numeric_day_of_unknown_order_is_no_year_long_day() -> None:
    """Where the document does not show which part is the day, the date is no day told,
    and its year alone is no period to count a shift from either; dots write the day first."""
    text = "The survey was done on {}; the report came a week later."
    assert told_days(text.format("03/04/2026")) == ()
    dotted = [t.first for t in told_days(text.format("3.4.2026"))]
    assert dotted == [day("2026-04-03"), day("2026-04-10")]


def test_a_two_digit_year_is_read_and_dates_the_days_around_it() -> None:
    text = "Ticket 51, issued 9.3.27; the repair is collected on 2 April, a week after it is done."
    assert [t.first for t in told_days(text)][:2] == [day("2027-03-09"), day("2027-04-02")]
    listed = "Open days are 21/22/23 May 2027 at the mill."
    assert [(t.first, t.last) for t in told_days(listed)] == [
        (day("2027-05-21"), day("2027-05-23"))
    ]  # three days listed, no date in numbers: there is no month 15


def test_a_yearless_day_long_before_the_dated_one_falls_the_next_year() -> None:
    text = "Order placed 28 November 2027. Returns are accepted until 10 January."
    assert [t.first for t in told_days(text)] == [day("2027-11-28"), day("2028-01-10")]
    near = "Order placed 28 November 2027. The parcel left the depot on 3 November."
    assert [t.first for t in told_days(near)][1] == day("2027-11-03")
    past = "Minutes of 20 November 2027. We reviewed the invoice we paid on 2 February."
    assert [t.first for t in told_days(past)][1] == day("2027-02-02")


def test_a_yearless_day_takes_the_year_its_written_weekday_falls_in() -> None:
    text = "The office shuts on Wednesday 23 December and opens again on Tuesday 5 January 2027."
    assert [t.first for t in told_days(text)] == [day("2026-12-23"), day("2027-01-05")]
    after = "Term ended on 18 December 2026; the first club night is Friday, the 8th of January."
    assert [t.first for t in told_days(after)][1] == day("2027-01-08")


def test_a_shift_counts_from_the_last_day_told_before_it() -> None:
    text = "We planted the beds on 3 March 2027, and the first shoots showed two weeks later."
    assert told_on(text, "shoots_seen_on") == ("2027-03-17",) * 2
    back = "The tiles went on on 9 June 2027. The grout had been mixed 3 days earlier."
    assert told_on(back, "grout_mixed_on") == ("2027-06-06",) * 2
    months = "The lease began on 31 January 2027 and the rent review falls 1 month after."
    assert told_on(months, "rent_review_date") == ("2027-02-28",) * 2  # the calendar's month
    nth = "The lease ends on 30 June 2027; keys go back by the third day after that."
    assert [t.first for t in told_days(nth)] == [day("2027-06-30"), day("2027-07-03")]
    ahead = "The recital is on 12 May 2028. Piano tuning must be booked 10 days beforehand."
    assert told_on(ahead, "tuning_booked_by") == ("2028-05-02",) * 2
    advance = "The recital is on 12 May 2028; book the hall tuner two weeks in advance."
    assert told_on(advance, "tuner_booking") == ("2028-04-28",) * 2


def test_a_weekday_of_a_month_takes_its_year_from_the_day_before_it() -> None:
    text = "The audit closed on 9 June 2026; the review board meets on the last Friday of October."
    assert told_on(text, "board_meeting") == ("2026-10-30",) * 2
    assert told_on("The hall is let until the first day of March 2027.", "hall_let") == (
        "2027-03-01",
        "2027-03-01",
    )


def test_of_the_month_is_the_month_its_sentence_names() -> None:
    text = "The choir sings on the third Sunday of the month, and the May 2027 service is special."
    assert told_on(text, "choir_sings_on") == ("2027-05-16",) * 2


def test_a_listed_ordinal_is_a_series_not_one_day() -> None:
    text = "From 4 January 2027 the club opens on the 1st and 3rd Tuesday of every month."
    assert [t.how for t in told_days(text) if t.how] == []


def test_the_following_weekday_and_the_end_of_a_length() -> None:
    fair = "The fair opens on Thursday 4 March 2027 and the judging is the following Saturday."
    assert told_on(fair, "judging_date") == ("2027-03-06",) * 2
    course = "She began on 1 February 2027 for six weeks; the exam is a week after the course ends."
    assert told_on(course, "exam_date") == ("2027-03-21",) * 2


def test_one_unit_beside_a_shift_the_end_of_a_month_and_a_day_by_its_ordinal() -> None:
    gala = "The gala is on 12 June 2027; volunteers set up the day before."
    assert told_on(gala, "volunteers_set_up") == ("2027-06-11",) * 2
    show = "The show runs 3-5 June 2027, and the get-out is the day after."
    assert told_on(show, "get_out_date") == ("2027-06-06",) * 2  # after its last day
    paid = "Invoices dated 3 May 2027 must be paid by the end of the month."
    found = [t for t in told_days(paid) if t.how]
    assert [(t.how, t.deadline) for t in found] == [("end of May 2027", True)]
    back = "Our plumber came on Monday 1 March 2027 and is back on Tuesday the 9th."
    assert told_on(back, "plumber_back") == ("2027-03-09",) * 2
    assert [t.how for t in told_days("On 1 March 2027 we moved to the 12th floor.") if t.how] == []


def test_a_range_shift_a_length_as_a_thing_and_a_weekday_after_or_before() -> None:
    kiln = "We fired the kiln on 4 March 2027; the glaze sets within 2 to 3 weeks of firing."
    assert told_on(kiln, "glaze_ready_on") == ("2027-03-18", "2027-03-25")
    bike = "The bike was bought on 10 May 2026 with a three-year frame guarantee."
    assert told_on(bike, "guarantee_expiry") == ("2029-05-09",) * 2
    fair = "The fair closes on Sunday 7 March 2027, and the judges meet the Friday before."
    assert told_on(fair, "judges_meet_on") == ("2027-03-05",) * 2
    show = "The dog show is on 1 May 2027 and the prize-giving is the Tuesday straight after."
    assert told_on(show, "prize_giving") == ("2027-05-04",) * 2


def test_a_thing_word_that_only_modifies_a_noun_does_not_date_the_thing() -> None:
    text = (
        "The regatta is on Saturday 4 July 2026; crews must email the regatta office by the "
        "Monday before. Boats may be rigged the evening before the regatta."
    )
    assert told_on(text, "rigging_date") == ("2026-07-03",) * 2
    day = "Regatta day is Saturday 4 July 2026. Boats are rigged the evening before the regatta."
    assert told_on(day, "rigging_date") == ("2026-07-03",) * 2


def test_a_counted_meeting_of_the_series_and_a_weekday_of_a_numbered_week() -> None:
    band = (
        "The brass band practises every Thursday from 7 January 2027. "
        "Our fourth practice is the showcase."
    )
    assert told_on(band, "showcase_date") == ("2027-01-28",) * 2
    league = "We play a match every Tuesday from 5 January 2027. Match 3 is the cup tie."
    assert told_on(league, "cup_tie_date") == ("2027-01-19",) * 2
    assert [t.how for t in told_days("Yoga is every Monday from 4 January 2027 in room 5.")
            if t.how] == []  # fmt: skip
    plan = "The 12-week course starts on Monday 4 January 2027; the exam is the Friday of week 12."
    assert told_on(plan, "exam_date") == ("2027-03-26",) * 2
    nought = "The course starts on Monday 4 January 2027; the exam is the Friday of week 0."
    assert told_on(nought, "exam_date") is None  # no week before the first


def test_an_end_takes_no_day_told_after_a_joiner_with_a_subject_of_its_own() -> None:
    text = "Entries close on 2 May 2027, and marking starts a week later."
    assert told_on(text, "entries_close") == ("2027-05-02",) * 2
    same = "Tents go up on 2 May 2027 and must come down by 9 May."
    assert told_on(same, "tents_down") == ("2027-05-09",) * 2


def test_a_counting_name_takes_the_day_told_after_its_count_and_thing() -> None:
    text = "The hedge gets a first trim on 2 May 2027 and a second trim six weeks after that."
    assert told_on(text, "second_trim") == ("2027-06-13",) * 2
    assert told_on(text, "third_trim") is None  # never written: a series' or nothing


def test_two_compounds_of_one_word_name_no_act_in_common() -> None:
    text = "Minutes of the trackside club, 3 March 2027: the trackday is the last Sunday of May."
    assert told_on(text, "trackday_date") == ("2027-05-30",) * 2  # not the trackside's day
    forms = "The forms were submitted on 3 March 2027."
    assert told_on(forms, "submission_date") == ("2027-03-03",) * 2  # one word's forms


def test_a_day_in_a_relative_clause_is_the_things_it_follows() -> None:
    text = "Bookings close a week before the fair, which opens on Saturday 5 June 2027."
    assert [t.first for t in told_days(text)] == [day("2027-05-29"), day("2027-06-05")]
    assert told_on(text, "bookings_close") == ("2027-05-29",) * 2


def test_the_following_business_day_skips_the_weekend() -> None:
    text = "Rent is due on Friday 5 March 2027; unpaid, a fee applies the following business day."
    assert [t.first for t in told_days(text)] == [day("2027-03-05"), day("2027-03-08")]


def test_a_shift_from_today_counts_from_the_documents_own_day() -> None:
    text = "Notes of the garden committee, 3 March 2027. We meet again 28 days from today."
    assert [t.first for t in told_days(text)] == [day("2027-03-03"), day("2027-03-31")]


def test_a_shift_after_a_thing_ends_counts_from_the_last_day_of_its_length() -> None:
    text = (
        "Joiners fit the loft hatch from Monday 4 October 2027 for three working days; the "
        "scaffold goes up the Friday before. The skip goes two days after they finish."
    )
    assert [t.first for t in told_days(text)][-1] == day("2027-10-08")


def test_a_weekday_and_an_ordinal_without_the_name_a_day() -> None:
    text = "Note of Sun 3 Oct 2027: the van is due back Friday 8th."
    assert [t.first for t in told_days(text) if t.how] == [day("2027-10-08")]


def test_a_shift_from_that_date_counts_from_the_day_just_told() -> None:
    text = "Your form reached us on 3 May 2027. We have eight weeks from that date to reply."
    told = [t for t in told_days(text) if t.how]
    assert [t.first for t in told] == [day("2027-06-28")]
    assert told[0].how == "8 weeks from 2027-05-03"


def test_a_weekday_a_comma_and_an_ordinal_name_a_day() -> None:
    text = "Note of Mon 4 Oct 2027: the quiz is next Friday, the 15th, in the hall."
    assert [t.first for t in told_days(text) if t.how] == [day("2027-10-15")]


def test_an_ordinal_told_first_takes_the_month_written_after_it() -> None:
    text = (
        "Can you take my stall on the 12th if I do yours the Sunday after? "
        "It is for the June 2027 fair."
    )
    assert [t.first for t in told_days(text) if t.how] == [day("2027-06-12"), day("2027-06-13")]
    rule = (
        "Fees are set on the first day of the month and are paid on the 20th. "
        "The May 2027 fee is £5."
    )
    assert [t for t in told_days(rule) if t.how] == []  # of the month the rule names


def test_the_same_day_next_week_and_the_day_after_that() -> None:
    text = (
        "The parcel reached the depot on Thursday 4 March 2027. It is held until the same day "
        "next week, and goes back to the sender the day after that."
    )
    assert [t.first for t in told_days(text) if t.how] == [day("2027-03-11"), day("2027-03-12")]


def test_a_shift_from_the_date_of_this_letter_counts_from_its_own_day() -> None:
    text = "Letter of 7 June 2027. Your tenancy ends eight weeks from the date of this letter."
    told = [t for t in told_days(text) if t.how]
    assert [t.first for t in told] == [day("2027-08-02")]
    assert told[0].how == "8 weeks from the date of this letter on 2027-06-07"


def test_a_shift_to_the_day_counts_as_the_shift() -> None:
    text = "The boat licence was issued on 2 May 2027 and lapses five years to the day after issue."
    assert [t.first for t in told_days(text) if t.how] == [day("2032-05-02")]


def test_a_weekday_beforehand_is_the_one_before_the_day_told() -> None:
    text = (
        "The fence is painted on Wednesday 6 October 2027; move the pots by the Friday beforehand."
    )
    assert [t.first for t in told_days(text) if t.how] == [day("2027-10-01")]


def test_a_shift_after_a_period_ends_counts_from_its_last_day() -> None:
    text = (
        "The pool is shut from Monday 4 October 2027 to Friday 15 October 2027. "
        "Lessons restart a week after it reopens, and the deep clean is two days after it ends."
    )
    assert [t.first for t in told_days(text) if t.how][-1] == day("2027-10-17")


def test_tomorrow_and_yesterday_count_from_the_documents_own_day() -> None:
    text = "Sent Tue 9 Nov 2027. Yesterday's class ran late; tomorrow's is cancelled."
    assert [t.first for t in told_days(text) if t.how] == [day("2027-11-08"), day("2027-11-10")]
    ahead = "The trial starts tomorrow (today is Thursday 5 August 2027)."
    assert [t.first for t in told_days(ahead) if t.how] == [day("2027-08-06")]


def test_the_next_one_of_a_kind_is_only_a_next_members() -> None:
    text = "Panel meeting held on 3 March 2027. The next meeting is 28 days from today."
    assert told_on(text, "meeting_date") == ("2027-03-03",) * 2
    assert told_on(text, "next_meeting") == ("2027-03-31",) * 2


def test_a_gerund_names_the_act_its_verb_does() -> None:
    text = "The return must be filed by 31 January 2028."
    assert told_on(text, "filing_deadline") == ("2028-01-31",) * 2


def test_a_start_and_an_end_are_of_the_thing_told_with_two_days() -> None:
    text = (
        "Bookings for the summer school open on 2 March 2027. "
        "The summer school runs from 12 July to 16 July 2027."
    )
    assert told_on(text, "school_start") == ("2027-07-12",) * 2
    assert told_on(text, "school_end") == ("2027-07-16",) * 2
    assert told_on(text, "booking_opens") == ("2027-03-02",) * 2


def test_a_name_with_no_word_of_its_own_or_that_counts_or_far_away_takes_nothing() -> None:
    text = "We planted the beds on 3 March 2027, and the first shoots showed two weeks later."
    assert told_on(text, "start_date") is None
    assert told_on(text, "second_bed_planted") is None  # a counted member is a series'
    far = "The beds we dug by the old wall behind the shed and the pond were planted on 3 May 2027."
    assert told_on(far, "beds_date") is None


def test_a_deadline_dates_an_act_on_or_before_it_unless_the_name_dates_the_deadline() -> None:
    text = "Boxes must reach the loading bay by 1 March 2027."
    event = event_days(text)
    assert event is not None
    by = day("2027-03-01")
    assert lone_date_span(event, "boxes_delivered_on", 1, []) == (by - LEAD_DAYS, by)
    assert lone_date_span(event, "boxes_deadline", 1, []) == (by, by)


def test_a_deadline_told_as_a_period_is_its_last_day_for_a_name_that_dates_it() -> None:
    text = "Sign-up for the league is open; forms have to be with us by the end of March 2027."
    event = event_days(text)
    assert event is not None
    assert lone_date_span(event, "forms_deadline", 1, []) == (day("2027-03-31"),) * 2
    end = day("2027-03-31")
    assert lone_date_span(event, "forms_received_on", 1, []) == (end - LEAD_DAYS, end)


def test_a_month_followed_by_next_or_the_following_year_steps_from_the_year_written() -> None:
    text = "Our fete was on Sunday 5 September 2027. The shed is ours to the end of May next year."
    assert [t.last for t in told_days(text)][-1] == day("2028-05-31")
    following = (
        "Tickets bought on 2 November 2027 can be swapped until 10 February of the following year."
    )
    assert [t.first for t in told_days(following)][-1] == day("2028-02-10")
    other = "Our fete was on 5 September 2027 and the next one is on 3 September."
    assert [t.first for t in told_days(other)][-1] == day("2027-09-03")  # no year step said


@pytest.mark.parametrize("seed", range(2))
def test_a_fill_fixes_the_told_day_and_says_how_it_was_counted(seed: int) -> None:
    text = (
        "I sat my pottery exam on 22 May 2025 and the results came out exactly six weeks later.\n\n"
    )
    schema = obj({"exam_date": DATE, "results_date": DATE, "grade": {"type": "string"}})
    filled = json_fill(schema, text, seed)
    assert (filled.value["exam_date"], filled.value["results_date"]) == (
        "2025-05-22",
        "2025-07-03",
    )
    assert "/results_date = 2025-07-03 (6 weeks later than 2025-05-22)" in filled.proposal.notes


@pytest.mark.parametrize("seed", range(2))
def test_a_fill_fixes_a_deadline_told_as_a_period_on_its_last_day(seed: int) -> None:
    text = (
        "Your allotment tenancy ends on 30.9.27. Tell us before the end of August if you "
        "want to keep the plot; the new tenancy starts the day after the old one ends.\n\n"
    )
    schema = obj({"tenancy_end": DATE, "reply_deadline": DATE, "new_tenancy_start": DATE})
    filled = json_fill(schema, text, seed)
    assert filled.value["reply_deadline"] == "2027-08-31"


@settings(max_examples=40, deadline=None)
@given(
    start=st.dates(dt.date(2000, 1, 1), dt.date(2090, 12, 31)),
    count=st.integers(2, 30),
    unit=st.sampled_from(["day", "week", "fortnight"]),
    way=st.sampled_from(["later", "earlier"]),
)
def test_any_shift_is_counted_in_whole_units(
    start: dt.date, count: int, unit: str, way: str
) -> None:
    length = count * {"day": 1, "week": 7, "fortnight": 14}[unit]
    text = f"The kiln was lit on {start.day} {start:%B %Y}. It cooled {count} {unit}s {way}."
    counted = [t for t in told_days(text) if t.how]
    wanted = start.toordinal() + (length if way == "later" else -length)
    assert [t.first for t in counted] == [wanted]


@settings(max_examples=60, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab 19 May June last first Friday of the month,.")),
               max_size=80))  # fmt: skip
def test_any_text_reads_as_days_in_order_or_none(text: str) -> None:
    found = told_days(text)
    assert [t.start for t in found] == sorted(t.start for t in found)
    assert all(t.first <= t.last for t in found)


def test_a_limit_on_a_length_ends_that_much_later() -> None:
    text = "I sent the visa form on 1 March 2027 and the embassy says to allow up to six weeks."
    assert [t.how for t in told_days(text) if t.how] == ["6 weeks at most from 2027-03-01"]
    assert told_on(text, "embassy_reply_by") == ("2027-04-12",) * 2
    within = "The parcel left on 3 May 2027 and should come within 5 days."
    assert [(t.first, t.last) for t in told_days(within) if t.how] == [(day("2027-05-08"),) * 2]


def test_a_first_thing_the_document_tells_is_its_day_unless_a_series_counts_it() -> None:
    text = "Term starts on Monday 6 September 2027, and our first hockey match is a week later."
    assert told_on(text, "first_match_date") == ("2027-09-13",) * 2
    assert told_on("The print fair runs from 8 to 10 October 2027.", "fair_day_one") is None


def test_any_weekday_of_a_month_is_the_days_from_its_first_to_its_last() -> None:
    text = "The reunion will be on a Friday in October 2027; replies by 1 August."
    first, last = day("2027-10-01"), day("2027-10-29")
    assert [(t.first, t.last) for t in told_days(text) if t.how] == [(first, last)]
    assert told_on(text, "reunion_date") == ("2027-10-01", "2027-10-29")


def test_a_length_of_one_unit_is_written_in_the_singular() -> None:
    text = "The dryer was installed on 4 March 2026 with a one-year guarantee."
    assert [t.how for t in told_days(text) if t.how] == ["end of 1 year from 2026-03-04"]


def test_a_shift_that_names_its_thing_counts_from_that_things_day() -> None:
    text = (
        "The lease starts on 1 March 2027 and the first rent review is on 1 June 2027. "
        "The break clause may be used two years after the start of the lease."
    )
    assert told_on(text, "break_clause_date") == ("2029-03-01",) * 2
    # a thing the document never dated: the last day told, as before
    plain = "The boiler was fitted on 4 May 2027, and the first service is a year after that."
    assert [t.how for t in told_days(plain) if t.how] == ["a year after 2027-05-04"]


def test_a_second_shift_from_the_same_thing_counts_from_where_the_first_did() -> None:
    text = (
        "She broke her wrist on 2 February 2027. The cast comes off six weeks after the "
        "fracture, and the physio review is ten weeks after the fracture."
    )
    days = [(t.how, iso(t.first)) for t in told_days(text) if t.how]
    # the fracture is dated by no word, so the first shift counts from the day before it
    assert days == [
        ("6 weeks after 2027-02-02", "2027-03-16"),
        ("10 weeks after the fracture on 2027-02-02", "2027-04-13"),
    ]
    # the member the thing names takes the day it counts from, not the shifted day
    assert told_on(text, "fracture_date") == ("2027-02-02",) * 2


def test_a_member_named_by_the_act_after_a_shifts_subject_takes_its_origin() -> None:
    """ "Three weeks after we planted them": the planting is the day the shift counts from."""
    text = (
        "The seeds arrived on 2 April 2027 and went in on the 9th of that month. "
        "The first flowers opened three weeks after we planted them."
    )
    assert told_on(text, "planted_on") == ("2027-04-09",) * 2
    assert told_on(text, "flowers_date") == ("2027-04-30",) * 2


def test_a_shift_before_an_act_counts_from_the_day_of_that_act() -> None:
    """ "The day before we sail" counts from the day told beside "sail", not the last one;
    a helper verb ("before we can") names no act, so the shift counts from the last day."""
    text = (
        "We sail from Leith on Friday 4 June 2027 and dock again nine days later. "
        "The boat is loaded the day before we sail."
    )
    assert [t.how for t in told_days(text) if t.how][-1] == "the day before we sail on 2027-06-04"
    helper = "We sail on Friday 4 June 2027 and dock on 13 June. We pack the day before we can."
    assert [t.first for t in told_days(helper)][-1] == day("2027-06-12")


def test_a_shift_before_a_thing_counts_from_the_day_written_right_after_it() -> None:
    """ "The Friday before the fair on Sunday 9 May" counts from 9 May; a day set off by a
    comma restates the shift's own day ("two days after it opens, on 4 June")."""
    text = "Stalls open on 1 May 2027; we set up the Friday before the fair itself on 9 May."
    assert [t.first for t in told_days(text) if t.how] == [day("2027-05-07")]
    days = "The hire starts on 2 June 2027; the van is back three days before the show on 20 June."
    assert [t.how for t in told_days(days) if t.how] == ["3 days before the show on 2027-06-20"]
    aside = "The course runs from 2 June 2027. Two days after it starts, on 4 June 2027, we sail."
    assert [t.first for t in told_days(aside) if t.how] == [day("2027-06-04")]


def test_invoice_terms_net_a_length_are_due_that_much_later() -> None:
    text = "Invoice 88 for the boiler service, issued 4 May 2027, is payable net 14 days."
    assert told_on(text, "payable_by") == ("2027-05-18",) * 2


def test_a_part_of_the_day_before_or_after_is_that_day() -> None:
    text = "The jumble sale is on Saturday 6 March 2027: tables go up the evening before."
    assert [t.first for t in told_days(text) if t.how] == [day("2027-03-05")]
    after = "The jumble sale is on Saturday 6 March 2027, and we sweep the hall the morning after."
    assert [t.first for t in told_days(after) if t.how] == [day("2027-03-07")]
    counted = "The sale is on Saturday 6 March 2027 and again three mornings later."
    assert [t.first for t in told_days(counted) if t.how] == []


def test_a_thing_named_by_a_gerund_is_the_act_of_its_verb() -> None:
    text = (
        "Bids open on 2 August 2027 and the auction closes on 16 August. "
        "Winners pay within ten days of the closing date."
    )
    assert [t.first for t in told_days(text) if t.how] == [day("2027-08-26")]


def test_only_an_end_or_a_later_date_takes_the_last_day_of_a_length() -> None:
    text = "On 3 May 2027 I priced the fence, and the price stands for 14 days."
    assert told_on(text, "price_valid_until") == ("2027-05-16",) * 2
    assert told_on(text, "price_date") == ("2027-05-03",) * 2


def test_a_name_with_no_word_of_its_own_takes_the_day_after_it_written_whole() -> None:
    text = "Offer letter, 2 May 2027. Your start date will be the first Tuesday in June."
    assert told_on(text, "start_date") == ("2027-06-01",) * 2
    assert told_on("Offer letter, 2 May 2027. We start in June.", "start_date") is None


def test_a_hyphened_length_before_its_thing_ends_that_thing() -> None:
    text = "The lease begins on Monday 3 May 2027, with a six-month break clause period."
    assert told_on(text, "break_clause_end") == ("2027-11-02",) * 2
    assert told_on(text, "break_clause_date") is None  # no end: the length is not its day


def test_a_member_the_thing_of_a_limit_names_takes_that_things_day() -> None:
    text = (
        "Order 118 from Pell Timber, placed on 4 March 2027 for decking boards. "
        "Returns are accepted within 30 days of the order date."
    )
    assert told_on(text, "order_date") == ("2027-03-04",) * 2
    assert [t.first for t in told_days(text) if t.how] == [day("2027-04-03")]


def test_a_later_limit_of_the_same_thing_counts_from_its_day_not_the_first_limits() -> None:
    text = (
        "Hire ref 42: the van is yours from 4 May 2026. It can be handed back up to 30 days "
        "from the lease date. Insurance must be arranged within 7 days of leasing."
    )
    assert told_on(text, "lease_date") == ("2026-05-04",) * 2
    assert [t.how for t in told_days(text) if t.how] == [
        "30 days at most from 2026-05-04",
        "7 days at most from 2026-05-04",
    ]


def test_an_end_named_as_a_deadline_is_as_near_as_the_first_day_told_after_its_word() -> None:
    text = (
        "Grant applications can be sent in from Monday 3 May 2027 and need to be with the "
        "trust office at the latest on Friday 21 May."
    )
    assert told_on(text, "applications_close") == ("2027-05-21",) * 2


def test_a_limit_followed_by_before_counts_back() -> None:
    text = "The lease ends on 30 June 2027. Tenants may give notice up to two months before."
    assert [t.first for t in told_days(text) if t.how] == [day("2027-04-30")]


def test_a_length_followed_by_before_counts_back() -> None:
    text = "We sail to Bergen on Friday 9 July 2027; the jab is booked for two weeks before that."
    assert [t.first for t in told_days(text) if t.how] == [day("2027-06-25")]


def test_up_to_and_including_joins_one_things_first_and_last_day() -> None:
    text = "The pool shuts from Monday 3 August 2026 up to and including Friday 14 August."
    assert told_on(text, "pool_shut_start") == ("2026-08-03",) * 2
    assert told_on(text, "pool_shut_end") == ("2026-08-14",) * 2


def test_a_name_with_only_an_act_takes_the_day_right_after_the_act() -> None:
    text = "Gas safety certificate. Issued 14.2.27 by R. Cole, engineer no. 4471."
    assert told_on(text, "issue_date") == ("2027-02-14",) * 2
    stay = "We arrive on Monday 3 May 2027 and fly home on the 10th."
    assert told_on(stay, "arrival") == ("2027-05-03",) * 2
    assert told_on(stay, "start_date") is None  # no thing and no act


def test_a_name_with_a_thing_and_an_act_takes_the_day_told_after_either() -> None:
    text = "The ferry is withdrawn on Monday 9 November 2026 and will return three weeks later."
    assert told_on(text, "return_to_service") == ("2026-11-30",) * 2


def test_a_word_counted_as_another_one_names_no_day_of_the_counted_member() -> None:
    text = "The first fitting is on Tuesday 4 May 2027. The second fitting is a week later."
    assert told_on(text, "first_fitting") == ("2027-05-04",) * 2
    assert told_on(text, "second_fitting") == ("2027-05-11",) * 2


def test_an_ordinal_after_for_is_a_day_of_the_month_unless_it_counts_a_noun() -> None:
    text = "Boiler fitted on Monday 3 May 2027; the follow-up is booked for the 17th."
    assert [t.how for t in told_days(text) if t.how] == ["the 17th after 2027-05-03"]
    counted = "Walks run every other Sunday from 2 May 2027, and I'm down for the third one."
    assert not [t for t in told_days(counted) if t.how.startswith("the 3rd after")]


def test_a_shift_back_from_a_stay_counts_from_its_first_day() -> None:
    text = "Check in on Friday 6 August 2027 for 4 nights. Cancel free until 5 days before."
    assert [t.how for t in told_days(text) if t.how][-1] == "5 days before 2027-08-06"


def test_a_stay_of_nights_is_a_length() -> None:
    text = "The group arrives on Friday 6 August 2027 and stays three nights at the lodge."
    assert [t.how for t in told_days(text) if t.how] == ["end of 3 nights from 2027-08-06"]


def test_a_length_from_the_date_of_a_thing_runs_that_long_after_its_day() -> None:
    text = (
        "Mower repaired and paid for on Monday 3 May 2027. Parts guaranteed for 30 days from "
        "the date of the repair. A check-up is booked for the 20th."
    )
    assert [t.how for t in told_days(text) if t.how] == [
        "for 30 days from 2027-05-03",
        "the 20th after 2027-05-03",
    ]
    assert [iso(t.first) for t in told_days(text) if t.how] == ["2027-06-02", "2027-05-20"]


def test_a_compound_names_no_thing_of_its_last_part_alone() -> None:
    text = (
        "Spring term 2027 at Elm Park. Half-term runs from Monday 15 February to Friday 19 "
        "February. Term finishes on Thursday 1 April."
    )
    assert told_on(text, "term_end") == ("2027-04-01",) * 2
    sale = "Pre-orders open on 3 May 2027. Orders ship on 20 May 2027."
    assert told_on(sale, "preorder_opens") == ("2027-05-03",) * 2


def test_a_first_birthday_counts_a_year_from_the_birth() -> None:
    text = (
        "Noor was born on 3 March 2027, and for her first birthday we'll have a picnic on the "
        "Sunday after the big day."
    )
    assert told_on(text, "first_birthday") == ("2028-03-03",) * 2


def test_an_aside_in_brackets_stands_no_words_between_a_name_and_its_day() -> None:
    text = (
        "Thanks for your booking (ref 4471, two adults, one small dog and a cat) made on "
        "3 May 2027. Rooms are ready on 9 May 2027."
    )
    assert told_on(text, "booking_date") == ("2027-05-03",) * 2


def test_a_counting_name_takes_the_day_told_after_its_thing_and_number() -> None:
    text = "Fitting 1: Monday 3 May 2027. Fitting 2, for the hem, is ten days after that."
    assert told_on(text, "second_fitting") == ("2027-05-13",) * 2


def test_a_length_after_in_is_the_day_that_much_later() -> None:
    text = "The boiler was serviced on 2 March 2027; the next check is due in 12 months."
    assert [t.first for t in told_days(text) if t.how] == [day("2028-03-02")]
    time = "Seen by the optician on 2 March 2027: come back in two years' time."
    assert [t.first for t in told_days(time) if t.how] == [day("2029-03-02")]
    assert [t for t in told_days("Seen on 2 March 2027 in 3 rooms.") if t.how] == []


def test_a_length_right_after_its_day_is_how_long_came_before_it() -> None:
    text = "They reached the summit on 2 June 2027 after nine days on the mountain."
    assert [t for t in told_days(text) if t.how] == []


def test_working_days_count_the_weekdays_monday_to_friday() -> None:
    text = "The frame went in on Friday 4 June 2027 and should be ready in 2 to 4 working days."
    found = [t for t in told_days(text) if t.how]
    assert [(t.first, t.last) for t in found] == [(day("2027-06-08"), day("2027-06-10"))]
    back = "The hearing is on Monday 7 June 2027; papers are due 3 business days before."
    assert [t.first for t in told_days(back) if t.how] == [day("2027-06-02")]


@given(st.dates(dt.date(2025, 1, 1), dt.date(2028, 12, 31)), st.integers(1, 30))
@settings(max_examples=40, deadline=None)
def test_a_count_of_working_days_never_ends_on_a_weekend(start: dt.date, count: int) -> None:
    text = f"Filed on {start.day} {start:%B %Y}; the answer comes in {count} working days."
    found = [t for t in told_days(text) if t.how]
    assert len(found) == 1
    end = dt.date.fromordinal(int(found[0].first))
    assert end.weekday() < 5 and count <= (end - start).days <= count * 7 // 5 + 3


def test_a_day_before_a_members_word_across_and_is_another_acts() -> None:
    text = "We spotted the leak on 2 May 2027 and fixed it for the tenants three days after."
    assert told_on(text, "fixed_on") == ("2027-05-05",) * 2


def test_a_limit_of_a_dated_thing_counts_from_that_day() -> None:
    text = (
        "The flat was inspected on 6 September 2027, and the report went out on 9 September. "
        "Any repairs must be done within 8 weeks of the inspection."
    )
    assert [t.how for t in told_days(text) if t.how] == ["8 weeks at most from 2027-09-06"]


def iso(day: float) -> str:
    return dt.date.fromordinal(int(day)).isoformat()


def test_a_range_of_lengths_ends_within_the_days_its_two_lengths_end() -> None:
    text = "The roofers start on Monday 3 May 2027 and say the job takes three to four weeks."
    assert [(t.first, t.last) for t in told_days(text) if t.how] == [
        (day("2027-05-23"), day("2027-05-30"))
    ]


def test_the_next_afternoon_is_the_day_after_the_day_told_before_it() -> None:
    text = (
        "The ferry sails on Friday 8 October 2027 at 22:00 and docks in Bilbao the next afternoon."
    )
    assert told_on(text, "docking_date") == ("2027-10-09",) * 2
    assert [t.how for t in told_days("The next meeting is on 3 May 2027.") if t.how] == []


def test_from_shifts_a_day_only_from_a_thing_the_document_dated() -> None:
    text = (
        "The invoice was issued on 3 March 2027 and a reminder went out on 20 March. "
        "Payment is due 60 days from the invoice date."
    )
    assert [t.how for t in told_days(text) if t.how] == [
        "60 days from the invoice date on 2027-03-03"
    ]
    # a length from a day written after "from", not a day two weeks on
    length = "The pool opened on 1 June 2027. It is open for 2 weeks from 5 July too."
    assert [t.how for t in told_days(length) if t.how] == ["end of 2 weeks from 2027-07-05"]


def test_a_year_written_as_a_label_is_no_members_day() -> None:
    text = "Entries for the 2027 regatta are taken until 3 May 2027."
    assert told_on(text, "entries_deadline") == ("2027-05-03",) * 2


def test_after_a_count_and_a_unit_is_the_day_that_long_after_the_last_day_told() -> None:
    text = "Umbrellas left at reception on 3 March 2027 go to a charity shop after 6 weeks."
    assert [t.first for t in told_days(text)] == [day("2027-03-03"), day("2027-04-14")]
    assert told_on(text, "charity_shop_date") == ("2027-04-14",) * 2


def test_a_wait_before_then_runs_out_that_long_after_the_last_day_told() -> None:
    text = (
        "The new fence posts went in on 4 October 2027. Let the concrete cure for 10 days, then"
        " fit the panels."
    )
    assert [t.first for t in told_days(text)] == [day("2027-10-04"), day("2027-10-14")]
    assert told_days(text)[-1].how == "a wait of 10 days from 2027-10-04"


def test_a_limit_of_a_thing_counts_from_the_day_told_beside_its_verb() -> None:
    text = "The lease was signed on 2 June 2027. Keys are collected within ten days of signing."
    assert [t.first for t in told_days(text)] == [day("2027-06-02"), day("2027-06-12")]


def test_a_noun_made_from_a_verb_names_the_act_that_verb_tells() -> None:
    text = "The boiler was serviced on 3 May 2027. Please pay the engineer 14 days later."
    assert told_on(text, "payment_date") == ("2027-05-17",) * 2
    assert told_on(text, "final_date") is None  # "final" is no noun made from a verb


def test_a_limit_in_a_sentence_with_no_day_counts_from_the_last_day_written() -> None:
    text = (
        "Your MOT is booked for Tuesday 9 March 2027. Drop the car off the evening before."
        " The garage will call within three working days."
    )
    assert told_days(text)[-1].first == day("2027-03-12")  # not from the evening before


def test_a_word_followed_by_again_dates_the_next_one_only() -> None:
    text = (
        "The chimney was swept by Ed Cole on 2 May 2027; it must be swept again within 12 months."
    )
    assert told_on(text, "swept_on") == ("2027-05-02",) * 2


def test_an_irregular_past_and_a_noun_from_the_same_verb_name_one_act() -> None:
    paid = "The hall was booked on 1 June 2027 and we paid the deposit on 4 June 2027."
    assert told_on(paid, "payment_date") == ("2027-06-04",) * 2
    own = "Bill of 1 June 2027, payment terms net 14 days; paid by card on 9 June 2027."
    assert told_on(own, "paid_on") == ("2027-06-09",) * 2  # its own word before "payment"


def test_a_length_in_a_sentence_with_no_day_starts_on_the_thing_a_start_verb_names() -> None:
    text = (
        "The vet signed the form on 6 April 2027. Give the puppy one drop for 7 days, starting"
        " on the day of the signing, then book a check-up for the Friday after the last drop."
    )
    assert [t.first for t in told_days(text) if t.how][:1] == [day("2027-04-12")]
    assert told_days(text)[-1].first == day("2027-04-16")


def test_a_notice_period_runs_from_the_documents_day_or_the_thing_named_after_from() -> None:
    letter = (
        "12 March 2027\nDear Ms Hale, I give one calendar month's notice to vacate Flat 2, let"
        " to me since 1 June 2025, the notice running from the date of this letter. I will hand"
        " back the keys within 2 days after vacating."
    )
    assert told_on(letter, "vacate_by") == ("2027-04-12",) * 2
    assert told_on(letter, "keys_returned_by") == ("2027-04-14",) * 2
    served = "The warning was issued on 3 May 2027; you have 4 weeks notice from the issue date."
    assert [t.first for t in told_days(served) if t.how] == [day("2027-05-31")]


def test_a_termination_takes_the_last_day_of_the_notice_before_its_word() -> None:
    text = "Letter of 2 August 2027: we give three months' notice to terminate our cleaning deal."
    assert told_on(text, "termination_date") == ("2027-11-02",) * 2


def test_a_length_told_as_what_comes_next_follows_the_length_before_it() -> None:
    text = "We arrive in Rome on 3 May 2027 for 3 nights, then 2 nights in Siena."
    chained = [t for t in told_days(text) if t.how.startswith("then")]
    assert [(t.first, t.last) for t in chained] == [(day("2027-05-06"), day("2027-05-08"))]
    course = "Induction starts on 4 January 2027 for 2 weeks, followed by 3 weeks on the wards."
    ward = [t for t in told_days(course) if t.how.startswith("then")]
    assert [(t.first, t.last) for t in ward] == [(day("2027-01-18"), day("2027-02-07"))]


def test_a_length_counts_from_the_one_day_its_sentence_writes_beside_one_it_counts() -> None:
    text = (
        "Stalls must be booked by 2 April 2027. Setup is the day before the fair, which opens"
        " on Saturday 8 May 2027 and runs for 3 days."
    )
    assert told_on(text, "fair_last_day") == ("2027-05-10",) * 2


def test_ahead_of_a_thing_is_before_its_day() -> None:
    text = "The gala is on Saturday 12 June 2027. Send the programme 10 days ahead of the gala."
    assert told_days(text)[-1].first == day("2027-06-02")


def test_the_nth_day_counts_from_the_last_day_written() -> None:
    text = "The boat is ours from Friday 4 June 2027 and goes back to the yard on the fourth day."
    assert told_days(text)[-1].first == day("2027-06-07")
    shift = "Moved in on 4 June 2027; the meter was read on the 3rd day after that."
    assert [t.how for t in told_days(shift) if t.how.startswith("the 3rd day from")] == []


def test_a_length_of_one_unit_written_with_a_counts_too() -> None:
    text = "The pop-up gallery opens on Friday 7 May 2027 for a fortnight."
    assert told_days(text)[-1].first == day("2027-05-20")


def test_a_deadline_takes_the_day_told_as_a_deadline_in_its_clause_however_far() -> None:
    text = (
        "Entries for the Harbour Photo Prize exhibition on Saturday 9 October 2027 must reach"
        " the gallery office by the Monday before. Judges view the entries the day before the"
        " exhibition."
    )
    assert told_on(text, "entry_deadline") == ("2027-10-04",) * 2


def test_a_start_named_right_after_a_counted_period_takes_its_first_day() -> None:
    text = (
        "Trainees begin on Monday 6 September 2027 for 4 weeks of induction and then 6 weeks"
        " in Sales."
    )
    assert told_on(text, "sales_start") == ("2027-10-04",) * 2


def test_an_end_named_by_a_notice_takes_the_day_it_runs_out_on_a_wrapped_line() -> None:
    text = (
        "3 May 2027\n\nDear members, please give one calendar month's notice from the date of\n"
        "this letter if you wish to leave the club. Notice was given to Jo on 4 June 2027."
    )
    assert told_on(text, "notice_ends") == ("2027-06-03",) * 2
    assert told_on(text, "notice_given") == ("2027-06-04",) * 2


def test_a_month_or_season_beside_a_word_of_the_name_is_a_frame_a_day_beats() -> None:
    text = "Recital programme (spring term 2027): the Haydn opens the recital on Friday 5 March."
    assert told_on(text, "haydn_recital_date") == ("2027-03-05",) * 2


def test_a_limit_names_its_thing_past_an_aside_and_the_aside_is_no_day() -> None:
    text = (
        "The boiler was fitted on 3 May 2027 and tested the next day. Any snag is put right"
        " within 5 working days (Monday to Friday) of the test."
    )
    counted = [t for t in told_days(text) if t.how]
    assert [t.first for t in counted] == [day("2027-05-04"), day("2027-05-11")]


def test_a_limit_names_its_thing_past_a_gerund() -> None:
    text = (
        "Reply by Friday 4 February 2028 if you want the shed. Its padlock can be picked up"
        " from the warden's office on the first Monday of March, and the shed must be painted"
        " within 2 months of collecting the padlock."
    )
    assert told_on(text, "padlock_date") == ("2028-03-06",) * 2  # not the limit's day


def test_a_numbered_day_counts_from_the_first_day_of_what_the_day_before_it_starts() -> None:
    text = (
        "Our walking holiday sets off from Keswick on the first Sunday of May 2029. Day 3 "
        "crosses the fells, and we finish in Ambleside on day six."
    )
    assert [t.first for t in told_days(text)] == [
        day("2029-05-06"),
        day("2029-05-08"),
        day("2029-05-11"),  # from the start, not from day 3
    ]
    labelled = "Programme. Day 1, 2 June 2029: talks. Day 2, 3 June 2029: visits."
    assert [t.first for t in told_days(labelled)] == [day("2029-06-02"), day("2029-06-03")]
    counted_as = "Signed off on 4.6.29 for five days, counting that date as day one."
    assert [t.first for t in told_days(counted_as)] == [day("2029-06-04"), day("2029-06-08")]


# A document and the days it counts (its told days that say how), in order.
COUNTED = [
    pytest.param(
        "Message sent 4 Jan 2028: your place in the race on Sunday 9 April 2028 is confirmed."
        " Reply within 10 days of the date of this message.",
        ["2028-01-14"],
        id="a limit of the document's own date counts from the first day it writes",
    ),
    pytest.param(
        "Your order of 3 March 2028 was damaged in transit. Delivery was on 9 March 2028; this"
        " email is sent on 20 March 2028. Please return the item within 14 days of the date of"
        " this email.",
        ["2028-04-03"],
        id="a limit of the document's own date counts from the day it names itself on",
    ),
    pytest.param(
        "The sports hall is shut from 3 to 9 August 2028 for repairs. Badminton resumes on the"
        " first Tuesday after the hall reopens.",
        ["2028-08-15"],
        id="the first weekday after a thing is the weekday after its last day",
    ),
    pytest.param(
        "The hall is booked from 4 to 6 March 2028. The quiz is still on the 17th as planned.",
        ["2028-03-17"],
        id="a day's ordinal may be followed by a word that is no noun",
    ),
    pytest.param(
        "The hall is booked from 4 to 6 March 2028. The quiz is on the 17th floor.",
        [],
        id="a day's ordinal before a noun counts it",
    ),
    pytest.param(  # from 18 June, the hire's last day, not 5 June
        "Your scaffold hire begins on 5 June 2028 and runs for 14 days. Report any damage"
        " within 3 days of the hire ending.",
        ["2028-06-18", "2028-06-21"],
        id="a limit of a thing said to end counts from its last day",
    ),
]


@pytest.mark.parametrize(("text", "counted"), COUNTED)
def test_the_days_a_document_counts(text: str, counted: list[str]) -> None:
    assert [t.first for t in told_days(text) if t.how] == [day(d) for d in counted]


@pytest.mark.parametrize(
    ("text", "told"),
    [
        (
            "The plaster went on 5 March 2027 and can be painted exactly four weeks on.",
            [("2027-03-05", ""), ("2027-04-02", "4 weeks on from 2027-03-05")],
        ),
        (  # on from the hire's first day, not from the day its length runs out
            "The crane arrives on 1 June 2026 and is hired for three weeks; it leaves on the"
            " same weekday three weeks on.",
            [
                ("2026-06-01", ""),
                ("2026-06-21", "end of 3 weeks from 2026-06-01"),
                ("2026-06-22", "3 weeks on from 2026-06-01"),
            ],
        ),
        ("From 4 May 2026 we spend three nights on the island.", [("2026-05-04", "")]),
    ],
)
def test_a_length_on_at_the_end_of_its_clause_is_that_much_later(
    text: str, told: list[tuple[str, str]]
) -> None:
    found = [(dt.date.fromordinal(int(t.first)).isoformat(), t.how) for t in told_days(text)]
    assert found == told


@pytest.mark.parametrize(
    ("text", "last"),
    [
        (  # "it" is the thing the limit just before names: the fall, not the form's day
            "Maya fell on the stairs on Monday 4 October 2027; the form goes to the office "
            "within two working days of the fall, and a nurse visits ten days after it.",
            "2027-10-14",
        ),
        (  # the document's own day is no thing "it" refers to: the meeting's day is
            "Minutes of 3.3.27. We meet again six weeks from today, and the agenda goes out "
            "one week before it.",
            "2027-04-07",
        ),
        (  # another sentence: the day just told
            "The shop opens on 1 June 2027 and closes eight weeks after the launch. "
            "Stock is counted a week before it.",
            "2027-07-20",
        ),
    ],
)
def test_it_after_a_shift_is_the_thing_named_just_before_in_its_sentence(
    text: str, last: str
) -> None:
    assert dt.date.fromordinal(int(told_days(text)[-1].first)).isoformat() == last


def test_a_things_name_after_a_shift_ends_before_a_helper_verb() -> None:
    text = (
        "The gala is on Saturday 9 October 2027 and most guests will arrive the evening before. "
        "Any seat not paid for 30 days before the gala will be resold."
    )
    assert dt.date.fromordinal(int(told_days(text)[-1].first)).isoformat() == "2027-09-09"


def test_an_act_said_not_to_be_done_names_no_things_day() -> None:
    text = (
        "Your gym membership renews on 3 March 2027. If you would rather not renew, tell us "
        "by the day before; the first fee is taken four days after the renewal."
    )
    assert dt.date.fromordinal(int(told_days(text)[-1].first)).isoformat() == "2027-03-07"


def test_a_day_told_for_another_count_of_a_members_thing_is_not_its_day() -> None:
    text = (
        "Boxes arrive every other Friday from 7 May 2027. A gift comes with your 4th box, "
        "and the new box price applies from your 6th box on."
    )
    assert told_on(text, "first_box") is None  # the series' first meeting, not the 6th box
    assert told_on(text, "gift_box") == ("2027-06-18", "2027-06-18")


@pytest.mark.parametrize(
    ("text", "last"),
    [
        (
            "The Harbour Jazz Festival runs 12-20 June 2027, and stall fees are due by the end "
            "of April. Badges can be collected from three days before opening day.",
            "2027-06-09",
        ),
        (
            "Our book fair (Friday 3 - Sunday 5 September 2027) keeps found items until ten days "
            "after the final day.",
            "2027-09-15",
        ),
    ],
)
def test_a_shift_from_opening_or_closing_day_counts_from_the_periods_edge(
    text: str, last: str
) -> None:
    shift = next(t for t in told_days(text) if "before" in t.how or "after" in t.how)
    assert dt.date.fromordinal(int(shift.first)).isoformat() == last


@pytest.mark.parametrize(
    ("text", "key", "edge"),
    [
        (
            "The Ridgeway folk festival runs from Friday 11 to Sunday 13 September 2026, and the "
            "ceilidh is on the closing night.",
            "ceilidh_date",
            "2026-09-13",
        ),
        (
            "Our village show is on 5 to 6 June 2027. Judging of the vegetables happens on the "
            "opening morning.",
            "judging_day",
            "2027-06-05",
        ),
    ],
)
def test_a_periods_opening_or_closing_day_named_alone_is_that_day(
    text: str, key: str, edge: str
) -> None:
    event = event_days(text)
    found = lone_date_span(event, key, 1, ["festival_start", key])
    assert found == (day(edge), day(edge))


@pytest.mark.parametrize(
    ("week", "friday"),
    [
        ("the previous week", "2026-09-04"),
        ("the week before", "2026-09-04"),
        ("that week", "2026-09-11"),
        ("the week after", "2026-09-18"),
        ("the following week", "2026-09-18"),
    ],
)
def test_a_weekday_of_the_week_before_or_after_is_a_week_off(week: str, friday: str) -> None:
    text = (
        f"Ella starts nursery on Monday 7 September 2026. Her taster day is the Friday of {week}."
    )
    assert told_days(text)[-1].first == day(friday)


def test_a_limit_followed_by_after_counts_from_the_thing_after_it() -> None:
    text = (
        "Your appeal hearing is fixed for 11 November 2026. Written evidence must reach us at "
        "least 14 days before the hearing, and the decision is sent within 10 working days "
        "after it."
    )
    assert told_days(text)[-1].first == day("2026-11-25")  # from the hearing, not the evidence


def test_a_shift_after_a_thing_said_to_finish_counts_from_its_last_day() -> None:
    text = (
        "Your new kitchen is being fitted over three days starting Tuesday 12 May 2026. The "
        "electrician returns two days after the fitters finish to connect the oven."
    )
    assert told_days(text)[-1].first == day("2026-05-16")  # the 14th's, not the 12th's


def test_a_month_told_before_a_day_of_it_only_places_that_day() -> None:
    text = (
        "Our twins were born on 30 December 2024, so they start school in September 2029, on "
        "the first Wednesday of the month."
    )
    assert told_on(text, "school_start") == ("2029-09-05", "2029-09-05")


AGM = (
    "Notice of AGM: the Annual General Meeting of the Bowls Club will be held on 14 April 2026. "
    "Nominations for committee posts close 28 days before the meeting, and motions 21 days before."
)


def test_a_shift_with_its_thing_left_out_counts_from_the_thing_the_one_before_named() -> None:
    last = told_days(AGM)[-1]
    assert (last.first, last.how) == (day("2026-03-24"), "21 days before 2026-04-14")
    # the nominations' day is theirs alone: the motions' clause has a subject of its own
    assert told_on(AGM, "nominations_close") == ("2026-03-17", "2026-03-17")
    # a verb that shares the last clause's subject joins no new thing: "and close six weeks later"
    text = (
        "Applications for the summer placement open on 1 February 2027 and close six weeks later."
    )
    assert told_on(text, "applications_close") == ("2027-03-15", "2027-03-15")


def test_shifts_back_that_both_leave_their_thing_out_count_from_one_thing() -> None:
    text = (
        "The club's insurance runs out on 30 September 2026. The broker sends a letter six weeks "
        "before and a last reminder ten days before."
    )
    assert [(t.how) for t in told_days(text)[1:]] == [
        "6 weeks before 2026-09-30",
        "10 days before 2026-09-30",
    ]
    # going on, the second counts from the first: "a week after, and a check two days after"
    text = "The cast comes off on 4 May 2026. Physio starts a week after, and a check 2 days after."
    assert told_days(text)[-1].how == "2 days after 2026-05-11"


def test_a_length_set_off_after_its_day_tells_how_long_came_before() -> None:
    text = (
        "Our head teacher retired on Friday 17 July 2026, after thirty years at the school. "
        "A leaving lunch followed exactly a week after that."
    )
    assert [t.how for t in told_days(text)] == ["", "a week after 2026-07-17"]


def test_the_weekend_after_or_before_a_day_is_its_saturday_and_sunday() -> None:
    after = "The jumble sale was set for Sat 7 March 2026, but it is now the weekend after."
    assert [(t.first, t.last) for t in told_days(after)][-1] == (
        day("2026-03-14"),
        day("2026-03-15"),
    )
    # back from a Sunday: the weekend before its own, not the one it ends
    before = "The match is on Sunday 8 March 2026, and the training camp is the weekend before."
    assert [(t.first, t.last) for t in told_days(before)][-1] == (
        day("2026-02-28"),
        day("2026-03-01"),
    )


def test_a_shift_from_a_thing_said_to_expire_counts_from_the_lengths_last_day() -> None:
    text = (
        "The parking permit is issued for three months from 1 April 2027. Apply again at "
        "least 10 days before the permit expires."
    )
    assert told_days(text)[-1].first == day("2027-06-20")
    # a deadline's days end no thing: "before the end of May" is when, not what ends
    deadline = (
        "Your season ticket runs until 30.6.27. Renew before the end of May for a discount; "
        "the new season starts the day after the old one ends."
    )
    assert told_days(deadline)[-1].how == "the day after 2027-05-31"


def test_prior_to_shifts_back_and_the_very_next_day_is_the_next() -> None:
    text = "The gala dinner is on Saturday 6 June 2026. Table plans are due five days prior to it."
    assert told_days(text)[-1].how == "5 days before 2026-06-06"
    very = "Heats finish on 9 May 2026, and the final is held the very next day."
    assert told_days(very)[-1].first == day("2026-05-10")


def test_a_thing_the_text_dates_nowhere_is_not_a_lead_up_counted_back_from_it() -> None:
    # "the meeting" is dated nowhere: the count runs from the meeting's day, not from the
    # deadline counted back from it
    text = (
        "The parish council's annual assembly is on 12 March 2026. Questions must be sent in "
        "seven days beforehand, and the papers are published three days before the gathering."
    )
    assert told_days(text)[-1].how == "3 days before 2026-03-12"


def test_from_today_counts_from_the_documents_day_not_where_todays_thing_counted() -> None:
    text = (
        "Notes of the allotment committee, Tuesday 2 June 2026. The shed is painted on the "
        "first of next month; plot fees are chased ten days after today's meeting. We meet "
        "again four weeks from today."
    )
    assert told_days(text)[-1].how == "4 weeks from today on 2026-06-02"


def test_this_month_and_a_time_from_now_count_from_the_documents_own_day() -> None:
    text = (
        "Residents' meeting, Thursday 10 September 2026. The car park is resurfaced on the "
        "first Saturday in October; rents go up on the 28th of this month; we meet again "
        "in five weeks' time."
    )
    assert [t.first for t in told_days(text)][2:] == [day("2026-09-28"), day("2026-10-15")]


def test_a_closing_date_is_a_day_of_its_own_not_the_end_of_the_period_told_last() -> None:
    text = (
        "Stall bookings for the summer 2026 craft market open on 2 March 2026 and close four "
        "weeks later. Traders hear back within 10 days of the closing date."
    )
    assert told_days(text)[-1].first == day("2026-04-09")


def test_a_shift_onward_counts_from_no_lead_up_counted_back() -> None:
    text = (
        "The quiz is on Friday 5 June 2026. Team names close three days before, and the "
        "prize-giving is the following Friday."
    )
    assert told_days(text)[-1].first == day("2026-06-12")
    later = (
        "Viewing is on 3 March 2026; offers close two days before it and keys go out a week later."
    )
    assert told_days(later)[-1].first == day("2026-03-10")


def test_an_end_named_after_its_start_and_a_day_narrowed_after_a_comma() -> None:
    text = (
        "Entries open on 2 March 2026 and close two weeks later. Judges meet the week after "
        "entries close, on the Thursday."
    )
    assert told_on(text, "entries_close") == ("2026-03-16", "2026-03-16")
    assert told_on(text, "judges_meet") == ("2026-03-26", "2026-03-26")


def test_an_invoices_terms_are_a_limit_from_its_day() -> None:
    text = (
        "Invoice 207, dated 10 August 2026, for garden clearance. Terms: 14 days. A late fee "
        "is added 7 days after that."
    )
    assert [t.first for t in told_days(text)] == [
        day("2026-08-10"),
        day("2026-08-24"),
        day("2026-08-31"),
    ]


def test_the_day_a_shift_counts_from_written_after_its_thing_is_no_second_day() -> None:
    text = "Your trial membership ends eight weeks from your joining date of 2 February 2026."
    assert told_on(text, "membership_end") == ("2026-03-30", "2026-03-30")


def test_a_count_a_shift_word_follows_is_no_wait_and_its_note_says_before() -> None:
    text = (
        "Ballet exams are on Saturday 20 June 2026. Entry forms must be in three weeks beforehand."
    )
    shift = told_days(text)[-1]
    assert shift.first == day("2026-05-30")  # not three weeks after, "in three weeks"
    assert shift.how == "3 weeks before 2026-06-20"


def test_the_first_day_of_another_thing_and_a_length_from_a_day_tell_no_edge_or_shift() -> None:
    assert [
        t.how for t in told_days("Bring your kit on the first day of term, 20 April 2026.")
    ] == [""]
    # "for three days from Friday 19 July" is how long the fair runs, not a day three days on
    assert [
        (t.first, t.lasting)
        for t in told_days("The fair runs for three days from Friday 19 July 2024.")
    ] == [(day("2024-07-19"), False), (day("2024-07-21"), True)]


@pytest.mark.parametrize(
    ("text", "moved"),
    [
        ("The quiz night (Friday 7 May 2027) is postponed by exactly a fortnight.", "2027-05-21"),
        ("Your contract, due to end on 30 June 2027, is extended by three months.", "2027-09-30"),
        ("The fitting booked for Monday 10 May 2027 is brought forward by two days.", "2027-05-08"),
    ],
)
def test_a_thing_moved_by_a_length_falls_that_much_later_or_earlier(text: str, moved: str) -> None:
    assert dt.date.fromordinal(int(told_days(text)[-1].first)).isoformat() == moved


def test_a_member_named_new_takes_the_moved_day_not_its_things_old_one() -> None:
    text = "The Year 5 zoo trip planned for Friday 7 May 2027 has been put back by one week."
    assert told_on(text, "new_trip_date") == ("2027-05-14", "2027-05-14")
    assert told_on(text, "original_trip_date") == ("2027-05-07", "2027-05-07")


@pytest.mark.parametrize(
    ("text", "days"),
    [
        (
            "The swabs went to the lab on Tuesday 4 May 2027. Results take three working days "
            "to come back.",
            ["2027-05-04", "2027-05-07"],
        ),
        (
            "Orders are packed on Friday 7 May 2027, and delivery takes four days from packing.",
            ["2027-05-07", "2027-05-11"],
        ),
        (  # a job that takes so long ends on its last day: a length, not a wait
            "Painters start on Monday 3 May 2027 and the job should take three working days.",
            ["2027-05-03", "2027-05-05"],
        ),
    ],
)
def test_what_takes_a_length_to_happen_happens_that_long_after(text: str, days: list[str]) -> None:
    assert [dt.date.fromordinal(int(t.last)).isoformat() for t in told_days(text)] == days


def test_a_year_inside_a_reference_is_no_period_told() -> None:
    text = "Claim ref C/2027/5521, opened 14 June 2027. Invoice INV-2027-0093 is paid."
    assert [t.first for t in told_days(text)] == [day("2027-06-14")]
    season = "Fixtures for the 2027/28 season start on 4 September 2027."
    assert len(told_days(season)) == 2  # a season across two years is still a period


def test_an_ordinal_day_is_of_the_month_the_text_is_about_unless_told_after_a_past_day() -> None:
    text = "Our open day is Saturday 19 June 2027; the marquee goes up on the 16th, as agreed."
    assert [t.first for t in told_days(text)][-1] == day("2027-06-16")
    past = "Your call on 12 May 2027 was logged. Rent comes out on the 3rd."
    assert [t.first for t in told_days(past)][-1] == day("2027-06-03")
    later = "Our open day is Saturday 19 June 2027; we clear up on the 21st."
    assert [t.first for t in told_days(later)][-1] == day("2027-06-21")


def test_a_short_aside_in_brackets_may_stand_between_a_shifts_unit_and_its_word() -> None:
    text = (
        "The boiler was serviced on 3 March 2027; "
        "the certificate follows 5 working days (weekdays only) after the visit."
    )
    assert [t.first for t in told_days(text)][-1] == day("2027-03-10")


def test_a_deadline_counted_from_a_members_own_thing_is_not_that_members_day() -> None:
    text = (
        "We had your form on 1 June 2027. Your surveyor gets four weeks after that to file "
        "the survey, and the board rules no later than 5 days after the surveyor's deadline."
    )
    assert told_on(text, "surveyor_filing_due") == ("2027-06-29", "2027-06-29")


def test_a_weekday_of_a_named_week_is_one_day_though_the_weekday_recurs() -> None:
    text = (
        "From the week of Monday 7 June 2027 the tutor comes on Wednesdays and Fridays. "
        "His first lesson is the Wednesday of that week."
    )
    assert [t.first for t in told_days(text)][-1] == day("2027-06-09")
    every = "The tutor comes on Wednesdays from Monday 7 June 2027; ring him on Wednesday if ill."
    assert len(told_days(every)) == 1  # a weekday the text says recurs names no one day


def test_a_last_member_takes_no_day_told_after_a_first_of_its_kind() -> None:
    text = (
        "Your first lesson is on Monday 7 June 2027. "
        "The last lesson before the break will be Friday 25 June 2027."
    )
    assert told_on(text, "last_lesson_before_break") == ("2027-06-25", "2027-06-25")


def test_a_limit_right_after_a_deadline_members_word_beats_a_deadline_told_further_on() -> None:
    text = (
        "You will judge the bake-off at the village hall on Saturday 5 June 2027. Your score "
        "sheet is due within two days of the contest, and travel claims must be submitted by "
        "the final Friday of that month."
    )
    assert told_on(text, "score_sheet_due") == ("2027-06-07", "2027-06-07")
    assert told_on(text, "travel_claims_deadline") == ("2027-06-25", "2027-06-25")


def test_after_that_counts_from_the_day_just_counted_not_from_its_thing() -> None:
    text = (
        "Notes of 2 December 2027. Parcels for Europe must go by the Thursday before Christmas "
        "Day; parcels within the country are taken until the Friday after that."
    )
    assert [t.first for t in told_days(text)][-1] == day("2027-12-24")


def test_a_weekday_of_the_new_year_is_in_the_january_after_the_day_told() -> None:
    text = (
        "The library shuts on Tuesday 21 December 2027 "
        "and opens again on the second Monday of the new year."
    )
    assert [t.first for t in told_days(text)][-1] == day("2028-01-10")


def test_a_shift_back_from_an_undated_departure_counts_from_the_day_written_not_the_return() -> (
    None
):
    text = (
        "The choir sails for Bergen on Friday 2 July 2027 and comes home nine days later. "
        "Send your passport details no later than four weeks before departure."
    )
    assert [t.first for t in told_days(text)][-1] == day("2027-06-04")
    lead = (
        "The choir sails on Friday 2 July 2027; the van comes the day before we sail. "
        "Send your passport details no later than four weeks before departure."
    )
    assert [t.first for t in told_days(lead)][-1] == day("2027-06-04")  # no lead-up's


def test_a_shift_from_the_arrival_counts_from_the_first_day_of_the_stay() -> None:
    text = (
        "We stayed at the farmhouse from 3 to 10 April 2027, and the boiler broke the morning "
        "after we arrived. A plumber came two days later."
    )
    assert [t.first for t in told_days(text) if t.how] == [day("2027-04-04"), day("2027-04-06")]
    started = (
        "The hut is ours from 3 to 10 April 2027; its gutters are cleared a week after it opens."
    )
    assert [t.first for t in told_days(started) if t.how] == [day("2027-04-17")]  # no arrival


def test_a_shift_from_leaving_counts_from_the_last_day_of_the_stay() -> None:
    text = (
        "I land on 14 May 2027 and stay four nights at the inn; the bike goes back to the hire "
        "shop two days before I leave."
    )
    assert [t.first for t in told_days(text)][-1] == day("2027-05-16")
