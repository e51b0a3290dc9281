"""A verb joined by "and" to its clause's first verb agrees with that verb's subject."""

from __future__ import annotations

import pytest

from engine.core.worddiff import split_words
from engine.language.en.form_risks import PLAIN_PRESENT_TAG, THIRD_SINGULAR_TAG
from engine.language.en.grammar import fixes
from engine.language.en.joined_verbs import joined_verb_person


def person(text: str) -> str | None:
    words, _ = split_words(text)
    after_and = next(i for i, w in enumerate(words) if w.strip() == "and") + 1
    return joined_verb_person(words, after_and)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("He mends old bikes and sell them on Sundays.", THIRD_SINGULAR_TAG),
        ("She is fond of maps and draw the coast.", THIRD_SINGULAR_TAG),
        ("They live nearby and walks the dog daily.", PLAIN_PRESENT_TAG),
        ("It is old and need a new battery.", THIRD_SINGULAR_TAG),
    ],
)
def test_the_joined_verb_takes_the_first_verbs_subject(text: str, expected: str) -> None:
    assert person(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "She says that they sing and dance.",  # a clause of its own between
        "She likes tea and cake.",  # "cake": a noun
        "He mend bikes and sell them.",  # the first verb does not agree: unsure
        "He mends bikes, and sell them.",  # a mark between
        "The man mends bikes and sell them.",  # no pronoun opens the clause
    ],
)
def test_an_unsure_joined_verb_has_no_subject_here(text: str) -> None:
    assert person(text) is None


def test_the_agreeing_form_of_a_joined_verb_is_a_rule() -> None:
    words, _ = split_words("He mends old bikes and sell them on Sundays.")
    at = words.index(" sell")
    found = {f.rewording.text.strip(): f.certain for f in fixes(words) if f.rewording.first == at}
    assert found["sells"] is True
    assert "sold" not in found or found["sold"] is False
