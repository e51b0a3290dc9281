"""The days of a thing a document says recurs (engine/structured/series.py, with how many times
it meets from engine/structured/series_counts.py), issue 28: a member per meeting
("second_session", "june_meeting") takes the meeting its name counts or names the month of,
where it had taken the one day the document writes."""

from __future__ import annotations

import datetime as dt
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.structured.event_days import event_days
from engine.structured.series import open_ended, series_day, series_days
from engine.structured.series_counts import cardinals, count_of, ordinal_of, ordinals
from engine.structured.told_days import told_days
from tests.helpers.fills import dates_schema, json_fill

DATE = {"type": "string", "format": "date"}


def isos(days: tuple[float, ...]) -> list[str]:
    return [dt.date.fromordinal(int(d)).isoformat() for d in days]


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("Yoga meets every Wednesday in June 2027.",
         ["2027-06-02", "2027-06-09", "2027-06-16", "2027-06-23", "2027-06-30"]),
        ("The chess club plays four Friday nights in a row, starting on 5 March 2027.",
         ["2027-03-05", "2027-03-12", "2027-03-19", "2027-03-26"]),
        ("We meet fortnightly on Mondays for three sessions, from 1 November 2027.",
         ["2027-11-01", "2027-11-15", "2027-11-29"]),
        ("The board meets on the last Friday of each month from January to March 2027.",
         ["2027-01-29", "2027-02-26", "2027-03-26"]),
        ("Swimming every Sunday for two weeks from 2 May 2027.", ["2027-05-02", "2027-05-09"]),
        ("Lessons run weekly on Thursday from 6 May 2027 for three lessons; exam on Monday.",
         ["2027-05-06", "2027-05-13", "2027-05-20"]),  # a weekly word before "on Thursday"
        ("Choir is on Monday evenings for three rehearsals from 3 May 2027, a concert on Friday.",
         ["2027-05-03", "2027-05-10", "2027-05-17"]),  # a day part in the plural after it
        ("The show opens on 17 April 2029. Rehearsals are every Sunday in March.",
         ["2029-03-04", "2029-03-11", "2029-03-18", "2029-03-25"]),  # its own clause's month
        ("The course is four sessions on consecutive Mondays from 3 May 2027.",
         ["2027-05-03", "2027-05-10", "2027-05-17", "2027-05-24"]),  # a count, "consecutive"
        ("Litter picks run every 2nd Sunday for three picks from 2 May 2027.",
         ["2027-05-02", "2027-05-16", "2027-05-30"]),  # "every second", in digits
        ("The filter is cleaned on 3 May 2027 and then every ten days, for four cleanings.",
         ["2027-05-03", "2027-05-13", "2027-05-23", "2027-06-02"]),  # days apart, no weekday
        ("The club is three weekly meets held every Friday, beginning 7 May 2027.",
         ["2027-05-07", "2027-05-14", "2027-05-21"]),  # a count after another word's try
        ("Trials are held on three consecutive Saturdays, starting 1 May 2027.",
         ["2027-05-01", "2027-05-08", "2027-05-15"]),  # a count right before "consecutive"
        ("The panel sits every other Tuesday from 4 May 2027, for a total of four sittings.",
         ["2027-05-04", "2027-05-18", "2027-06-01", "2027-06-15"]),  # "a total of"
    ],
)  # fmt: skip
def test_a_stated_rule_gives_its_days(document: str, expected: list[str]) -> None:
    assert isos(series_days(document)) == expected


def test_a_length_after_a_total_counts_no_meetings() -> None:
    assert count_of("Tutoring every Monday from 3 May 2027, for a total of 3 hours.") is None
    assert count_of("Tutoring every Monday from 3 May 2027, for a total of 3 lessons.") == 3


@pytest.mark.parametrize(
    "document",
    [
        "The fair runs from 8 to 10 October 2027.",  # no weekday, no recurrence
        "Every guest gets a badge on Monday 4 October 2027.",  # "every" is of the guests
        "Every Monday and every Friday in May 2027.",  # two recurring weekdays: which is meant?
        "The club meets on Tuesday 6 April 2027.",  # one day, no recurrence cue
    ],
)
def test_no_series_without_one_weekday_that_recurs(document: str) -> None:
    assert series_days(document) == ()


