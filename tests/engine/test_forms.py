"""Word forms from lemminflect's lexicon, and the over-regularised forms read by rule."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.language.en.forms import (
    PAST,
    PRESENT,
    comparative,
    number_changes,
    other_forms,
    past_changes,
    readings,
    regularised_forms,
    tense,
)

COMMON = [
    "go", "went", "sees", "taken", "write", "is", "were", "has", "did", "explain", "carried",
    "stopping", "child", "children", "leaf", "mouse", "box", "city", "good", "better", "big",
    "happiest", "run", "ran", "buy", "teach", "cost", "read", "button", "lie", "lay", "fly",
]  # fmt: skip


def test_a_known_word_reads_as_a_form_of_its_lemmas() -> None:
    parts = {(r.part, r.lemma) for r in readings("saw")}
    assert {("VERB", "see"), ("NOUN", "saw")} <= parts
    [went] = readings("went")
    assert (went.part, went.lemma, went.tags) == ("VERB", "go", frozenset({"VBD"}))


def test_irregular_and_regular_forms_alike_come_from_the_lexicon() -> None:
    assert {"went", "gone", "goes", "going"} <= set(other_forms("go"))
    assert {"mice"} <= set(other_forms("mouse"))
    assert {"boxes"} <= set(other_forms("box"))
    assert {"cities"} <= set(other_forms("city"))
    assert {"happier", "happiest"} <= set(other_forms("happy"))


def test_an_over_regularised_form_stands_for_its_real_form_only() -> None:
    [sended] = readings("sended")
    assert (sended.part, sended.lemma) == ("VERB", "send")
    assert other_forms("sended") == ("sent",)
    assert other_forms("teached") == ("taught",)
    assert other_forms("mouses") == ("mice",)
    assert other_forms("baddest") == ("worst",)
    assert other_forms("maked") == ("made",)  # the dropped "e" put back


def test_a_plural_given_a_second_plural_ending_stands_for_the_plural() -> None:
    assert regularised_forms("childrens") == ("children",)
    assert regularised_forms("womens") == ("women",)
    assert regularised_forms("peoples") == ()  # a word of its own ("the peoples of Europe")
    assert regularised_forms("cars") == ()  # listed: a plain plural


def test_only_a_word_no_lexicon_lists_has_regularised_forms() -> None:
    assert regularised_forms("familys")[0] == "families"
    assert regularised_forms("families") == ()  # listed: its other forms are no fixes here
    assert regularised_forms("becuse") == ()


def test_an_unknown_word_with_no_regular_ending_has_no_reading() -> None:
    assert readings("becuse") == ()
    assert readings("xqzt") == () and other_forms("xqzt") == ()


def test_tense_and_number_come_from_the_tags() -> None:
    assert (tense("went"), tense("goes"), tense("sended")) == (PAST, PRESENT, PAST)
    assert tense("cost") is None  # present and past alike
    assert past_changes("went", "goes") and past_changes("cost", "costs")
    assert not past_changes("is", "are") and not past_changes("sended", "sent")
    assert not past_changes("go", "going")
    assert number_changes("child", "children")
    assert not number_changes("is", "are")
    assert comparative("better") and comparative("biggest") and not comparative("big")


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(COMMON), st.data())
def test_forms_of_a_known_word_are_forms_of_each_other(word: str, data) -> None:
    """Two listed words that are forms of one lemma each offer the other: a fix can always be
    taken back by the same means."""
    forms = other_forms(word)
    assert word not in forms
    if forms:
        form = data.draw(st.sampled_from(forms))
        assert word in other_forms(form)
