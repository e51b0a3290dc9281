"""When a sentence is set: past words, a finished time, a past sentence before."""

from __future__ import annotations

import pytest

from engine.language.en.sentence_time import (
    after_a_past_sentence,
    finished_time,
    sentence_of,
    time_phrase_at,
)
from engine.passes.proofread import split_words


def words_of(text: str) -> list[str]:
    return split_words(text)[0]


@pytest.mark.parametrize(
    ("text", "finished"),
    [
        ("Last month we have visited it.", True),
        ("We have visited it yesterday.", True),
        ("We met them two years ago.", True),
        ("Last Monday we have met.", True),  # a weekday is a time
        ("We have visited it often.", False),
        ("The last page is torn.", False),  # "last" before no time
    ],
)
def test_a_finished_time_anywhere_in_the_sentence(text: str, finished: bool) -> None:
    assert finished_time(words_of(text), 1) == finished


def test_only_the_words_own_sentence_counts() -> None:
    words = words_of("We left yesterday. We have seen it.")
    assert not finished_time(words, 4)
    assert sentence_of(words, 4) == (3, 6)


def test_a_past_sentence_before_unless_the_sentence_tells_its_own_time() -> None:
    assert after_a_past_sentence(words_of("The storm broke the line. Nobody have a torch."), 6)
    assert not after_a_past_sentence(words_of("The storm is here. Nobody have a torch."), 5)
    told = words_of("The call went well. He have agreed and he will sign.")
    assert not after_a_past_sentence(told, 5)
    assert not after_a_past_sentence(words_of("Nobody have a torch."), 1)  # no sentence before


@pytest.mark.parametrize(
    "text", ["We have lived here since last year.", "It has rained since two weeks ago."]
)
def test_a_time_since_a_finished_one_is_still_open(text: str) -> None:
    assert not finished_time(words_of(text), 1)


@pytest.mark.parametrize(
    ("text", "at", "finished"),
    [
        ("When we lived abroad, we have cooked a lot.", 5, True),
        ("We have cooked a lot while we stayed there.", 1, True),
        ("After the guests left, I have cleaned up.", 5, True),
        ("Since we moved here, we have cooked a lot.", 5, False),  # a time still open
        ("When we have time, we cook a lot.", 5, False),  # the clause tells no past
        ("When the guests leave, I have to clean.", 5, False),
    ],
)
def test_a_clause_of_time_told_in_the_past_finishes_its_sentence(
    text: str, at: int, finished: bool
) -> None:
    words = words_of(text)
    assert finished_time(words, at) == finished, words[at]


@pytest.mark.parametrize(
    ("text", "at", "expected"),
    [
        ("for us yesterday", 2, True),
        ("for us tomorrow, then", 2, True),
        ("for us next week", 2, True),
        ("for us last Friday", 2, True),
        ("and I last spoke", 2, False),  # "last" before a verb names no time
        ("and I soon left", 2, False),  # an adverb of time may stand before a clause's verb
        ("for us", 2, False),
    ],
)
def test_a_phrase_of_time_is_a_day_word_or_last_and_next_before_a_time(
    text: str, at: int, expected: bool
) -> None:
    assert time_phrase_at(words_of(text), at) is expected
