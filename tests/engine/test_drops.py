"""Shortening a rewrite's seed: whole words dropped all over the passage, never its end cut,
and never a cut that breaks a sentence (an article before its noun, a verb, a negation)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.language.en.cut_safety import cut_damage
from engine.language.en.drops import Swap, drop_words, word_spans
from tests.helpers.readers import DamageTable


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
    assert len(kept) < len(pieces)
    assert text.endswith(" Turin.")  # the last word, not the first three quarters
    for word in ("Ada", "1843,", "Luigi", "Menabrea", "Turin."):
        assert word in text.split()


def test_fillers_go_first_and_the_cuts_spread_over_the_passage() -> None:
    pieces = pieces_of(PARAGRAPH)
    text = kept_text(pieces, len(pieces) - 3)  # exactly "really" and "in fact"
    assert text == PARAGRAPH.replace(" really", "").replace(" in fact", "")
    spread = pieces_of(
        "Ada really wrote her notes in 1843, and she basically spent long days translating the "
        "article by Luigi Menabrea very carefully in Turin."
    )
    dropped = [i for i in range(len(spread)) if i not in drop_words(spread, len(spread) - 2)]
    assert dropped[0] < len(spread) / 3 and dropped[-1] > 2 * len(spread) / 3


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
    assert cut_damage("".join(pieces), "".join(pieces[i] for i in kept)) is None
    if budget >= len(pieces):
        assert kept == list(range(len(pieces)))
    last = word_spans(pieces)[-1]
    assert kept[-len(last) :] == list(last)  # the end is never cut
    spans = word_spans(pieces)
    assert all(set(span) <= set(kept) or not set(span) & set(kept) for span in spans[:-1])


def priced(text: str, damage: dict[str, float], budget_cut: int) -> tuple[str, DamageTable]:
    """``text`` shortened by ``budget_cut`` tokens with the fake reader's damage per word."""
    pieces = pieces_of(text)
    spans = word_spans(pieces)
    words = [p.strip() for p in pieces]
    reader = DamageTable(spans, {words.index(w): nats for w, nats in damage.items()})
    kept = drop_words(pieces, len(pieces) - budget_cut, reader)
    return "".join(pieces[i] for i in kept), reader


def test_a_reader_keeps_the_adjective_whose_loss_would_hurt_the_next_word() -> None:
    text = "we worked on the new page and really fixed small bugs today"
    # Without a reader the hedge goes first, then an adjective spread from it; with one,
    # dropping "new" hurts "page" (4 nats) more than "small" costs.
    assert kept_text(pieces_of(text), 10) == "we worked on the page and fixed small bugs today"
    shorter, _ = priced(text, {"new": 4.0}, 2)
    assert shorter == "we worked on the new page and fixed bugs today"


def test_a_reader_drops_the_cheapest_words_first() -> None:
    text = "so we just worked on the page and then fixed the bugs today"
    shorter, reader = priced(text, {"just": 3.0, "then": 0.0}, 1)
    assert shorter == text.replace(" then", "")
    assert reader.reads == 1


def test_neighbours_are_priced_again_before_both_go() -> None:
    text = "Ada met Bob and then really quickly left for Rome"
    # "really" and "then" are the cheapest, but "then" was priced with "really" still there:
    # it is read again before it goes.
    shorter, reader = priced(text, {"quickly": 5.0}, 2)
    assert shorter == "Ada met Bob and quickly left for Rome" and reader.reads == 2


def test_a_reader_never_drops_names_numbers_or_the_last_word() -> None:
    text = "Ada wrote 3 notes for Luigi in Turin"
    damage = {w: -9.0 for w in ("Ada", "3", "Luigi", "Turin")}
    shorter, _ = priced(text, damage, 3)
    for word in ("Ada", "3", "Luigi", "Turin"):
        assert word in shorter.split()


@given(pieces=passages(), data=st.data())
def test_a_priced_seed_keeps_the_same_promises(pieces: list[str], data: st.DataObject) -> None:
    budget = data.draw(st.integers(1, len(pieces) + 3))
    spans = word_spans(pieces)
    damage = data.draw(st.dictionaries(st.integers(0, len(spans)), st.floats(-5, 5)))
    kept = drop_words(pieces, budget, DamageTable(spans, damage))
    assert kept == sorted(set(kept))
    assert cut_damage("".join(pieces), "".join(pieces[i] for i in kept)) is None
    last = spans[-1]
    assert kept[-len(last) :] == list(last)
    assert all(set(span) <= set(kept) or not set(span) & set(kept) for span in spans[:-1])


def swap_for(pieces: list[str], phrase: str, concise: list[str]) -> tuple[list[str], Swap]:
    """The pieces with ``concise`` appended, and the swap of ``phrase``'s words for them."""
    words = [p.strip() for p in pieces]
    first = words.index(phrase.split()[0])
    indices = tuple(range(len(pieces), len(pieces) + len(concise)))
    words_of = tuple(range(first, first + len(phrase.split())))
    return pieces + concise, Swap(words_of, indices, "".join(concise))


def test_a_wordy_phrase_is_swapped_before_a_word_is_dropped() -> None:
    pieces = pieces_of("many of us are going to be away on the day we meet")
    extended, swap = swap_for(pieces, "are going to be", [" will", " be"])
    kept = drop_words(pieces, len(pieces) - 2, swaps=[swap])
    assert "".join(extended[i] for i in kept) == "many of us will be away on the day we meet"


