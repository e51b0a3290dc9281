"""Homophones told apart by the words around them (engine/language/en/homophones.py): "too" is
offered for "to" only before a word that is only a degree, never where "to" is a preposition
or an infinitive's mark."""

from __future__ import annotations

import pytest

from engine.language.en.homophones import too_for_to
from tests.helpers.words import words_of


def offered(text: str) -> list[str]:
    words = words_of(text)
    return [r.text for i in range(len(words)) for r in too_for_to(words, i)]


@pytest.mark.parametrize(
    "text",
    [
        "The noise bothers us to much.",
        "The soup tastes to salty for me.",
        "We left to late to catch it.",
        "The flat is to expensive.",
        "He drinks to much coffee.",
    ],
)
def test_to_before_a_degree_is_offered_too(text: str) -> None:
    assert offered(text) == [" too"]


@pytest.mark.parametrize(
    "text",
    [
        "We want to leave now.",  # an infinitive
        "Give it to her.",  # a preposition and its object
        "They moved to warm countries.",  # an adjective before the preposition's noun
        "She walks to school.",
        "I spoke to many guests.",
        "To late arrivals, we say sorry.",  # capitalised: a sentence's own first word
    ],
)
def test_to_stays_where_it_is_a_preposition_or_an_infinitive(text: str) -> None:
    assert offered(text) == []
