"""Days named by weekday or ordinal from a sentence's one written day
(engine/structured/named_days.py): a later end, an earlier start after a written end, and
either in the sentence after."""

from __future__ import annotations

import calendar
import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.structured import named_days
from tests.helpers.fills import written_span_of as span


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (
            "The fair opens on Tuesday 6 April 2027 and closes on Friday.",
            ("2027-04-06", "2027-04-09"),
        ),
        ("Doors open 2 June 2027 and stay open until Sunday.", ("2027-06-02", "2027-06-06")),
        ("Trials start 8 February 2027 and run until the 12th.", ("2027-02-08", "2027-02-12")),
        ("Trials start 28 February 2027 and run to the 3rd.", ("2027-02-28", "2027-03-03")),
        ("It begins on Friday 1 October 2027 and runs through Fri.", ("2027-10-01", "2027-10-08")),
        # "the" before the weekday: that day of the same week, as British English writes it
        ("The show opens on Monday 3 May 2027 and closes on the Wednesday.",
         ("2027-05-03", "2027-05-05")),
        ("It starts on Tuesday 4 May 2027 and runs until the Friday.",
         ("2027-05-04", "2027-05-07")),
    ],
)  # fmt: skip
def test_a_later_weekday_or_ordinal_ends_the_period(
    document: str, expected: tuple[str, str]
) -> None:
    assert span(document) == expected


@pytest.mark.parametrize(
    "document",
    [
        "The visit on 3 May 2027 was moved from Friday.",  # no range word before the weekday
        "Submit by 1 May 2027. The fair is on Friday.",  # another sentence than the day's
        "Monday 15 March 2027 is the first day.",  # the weekday is the day's own
        "From 3 May 2027 to 9 May 2027, then on to Friday.",  # the sentence writes two days
        "The report of 3 May 2027 goes to the 12th floor.",  # an ordinal with a noun after it
    ],
)
def test_no_later_day_without_a_cue_after_the_one_day(document: str) -> None:
    assert named_days.later_days(document) == ()


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (
            "The choir weekend begins Friday 10 September 2027 in Bergen and ends Sunday.",
            ("2027-09-10", "2027-09-12"),
        ),
        ("It ends Sunday 7 March 2027, having begun Friday.", ("2027-03-05", "2027-03-07")),
        ("The sale starts 3 May 2027. It wraps up Friday.", ("2027-05-03", "2027-05-07")),
    ],
)
def test_a_weekday_right_after_a_period_verb_needs_no_cue(
    document: str, expected: tuple[str, str]
) -> None:
    assert span(document) == expected


@pytest.mark.parametrize(
    "document",
    [
        "From 5 May 2027 the shop opens Monday to Friday.",  # a weekly habit, cue or none
        "The fair opens on 5 May 2027. Tickets go on sale Monday.",  # no period verb
        "The fair opens on 5 May 2027 and we close Sundays.",  # every Sunday, no one day
    ],
)
def test_a_weekday_range_or_a_weekday_after_another_verb_ends_nothing(document: str) -> None:
    assert named_days.later_days(document) == ()


def test_a_day_range_already_says_its_end() -> None:
    assert named_days.later_days("Held 4-6 May 2027 in Rome, closing on Friday.") == ()


WRITTEN_THEN_WEEKDAY = [
    ("It opens on {written} and closes on {weekday}.", "later"),
    ("It ends on {written}, having started on {weekday}.", "earlier"),
]


@pytest.mark.parametrize(("sentence", "way"), WRITTEN_THEN_WEEKDAY)
@given(
    day=st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2090, 12, 31)),
    weekday=st.sampled_from(list(calendar.day_name)),
)
def test_a_named_weekday_is_within_the_week_after_or_before_the_day(
    sentence: str, way: str, day: dt.date, weekday: str
) -> None:
    written = f"{day.day} {calendar.month_name[day.month]} {day.year}"
    (period,) = named_days.later_days(sentence.format(written=written, weekday=weekday))
    _, start, end = period
    written_end, named = (start, end) if way == "later" else (end, start)
    assert written_end == day.toordinal()
    assert 1 <= end - start <= 7
    assert calendar.day_name[dt.date.fromordinal(int(named)).weekday()] == weekday


