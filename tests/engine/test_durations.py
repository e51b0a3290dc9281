"""'since' before a length of time is offered as 'for' (engine.language.en.durations)."""

from __future__ import annotations

import pytest

from engine.language.en.durations import duration_fixes, is_unit
from engine.language.en.grammar import fixes
from engine.passes.proofread import split_words


def fixed(text: str) -> list[str]:
    words, _ = split_words(text)
    return [r.text for i in range(len(words)) for r in duration_fixes(words, i)]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("She has worked here since six weeks.", [" for"]),
        ("I live here since 3 months and I like it.", [" for"]),
        ("Since two days, we wait.", ["For"]),
        ("We have known them since a year.", [" for"]),
        ("I have waited since many hours.", [" for"]),
    ],
)
def test_since_before_a_length_of_time_is_offered_as_for(text, expected) -> None:
    assert fixed(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "I have known her since six weeks ago.",  # "ago": a point in time
        "We have waited since Monday.",  # a day
        "It has rained since 2019.",  # a year is a date, not a count
        "They have met since the war.",  # an event
        "We stayed for six weeks.",  # already "for"
        "I know it since, six weeks.",  # a mark inside the phrase
    ],
)
def test_since_before_a_point_in_time_is_left_alone(text) -> None:
    assert fixed(text) == []


def test_a_unit_of_time_is_read_in_either_number() -> None:
    assert is_unit("years") and is_unit("week") and is_unit("centuries")
    assert not is_unit("apples")


def test_grammar_offers_the_fix_beside_the_others() -> None:
    words, _ = split_words("She has lived here since six weeks.")
    assert " for" in {fix.rewording.text for fix in fixes(words)}
