"""Spelling varieties: a misspelt word's candidates are written the way the document spells,
priced by the nearer of a word's two spellings; a word right in either is never changed."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.tokens import TokenTable, special_tokens
from engine.language.en.dictionary import dictionary_words
from engine.language.en.spelling import Speller, misspellings
from engine.language.en.varieties import (
    AMERICAN,
    BRITISH,
    DEFAULT_VARIETY,
    document_variety,
    in_variety,
    spelling_pairs,
    variety_of,
)
from engine.passes.proofread import proofread_plan, split_words
from tests.helpers.plans import plan_of, seeds
from tests.helpers.readers import WordEndPriceReader
from tests.helpers.tiny import tiny_tokenizer

# Both spellings of every pair the dictionary holds as words: none of them is a misspelling.
BOTH_KNOWN = sorted(
    (british, american)
    for british, american in spelling_pairs()[0].items()
    if british in dictionary_words() and american in dictionary_words()
)


@pytest.fixture(scope="module")
def table() -> TokenTable:
    tok = tiny_tokenizer()
    return TokenTable(tok, special_tokens(tok, len(tok), filler_candidates=("<fill>",)))


def candidates(text: str, variety: str) -> tuple[str, ...]:
    words, _ = split_words(text)
    (misspelt,) = misspellings(words, Speller(variety=variety))
    return tuple(c.strip(" .,").lower() for c in misspelt.candidates)


def test_a_word_belongs_to_the_variety_that_spells_it_so() -> None:
    assert variety_of("colour") == BRITISH and variety_of("color") == AMERICAN
    assert variety_of("house") is None
    assert in_variety("organisation", AMERICAN) == "organization"
    assert in_variety("organization", BRITISH) == "organisation"
    assert in_variety("organization", AMERICAN) == "organization"
    assert in_variety("house", BRITISH) == "house"


def test_a_document_writes_the_variety_its_own_words_spell() -> None:
    assert document_variety("The colour of the centre was odd.") == BRITISH
    assert document_variety("The color of the center was odd.") == AMERICAN
    assert document_variety("The house was red.") == DEFAULT_VARIETY
    assert document_variety("The colour was a color.") == DEFAULT_VARIETY  # a tie


def test_candidates_are_spelt_in_the_variety_and_come_once() -> None:
    american = candidates("The oragnisation met today.", AMERICAN)
    british = candidates("The oragnisation met today.", BRITISH)
    assert "organization" in american and "organisation" not in american
    assert "organisation" in british and "organization" not in british
    assert len(set(american)) == len(american)


def test_a_word_of_two_spellings_is_priced_by_the_nearer_one() -> None:
    words, _ = split_words("The oragnisation met today.")
    (british,) = misspellings(words, Speller(variety=BRITISH))
    (american,) = misspellings(words, Speller(variety=AMERICAN))
    at_b = [c.strip().lower() for c in british.candidates].index("organisation")
    at_a = [c.strip().lower() for c in american.candidates].index("organization")
    assert american.slips[at_a] == british.slips[at_b]  # the letters typed were nearer "-is-"
    assert american.edits[at_a] == british.edits[at_b]


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(BOTH_KNOWN), st.sampled_from((AMERICAN, BRITISH)))
def test_a_word_right_in_either_variety_is_never_misspelt(
    pair: tuple[str, str], variety: str
) -> None:
    speller = Speller(variety=variety)
    for word in pair:
        assert not misspellings(split_words(f"They saw the {word} there.")[0], speller)


def test_the_proofread_fix_follows_the_documents_variety(table: TokenTable) -> None:
    prices = {"oragnisation": 9.0, "organisation": 0.0, "organization": 0.0}
    reader = WordEndPriceReader(table, prices)
    british = proofread_plan(plan_of("The colour of our oragnisation."), table, reader)
    american = proofread_plan(plan_of("The color of our oragnisation."), table, reader)
    assert seeds(british) == "The colour of our organisation."
    assert seeds(american) == "The color of our organization."
