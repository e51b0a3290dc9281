"""Wordy phrases found in a passage's words, and the concise text each may read as."""

from __future__ import annotations

from engine.language.en.rewordings import CONCISE, Rewording, rewordings
from tests.helpers.words import words_of

# A table of the test's own, as the plain-English guides word it.
TABLE = (
    ("in my view i think", "I think"),
    ("lots and lots of", "many"),
    ("is going to be", "will be"),
    ("is going to", "will"),
    ("ahead of", "before"),
)


def found(text: str) -> list[tuple[str, str]]:
    words = words_of(text)
    return [("".join(words[r.first : r.stop]), r.text) for r in rewordings(words, TABLE)]


def test_a_wordy_phrase_reads_as_its_concise_form() -> None:
    assert found("because lots and lots of people on the team is going to be away today") == [
        (" lots and lots of", " many"),
        (" is going to be", " will be"),
    ]


def test_a_phrase_that_opens_a_sentence_stays_capitalised_and_keeps_its_marks() -> None:
    assert found("In my view, I think that it works") == [("In my view, I think", "I think")]
    assert found("We fixed lots and lots of bugs, ahead of, the release now") == [
        (" lots and lots of", " many"),
        (" ahead of,", " before,"),
    ]


def test_a_phrase_never_crosses_a_sentence_end_or_takes_the_last_word() -> None:
    assert found("It is going. To be fair, we went home") == []
    assert found("and she is going to") == []  # "to" is the passage's last word
    assert rewordings([], TABLE) == []


def test_the_longest_phrase_at_a_word_wins() -> None:
    [only] = rewordings(words_of("She is going to be late for the show"), TABLE)
    assert only == Rewording(1, 5, " will be")


def test_the_shipped_table_is_found_by_default() -> None:
    phrase, concise = CONCISE[0]
    words = words_of(f"so {phrase} go")
    assert [r.text for r in rewordings(words)] == [f" {concise}"]


def test_every_concise_form_is_shorter_and_a_longer_phrase_is_tried_first() -> None:
    phrases = [phrase for phrase, _ in CONCISE]
    assert len(set(phrases)) == len(phrases)
    for phrase, concise in CONCISE:
        assert concise and len(concise.split()) < len(phrase.split()), phrase
    for i, shorter in enumerate(phrases):
        assert not any(p.startswith(shorter + " ") for p in phrases[i + 1 :]), shorter
