"""Confusion sets: a grammar fix is only ever another form of the word the user wrote."""

from __future__ import annotations

from engine.language.en.grammar import (
    NUMBER_RISK,
    TENSE_RISK,
    VERB_FORMS,
    alternatives,
    fixes,
    regular_forms,
    risk,
)
from engine.passes.proofread import split_words

VOCABULARY = frozenset(
    ["look", "looks", "looked", "explain", "explains", "explained", "button", "buttons"]
)


def known(word: str) -> bool:
    return word in VOCABULARY


def offered(text: str) -> dict[str, list[str]]:
    """Each word's candidate texts, by the word as written."""
    words, _ = split_words(text)
    out: dict[str, list[str]] = {}
    for fix in fixes(words, known):
        written = "".join(words[fix.rewording.first : fix.rewording.stop])
        out.setdefault(written.strip(), []).append(fix.rewording.text)
    return out


def test_closed_classes_offer_their_other_members_and_never_the_word_itself() -> None:
    assert set(alternatives("were", known)) == {"am", "is", "are", "was", "be", "been"}
    assert set(alternatives("their", known)) == {"there", "they're"}
    assert "its" not in alternatives("its", known)


def test_an_irregular_verb_offers_its_forms_and_a_made_up_past_only_the_real_past() -> None:
    assert set(alternatives("goes", known)) == {"go", "went", "gone", "going"}
    assert alternatives("sended", known) == ["sent"]
    assert set(VERB_FORMS["goed"]) == {"went", "gone"}


def test_regular_inflections_are_offered_only_where_the_vocabulary_knows_them() -> None:
    assert set(alternatives("look", known)) == {"looks", "looked"}
    assert set(alternatives("explain", known)) == {"explains", "explained"}
    assert alternatives("design", known) == []  # "designs" and "designed" are not known here
    assert regular_forms("carries") == ["carry", "carried"]
    assert alternatives("as", known) == []  # too short to inflect by rule


def test_a_fix_keeps_the_words_whitespace_capital_and_marks() -> None:
    found = offered("Their going, and she explain.")
    assert "They're" in found["Their"]
    assert " explained." in found["explain."]


def test_names_numbers_and_words_with_inner_marks_get_no_fix() -> None:
    found = offered("Yesterday Is met 3pm e-mail and is")
    assert "Is" not in found  # capitalised inside a sentence: a name
    assert "3pm" not in found and "e-mail" not in found
    assert "is" in found


def test_i_is_capitalised_anywhere_and_its_other_forms_only_where_they_open() -> None:
    assert " I" in offered("Mary and me left")["me"]
    assert " me" in offered("Mary and I left")["I"]
    assert "Me" in offered("I left")["I"]


def test_a_learners_word_pair_reads_as_one_word() -> None:
    assert " better" in offered("it looks more better now")["more better"]
    assert " could have" in offered("we could of gone")["could of"]


def test_fixes_that_change_what_is_said_carry_a_risk() -> None:
    assert risk("won", "wins", "who") == TENSE_RISK  # a tense
    assert risk("explain", "explained", "she") == TENSE_RISK
    assert risk("see", "seen", "and") == TENSE_RISK  # a participle counts as past
    assert risk("buttons", "button", "the") == NUMBER_RISK  # a noun's number
    assert risk("is", "are", "buttons") == 0.0  # agreement only
    assert risk("goes", "go", "we") == 0.0
    assert risk("sended", "sent", "we") == 0.0  # a made-up past to the real one
