"""The noisy channel's weighed edits (engine.language.en.channel): a doubled letter and a swap
are light slips, every other edit a whole one."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.language.en.channel import FULL_EDIT, LIGHT_EDIT, slip_edits
from engine.language.en.dictionary import edit_distance


@pytest.mark.parametrize(
    ("typed", "meant", "edits"),
    [
        ("coments", "comments", LIGHT_EDIT),  # a doubled letter written once
        ("untill", "until", LIGHT_EDIT),  # a single letter written twice
        ("recieve", "receive", LIGHT_EDIT),  # two neighbours swapped
        ("coments", "moments", FULL_EDIT),  # one letter for another
        ("cleark", "clear", FULL_EDIT),  # a letter added
        ("acomodate", "accommodate", 2 * LIGHT_EDIT),
        ("word", "word", 0.0),
    ],
)
def test_doubled_letters_and_swaps_are_light_slips(typed: str, meant: str, edits: float) -> None:
    assert slip_edits(typed, meant) == edits


LETTERS = st.text(alphabet="abcdeilmnorst", min_size=0, max_size=9)


@settings(max_examples=200, deadline=None)
@given(LETTERS, LETTERS)
def test_weighed_edits_lie_between_half_and_all_of_the_plain_edits(a: str, b: str) -> None:
    plain = edit_distance().compare(a, b, 20)
    weighed = slip_edits(a, b)
    assert LIGHT_EDIT * plain <= weighed <= plain
    assert weighed == slip_edits(b, a)  # typing one for the other is one slip either way
    assert (weighed == 0) == (a == b)
