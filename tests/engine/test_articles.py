"""A missing article (engine/language/en/articles.py): offered before a bare singular noun
and the adjectives that lead into it, after a word a noun phrase opens with; nowhere else."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.language.en.articles import ARTICLES, article_fixes, indefinite_for
from engine.language.en.grammar import ARTICLE_RISK, fixes
from engine.passes.proofread import split_words


def inserted(text: str) -> list[str]:
    """The texts each offered article makes of its phrase's first word."""
    words, _ = split_words(text)
    return [f.rewording.text for f in fixes(words) if f.risk == ARTICLE_RISK]


@pytest.mark.parametrize(
    ("text", "phrase"),
    [
        ("He was farmer, then a cook.", " {} farmer,"),
        ("She is nurse in Oslo.", " {} nurse"),  # a noun that is also a verb, after "is"
        ("We toured factory last week.", " {} factory"),
        ("It sold at higher price.", " {} higher"),  # the adjective leads the phrase
        ("They sail on lake.", " {} lake."),
        ("In small town it is quiet.", " {} small"),  # a capital preposition opens it too
    ],
)
def test_each_article_is_offered_before_a_bare_singular_noun_phrase(text: str, phrase: str) -> None:
    """Each article, but the indefinite one the phrase's first word refuses ("an farmer")."""
    refused = {"a": "an", "an": "a", None: None}[indefinite_for(phrase.split()[1])]
    wanted = {phrase.format(article) for article in ARTICLES if article != refused}
    assert wanted == {t for t in inserted(text) if t.strip().split()[1:] == phrase.split()[1:]}


@pytest.mark.parametrize(
    "text",
    [
        "She is the nurse.",  # a determiner already
        "We met his teacher.",  # a possessive
        "Children play outside.",  # a plural
        "I want to work today.",  # after the infinitive's "to" a verb-noun is a verb
        "He is happy.",  # an adjective
        "They saw Oslo and Bergen.",  # names
        "Bring the cake, fork and knife.",  # after a comma the phrase is a list's
    ],
)
def test_no_article_where_the_phrase_has_one_or_is_no_singular_noun(text: str) -> None:
    assert inserted(text) == []


WORDS = ["a", "the", "is", "in", "on", "to", "town", "nurse", "small", "dry", "towns",
         "visited", "we", "run", "lake.", "home,", "Oslo", "quickly"]  # fmt: skip


@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=12))
def test_an_article_fix_only_adds_an_article_before_one_word(chosen: list[str]) -> None:
    words, _ = split_words(" ".join(chosen))
    for index in range(len(words)):
        for rewording in article_fixes(words, index):
            assert rewording.stop == rewording.first + 1 <= index + 1
            article, _, rest = rewording.text.strip().partition(" ")
            assert article in ARTICLES and rest == words[rewording.first].strip()