@given(st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2090, 12, 31)), st.integers(1, 31))
def test_a_later_ordinal_is_that_day_of_this_month_or_the_next(day: dt.date, number: int) -> None:
    written = f"{day.day} {calendar.month_name[day.month]} {day.year}"
    suffix = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(number, "th")
    found = named_days.later_days(f"It starts {written} and lasts until the {number}{suffix}.")
    for _, start, end in found:
        end_day = dt.date.fromordinal(int(end))
        assert start < end <= start + 31
        assert end_day.day == number


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("The market runs until 20 June 2027, starting on the 18th.", ("2027-06-18", "2027-06-20")),
        ("It ends on Sunday 7 March 2027, having begun on Friday.", ("2027-03-05", "2027-03-07")),
        ("It closes on 3 March 2027, opening on the 26th.", ("2027-02-26", "2027-03-03")),
        (
            "The fair closes on 28 February 2027. It starts on the 26th.",
            ("2027-02-26", "2027-02-28"),
        ),
        (
            "The course ends on Saturday 17 July 2027. It begins on Wed.",
            ("2027-07-14", "2027-07-17"),
        ),
    ],
)
def test_a_start_named_after_a_written_end_begins_the_period(
    document: str, expected: tuple[str, str]
) -> None:
    assert span(document) == expected


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        # the written day is a start: a start verb's day after it is later, as any cue's
        (
            "Deliveries start on 5 May 2027 and payments start on the 20th.",
            ("2027-05-05", "2027-05-20"),
        ),
        # the sentence before writes a start: the next one's start verb names no earlier day
        ("The fair opens on 9 May 2027. It starts on Monday at nine.", None),
    ],
)
def test_a_start_verb_names_an_earlier_day_only_after_a_written_end(
    document: str, expected: tuple[str, str] | None
) -> None:
    assert span(document) == expected


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (
            "It opens on 10 May 2027 in Delft. The final day is Friday.",
            ("2027-05-10", "2027-05-14"),
        ),
        (
            "Meetings from 19 January 2027. The last session is on the 21st.",
            ("2027-01-19", "2027-01-21"),
        ),
        (
            "It opens on 3 May 2027. The closing dinner is on Thursday.",
            ("2027-05-03", "2027-05-06"),
        ),
    ],
)
def test_the_sentence_after_may_name_the_last_day(document: str, expected: tuple[str, str]) -> None:
    assert span(document) == expected


@pytest.mark.parametrize(
    "document",
    [
        "It opens on 9 November 2027. The last day to register is the 1st.",  # another last day
        "It opens on 9 November 2027. Parking is Friday only.",  # no last word before the cue
    ],
)
def test_a_last_day_needs_its_word_just_before_the_cue(document: str) -> None:
    assert named_days.later_days(document) == ()


@given(st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2090, 12, 31)), st.integers(1, 31))
def test_an_earlier_ordinal_is_that_day_of_this_month_or_one_before(
    day: dt.date, number: int
) -> None:
    written = f"{day.day} {calendar.month_name[day.month]} {day.year}"
    suffix = {1: "st", 2: "nd", 3: "rd", 21: "st", 22: "nd", 23: "rd", 31: "st"}.get(number, "th")
    (period,) = named_days.later_days(f"It runs until {written}, starting on the {number}{suffix}.")
    _, start, end = period
    assert end == day.toordinal()
    assert end - 92 <= start < end  # at most three months back (the 31st before 2 May)
    assert dt.date.fromordinal(int(start)).day == number


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("The audit runs Monday to Thursday, from 8 March 2027.", ("2027-03-08", "2027-03-11")),
        ("Camp is Fri–Sun, ending on 20 June 2027.", ("2027-06-18", "2027-06-20")),
    ],
)
def test_a_weekday_range_the_one_day_falls_on_bounds_the_period(
    document: str, expected: tuple[str, str]
) -> None:
    assert span(document) == expected