def test_a_series_with_no_end_told_counts_on_from_its_first_day() -> None:
    days = series_days("From Monday 5 January 2026 the van calls every other Monday.")
    assert isos(days)[:3] == ["2026-01-05", "2026-01-19", "2026-02-02"]
    assert len(days) == 31  # as far as a member's name counts


def test_listed_weekdays_of_each_month_after_a_day_of_another_weekday() -> None:
    text = (
        "Your training is on Thursday 15 January 2026. You then help on the 2nd and 4th "
        "Saturday of every month."
    )
    assert isos(series_days(text))[:3] == ["2026-01-24", "2026-02-14", "2026-02-28"]


def test_a_member_takes_the_meeting_it_counts_or_the_one_in_the_month_it_names() -> None:
    days = series_days(
        "The committee meets on the first Tuesday of each month from May to July 2027."
    )
    assert isos(series_day(days, "second_meeting") or ()) == ["2027-06-01"] * 2
    assert isos(series_day(days, "session_3") or ()) == ["2027-07-06"] * 2
    assert isos(series_day(days, "july_meeting") or ()) == ["2027-07-06"] * 2
    assert series_day(days, "fourth_meeting") is None  # past the last
    assert series_day(days, "meeting_date") is None  # counts nothing
    assert series_day((), "second_meeting") is None


def test_numbers_are_spelled_by_inflect_for_counts_and_ordinals() -> None:
    assert cardinals()["three"] == 3 and "third" not in cardinals()
    assert ordinals()["third"] == ordinals()["3rd"] == ordinals()["three"] == 3
    assert ordinal_of({"session", "two"}) == 2
    assert ordinal_of({"two", "third"}) is None  # two numbers: neither


@given(st.sampled_from(["Monday", "Thursday", "Saturday"]), st.integers(2, 6))
@settings(max_examples=10, deadline=None)
def test_counted_meetings_fall_on_the_weekday_a_week_apart(weekday: str, times: int) -> None:
    words = next(w for w, n in cardinals().items() if n == times and not w.isdigit())
    days = series_days(f"Choir practice: {words} {weekday} evenings in a row, from 3 May 2027.")
    assert len(days) == times
    assert {dt.date.fromordinal(int(d)).strftime("%A") for d in days} == {weekday}
    assert all(b - a == 7 for a, b in itertools.pairwise(days))


@pytest.mark.parametrize("seed", range(2))
def test_a_template_of_meetings_gets_each_its_own_day(seed: int) -> None:
    text = "Pottery runs three Tuesday evenings in a row, starting on 4 May 2027.\n\n"
    schema = {"type": "object", "required": ["first_session", "second_session", "third_session"],
              "properties": {"first_session": DATE, "second_session": DATE,
                             "third_session": DATE}}  # fmt: skip
    value = json_fill(schema, text, seed).value
    got = [value["first_session"], value["second_session"], value["third_session"]]
    assert got == ["2027-05-04", "2027-05-11", "2027-05-18"]


def test_a_recurrence_word_elsewhere_makes_no_series_of_a_weekday() -> None:
    for text in (
        "Our book fair in September 2027 opens on Friday 3 September; each stall stays all month.",
        "Harbour week opens on Monday 6 September 2027 for three days; every evening has music.",
    ):
        assert series_days(text) == ()
    assert len(series_days("Every other Friday from 3 September to 29 October 2027.")) == 5


WORDS = [
    *("every", "other", "Tuesday", "Tuesdays", "in", "a", "row", "three", "for", "weeks"),
    *("first", "of", "each", "month", "from", "3", "May", "2027", "to", "June", "by", ","),
]


