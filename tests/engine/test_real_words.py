"""Real-word slips: a rare dictionary word one edit from a far commoner one is offered that
word, at a dearer margin; a common word, the user's own word and a name are left alone."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.worddiff import split_words
from engine.language.en.dictionary import dictionary_counts
from engine.language.en.real_words import COMMONER_BY, RARE_COUNT, commoner_neighbours
from engine.language.en.spelling import Speller, misspellings
from engine.passes.offers import spelling_changes

COMMON = sorted(w for w, n in dictionary_counts().items() if n >= RARE_COUNT and w.isalpha())


def slips(text: str, speller: Speller | None = None) -> dict[str, tuple[str, ...]]:
    words, _ = split_words(text)
    found = misspellings(words, speller or Speller())
    return {m.word: tuple(c.strip(" .") for c in m.candidates) for m in found if m.real_word}


def test_a_rare_word_near_a_far_commoner_one_is_offered_it() -> None:
    assert "now" in slips("It is noe time to go.")["noe"]
    assert "allow" in slips("They alow pets here.")["alow"]
    counts = dictionary_counts()
    for near, _ in commoner_neighbours("noe"):
        assert counts[near] >= COMMONER_BY * counts["noe"]


def test_the_users_words_names_and_misspellings_are_not_real_word_slips() -> None:
    assert slips("It is noe time.", Speller.with_words(["noe"])) == {}
    assert slips("We met Noe there.") == {}  # a capital inside a sentence: a name
    words, _ = split_words("It was recieved.")
    assert not any(m.real_word for m in misspellings(words, Speller()))


def test_a_real_word_candidate_must_save_more_than_a_misspellings() -> None:
    def margins(text: str) -> list[float]:
        return [margin for _, margin, *_ in spelling_changes(split_words(text)[0], Speller())]

    assert min(margins("It is noe time.")) > min(margins("It is nwo time."))


@settings(max_examples=80, deadline=None)
@given(st.sampled_from(COMMON))
def test_a_common_word_is_never_a_slip(word: str) -> None:
    assert commoner_neighbours(word) == ()
    assert word not in slips(f"They said {word} twice.")
