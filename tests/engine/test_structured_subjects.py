"""What a document calls the thing it dates (engine/structured/subjects.py), and the template
name or title that takes it."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.structured.subjects import subject_names
from tests.helpers.fills import json_fill

EVENT = {"type": "object", "required": ["name", "start_date"],
         "properties": {"name": {"type": "string"},
                        "start_date": {"type": "string", "format": "date"}}}  # fmt: skip


@pytest.mark.parametrize(
    ("document", "names"),
    [
        ("The harbour regatta starts on 4 June 2027 in Kiel.", ("Harbour regatta",)),
        (
            "The two-day cider festival opens on 4 June 2027.",
            ("Two-day cider festival", "Cider festival"),
        ),
        ("Notes first. The poetry slam is on 4 June 2027.", ("Poetry slam",)),
        ("Our spring lecture series begins 4 June 2027.", ("Spring lecture series",)),
    ],
)
def test_the_subject_of_the_first_dated_sentence_is_the_name(
    document: str, names: tuple[str, ...]
) -> None:
    assert subject_names(document) == names


@pytest.mark.parametrize(
    "document",
    [
        "Priya Nair joins the team on 4 June 2027.",  # a person: no determiner
        "The new lead is Priya Nair, from 4 June 2027.",  # a role, then the person's name
        "The poetry slam is a lot of fun.",  # no day written
        "On 4 June 2027 the slam opens.",  # the dated sentence opens with no determiner
    ],
)
def test_no_name_without_a_determined_subject_of_a_dated_sentence(document: str) -> None:
    assert subject_names(document) == ()


def test_a_template_name_takes_the_name_the_document_gives() -> None:
    filled = json_fill(EVENT, "The harbour regatta starts on 4 June 2027 in Kiel.\n\n")
    assert filled.value["name"] == "Harbour regatta"
    filled = json_fill(EVENT, "The two-day cider festival opens on 4 June 2027.\n\n")
    assert filled.value["name"] in ("Two-day cider festival", "Cider festival")


def test_a_person_field_or_a_template_value_is_not_named_from_the_subject() -> None:
    person = {"type": "object", "required": ["first_name"],
              "properties": {"first_name": {"type": "string"}}}  # fmt: skip
    filled = json_fill(person, "The harbour regatta starts on 4 June 2027.\n\n")
    assert filled.value["first_name"] != "Harbour regatta"


@given(st.text(max_size=200))
def test_reading_names_never_fails_on_any_text(text: str) -> None:
    assert all(name[:1].isupper() for name in subject_names(text))