def test_a_reader_prices_a_swap_like_a_dropped_word() -> None:
    pieces = pieces_of("so a lot of water went into the old tank today")
    extended, swap = swap_for(pieces, "a lot of", [" many"])
    spans = word_spans(pieces)
    words = [p.strip() for p in pieces]
    dear = {w: 9.0 for w in range(len(words))}
    covers = {swap.tokens[0]: swap.words}
    # Every single word is dear to drop, so the swap (as cheap as a hedge) goes first...
    kept = drop_words(pieces, len(pieces) - 1, DamageTable(spans, dear, covers), [swap])
    assert "".join(extended[i] for i in kept) == "so many water went into the old tank today"

    # ...unless reading it shows its damage: "many water" makes "water" read 5 nats worse.
    def costs(rows):
        nlls = DamageTable(spans, dear | {words.index("old"): 0.5}, covers)(rows)
        water, many = words.index("water"), swap.tokens[0]
        worse = [[5.0 if i == water and many in row else 0.0 for i in row] for row in rows]
        return [
            [n + w for n, w in zip(ns, ws, strict=True)] for ns, ws in zip(nlls, worse, strict=True)
        ]

    kept = drop_words(pieces, len(pieces) - 1, costs, [swap])
    assert "".join(extended[i] for i in kept) == "so a lot of water went into the tank today"


@given(pieces=passages(), data=st.data())
def test_a_seed_with_swaps_keeps_its_words_in_order(pieces: list[str], data: st.DataObject) -> None:
    spans = word_spans(pieces)
    first = data.draw(st.integers(0, max(0, len(spans) - 2)))
    stop = data.draw(st.integers(first + 1, max(first + 1, len(spans) - 1)))
    swap = Swap(tuple(range(first, stop)), (len(pieces),))
    budget = data.draw(st.integers(1, len(pieces) + 1))
    kept = drop_words(pieces, budget, DamageTable(spans, {}), [swap])
    original = [i for i in kept if i < len(pieces)]
    assert original == sorted(set(original))
    if len(pieces) in kept:  # the swap was taken: its words are gone, its token in their place
        at = kept.index(len(pieces))
        assert not any(i in kept for w in swap.words for i in spans[w])
        assert all(i < spans[first].start for i in kept[:at])


def test_a_preposition_goes_with_its_object_pronoun() -> None:
    text = "bugs that users had reported to us over the last weeks"
    # "had" goes first (the participle reads as the simple past), then "to us" whole
    assert kept_text(pieces_of(text), 8) == "bugs that users reported over the last weeks"


def test_no_article_determiner_or_preposition_goes_alone() -> None:
    text = "we need to review the budget before we present the figures to the board today"
    pieces = pieces_of(text)
    assert kept_text(pieces, len(pieces) - 3) == text  # nothing a person would cut


def test_no_cut_leaves_a_sentence_without_its_verb() -> None:
    text = "The new bridge, which cost 38 million dollars, finally opened last week."
    shorter = kept_text(pieces_of(text), 6)
    assert "opened" in shorter.split() and "38" in shorter.split()
    assert shorter == text.replace("new ", "").replace("finally ", "")


def test_a_comparison_and_its_article_stay() -> None:
    text = "at a high altitude it boils at a lower temperature than at sea level"
    shorter = kept_text(pieces_of(text), 10)
    assert "a lower temperature" in shorter and shorter.startswith("at a ")


def test_a_hedge_phrase_goes_with_the_that_after_it() -> None:
    text = "we moved it because I think that the room was small today"
    assert kept_text(pieces_of(text), 9) == "we moved it because the room was small today"


def test_a_hedge_opening_a_sentence_is_left_to_a_swap_that_capitalises() -> None:
    text = "I think the plan works well enough for now"
    assert kept_text(pieces_of(text), 6) == text  # dropping "I think" would leave "the plan"


def test_a_clause_reads_as_its_ing_verb_and_that_goes_before_a_subject() -> None:
    text = "notes written while she was translating the article that they sent today"
    shorter = kept_text(pieces_of(text), 9)
    assert shorter == "notes written while translating the article they sent today"
    kept = "bugs that crash the app and that plan today"  # a subject, a determiner: both stay
    assert kept_text(pieces_of(kept), 7) == kept


def test_the_that_after_a_noun_its_clause_says_the_content_of_stays() -> None:
    """ "the fact that the server is down" cut to "the fact the server is down" is no
    sentence; "the date that they promised" is a relative clause, whose "that" may go."""
    kept = "we knew about the fact that the server was down all day"
    assert "fact that the" in kept_text(pieces_of(kept), 10)
    relative = "we missed the date that they promised us in May"
    assert "date they promised" in kept_text(pieces_of(relative), 9)


def test_a_side_clause_reads_without_its_which_is_and_a_second_adjective_goes() -> None:
    text = "we landed on 12 June, which is two weeks later, after a long and tiring flight today"
    shorter = kept_text(pieces_of(text), 12)
    assert shorter == "we landed on 12 June, two weeks later, after a long flight today"
    assert kept_text(pieces_of("the article itself was long today"), 5) == (
        "the article was long today"
    )
    assert kept_text(pieces_of("she hurt herself today"), 3) == "she hurt herself today"
