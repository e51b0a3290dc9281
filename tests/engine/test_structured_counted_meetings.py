"""The meeting of a series a phrase counts (engine/structured/counted_meetings.py), issue 28:
the last meeting of a series the document ends, a pro-form in the series' own sentence, a
shift that counts from a meeting it names, and a member that takes the day left over once
the meetings are taken."""

from __future__ import annotations

import datetime as dt

from engine.structured.event_days import event_days, lone_date_span
from engine.structured.member_days import told_span
from engine.structured.series import series_days
from engine.structured.told_days import told_days
from tests.helpers.fills import dates_schema, json_fill


def isos(days: tuple[float, ...] | list[float]) -> list[str]:
    return [dt.date.fromordinal(int(d)).isoformat() for d in days]


def told_on(document: str, key: str) -> str | None:
    found = told_span(told_days(document), document, key)
    return None if found is None else isos([found.first])[0]


def counted(document: str) -> list[tuple[str, str]]:
    return [(isos([t.first])[0], t.how) for t in told_days(document) if t.how]


def test_the_last_meeting_counts_only_in_a_series_the_document_ends() -> None:
    closed = (
        "Welsh for beginners meets on Thursday evenings from 4 March 2027, eight classes in"
        " all. A picnic follows the last class."
    )
    assert ("2027-04-22", "the last class, counted from 2027-03-04") in counted(closed)
    opened = (
        "Welsh for beginners meets on Thursday evenings from 4 March 2027. Bring the last"
        " class's notes."
    )
    assert not [how for _, how in counted(opened) if "last" in how]


def test_a_count_before_a_plural_and_a_total_word_ends_the_series() -> None:
    text = "The bowls club plays every other Sunday from 7 March 2027, six fixtures altogether."
    assert isos(series_days(text))[-1] == "2027-05-16"
    # a length in total is how long, not how many times: five fortnightly nights in ten weeks
    assert len(series_days("Darts every other Monday from 1 March 2027, ten weeks in total.")) == 5


def test_a_shift_counts_from_the_meeting_it_names() -> None:
    text = (
        "Pottery runs on Wednesdays from 3 March 2027 for five sessions. Glazed pots can be"
        " collected a week after your final session, and the kiln fee is due the Monday"
        " before your first session."
    )
    assert told_on(text, "collection_date") == "2027-04-07"
    assert told_on(text, "kiln_fee_due") == "2027-03-01"  # not the session it counts from


def test_a_weekday_following_a_named_meeting_is_the_one_after_it() -> None:
    text = (
        "Swimming lessons are on Tuesdays from 2 March 2027, four lessons in all. The gala is"
        " held on the Saturday immediately following the last lesson."
    )
    assert told_on(text, "gala_date") == "2027-03-27"


def test_a_pro_form_counts_in_the_series_own_sentence_and_every_few_weeks_is_no_length() -> None:
    text = (
        "Walks start on Sunday 7 March 2027 and repeat every three weeks on a Sunday, with the"
        " third one a moonlit walk."
    )
    assert ("2027-04-18", "the 3rd one, counted from 2027-03-07") in counted(text)


def test_a_member_takes_the_day_left_once_the_meetings_are_taken() -> None:
    text = (
        "Judo grading practice is weekly on Monday evenings from 1 March 2027, five sessions in"
        " total. The grading itself falls on the Friday following the final session."
    )
    event = event_days(text)
    keys = ("first_session", "final_session", "grading")
    assert event is not None
    assert isos(lone_date_span(event, "grading", 1, keys) or ()) == ["2027-04-02"] * 2
    value = json_fill(dates_schema(*keys), text + "\n\n").value
    assert [value[k] for k in keys] == ["2027-03-01", "2027-03-29", "2027-04-02"]


def test_a_hyphenated_meeting_name_and_the_meeting_after_that_are_counted() -> None:
    text = (
        "The walking group meets every other Saturday from 6 March 2027. The map swap is at our"
        " third meet-up, and badges are handed out at the meeting after that."
    )
    assert [day for day, _ in counted(text)] == ["2027-04-03", "2027-04-17"]
    assert told_on(text, "badges_date") == "2027-04-17"


def test_a_counted_noun_the_series_never_uses_still_names_its_meeting() -> None:
    text = (
        "The verges are cut every other Monday from 7 June 2027. The parish checks the work "
        "at the third visit. Invoices are due on the last working day of the month."
    )
    assert counted(text)[0] == ("2027-07-05", "the 3rd visit, counted from 2027-06-07")
    assert not [how for _, how in counted(text) if "working, counted" in how]
