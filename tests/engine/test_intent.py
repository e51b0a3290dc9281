"""The one reading of an instruction: families by whole words and synonyms, negation, and the
free part no family reads."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.intent import FAMILIES, NEGATION, lexicon, read_intent, split_words
from engine.passes.offers import style_for


@pytest.mark.parametrize(
    ("instruction", "families"),
    [
        ("tighter", ("shorter",)),
        ("fix grammar", ("grammar",)),
        ("formal", ("formal",)),
        ("", ()),
        ("Shorten this", ("shorter",)),
        ("trim it", ("shorter",)),
        ("condense", ("shorter",)),
        ("tighten the wording", ("shorter",)),
        ("more concise, please", ("shorter",)),
        ("briefer", ("shorter",)),
        ("succinct", ("shorter",)),
        ("cut it down", ("shorter",)),
        ("make it professional", ("formal",)),
        ("more polite", ("formal",)),
        ("make it friendlier", ("casual",)),
        ("relaxed", ("casual",)),
        ("informal", ("casual",)),
        ("conversational tone", ("casual",)),
        ("fix typos", ("spelling",)),
        ("correct the misspellings", ("spelling",)),
        ("correct the spelling", ("spelling",)),
        ("correct the grammar", ("grammar",)),
        ("correct it", ("grammar", "spelling")),
        ("fix the mistakes", ("grammar", "spelling")),
        ("proofread it", ("grammar", "spelling")),
        ("simpler", ("clearer",)),
        ("in plain English", ("clearer",)),
        ("polish it", ("polish",)),
        ("tighter and more formal", ("shorter", "formal")),
    ],
)
def test_synonyms_name_their_family(instruction: str, families: tuple[str, ...]) -> None:
    intent = read_intent(instruction)
    assert intent.families == families
    assert intent.free == ()


@pytest.mark.parametrize(
    "instruction",
    ["explain it better", "execute the plan more vividly", "a shortcut", "uncut", "unclear?"],
)
def test_only_whole_words_count(instruction: str) -> None:
    intent = read_intent(instruction)
    assert not intent.shorter and not intent.clearer


def test_words_inside_other_words_are_not_read() -> None:
    intent = read_intent("explain it better")
    assert intent.families == ("polish",)
    assert intent.free == ("explain",)
    assert read_intent("execute the plan").families == ()


@pytest.mark.parametrize(
    "instruction",
    [
        "not shorter",
        "make it longer, not shorter",
        "don't shorten",
        "Don\u2019t shorten it",
        "do not cut anything",
        "without cutting",
        "longer rather than shorter",
    ],
)
def test_a_negation_cancels_what_follows_it(instruction: str) -> None:
    assert not read_intent(instruction).shorter


def test_a_negation_ends_with_its_clause() -> None:
    assert read_intent("don't shorten it, but fix grammar").families == ("grammar",)
    assert read_intent("don't shorten it and fix grammar").families == ("grammar",)
    assert read_intent("don't make it shorter or more formal").families == ()


@pytest.mark.parametrize(
    ("instruction", "free"),
    [
        ("more vivid", ("vivid",)),
        ("as a poem", ("poem",)),
        ("translate to French", ("translate", "french")),
        ("numbered steps", ("numbered", "steps")),
        ("make it longer", ("longer",)),
        ("make it longer, not shorter", ("longer",)),
    ],
)
def test_what_no_family_reads_is_free(instruction: str, free: tuple[str, ...]) -> None:
    intent = read_intent(instruction)
    assert intent.free == free
    assert intent.asks_free
    assert not intent.styled and not intent.shorter


def test_what_not_to_do_is_not_free() -> None:
    assert read_intent("tighter, but don't change the names").free == ()


@pytest.mark.parametrize(
    "instruction",
    [
        "Make it tighter: same meaning, fewer words.",
        "Make it clearer and easier to follow.",
        "Rewrite it in a formal register.",
        "Rewrite it in a relaxed, casual tone.",
        "Fix grammar, spelling and punctuation only.",
    ],
)
def test_the_window_presets_are_read_whole(instruction: str) -> None:
    intent = read_intent(instruction)
    assert intent.families and intent.free == ()


def test_grammar_offers_word_forms_and_spelling_the_dictionarys_candidates() -> None:
    for instruction in ("fix grammar", "proofread", "formal"):
        style = style_for(read_intent(instruction))
        assert style is not None and style.grammar
    for instruction in ("fix spelling", "proofread", "fix typos"):
        style = style_for(read_intent(instruction))
        assert style is not None and style.spelling
    spelling = style_for(read_intent("fix spelling"))
    assert spelling is not None and not spelling.grammar  # it asks for no other forms
    assert style_for(read_intent("polish")) is None
    assert style_for(read_intent("more vivid")) is None


family_phrases = st.sampled_from(
    sorted(
        " ".join(words)
        for words, families in lexicon().phrases.items()
        if families != (NEGATION,) and not set(words) & lexicon().scope_ends
    )
)
negations = st.sampled_from(
    sorted(" ".join(w) for w, f in lexicon().phrases.items() if f == (NEGATION,))
)


@given(family_phrases, negations)
def test_any_negated_phrase_asks_for_nothing(phrase: str, negation: str) -> None:
    intent = read_intent(f"{negation} {phrase}")
    assert intent.families == () and intent.free == ()


@given(family_phrases)
def test_any_phrase_reads_as_its_families(phrase: str) -> None:
    families = lexicon().phrases[split_words(phrase)]
    assert read_intent(phrase.upper()).families == tuple(f for f in FAMILIES if f in families)


single_words = st.sampled_from(
    sorted(w[0] for w, f in lexicon().phrases.items() if len(w) == 1 and f != (NEGATION,))
)


@given(single_words, st.sampled_from(["x", "re", "over"]), st.sampled_from(["", "x", "ing"]))
def test_a_word_glued_to_other_letters_is_not_read(word: str, before: str, after: str) -> None:
    glued = (before + word + after,)
    if glued in lexicon().phrases or (word + after,) in lexicon().phrases:
        return  # glued into another phrase of the table ("cutting"): that one is read
    assert read_intent(before + word + after).families == ()
