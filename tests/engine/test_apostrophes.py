"""Contractions written without their apostrophe: which letters are one, and what they are."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.language.en.apostrophes import Dropped, dropped, dropped_apostrophes
from engine.language.en.registers import APOSTROPHE, CONTRACTIONS


@pytest.mark.parametrize(
    ("letters", "opens", "expected"),
    [
        ("dont", False, Dropped("don't", True)),
        ("theyre", False, Dropped("they're", True)),
        ("Dont", True, Dropped("Don't", True)),
        ("dont", True, Dropped("Don't", True)),
        ("im", False, Dropped("I'm", True)),
        ("Im", False, Dropped("I'm", True)),  # "I" has its capital anywhere
        ("hes", False, Dropped("he's", False)),  # typed often: the reading chooses
        ("whats", False, Dropped("what's", False)),
    ],
)
def test_a_dropped_apostrophe_is_read_as_its_contraction(
    letters: str, opens: bool, expected: Dropped
) -> None:
    assert dropped(letters, opens) == expected


@pytest.mark.parametrize("letters", ["cant", "wont", "well", "were", "its", "lets", "shell", "ill"])
def test_a_word_of_its_own_is_never_taken_for_a_contraction(letters: str) -> None:
    assert dropped(letters, False) is None


def test_a_capitalised_word_inside_a_sentence_is_a_name() -> None:
    assert dropped("Dont", False) is None
    assert dropped("Theyre", False) is None


def test_contractions_that_open_or_close_on_the_apostrophe_are_left() -> None:
    assert dropped("em", False) is None and dropped("tis", False) is None


@given(st.sampled_from([short for short, _ in CONTRACTIONS]))
def test_every_dropped_apostrophe_comes_back_as_the_package_writes_it(short: str) -> None:
    found = dropped(short.replace(APOSTROPHE, ""), False)
    if found is not None:
        assert found.contraction.lower() == short.lower()
        assert (short.replace(APOSTROPHE, "") in dropped_apostrophes()) == found.certain
