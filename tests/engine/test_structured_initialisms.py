"""A date member's name that writes an initialism (engine/structured/member_days.py), issue 28:
"pyo_opening" names the "pick-your-own" the text writes out, "agm_date" the "Annual General
Meeting": the day told right after those words is the member's."""

from __future__ import annotations

from engine.structured.member_days import WORD, spelled_out
from tests.helpers.fills import lone_days


def test_an_initialism_names_the_hyphened_words_it_stands_for() -> None:
    text = (
        "Good news: pick-your-own strawberries start on Saturday 19 June 2027, and our farm "
        "cafe opens the following Friday.\n\n"
    )
    # "opening" alone would find the cafe's day, which the schema lists first
    assert lone_days(text, ["cafe_opening", "pyo_opening"]) == ["2027-06-25", "2027-06-19"]


def test_an_initialism_ends_where_its_last_word_does() -> None:
    text = "Members vote on fees at the Annual General Meeting on Thursday 20 May 2027."
    words = list(WORD.finditer(text))
    assert [words[at][0] for at in spelled_out("agm_date", text, words)] == ["Meeting"]


def test_a_part_the_text_writes_as_a_word_is_no_initialism() -> None:
    text = "The art fair is on 3 July 2027, after a talk about rare techniques."
    words = list(WORD.finditer(text))
    assert spelled_out("art_fair", text, words) == set()