@given(st.lists(st.sampled_from(WORDS), max_size=14))
@settings(max_examples=60, deadline=None)
def test_any_run_of_words_reads_as_a_series_or_none_never_an_error(words: list[str]) -> None:
    """Whatever a user's document strings together: no error, days in order, at most as many
    as a template's list of meetings could hold."""
    days = series_days(" ".join(words))
    assert list(days) == sorted(days) and len(days) <= 60


def test_a_weekly_thing_recurs_on_its_one_weekday_and_a_day_of_each_month_recurs() -> None:
    weekly = "Speech therapy starts on Tuesday the 2nd of March 2027: four weekly visits."
    assert isos(series_days(weekly)) == ["2027-03-02", "2027-03-09", "2027-03-16", "2027-03-23"]
    monthly = "Rent is paid on the 3rd of every month from May 2027 to August 2027."
    assert isos(series_days(monthly)) == ["2027-05-03", "2027-06-03", "2027-07-03", "2027-08-03"]
    assert series_days("The weekly market opens on Monday 3 May and on Friday 7 May 2027.") == ()


def test_a_month_written_as_when_a_series_starts_is_no_end_of_it() -> None:
    text = "The quiz runs on the last Friday of every month, beginning in March 2027."
    assert isos(series_days(text))[:3] == ["2027-03-26", "2027-04-30", "2027-05-28"]
    assert open_ended(text)
    inside = "The quiz runs on the last Friday of every month in March 2027."
    assert isos(series_days(inside)) == ["2027-03-26"]
    assert not open_ended(inside)
    cued = "From June 2027 the repair café opens every other Saturday, starting on the 5th."
    assert isos(series_days(cued))[:3] == ["2027-06-05", "2027-06-19", "2027-07-03"]


def test_a_count_may_have_a_word_before_its_frequency() -> None:
    text = "We repay it in three equal monthly sums on the 8th of each month from 8 May 2027."
    assert isos(series_days(text)) == ["2027-05-08", "2027-06-08", "2027-07-08"]


def test_the_last_meeting_of_an_open_series_ignores_a_year_written_as_a_label() -> None:
    """ "The 2027 spring show" says which show, not that practice runs to the end of 2027."""
    text = (
        "Practice for the 2027 spring show starts Monday 5 April 2027 and carries on every "
        "Monday. The show itself is on Saturday 1 May."
    )
    event = event_days(text)
    assert event is not None
    last = event.final_meeting("last_practice_date")
    assert last is not None and isos(last[:1]) == ["2027-04-26"]


def test_a_series_starts_on_the_first_day_written_on_its_weekday() -> None:
    """The day written on the series' weekday sets which weeks an every-other series
    meets in, and a range that ends on that day is no end of the series."""
    text = (
        "From Monday 1 March 2027 the reading group meets every other Thursday, "
        "the first meeting on the 11th."
    )
    assert isos(series_days(text))[:3] == ["2027-03-11", "2027-03-25", "2027-04-08"]
    plain = "The reading group meets every other Thursday, starting 4 March 2027."
    assert isos(series_days(plain))[:2] == ["2027-03-04", "2027-03-18"]


def test_a_weekday_a_change_replaces_is_no_weekday_of_the_series() -> None:
    text = "From Tuesday 2 March 2027 the mobile library stops every Tuesday instead of on Fridays."
    assert isos(series_days(text))[:2] == ["2027-03-02", "2027-03-09"]
    both = "From Tuesday 2 March 2027 the mobile library stops on Tuesdays and on Fridays."
    assert series_days(both) == ()


def test_the_nth_one_in_another_sentence_is_that_meeting_of_the_series() -> None:
    text = (
        "Litter picks run every other Saturday from 6 March 2027. I signed up for the fourth one."
    )
    found = [t for t in told_days(text) if t.how]
    assert [t.first for t in found] == [float(dt.date(2027, 4, 17).toordinal())]
    assert found[0].how == "the 4th one, counted from 2027-03-06"


def test_the_next_one_is_the_series_day_after_the_one_told_for_its_thing() -> None:
    text = "Bill date: 9 May 2027. Bills are issued on the 9th of every month.\n\n"
    event = event_days(text)
    assert event is not None
    assert isos(event.meeting("next_bill") or ()) == ["2027-06-09", "2027-06-09"]
    assert event.meeting("next_invoice") is None  # no day told for an invoice


