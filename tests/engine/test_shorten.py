"""Shortening a rewrite's seed: whole words dropped all over the passage, never its end cut."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.shorten import drop_words, word_spans


def pieces_of(text: str) -> list[str]:
    """One token per word, its space in front (how byte-level BPE splits plain prose)."""
    words = text.split(" ")
    return [words[0]] + [" " + w for w in words[1:]]


def kept_text(pieces: list[str], budget: int) -> str:
    return "".join(pieces[i] for i in drop_words(pieces, budget))


PARAGRAPH = (
    "Ada really wrote about the machine in 1843, and in fact her notes were much longer than "
    "the article that she was translating for Luigi Menabrea in Turin."
)


def test_a_passage_that_fits_is_kept_whole() -> None:
    pieces = pieces_of(PARAGRAPH)
    assert drop_words(pieces, len(pieces)) == list(range(len(pieces)))
    assert drop_words(pieces, len(pieces) + 5) == list(range(len(pieces)))


def test_a_tighter_budget_keeps_the_end_names_and_numbers() -> None:
    pieces = pieces_of(PARAGRAPH)
    budget = round(len(pieces) * 0.75)
    kept = drop_words(pieces, budget)
    text = "".join(pieces[i] for i in kept)
    assert len(kept) <= budget
    assert text.endswith(" Turin.")  # the last word, not the first three quarters
    for word in ("Ada", "1843,", "Luigi", "Menabrea", "Turin."):
        assert word in text.split()


def test_fillers_go_first_and_the_cuts_spread_over_the_passage() -> None:
    pieces = pieces_of(PARAGRAPH)
    text = kept_text(pieces, len(pieces) - 3)  # exactly "really" and "in fact"
    assert text == PARAGRAPH.replace(" really", "").replace(" in fact", "")
    dropped = [i for i in range(len(pieces)) if i not in drop_words(pieces, len(pieces) - 8)]
    assert dropped[0] < len(pieces) / 3 and dropped[-1] > 2 * len(pieces) / 3


def test_the_kept_words_are_an_in_order_subsequence() -> None:
    pieces = pieces_of(PARAGRAPH)
    original = PARAGRAPH.split()
    kept = kept_text(pieces, len(pieces) // 2).split()
    it = iter(original)
    assert all(word in it for word in kept)


def test_negations_outlast_every_droppable_word() -> None:
    pieces = pieces_of("we did not really like the very long show at all today")
    text = kept_text(pieces, 4)
    assert "not" in text.split() and text.endswith("today")


def test_words_are_split_at_leading_spaces() -> None:
    pieces = ["He", "llo", ",", " wor", "ld", " ", "\n", "Bye"]
    spans = [list(s) for s in word_spans(pieces)]
    assert spans == [[0, 1, 2], [3, 4], [5], [6, 7]]


def test_a_lone_space_token_belongs_to_the_word_after_it() -> None:
    pieces = ["The", " fox", " ", "really", " jumps", " ", "\n", "then"]
    assert kept_text(pieces, 6) == "The fox jumps \nthen"  # no double space, the break kept


WORDS = st.one_of(
    st.sampled_from(["really", "the", "that", "in", "fact", "not", "finally", "machine", "a"]),
    st.sampled_from(["Ada", "Paris", "1843", "12.5", "end.", "it,", "(see", "don't"]),
    st.text(st.characters(codec="ascii", categories=["L", "N", "P"]), min_size=1, max_size=6),
)


@st.composite
def passages(draw: st.DrawFn) -> list[str]:
    """Per-token texts of a passage: each word one to three tokens, spaces in front."""
    words = draw(st.lists(WORDS, min_size=1, max_size=30))
    pieces: list[str] = []
    for n, word in enumerate(words):
        cuts = sorted(draw(st.sets(st.integers(1, max(1, len(word) - 1)), max_size=2)))
        parts = [word[a:b] for a, b in zip([0, *cuts], [*cuts, len(word)], strict=True)]
        parts = [p for p in parts if p]
        if n or draw(st.booleans()):
            parts[0] = " " + parts[0]
        pieces += parts
    return pieces


@given(pieces=passages(), data=st.data())
def test_the_seed_is_an_in_order_subsequence_that_fits_and_ends_as_the_passage(
    pieces: list[str], data: st.DataObject
) -> None:
    budget = data.draw(st.integers(1, len(pieces) + 3))
    kept = drop_words(pieces, budget)
    assert kept == sorted(set(kept))  # in order, no repeats: a subsequence of the original
    assert all(0 <= i < len(pieces) for i in kept)
    assert len(kept) <= budget
    if budget >= len(pieces):
        assert kept == list(range(len(pieces)))
    last = word_spans(pieces)[-1]
    if budget >= len(last) + 2:  # room for more than the last word: it survives whole
        assert kept[-len(last) :] == list(last)
    spans = word_spans(pieces)
    assert all(set(span) <= set(kept) or not set(span) & set(kept) for span in spans[:-1])
