"""The number the words before a noun ask of it, and the forms a grammar fix may not guess."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.language.en.form_risks import (
    PLURAL,
    SINGULAR,
    agrees_as_asked,
    asked_number,
    asked_person,
    aspect_changes,
    breaks_agreement,
    counted_quantity,
    degree_changes,
    leaves_its_time,
    numbers_of,
)
from engine.language.en.grammar import (
    AGREEMENT_RISK,
    ASPECT_RISK,
    DEGREE_RISK,
    NUMBER_RISK,
    fixes,
    risk,
    tense,
)
from engine.passes.proofread import split_words


def asked(text: str) -> str | None:
    """The number asked of the last word of ``text``."""
    words, _ = split_words(text)
    return asked_number(words, len(words) - 1)


@pytest.mark.parametrize(
    ("text", "number"),
    [
        ("many company", PLURAL),
        ("several small local company", PLURAL),
        ("a lot of scientist", PLURAL),
        ("one of the student", PLURAL),
        ("there are two kind", PLURAL),
        ("after 15 minute", PLURAL),
        ("an experts", SINGULAR),
        ("every students", SINGULAR),
        ("the cars", None),  # "the" says nothing of the number
        ("their own car", None),
        ("For many reasons, student", None),  # the marker is in another clause
        ("many small local old company", None),  # further than the reach
    ],
)
def test_markers_before_a_noun_ask_for_its_number(text: str, number: str | None) -> None:
    assert asked(text) == number


def test_a_noun_form_says_its_number() -> None:
    assert numbers_of("companies") == numbers_of("children") == {PLURAL}
    assert numbers_of("child") == {SINGULAR}
    assert numbers_of("company") == {SINGULAR, PLURAL}  # the lexicon lists both


def test_an_ing_form_against_another_form_is_an_aspect_change() -> None:
    assert aspect_changes("use", "using") and aspect_changes("living", "live")
    assert not aspect_changes("goes", "go") and not aspect_changes("use", "used")


def test_an_adjectives_degree_is_a_change_of_degree() -> None:
    assert degree_changes("young", "younger") and degree_changes("good", "best")
    assert not degree_changes("young", "young")


def test_a_guessed_form_carries_a_risk_and_an_asked_number_does_not() -> None:
    assert risk("car", "cars", "own") == NUMBER_RISK  # after an adjective, no evidence
    assert risk("environments", "environment", "different") == NUMBER_RISK
    assert risk("company", "companies", "many", PLURAL) == 0.0
    assert risk("experts", "expert", "an", SINGULAR) == 0.0
    assert risk("company", "companies", "many", SINGULAR) == NUMBER_RISK
    assert risk("need", "needs", "he") == 0.0  # agreement with its subject, not a number
    assert risk("use", "using", "to") == ASPECT_RISK
    assert risk("young", "younger", "and") == DEGREE_RISK


def test_a_noun_after_a_determiner_and_an_adjective_that_is_also_a_noun_guesses_its_number():
    """ "the spare keys": "spare" is a noun and a verb too, so it alone does not show a noun
    place; after "the" it describes what follows, and "keys" → "key" is a guess."""
    assert risk("keys", "key", "spare", two_before="the") == NUMBER_RISK
    assert risk("cars", "car", "old", two_before="the") == NUMBER_RISK
    assert risk("keys", "key", "spare") == 0.0  # no determiner before "spare" shows a noun place
    assert risk("needs", "need", "team", two_before="the") == 0.0  # "team" is no adjective


WORDS = ["many", "a", "the", "of", "lot", "red", ",", "cats", "."]


@given(st.lists(st.sampled_from(WORDS), max_size=8))
def test_no_marker_is_read_across_a_clause_break(before: list[str]) -> None:
    text = " ".join([*before, ".", "cat"])
    assert asked(text) is None


@pytest.mark.parametrize(
    ("text", "index", "asked"),
    [
        ("Every morning he walk his dog.", 3, "VBZ"),
        ("They walks home.", 1, "VBP"),
        ("I likes it.", 1, "VBP"),
        ("Does he walk home?", 2, None),  # a question: the auxiliary carries the agreement
        ("We want to walk home.", 3, None),  # "to" is no subject
        ("Please make it work.", 3, None),  # an object that a bare verb follows
        ("We let you know.", 3, None),
        ("The dog, he said, walk.", 4, None),  # a mark between them
        ("The dogs walk home.", 2, None),  # a noun's number is asked_number's
        ("Each of the students have a desk.", 4, "VBZ"),  # one of a group is the subject
        ("One of my new friends live here.", 5, "VBZ"),
        ("Neither of them know it.", 3, "VBZ"),
        ("Each of the students who have come.", 5, None),  # the verb is the clause's
        ("I met each of the pupils have.", 6, None),  # "each" does not open the clause
        ("Each of the students, we know, have.", 6, None),  # a mark between them
        ("I, in any case, have time.", 4, "VBP"),  # an aside between them
        ("She, in my opinion, work hard.", 4, "VBZ"),
        ("They, as a rule, sleeps late.", 4, "VBP"),
        ("He, she and I have.", 4, "VBP"),  # a list of subjects: the last is next to it
        ("He, she, and we have.", 4, "VBP"),
        ("It, you see, work.", 3, None),  # a clause, not an aside
        ("The manager, in fact, have left.", 4, None),  # a noun's number is not asked here
        ("Everyone know it.", 1, "VBZ"),  # an indefinite pronoun asks as "he" does
        ("Nobody at the desk know it.", 4, "VBZ"),  # a preposition's phrase after it
        ("Please help everyone find it.", 3, None),  # an object after a verb
        ("We told everyone at the desk know.", 6, None),  # it does not open its clause
    ],
)
def test_a_subject_pronoun_asks_its_verb_for_a_form(text, index, asked) -> None:
    assert asked_person(split_words(text)[0], index) == asked


def test_a_verb_that_agrees_with_its_subject_is_never_offered_a_form_that_does_not() -> None:
    assert breaks_agreement("have", "has", "VBP")  # "I, in any case, have"
    assert breaks_agreement("am", "is", "VBP")
    assert breaks_agreement("works", "work", "VBZ")
    assert not breaks_agreement("have", "had", "VBP")  # a tense is another question
    assert not breaks_agreement("walk", "walks", "VBZ")  # that one is the fix
    assert not breaks_agreement("have", "has", None)


def test_an_aside_never_takes_the_agreement_from_its_subject() -> None:
    words, _ = split_words("I, in any case, have no time.")
    offered = {f.rewording.text.strip() for f in fixes(words) if f.rewording.first == 4}
    assert "has" not in offered
    assert "had" not in offered  # nor its past: nothing in the sentence tells one


def test_a_verb_that_agrees_keeps_its_present_where_nothing_tells_a_past() -> None:
    assert leaves_its_time("runs", "ran", "VBZ")
    assert leaves_its_time("have", "had", "VBP")
    assert not leaves_its_time("runs", "ran", None)  # a past word or verb: the reading's
    assert not leaves_its_time("run", "ran", "VBZ")  # "he run": no agreement to keep
    assert not leaves_its_time("runs", "running", "VBZ")  # no past

    def offered(text: str, at: int) -> set[str]:
        words, _ = split_words(text)
        return {f.rewording.text.strip() for f in fixes(words) if f.rewording.first == at}

    assert "ran" not in offered("He runs faster than his brother.", 1)
    assert "ran" in offered("Yesterday he runs home.", 2)
    assert "ran" in offered("He runs home and stayed there.", 1)


def test_only_the_asked_present_form_of_the_same_verb_agrees() -> None:
    assert agrees_as_asked("walk", "walks", "VBZ")
    assert agrees_as_asked("walks", "walk", "VBP")
    assert not agrees_as_asked("walk", "walked", "VBZ")  # another time is a tense fix
    assert not agrees_as_asked("walks", "walk", "VBZ")  # already as asked
    assert agrees_as_asked("are", "is", "VBZ")  # "neither of them are"
    assert not agrees_as_asked("is", "are", "VBP")  # "am" or "are": the reading chooses
    assert not agrees_as_asked("were", "was", "VBZ")  # a past is no present's agreement
    assert not agrees_as_asked("cost", "costs", "VBZ")  # also a past: "it cost a lot"
    assert not agrees_as_asked("walk", "walks", None)


def test_agreement_with_a_pronoun_is_offered_at_a_tolerance() -> None:
    words, _ = split_words("Every morning he walk his dog.")
    offered = {f.rewording.text: f.risk for f in fixes(words)}
    assert offered[" walks"] == AGREEMENT_RISK < 0
    assert offered[" walked"] > 0  # a tense still pays its risk


@pytest.mark.parametrize(
    "text",
    [
        "The guide was kind and she explain everything.",  # a past verb sets the time
        "He agree to it and I sign tomorrow.",  # so does a future word
        "Yesterday we goes home.",  # and a word that sets the past
    ],
)
def test_in_a_timed_sentence_agreement_pays_like_any_form(text) -> None:
    words, _ = split_words(text)
    present = [f for f in fixes(words) if tense(f.rewording.text.strip().lower()) != "past"]
    assert all(f.risk != AGREEMENT_RISK for f in present)


@pytest.mark.parametrize(
    "text",
    [
        "She have left the keys and she come back tomorrow.",  # another clause's future
        "They has packed, and we drive north next week.",
    ],
)
def test_a_future_word_in_another_clause_leaves_an_auxiliary_its_agreement(text) -> None:
    words, _ = split_words(text)
    agreeing = {"she": "has", "they": "have"}[words[0].lower()]
    offered = {f.rewording.text.strip(): f.risk for f in fixes(words) if f.rewording.first == 1}
    assert offered[agreeing] == AGREEMENT_RISK


def test_an_adverb_between_a_pronoun_and_its_verb_keeps_the_pronoun_its_subject() -> None:
    def asked(text: str) -> str | None:
        words, _ = split_words(text)
        return asked_person(words, len(words) - 2)

    assert asked("It simply take time.") == "VBZ"
    assert asked("They often walks home.") == "VBP"
    assert asked("He not go home.") is None  # a negation asks for an auxiliary
    assert asked("Does he often walk home.") is None  # still the auxiliary's subject
    assert asked("It still make sense.") is None  # "still" is a verb and a noun too


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("We had less visitors today.", "fewer"),
        ("There is much boxes here.", "many"),
        ("We had less people today.", None),  # "people": read both ways
        ("We had less rain today.", None),  # a mass: right as written
        ("It is less expensive now.", None),  # an adjective next: the reading's
    ],
)
def test_a_quantity_for_a_mass_before_a_plural_noun_is_the_counting_one(
    text: str, expected: str | None
) -> None:
    words, _ = split_words(text)
    at = next(i for i, w in enumerate(words) if w.strip() in ("less", "much"))
    assert counted_quantity(words, at) == expected