def test_a_weekday_range_the_day_does_not_fall_on_is_a_habit() -> None:
    assert named_days.later_days("Open Monday to Friday from 10 March 2027.") == ()


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        (
            "Agenda. Day 1 (3 March 2027): arrival. Day 2: site visit. Day 3: review.",
            ("2027-03-03", "2027-03-05"),
        ),
        (
            "Day one is 8 April 2027; days two, three and four are fieldwork.",
            ("2027-04-08", "2027-04-11"),
        ),
        (
            "Wednesday 3 March 2027: arrival. Thursday: visits. Friday – review. Drinks after.",
            ("2027-03-03", "2027-03-05"),
        ),
        # no day 1: numbered from the day a sentence writes as its start
        (
            "The retreat opens on 2 March 2027. Day two is a hike; day three, the review.",
            ("2027-03-02", "2027-03-04"),
        ),
    ],
)
def test_a_programme_dating_its_first_day_spans_its_labels(
    document: str, expected: tuple[str, str]
) -> None:
    assert span(document) == expected


@pytest.mark.parametrize(
    "document",
    [
        "Day 1 of the trial was 3 March 2027, and 40 patients joined.",  # no later day named
        "Day 1, 3 March 2027, and day 2, 4 March 2027, are booked.",  # day 1's sentence has two
        "Thursday 3 March 2027: arrival. Friday: visits.",  # 3 March 2027 is a Wednesday
        "Report on 3 March 2027. Friday: planning.",  # the first label has no date
        "We met on 3 March 2027. Day 4 was the hardest.",  # no start written, no day 1
        "The trial ends on 3 March 2027. Day 4 was the hardest.",  # an end, not a start
    ],
)
def test_no_programme_without_a_dated_first_day(document: str) -> None:
    assert named_days.numbered_days(document) == ()
    assert named_days.weekday_programme(document) == ()


@given(st.dates(min_value=dt.date(1990, 1, 1), max_value=dt.date(2090, 12, 31)), st.integers(2, 9))
def test_a_numbered_programme_spans_as_many_days_as_its_last_number(
    day: dt.date, last: int
) -> None:
    written = f"{day.day} {calendar.month_name[day.month]} {day.year}"
    document = f"Day 1 ({written}): arrival. Day {last}: departure."
    end = day + dt.timedelta(days=last - 1)
    assert span(document) == (day.isoformat(), end.isoformat())


def test_a_day_written_with_a_dot_before_its_month_ends_no_sentence() -> None:
    text = "The meeting is on 14.–16. October 2027. Bring boots. Room 12. Lunch at 1."
    assert named_days.SENTENCE_END.split(text) == [
        "The meeting is on 14.–16. October 2027.",
        "Bring boots.",
        "Room 12.",
        "Lunch at 1.",
    ]


@pytest.mark.parametrize(
    ("document", "expected"),
    [
        ("The expo opens on 2 March 2027. It lasts till the 5th.", ("2027-03-02", "2027-03-05")),
        ("The expo opens on 2 March 2027. This runs until Thursday.",
         ("2027-03-02", "2027-03-04")),
        ("The expo starts 2 March 2027; the closing day is the 4th.",
         ("2027-03-02", "2027-03-04")),
    ],
)  # fmt: skip
def test_an_end_cue_after_a_reference_back_or_a_last_day_clause_ends_the_period(
    document: str, expected: tuple[str, str]
) -> None:
    assert span(document) == expected


@pytest.mark.parametrize(
    "document",
    [
        "The expo opens on 2 March 2027. Registration is open until Friday.",  # its own deadline
        "The expo starts 2 March 2027; the deadline is the 9th.",  # "is" with no last-day word
    ],
)
def test_another_subjects_until_or_a_plain_is_does_not_end_the_period(document: str) -> None:
    assert span(document) is None