def test_the_first_and_last_meeting_of_weeks_a_series_runs_are_meetings_not_its_ends() -> None:
    text = (
        "The book group meets every Thursday, starting Thursday 7 October 2027 and running for"
        " three consecutive weeks.\n\n"
    )
    value = json_fill(dates_schema("first_meeting", "last_meeting"), text).value
    # the weeks end on Wednesday 27 October; the third meeting is Thursday the 21st
    assert (value["first_meeting"], value["last_meeting"]) == ("2027-10-07", "2027-10-21")


def test_an_every_other_week_series_starts_on_the_first_such_weekday_after_its_start() -> None:
    text = "From Friday 1 March 2030 the mobile library calls every other Tuesday."
    # not 12 March: the first Tuesday after the start is the first call
    assert isos(series_days(text))[:3] == ["2030-03-05", "2030-03-19", "2030-04-02"]


def test_one_unit_after_every_recurs_and_a_total_in_equal_parts_counts_them() -> None:
    text = (
        "The loan of £900 is repaid in repayments of £150 every fortnight, a total of £900 in"
        " repayments of £150, the first on 3 March 2027."
    )
    days = isos(series_days(text))
    assert days[:2] == ["2027-03-03", "2027-03-17"] and len(days) == 6
    assert isos(series_days("Water the seedlings every week from 3 March 2027."))[:2] == [
        "2027-03-03",
        "2027-03-10",
    ]
    uneven = "A total of £100 in payments of £30 every fortnight from 3 March 2027."
    assert len(series_days(uneven)) != 3  # 100 is no whole number of 30s: no count


@pytest.mark.parametrize(
    ("document", "times"),
    [
        ("Pottery: five classes, every other Tuesday, the first on 4 May 2027.", 5),
        ("A block of four coaching sessions, weekly on Fridays, from 7 May 2027.", 4),
        ("Pitch hired on Sat 8 May 2027 and the three Saturdays after that.", 4),
        ("Rounds are every other Sunday from 2 May 2027; the ninth and last round is away.", 9),
    ],
)
def test_a_count_said_before_the_recurrence_after_a_first_day_or_by_the_last_ordinal(
    document: str, times: int
) -> None:
    assert len(series_days(document)) == times
    assert not open_ended(document)


def test_a_number_before_a_word_that_is_no_plural_noun_counts_nothing() -> None:
    text = "Stall 9 is yours for every Saturday in May 2027, starting on 1 May."
    assert isos(series_days(text)) == ["2027-05-01", "2027-05-08", "2027-05-15", "2027-05-22",
                                       "2027-05-29"]  # fmt: skip


def days_of(document: str) -> list[str]:
    return [dt.date.fromordinal(int(d)).isoformat() for d in series_days(document)]


@pytest.mark.parametrize(
    ("document", "days"),
    [
        (  # counted in meetings: the count holds, so the series runs a week longer
            "Four weekly pottery sessions on Tuesdays from 3 March 2026. There is no session on "
            "17 March because of the elections.",
            ["2026-03-03", "2026-03-10", "2026-03-24", "2026-03-31"],
        ),
        (  # a length of weeks: it ends that much later
            "A three-week first-aid course meets on Mondays from 2 November 2026. The trainer is "
            "away on 9 November, so that class is cancelled and the course ends a week later.",
            ["2026-11-02", "2026-11-16", "2026-11-23"],
        ),
    ],
)
def test_a_meeting_the_document_says_does_not_happen_is_skipped(
    document: str, days: list[str]
) -> None:
    assert days_of(document) == days


def test_a_day_in_a_sentence_without_a_skip_stays_a_meeting() -> None:
    document = (
        "Four weekly pottery sessions on Tuesdays from 3 March 2026. Bring an apron on 17 March."
    )
    assert days_of(document) == ["2026-03-03", "2026-03-10", "2026-03-17", "2026-03-24"]
