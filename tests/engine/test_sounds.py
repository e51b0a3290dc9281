"""What a misspelling sounds like (engine.language.en.sounds): Metaphone keys, and the
dictionary words that sound like a word, found by their keys."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.language.en.dictionary import dictionary_words, edit_distance
from engine.language.en.sounds import (
    FAR_KEYS,
    MAX_WORD_EDITS,
    key,
    key_edits,
    sound_alike,
)


def test_a_sound_repeated_is_written_once() -> None:
    assert key("acounts") == key("accounts")
    assert key("imidatly") == key("immediately")
    assert key("biuld") == key("build") != key("field")


def test_words_that_sound_alike_are_found_beyond_two_edits() -> None:
    found = dict(sound_alike("imidatly", 3))
    assert found.get("immediately") == 4  # four edits: SymSpell's two never reach it
    assert "necessitates" in dict(sound_alike("nessisitates", 3))


def test_a_key_too_short_finds_nothing() -> None:
    assert sound_alike("aa", 3) == ()


WORDS = st.text(alphabet="abcdefghilmnoprstuw", min_size=3, max_size=10)


@settings(max_examples=40, deadline=None)
@given(WORDS, st.integers(1, 5))
def test_sound_alikes_are_other_dictionary_words_near_in_letters(word: str, limit: int) -> None:
    found = sound_alike(word, limit)
    assert len(found) <= limit
    for other, edits in found:
        assert other != word and other in dictionary_words()
        assert 0 < edits <= MAX_WORD_EDITS
        assert edits == edit_distance().compare(word, other, MAX_WORD_EDITS)
        assert key_edits(word, other) <= 1


@settings(max_examples=60, deadline=None)
@given(WORDS, WORDS)
def test_key_edits_are_bounded_and_zero_for_the_same_sound(a: str, b: str) -> None:
    apart = key_edits(a, b)
    assert 0 <= apart <= FAR_KEYS
    assert (apart == 0) == (key(a) == key(b))


def test_warming_the_speller_builds_the_sounds_index_too() -> None:
    from engine.language.en import sounds, spelling

    spelling.warm_up()
    assert sounds._key_index.cache_info().currsize == 1
