"""Cuts longer than a word: hedging openers and side clauses, and the check every cut passes."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.tokens import TokenTable
from engine.language.en.cut_phrases import (
    hedge_openers,
    reader_haves,
    side_clauses,
    simple_verbs,
)
from engine.language.en.cut_safety import cut_damage, misfit_articles, modifier_before_noun
from engine.language.en.drops import TIER_CLAUSE, drop_words, word_spans
from engine.passes.shorten import concise_swaps
from tests.helpers.words import filler_table, words_of


@pytest.fixture(scope="module")
def table() -> TokenTable:
    return filler_table()


def read(text: str, found) -> list[str]:
    words = words_of(text)
    out = []
    for r in found:
        out.append("".join(words[: r.first]) + r.text + "".join(words[r.stop :]))
    return out


def test_a_hedge_opening_a_sentence_goes_and_the_next_word_takes_the_capital() -> None:
    text = "Basically, we need a plan. I think that the room is small. To be honest, it works."
    assert read(text, hedge_openers(words_of(text))) == [
        "We need a plan. I think that the room is small. To be honest, it works.",
        "Basically, we need a plan. The room is small. To be honest, it works.",
        "Basically, we need a plan. I think that the room is small. It works.",
    ]


def test_an_opener_inside_a_sentence_or_at_its_end_is_no_opener() -> None:
    assert hedge_openers(words_of("and I think the room is small")) == []
    assert hedge_openers(words_of("Honestly.")) == []
    assert hedge_openers(words_of("Of course")) == []  # it would take the passage's last word


def test_a_side_clause_goes_with_the_comma_before_it() -> None:
    text = "The café on the corner, which has a green door, makes the best coffee."
    assert read(text, side_clauses(words_of(text))) == [
        "The café on the corner makes the best coffee."
    ]


def test_a_side_clause_with_a_number_a_name_or_a_negation_stays() -> None:
    for clause in ("which cost 38 million", "which Ada built", "which never opened"):
        assert side_clauses(words_of(f"The bridge, {clause}, is long.")) == []


def test_the_check_names_what_a_cut_broke() -> None:
    was = "The new bridge, which took four years to build, opened last week."
    assert cut_damage(was, "The bridge, which took four years to build, opened last week.") is None
    assert cut_damage(was, "The new bridge, which took four years to build.") == "verb"
    assert cut_damage(was, "The new bridge, which took years to build, opened last week.") == (
        "number"
    )
    assert cut_damage("it was not late", "it was late") == "negation"
    assert cut_damage("an old car", "an car") == "article"
    assert misfit_articles("a apple and an pear, an hour") == 3  # by spelling: a rough count


def test_an_adjective_goes_only_before_its_noun_and_never_a_comparison() -> None:
    assert modifier_before_noun(" new", " page")
    assert not modifier_before_noun(" long", ",")
    assert not modifier_before_noun(" long", " but")
    assert not modifier_before_noun(" lower", " temperature")
    assert not modifier_before_noun(" fixed", " bugs")  # may be the clause's verb
    assert not modifier_before_noun(" many", " bugs")  # it counts


def test_an_adjective_that_judges_stays() -> None:
    """ "good" and "beautiful" say what the writer thinks of the thing: VADER's raters gave
    them a valence, and a cut that drops one drops that ("in condition", "many places")."""
    assert modifier_before_noun(" small", " bugs")
    assert not modifier_before_noun(" good", " condition")
    assert not modifier_before_noun(" beautiful", " places")
    assert not modifier_before_noun(" terrible", " weather")


def test_a_clause_wondering_what_the_reader_has_goes_with_its_mark() -> None:
    text = "Call us with any doubts you might have. We reply fast."
    assert read(text, reader_haves(words_of(text))) == ["Call us with any doubts. We reply fast."]
    text = "Send the notes that you may have, and we file them."
    assert read(text, reader_haves(words_of(text))) == ["Send the notes, and we file them."]


@pytest.mark.parametrize(
    "text",
    [
        "Send any notes you might have about it.",  # the clause goes on
        "Tell me what you might have.",  # no noun before it
        "Send any notes you must have.",  # an obligation, not a wondering
        "Send any notes you might keep.",
    ],
)
def test_a_clause_that_says_more_than_a_wondering_stays(text: str) -> None:
    assert reader_haves(words_of(text)) == []


def test_the_shorten_pass_offers_openers_and_clauses_as_swaps(table: TokenTable) -> None:
    text = "Basically, the bridge, which was built in a hurry, opened to traffic last week."
    ids = table.encode(text)
    pieces = [table.text(i) for i in ids]
    swaps, extended = concise_swaps(pieces, ids, table)
    texts = {s.text: s.tier for s in swaps}
    assert texts["The"] < TIER_CLAUSE and texts[" bridge"] == TIER_CLAUSE
    # the clause's "which was" (a pair of words) is cheaper than the whole clause: it goes
    # first, and the clause only when the passage must lose more
    cut = [table.decode([extended[i] for i in drop_words(pieces, len(ids) - n, None, swaps)])
           for n in (15, 30)]  # fmt: skip
    assert cut == [
        "The bridge, built in a hurry, opened to traffic last week.",
        "The bridge opened to traffic last week.",
    ]


PROSE = st.lists(
    st.sampled_from(
        [
            *("the", "a", "an", "new", "small", "old", "bridge", "page", "bugs", "we", "she"),
            *("was", "is", "were", "translating", "opened", "really", "basically", "very"),
            *("finally", "that", "which", ",", ".", "I", "think", "not", "38", "Ada", "to", "us"),
            "while",
        ]
    ),
    min_size=1,
    max_size=24,
)


@given(PROSE, st.data())
def test_no_cut_breaks_what_the_check_guards(tokens: list[str], data: st.DataObject) -> None:
    text = " ".join(tokens).replace(" ,", ",").replace(" .", ".")
    pieces = words_of(text)
    spans = word_spans(pieces)
    budget = data.draw(st.integers(1, len(pieces)))
    kept = drop_words(pieces, budget)
    assert cut_damage(text, "".join(pieces[i] for i in kept)) is None
    assert kept[-len(spans[-1]) :] == list(spans[-1])


def test_a_modal_progressive_reads_as_its_simple_form() -> None:
    text = "I will be sending out a summary, and we could be meeting later."
    assert read(text, simple_verbs(words_of(text))) == [
        "I will send out a summary, and we could be meeting later.",
        "I will be sending out a summary, and we could meet later.",
    ]
    assert simple_verbs(words_of("it will be interesting to see")) == []  # no verb "interest"


def test_a_cut_that_leaves_a_word_doubled_is_damage() -> None:
    was = "The problems are fixed as quickly as possible."
    assert cut_damage(was, "The problems are fixed as as possible.") == "doubled"
    assert cut_damage("We had had enough.", "We had had enough") is None  # as written
