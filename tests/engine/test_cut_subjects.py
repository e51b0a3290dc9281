"""Subjects said twice (engine/language/en/cut_subjects.py): a later clause's pronoun that only
repeats its sentence's subject is cut, on sentences written for these tests, and never where
the pronoun could mean someone or something else."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.language.en import cut_subjects as cs
from tests.helpers.words import cut, words_of


@pytest.mark.parametrize(
    ("finder", "text", "expected"),
    [
        (
            cs.repeated_subjects,
            "The museum holds old maps, and it also has a cafe.",
            "The museum holds old maps and also has a cafe.",
        ),
        (
            cs.repeated_subjects,
            "We fixed the leak, and we painted the wall.",
            "We fixed the leak and painted the wall.",
        ),
        (
            cs.repeated_subjects,
            "Our neighbours planted a tree, and they watered it daily.",
            "Our neighbours planted a tree and watered it daily.",
        ),
        (
            cs.repeated_subjects,
            "Marco booked the room, and he will pay for it.",
            "Marco booked the room and will pay for it.",
        ),
        (
            cs.repeated_subjects,
            "The tool reads the file and it writes a copy.",
            "The tool reads the file and writes a copy.",
        ),
        (
            cs.repeated_subjects,
            "Our shed is small, but it holds both bikes.",
            "Our shed is small but holds both bikes.",
        ),
        (
            cs.repeated_subjects,
            "Last spring we sowed peas and leeks, and we watered them twice a day.",
            "Last spring we sowed peas and leeks and watered them twice a day.",
        ),
        (
            cs.repeated_subjects,
            "They packed maps, torches and a lamp, and they left at dawn.",
            "They packed maps, torches and a lamp and left at dawn.",
        ),
        (
            cs.reduced_time_clauses,
            "The chef burned his hand while he was cooking lunch.",
            "The chef burned his hand while cooking lunch.",
        ),
        (
            cs.reduced_time_clauses,
            "We left the office when we were done for the day.",
            "We left the office when done for the day.",
        ),
        (
            cs.reduced_time_clauses,
            "They walk the dog before they go to work.",
            "They walk the dog before going to work.",
        ),
        (
            cs.reduced_time_clauses,
            "She read the notes after she left the meeting.",
            "She read the notes after leaving the meeting.",
        ),
        (
            cs.partitive_pronouns,
            "My aunt framed two of them for her hall.",
            "My aunt framed two for her hall.",
        ),
        (cs.partitive_pronouns, "He kept one of them.", "He kept one."),
        (
            cs.repeated_subjects,
            "When the pump starts, it fills the tank, and it stops at the top.",
            "When the pump starts, it fills the tank and stops at the top.",
        ),
        (
            cs.reduced_time_clauses,
            "While he was cooking, he cut his thumb.",
            "While cooking, he cut his thumb.",
        ),
        (
            cs.reduced_time_clauses,
            "Before they went out, they fed the cat.",
            "Before going out, they fed the cat.",
        ),
    ],
)
def test_a_repeated_subject_is_cut(finder, text, expected):
    assert cut(finder, text) == [expected]


@pytest.mark.parametrize(
    "text",
    [
        "Marco met Anna at the station, and she said hello.",  # she: Anna, not Marco
        "The kids fed the dog, and we cleaned up after them.",  # another person
        "The box is heavy, and they carried it upstairs.",  # they: not the box
        "Tom said that the bus was late, and he took a taxi.",  # a clause between
        "When the bus came, we got on, and they sat down at once.",  # another pronoun
        "The files of the project are old, and they need work.",  # a subject with "of"
        "I like tea, while I hate coffee very much.",  # "while" after a comma: a contrast
        "We stayed home before we had eaten anything.",  # an auxiliary, not one verb
        "He waited outside until he was called in.",  # "until" is not reduced
        "It rained all day. And it was cold too.",  # another sentence's subject
        "We baked bread and the kids ate it, and we went out.",  # another clause between
        "After he left, she cried, and he phoned later.",  # the subject is "she"
        "We grew peas, the rain came, and we lost them all.",  # a clause between
        "When a box is full, a label of each kind is printed and it is filed.",  # inner subject
        "Both of us agreed to the plan.",  # "us" says who
        "Before they left, we packed the car, and they waved at us.",  # they: not the subject
        "While she was in Rome, he wrote to her.",  # another pronoun
        "We washed all of them by hand.",  # "washed all" reads cut short
    ],
)
def test_no_cut_where_the_pronoun_could_mean_another(text):
    found = [r for finder in cs.SUBJECT_CUTS for r in finder(words_of(text))]
    assert found == []


PRONOUNS = ("I", "we", "you", "he", "she", "they")


@given(st.sampled_from(PRONOUNS), st.sampled_from(PRONOUNS), st.booleans())
def test_a_coordinated_pronoun_is_cut_only_when_it_is_the_subject(first, second, comma):
    text = f"{first.capitalize()} opened the door{',' if comma else ''} and {second} left it open."
    found = cut(cs.repeated_subjects, text)
    if first.lower() == second.lower():
        assert found == [f"{first.capitalize()} opened the door and left it open."]
    else:
        assert found == []


def test_a_noun_subject_agrees_in_number():
    assert cs.sentence_subject(words_of("The maps show roads."), 0) == cs.Subject(None, True, 2)
    assert cs.sentence_subject(words_of("The map shows roads."), 0) == cs.Subject(None, False, 2)
    assert cs.sentence_subject(words_of("Before noon, we ate."), 0) == cs.Subject("we", True, 3)
    assert cs.sentence_subject(words_of("After we ate, they left."), 0) == cs.Subject(
        "they", True, 4
    )
    assert cs.sentence_subject(words_of("When done, we ate."), 0) == cs.Subject("we", True, 3)
    assert cs.sentence_subject(words_of("When the box is full, a label is printed."), 0) is None
