"""Lone dates of an event's object (engine/structured/event_days.py) and what says an object
lasts days (engine/structured/json_rules.py, ``lasts_days``), issue 28: a date of the event
lies in the days the document writes for it, a date of an act done ahead of it (a booking, a
submission) on or before the day the document sets for that act, and an object whose own name
says it lasts days ends within a week of its start even under a title as general as "Listing"."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured.day_clauses import counts_noun
from engine.structured.event_days import LEAD_DAYS, EventDays, event_days, lone_date_span
from engine.structured.json_rules import lasts_days
from engine.structured.told_days import digits
from tests.helpers.fills import dates_schema, json_fill

DATE = {"type": "string", "format": "date"}
EXPO = "Posters must be sent by 20 February. The expo runs 9-11 April 2027 in Turku.\n\n"


def day(iso: str) -> float:
    return float(dt.date.fromisoformat(iso).toordinal())


def iso(span: tuple[float, float] | None) -> tuple[str, str] | None:
    if span is None:
        return None
    return tuple(dt.date.fromordinal(int(d)).isoformat() for d in span)  # type: ignore[return-value]


def obj(title: str, properties: dict[str, object]) -> dict[str, object]:
    found = {"type": "object", "required": list(properties), "properties": properties}
    return {"title": title, **found} if title else found


def test_a_lone_date_of_the_event_lies_in_its_days() -> None:
    event = event_days(EXPO)
    assert event is not None
    assert iso(event.day_span("stand_date")) == ("2027-04-09", "2027-04-11")
    assert iso(event.day_span("expo_day")) == ("2027-04-09", "2027-04-11")


def test_an_act_named_by_an_earlier_clause_is_done_by_its_day() -> None:
    event = event_days(EXPO)
    assert event is not None
    by = day("2027-02-20")
    assert event.day_span("poster_sent_on") == (by - LEAD_DAYS, by)
    sub = event_days("Submissions close on 3 March; the fair is on 5-6 May 2027.\n")
    assert sub is not None and sub.day_span("submitted_on")[1] == day("2027-03-03")  # one stem


def test_a_word_of_the_events_own_clause_wins_over_an_earlier_one() -> None:
    text = "Stalls for the market must be booked by 2 May. The market is held on 6 and 7 June 2027."
    event = event_days(text)
    assert event is not None
    assert iso(event.day_span("market_day")) == ("2027-06-06", "2027-06-07")
    assert event.day_span("booked_on")[1] == day("2027-05-02")


def test_a_document_with_no_earlier_day_puts_every_lone_date_in_its_days() -> None:
    event = event_days("The choir sings in Bodo on 3 and 4 May 2027.")
    assert event is not None
    assert iso(event.day_span("tickets_booked_on")) == ("2027-05-03", "2027-05-04")


def test_a_document_without_an_events_days_has_none() -> None:
    assert event_days("Minutes of the last meeting, typed up by Ana.") is None
    assert lone_date_span(None, "talk_date", 1, ()) is None


def test_only_a_top_level_date_with_no_pair_and_no_other_kind_is_lone() -> None:
    event = event_days(EXPO)
    assert lone_date_span(event, "talk_date", 1, ["talk_date"]) is not None
    assert lone_date_span(event, "booked_on", 1, ["booked_on"]) is not None  # a start, alone
    assert lone_date_span(event, "start_date", 1, ["start_date", "end_date"]) is None
    assert lone_date_span(event, "renewal_date", 1, ["renewal_date"]) is None  # later
    assert lone_date_span(event, "birth_date", 1, ["birth_date"]) is None
    assert lone_date_span(event, "talk_date", 2, ["talk_date"]) is None  # an item's


@given(st.integers(min_value=0, max_value=10_000))
@settings(max_examples=6, deadline=None)
def test_filled_lone_dates_keep_to_the_event_and_the_acts_day(seed: int) -> None:
    schema = obj("Poster", {"author": {"type": "string"}, "poster_sent_on": DATE,
                            "stand_date": DATE})  # fmt: skip
    value = json_fill(schema, EXPO, seed).value
    assert "2027-04-09" <= value["stand_date"] <= "2027-04-11"
    assert value["poster_sent_on"] <= "2027-02-20"


def test_what_says_an_object_lasts_days() -> None:
    assert lasts_days("Listing", {"name": "Lakeside Craft Week"}) == "“Lakeside Craft Week”"
    assert lasts_days("Event", {"name": "Tom"}) == "an event"
    assert lasts_days("Workshop", {}) == "a workshop"
    assert lasts_days("Entry", {"name": "Lowland Sailing Regatta"}) == "“Lowland Sailing Regatta”"
    assert lasts_days("Booking", {"name": "Shop lease, Quay Road"}) is None
    assert lasts_days("Booking", {"organiser_name": "Festival office"}) is None  # someone else


@pytest.mark.parametrize("seed", range(3))
def test_an_object_named_as_lasting_days_ends_within_a_week(seed: int) -> None:
    schema = obj("Listing", {"name": {"type": "string"}, "start_date": DATE, "end_date": DATE})
    template = {"name": "Lakeside Craft Week", "start_date": "2027-05-12"}
    value = json_fill(schema, "", seed, template).value
    assert "2027-05-12" <= value["end_date"] <= "2027-05-18"


@pytest.mark.parametrize("seed", range(2))
def test_a_series_first_and_last_meetings_keep_their_days_weeks_apart(seed: int) -> None:
    text = (
        "Quiz parties run fortnightly on Fridays, starting 7 May 2027. Bring snacks; the fifth"
        " and final quiz party is fancy dress.\n\n"
    )
    schema = obj("Quiz party", {"first_quiz_party": DATE, "last_quiz_party": DATE})
    value = json_fill(schema, text, seed).value
    assert value == {"first_quiz_party": "2027-05-07", "last_quiz_party": "2027-07-02"}


@pytest.mark.parametrize("seed", range(2))
def test_only_a_name_the_fill_did_not_generate_says_what_the_object_is(seed: int) -> None:
    names = ["Quayside Folk Weekend", "Quayside Folk Weekend II"]  # two: the fill chooses
    schema = obj("Booking", {"name": {"enum": names}, "start_date": DATE, "end_date": DATE})
    start = {"start_date": "2027-05-12"}
    guessed = json_fill(schema, "", seed, start)
    assert not any("lasts days" in note for note in guessed.proposal.notes)
    given = json_fill(schema, "", seed, {"name": names[0], **start})
    assert "2027-05-12" <= given.value["end_date"] <= "2027-05-18"


def test_a_payment_or_a_delivery_the_document_sets_a_day_for_is_an_act_ahead() -> None:
    text = "Boxes must reach the loading bay by 1 March. The fair runs 20-22 March 2027."
    event = event_days(text)
    assert event is not None
    members = ["fair_opens", "fair_closes", "boxes_delivered_on", "fee_payment_date"]
    assert lone_date_span(event, "boxes_delivered_on", 1, members) == event.act_span(
        "boxes_delivered_on"
    )
    assert event.not_acts(members) == ["fair_opens", "fair_closes", "fee_payment_date"]
    assert lone_date_span(event, "fee_payment_date", 1, members) is None  # a later date, untied


@pytest.mark.parametrize("seed", range(3))
def test_an_act_ahead_of_a_one_day_event_is_not_put_on_its_day(seed: int) -> None:
    text = (
        "The harbour swim is on 3 July 2027. Swimmers must pay the entry fee by 10 June 2027.\n\n"
    )
    schema = obj("Swim", {"swim_day": DATE, "fee_payment_date": DATE,
                          "swimmer": {"type": "string"}})  # fmt: skip
    value = json_fill(schema, text, seed).value
    assert value["swim_day"] == "2027-07-03"
    assert "2027-04-11" <= value["fee_payment_date"] <= "2027-06-10"


def test_a_member_that_counts_a_day_takes_that_day_of_the_event() -> None:
    event = event_days("The print fair runs from 8 to 10 October 2027 in Arles.")
    assert event is not None
    members = ["fair_day_one", "second_evening", "fair_day_4"]
    assert iso(lone_date_span(event, "fair_day_one", 1, members)) == ("2027-10-08",) * 2
    assert iso(lone_date_span(event, "second_evening", 1, members)) == ("2027-10-09",) * 2
    assert iso(lone_date_span(event, "fair_day_4", 1, members)) == ("2027-10-08", "2027-10-10")


@pytest.mark.parametrize("seed", range(2))
def test_counted_days_of_a_two_day_event_are_its_first_and_second(seed: int) -> None:
    text = "We exhibit at the ceramics fair on 4 and 5 June 2027.\n\n"
    schema = obj("Visit", {"fair_day_one": DATE, "fair_day_two": DATE})
    value = json_fill(schema, text, seed).value
    assert (value["fair_day_one"], value["fair_day_two"]) == ("2027-06-04", "2027-06-05")


def test_a_length_before_the_event_sets_the_day_of_an_act() -> None:
    text = (
        "We rent the cabin from 10 to 17 July 2027. "
        "The deposit must reach us two weeks before we arrive."
    )
    event = event_days(text)
    assert event is not None
    by = day("2027-06-26")
    assert event.act_span("deposit_paid_on") == (by - LEAD_DAYS, by)
    assert event.act_span("arrival_date") is None  # named by what comes after "before"
    assert event.act_span("cabin_key_date") is None  # named by the event's own clause


def test_a_start_counted_back_from_the_end_is_no_act() -> None:
    event = event_days("The rowing race ends on 12 June 2027 in Ghent; it starts two days earlier.")
    assert event is not None and event.act_span("start_date") is None


def test_a_member_with_no_word_in_the_text_takes_the_one_day_left_over() -> None:
    text = (
        "The dryer was installed on 4 March 2026 with a one-year guarantee. "
        "It began to rattle on Friday 5 February 2027.\n\n"
    )
    event = event_days(text)
    assert event is not None
    members = ["installed_on", "guarantee_ends", "breakdown_date"]
    assert lone_date_span(event, "breakdown_date", 1, members) == (day("2027-02-05"),) * 2
    told = event.own_day("breakdown_date", members)
    assert told is not None and told.first == day("2027-02-05")


def test_a_deadline_for_a_later_thing_takes_the_day_left_over_but_the_thing_does_not() -> None:
    text = "Our barn dance is on the last Saturday of May 2027; let us know by the Monday before."
    event = event_days(text)
    assert event is not None
    members = ["dance_date", "reply_by"]
    assert lone_date_span(event, "reply_by", 1, members) == (day("2027-05-24"),) * 2
    assert lone_date_span(event, "reply", 1, ["dance_date", "reply"]) is None  # a reply's day


def test_no_day_is_given_by_elimination_when_the_counts_differ() -> None:
    text = "The fence went up on 3 May 2027, was painted on 9 May and inspected on 20 May 2027."
    event = event_days(text)
    assert event is not None
    assert event.own_day("paint_date", ["fence_date", "paint_date"]) is not None  # "painted"
    left = ["put_up_on", "checked"]
    assert event.own_day("checked", left) is None  # two members left over, three days


def test_a_one_day_events_day_is_one_members_when_each_left_over_has_a_day() -> None:
    text = (
        "We got the keys to the flat on 3 March 2027. The dinner will be on a Friday in May, "
        "and let us know by 12 April.\n\n"
    )
    event = event_days(text)
    assert event is not None
    members = ["handover_date", "gathering_date", "confirm_by"]
    assert lone_date_span(event, "handover_date", 1, members) == (day("2027-03-03"),) * 2
    assert iso(lone_date_span(event, "gathering_date", 1, members)) == ("2027-05-07", "2027-05-28")
    assert lone_date_span(event, "confirm_by", 1, members) == (day("2027-04-12"),) * 2


def test_an_events_days_over_several_days_stay_every_lone_dates() -> None:
    event = event_days("The show runs 21-23 August 2027; stalls are booked by 31 July.")
    assert event is not None
    members = ["pitch_on", "show_day"]
    assert iso(lone_date_span(event, "show_day", 1, members)) == ("2027-08-21", "2027-08-23")


def test_numbered_members_no_word_names_take_the_days_left_over_in_order() -> None:
    """ "first_coat", "second_coat", "third_coat" beside a text that never says "coat" take
    the days it tells in order; numbered members beside "trials" are counted, not left over."""
    text = (
        "We painted the fence on 3 May 2027. It got another go a week after that, and the "
        "last one two weeks later.\n\n"
    )
    event = event_days(text)
    assert event is not None
    members = ["first_coat", "second_coat", "third_coat"]
    spans = [iso(lone_date_span(event, key, 1, members)) for key in members]
    assert spans == [(d, d) for d in ("2027-05-03", "2027-05-10", "2027-05-24")]
    trials = event_days("The trials are on 10 and 12 March 2027; the final is on 28 March.")
    assert trials is not None
    named = ["first_trial", "second_trial", "final_date"]
    assert lone_date_span(trials, "second_trial", 1, named) != (day("2027-03-28"),) * 2


def test_a_member_named_a_deadline_takes_the_acts_day_itself() -> None:
    event = event_days("Forms must be handed in by 2 June. The gala is on 19 June 2027.")
    assert event is not None
    by = day("2027-06-02")
    assert lone_date_span(event, "forms_deadline", 1, []) == (by, by)
    assert lone_date_span(event, "forms_sent_on", 1, []) == (by - LEAD_DAYS, by)
    assert lone_date_span(event, "forms_in_by", 1, []) == (by, by)  # "by": the day itself


@pytest.mark.parametrize("seed", range(2))
def test_the_final_meeting_of_a_counted_series_is_its_last(seed: int) -> None:
    text = "Pottery runs for five Thursdays starting 7 October 2027, 6 to 8pm.\n\n"
    schema = {
        "type": "object",
        "required": ["course_start", "final_class"],
        "properties": {"course_start": DATE, "final_class": DATE},
    }
    filled = json_fill(schema, text, seed)
    assert filled.value == {"course_start": "2027-10-07", "final_class": "2027-11-04"}


def test_the_final_meeting_of_an_open_series_is_the_last_before_the_latest_day_told() -> None:
    text = "Band practice is every Wednesday from 6 October 2027. The gig is on 20 November 2027."
    event = event_days(text)
    assert event is not None
    assert event.final_meeting("last_practice") == (day("2027-11-17"),) * 2
    assert event.final_meeting("practice_two") is None  # counted, not the last


@pytest.mark.parametrize("seed", range(2))
def test_a_fill_fixes_the_day_taken_by_elimination_and_says_so(seed: int) -> None:
    text = (
        "The dryer was installed on 4 March 2026 with a one-year guarantee. "
        "It began to rattle on Friday 5 February 2027.\n\n"
    )
    filled = json_fill(dates_schema("installed_on", "guarantee_ends", "breakdown_date"), text, seed)
    assert filled.value["breakdown_date"] == "2027-02-05"
    assert "/breakdown_date = 2027-02-05 (the one day told that no other date takes)" in (
        filled.proposal.notes
    )


def test_an_end_told_beside_the_first_day_written_as_a_start_is_the_events_last() -> None:
    text = "The craft fair runs for six days, opening on Friday 4 June 2027, in the old mill.\n\n"
    event = event_days(text)
    assert event is not None
    closes, opens = event.told_day("fair_closes"), event.told_day("fair_opens")
    assert closes is not None and opens is not None
    assert (closes.first, opens.first) == (day("2027-06-09"), day("2027-06-04"))
    assert closes.how == "end of 6 days from 2027-06-04"  # the length's last day, told
    written = "Nominations close on Friday 4 June 2027; the show runs for six days from 12 June."
    shut = event_days(written)
    assert shut is not None
    nominations = shut.told_day("nominations_close")
    assert nominations is not None and nominations.first == day("2027-06-04")
    back = (
        "Hi Jo, I'd like leave starting Monday 7 June 2027, and I'll be back at my desk on"
        " Monday the 14th."
    )
    leave = event_days(back)
    assert leave is not None and leave.ends == (day("2027-06-07"), day("2027-06-14"))
    end = leave.told_day("leave_end")  # the 14th is the return's own day, no end of the leave
    assert end is not None and end.first == day("2027-06-07")


COURSE = (
    "The first aid course runs for five weeks, one class each Tuesday, starting 4 May 2027. "
    "After the final class you shadow a medic, the first time on the Sunday after."
)


HOARDING = (
    "The hoarding was put up on 3 May 2027 and is hired for four weeks. "
    "A council officer checks it on 20 May.\n\n"
)


@pytest.mark.parametrize(
    ("text", "members", "key", "days"),
    [
        (COURSE, ["course_start", "final_class", "first_shadow"], "course_start",
         ("2027-05-04", "2027-05-04")),
        # a birth is no day of what the text is about: the job's first day is its own
        ("Welcome, Sam. You start with us on 1 September 2026; your date of birth is 3 May 2005.",
         ["job_start"], "job_start", ("2026-09-01", "2026-09-01")),
        # a length's last day is no day left over for a member that ends nothing
        (HOARDING, ["erected", "officer_visit"], "erected", ("2027-05-03", "2027-05-03")),
        # an end may take it: two left, two days
        (HOARDING, ["erected", "officer_visit", "hire_ends"], "hire_ends",
         ("2027-05-30", "2027-05-30")),
    ],
)  # fmt: skip
def test_a_lone_member_takes_its_events_edge_or_the_day_left_over(
    text: str, members: list[str], key: str, days: tuple[str, str]
) -> None:
    event = event_days(text)
    assert event is not None
    assert iso(lone_date_span(event, key, 1, members)) == days


def members_days(text: str, members: list[str]) -> list[tuple[str, str] | None]:
    event = event_days(text)
    assert event is not None
    return [iso(lone_date_span(event, key, 1, members)) for key in members]


def test_a_periods_first_or_last_day_named_is_the_day_of_the_member_whose_name_it_writes() -> None:
    # the length's last day, named "the final day", is the recital's, not the day after the
    # closing "registration closes" counts back
    text = (
        "The music school's summer course runs for five days starting 3 August 2026. "
        "Registration closes ten days before the first class, and the recital is held on the "
        "final day."
    )
    members = ["registration_deadline", "recital_date"]
    assert members_days(text, members) == [("2026-07-24",) * 2, ("2026-08-07",) * 2]
    # a start never takes the last day its phrase names: "the fair's closing night"
    both = "The craft fair (9 to 11 October 2026) has a ceilidh on the fair's closing night."
    assert members_days(both, ["fair_opens", "ceilidh"]) == [
        ("2026-10-09",) * 2,
        ("2026-10-11",) * 2,
    ]


def test_a_shift_from_the_end_of_a_length_counts_for_the_member_that_writes_its_thing() -> None:
    text = (
        "Your allotment tenancy is granted for one year from 1 March 2027. Notice to renew must "
        "reach the secretary at least 30 days before the tenancy expires."
    )
    members = ["tenancy_start", "tenancy_end", "renewal_notice_by"]
    # the start and the end take the tenancy's ends by rule (json_rules.period_ends)
    assert members_days(text, members)[2] == ("2028-01-30",) * 2


def test_an_edge_named_after_a_possessive_and_a_thing_counted_prior_to_keep_their_days() -> None:
    text = (
        "The choir's spring concert is on Saturday 18 April 2026. Rehearsal in the hall is "
        "the Thursday before, and tickets must be collected two days prior to the concert."
    )
    members = ["concert_date", "hall_rehearsal", "ticket_collection"]
    assert members_days(text, members) == [
        ("2026-04-18",) * 2,
        ("2026-04-16",) * 2,
        ("2026-04-16",) * 2,
    ]
    festival = (
        "The food festival runs 4 to 6 September 2026; a cook-off is held on its final evening."
    )
    assert members_days(festival, ["cook_off"]) == [("2026-09-06",) * 2]


def test_a_birth_the_text_writes_is_no_day_of_what_it_is_about_nor_a_day_left_over() -> None:
    text = (
        "Lodger agreement: Tomasz (born 14 February 2004) rents the back room from 5 January "
        "2027 until the lease runs out on 30 June 2027."
    )
    event = event_days(text)
    assert event is not None and iso(event.ends) == ("2027-01-05", "2027-06-30")
    obituary = (
        "HALE, Arthur (born 9 October 1938) died on Tuesday 2 February 2027. His ashes are "
        "scattered at the lake the following Saturday."
    )
    members = ["date_of_death", "ashes_scattered"]
    assert members_days(obituary, members) == [("2027-02-02",) * 2, ("2027-02-06",) * 2]


def test_a_shift_before_a_meeting_counted_in_digits_and_a_series_from_its_written_day() -> None:
    text = (
        "The beginners' pottery course meets on Tuesday evenings for eight weeks, starting "
        "12 January 2027. The fourth class is a glazing night. Please book by the Friday "
        "before the first class."
    )
    event = event_days(text)
    assert event is not None and told_by(event, "the Friday before") == "2027-01-08"
    fee = (
        "Your son's swimming lessons start on Sunday 5 September 2027 and run every Sunday "
        "for eight weeks. Please pay at least a week before his first lesson."
    )
    event = event_days(fee)
    assert event is not None and iso((event.series[0], event.series[0])) == ("2027-09-05",) * 2


def told_by(event: EventDays, phrase: str) -> str | None:
    """The day the told phrase that starts with ``phrase`` names."""
    start = digits(event.text).index(phrase)
    found = next((t for t in event.told if t.start == start), None)
    return None if found is None else dt.date.fromordinal(int(found.first)).isoformat()


def test_a_bare_ordinal_standing_for_a_thing_named_before_it_dates_that_thing() -> None:
    text = (
        "The gutters get two cleans this year. The first is on 14 April 2026, the second "
        "ten weeks after that."
    )
    assert members_days(text, ["second_clean"]) == [("2026-06-23",) * 2]
    # an ordinal that counts a noun of its own is no such stand-in: "the 2nd Tuesday"
    assert [counts_noun(w) for w in ["Tuesday", "coat", "is", "falls", "6"]] == [
        True,
        True,
        False,
        False,
        False,
    ]


def test_an_ordinal_day_of_a_period_named_alone_is_that_day_of_it() -> None:
    text = (
        "The folk weekend runs from Friday 4 to Sunday 6 September 2026, with a ceilidh on "
        "the second evening."
    )
    assert members_days(text, ["ceilidh"]) == [("2026-09-05",) * 2]
    # a period with no such day names none: "the fifth evening" of three days
    event = event_days(text.replace("second", "fifth"))
    assert event is not None and all("fifth" not in t.how for t in event.told)


def test_a_day_counted_after_until_ends_the_period_its_sentence_starts() -> None:
    text = "The cottage is ours from Thursday 9 April 2026 until the following Monday."
    event = event_days(text)
    assert event is not None and iso(event.ends) == ("2026-04-09", "2026-04-13")
    # a counted day after "until" in another sentence ends nothing of this one
    apart = "The cottage is ours on Thursday 9 April 2026. The shop is shut until the Monday after."
    other = event_days(apart)
    assert other is not None and iso(other.ends) == ("2026-04-09", "2026-04-09")


def test_a_member_counting_a_day_takes_it_of_the_one_short_period_told() -> None:
    text = "The sailing course takes the first weekend of May 2027; bring waterproofs."
    assert members_days(text, ["course_day_two"]) == [("2027-05-02",) * 2]
