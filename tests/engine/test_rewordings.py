"""Wordy phrases found in a passage's words, and the concise text each may read as."""

from __future__ import annotations

from engine.language.en.rewordings import CONCISE, Rewording, rewordings


def words_of(text: str) -> list[str]:
    """Words with their leading space, as :func:`engine.passes.shorten.word_spans` groups tokens."""
    words = text.split(" ")
    return [words[0]] + [" " + w for w in words[1:]]


def found(text: str) -> list[tuple[str, str]]:
    words = words_of(text)
    return [("".join(words[r.first : r.stop]), r.text) for r in rewordings(words)]


def test_a_wordy_phrase_reads_as_its_concise_form() -> None:
    assert found("because a lot of people on the team are going to be away today") == [
        (" a lot of", " many"),
        (" are going to be", " will be"),
    ]


def test_a_phrase_that_opens_a_sentence_stays_capitalised_and_keeps_its_marks() -> None:
    assert found("In my opinion, I think that it works") == [("In my opinion, I think", "I think")]
    assert found("We fixed a number of bugs, prior to, the release now") == [
        (" a number of", " several"),
        (" prior to,", " before,"),
    ]


def test_a_phrase_never_crosses_a_sentence_end_or_takes_the_last_word() -> None:
    assert found("It is going. To be fair, we went home") == []
    assert found("and they are able to") == []  # "to" is the passage's last word
    assert rewordings([]) == []


def test_the_longest_phrase_at_a_word_wins() -> None:
    [only] = rewordings(words_of("They are going to be late for the show"))
    assert only == Rewording(1, 5, " will be")


def test_every_concise_form_is_shorter_and_a_longer_phrase_is_tried_first() -> None:
    phrases = [phrase for phrase, _ in CONCISE]
    assert len(set(phrases)) == len(phrases)
    for phrase, concise in CONCISE:
        assert concise and len(concise.split()) < len(phrase.split()), phrase
    for i, shorter in enumerate(phrases):
        assert not any(p.startswith(shorter + " ") for p in phrases[i + 1 :]), shorter
