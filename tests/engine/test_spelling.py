"""Spelling: which words are misspelt, their dictionary candidates, and the proofread pass
choosing among them by the reader (a price table here, the model in the product)."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.errors import BadRequest
from engine.core.plan import EditPlan
from engine.core.protocol import MAX_KNOWN_WORD_CHARS, MAX_KNOWN_WORDS
from engine.core.tokens import TokenTable, special_tokens
from engine.intent import read_intent
from engine.language.en.dictionary import RARE_COUNT, dictionary_counts
from engine.language.en.spelling import (
    MAX_CANDIDATES,
    SOUND_CANDIDATES,
    Speller,
    checkable,
    misspellings,
    split_in_two,
)
from engine.passes.offers import LIGHTEST_MARGIN, SOUND_APART, spelling_margin, style_for
from engine.passes.proofread import proofread_plan, split_words
from tests.helpers.plans import plan_of, seeds
from tests.helpers.readers import WordEndPriceReader
from tests.helpers.tiny import tiny_tokenizer

# The misspelt forms read dear, their right spellings cheap (nats per token).
PRICES = {"recieved": 9.0, "received": 0.0, "relieved": 3.0, "definately": 9.0, "definitely": 0.0}
SPELLER = Speller()


@pytest.fixture(scope="module")
def table() -> TokenTable:
    tok = tiny_tokenizer()
    return TokenTable(tok, special_tokens(tok, len(tok), filler_candidates=("<fill>",)))


def found(text: str, speller: Speller = SPELLER) -> dict[str, tuple[str, ...]]:
    words, _ = split_words(text)
    return {m.word: m.candidates for m in misspellings(words, speller)}


def test_a_misspelt_word_gets_dictionary_candidates_spelled_as_it_stood() -> None:
    candidates = found("The package was recieved, then lost.")["recieved"]
    assert " received," in candidates and len(candidates) <= MAX_CANDIDATES + SOUND_CANDIDATES
    assert all(c.startswith(" ") and c.endswith(",") for c in candidates)
    assert "Because" in found("Becuse it rained.")["Becuse"]  # a sentence's first word


def test_correct_english_is_not_flagged_inflections_and_american_spellings_included() -> None:
    assert found("We traveled to the colors of the criticized offices quickly.") == {}


@pytest.mark.parametrize(
    "text",
    [
        "We met Jonh and Mrie at the Bauhaus.",  # names: capitals mid-sentence
        "Send it to recieve@example.com today.",  # an e-mail address
        "See https://recieved.example.org/definately now.",  # a URL
        "Run recieved_file or `definately` first.",  # code
        "It came on the 3rd, ticket 12recieved.",  # numbers
        "The NASDQ index and iPhnoe sales rose.",  # acronyms, a name's inner capital
        "A well-recieved idea, they'd definately agree.",  # hyphenated, contracted... and one
    ],
)
def test_names_addresses_code_and_numbers_are_never_candidates(text: str) -> None:
    flagged = set(found(text))
    assert flagged <= {"definately"}, flagged


def test_a_capitalised_word_becomes_only_a_proper_word_one_edit_away() -> None:
    got = {m.word: m.candidates for m in misspellings(split_words(
        "We fly to Brazill in Febuary with Ingrida and Jonhson, an Itallian."
    )[0], Speller())}  # fmt: skip
    assert got == {"Brazill": (" Brazil",), "Febuary": (" February",), "Itallian": (" Italian.",)}


def test_the_users_own_words_and_the_models_vocabulary_are_known() -> None:
    assert found("It was recieved.", Speller.with_words(["Recieved"])) == {}
    assert found("It was recieved.", Speller(in_vocabulary=lambda w: w == "recieved")) == {}
    assert "recieved" in found("It was recieved.", Speller.with_words(["received"]))


def test_the_vocabulary_does_not_vouch_for_a_slip_of_a_common_word() -> None:
    everything = Speller(in_vocabulary=lambda _w: True)
    assert " their" in found("I know ther plan.", everything)["ther"]  # "the", "their" near
    assert " will" in found("It wil rain.", everything)["wil"]
    assert found("Run npm install.", everything) == {}  # no common word near enough


def test_a_contraction_without_its_apostrophe_is_offered_with_it() -> None:
    assert found("I dont know.", Speller(in_vocabulary=lambda _w: True))["dont"][0] == " don't"
    assert found("Youre late.")["Youre"][0] == "You're"  # never "You re"
    assert found("It wont start.") == {}  # "wont" is a word of its own


def test_a_word_with_an_apostrophe_is_checked_whole() -> None:
    """A contraction or a possessive is one word: a slip inside it ("dosen't") is offered the
    contraction, and the apostrophe the writer typed (a curly one too) stays as typed."""
    assert found("She dosen't know.")["dosen't"][0] == " doesn't"
    assert found("She dosen\u2019t know.")["dosen\u2019t"][0] == " doesn\u2019t"
    assert found("It's the team's call, and we'd say y'all can't miss o'clock.") == {}
    assert " writer's" in found("The writter's notes.")["writter's"]  # the word, then "'s"
    assert found("Well, y'know, it works.", Speller.with_words(["y'know"])) == {}  # the user's


def test_two_words_run_together_are_offered_apart() -> None:
    assert set(found("We worked allday inorder to finish.")) == {"allday", "inorder"}
    assert found("We worked allday.")["allday"][0] == " all day."
    assert found("It is inorder.")["inorder"][0] == " in order."
    assert not any(" " in c.strip() for c in found("It was recieved.")["recieved"])


def test_a_split_needs_two_common_words() -> None:
    # The dictionary holds fragments and names too: "re" + "ching", "varia" + "try" are
    # no reading of a slip, and each of those words has a real word near it instead.
    for slip, meant in (("reching", " reaching"), ("variatry", " variety")):
        offered = found(f"The {slip} was good.")[slip]
        assert not any(" " in c.strip() for c in offered)
        assert meant in offered
    rare = sorted(w for w, n in dictionary_counts().items() if n < RARE_COUNT and len(w) > 3)
    common = ("order", "day", "time")
    for word in rare[:: len(rare) // 20]:  # a rare half never makes a split, whatever it is
        assert all(split_in_two(word + other) is None for other in common if word.isalpha())


def test_a_split_stands_among_the_one_edit_words_by_its_rarer_half() -> None:
    # "all day" is far commoner than "allay"; "because" than "case".
    assert found("We worked allday.")["allday"][:2] == (" all day.", " allay.")
    assert found("It rained becase of the wind.")["becase"][:2] == (" because", " be case")


def test_a_regular_ending_where_english_has_another_form_is_one_slip() -> None:
    words, _ = split_words("Many familys came.")
    (familys,) = misspellings(words, SPELLER)
    at = familys.candidates.index(" families")
    assert familys.slips[at] == 1.0  # two letters apart, one slip: the rule applied
    assert familys.slips[at] <= min(familys.slips)
    words, _ = split_words("We stoped there.")
    (stoped,) = misspellings(words, SPELLER)
    assert stoped.slips[stoped.candidates.index(" stopped")] < 1.0  # a doubled letter stays light


def test_short_words_are_left_alone() -> None:
    words, _ = split_words("u r im ok")
    assert [checkable(words, i) for i in range(len(words))] == [None] * 4


def test_fix_spelling_asks_for_spelling_only() -> None:
    spelling = style_for(read_intent("fix spelling"))
    assert spelling is not None and spelling.spelling and not spelling.grammar
    proofread = style_for(read_intent("proofread"))
    assert proofread is not None and proofread.spelling and proofread.grammar
    grammar = style_for(read_intent("fix grammar"))
    assert grammar is not None and not grammar.spelling


def test_the_candidate_that_reads_best_replaces_the_misspelling(table: TokenTable) -> None:
    plan = plan_of("It was recieved, and definately on time.")
    out = proofread_plan(plan, table, WordEndPriceReader(table, PRICES))
    assert seeds(out) == "It was received, and definitely on time."


def test_the_original_spelling_stays_unless_a_candidate_reads_better_by_its_margin(
    table: TokenTable,
) -> None:
    (misspelt,) = misspellings(split_words("It was recieved on time.")[0], SPELLER)
    margins = map(spelling_margin, misspelt.slips, misspelt.sounds)
    words = [c.strip(" .,").lower() for c in misspelt.candidates]

    def read(short: float) -> EditPlan:  # every candidate saves its margin less ``short``
        prices = {w: 5.0 - m + short for w, m in zip(words, margins, strict=True)}
        reader = WordEndPriceReader(table, {"recieved": 5.0, **prices})
        return proofread_plan(plan_of("It was recieved on time."), table, reader)

    assert read(0.1) == plan_of("It was recieved on time.")
    margins = map(spelling_margin, misspelt.slips, misspelt.sounds)
    assert seeds(read(-0.1)) != "It was recieved on time."


def test_grammar_alone_offers_no_spelling_and_locked_or_user_words_stay(table: TokenTable) -> None:
    reader = WordEndPriceReader(table, PRICES)
    grammar = proofread_plan(plan_of("It was recieved.", "fix grammar"), table, reader)
    assert "recieved" in seeds(grammar)
    locked = plan_of("It was recieved, definately.", locks=("recieved",))
    assert seeds(proofread_plan(locked, table, reader)) == "It was recieved, definitely."
    mine = plan_of("It was recieved, definately.", known_words=("recieved",))
    assert seeds(proofread_plan(mine, table, reader)) == "It was recieved, definitely."


WORDS = ["the", "recieved", "definately", "Jonh", "it", "was", "on", "time.", "x@y.io", "`co`"]


@settings(max_examples=30, deadline=None)
@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=8),
    st.dictionaries(st.sampled_from(sorted(PRICES)), st.floats(0.0, 12.0), max_size=4),
)
def test_text_outside_misspelt_words_never_changes(
    table: TokenTable, words: list[str], prices: dict[str, float]
) -> None:
    text = " ".join(words)
    out = seeds(proofread_plan(plan_of(text), table, WordEndPriceReader(table, prices)))
    before, after = text.split(" "), out.split(" ")
    assert len(before) == len(after)
    for old, new in zip(before, after, strict=True):
        if old != new:
            assert re.sub(r"\W", "", old) in ("recieved", "definately"), (old, new)


@pytest.mark.parametrize(
    ("words", "says"),
    [
        (("ok",) * (MAX_KNOWN_WORDS + 1), "at most"),
        (("",), "not one word"),
        (("x" * (MAX_KNOWN_WORD_CHARS + 1),), "not one word"),
        (("two words",), "a space"),
        (("tab\x07",), "control"),
    ],
)
def test_a_bad_known_words_list_is_a_clear_bad_request(words: tuple[str, ...], says: str) -> None:
    with pytest.raises(BadRequest, match=says):
        plan_of("It was recieved.", known_words=words)


def test_a_word_misspelt_by_ear_gets_the_words_it_sounds_like() -> None:
    words, _ = split_words("Please reply imidatly.")
    (found,) = misspellings(words, SPELLER)
    at = found.candidates.index(" immediately.")
    assert found.edits[at] == 4 and found.sounds[at] == 0  # four letters off, the same sound
    assert len(found.candidates) == len(found.edits) == len(found.sounds) == len(found.slips)


@pytest.mark.parametrize(
    "text",
    [
        "Write to imidatly@example.com now.",
        "See https://example.org/imidatly now.",
        "Run `imidatly` or imidatly_job first.",
        "We met Imidatly at the station.",  # a name: a capital mid-sentence
    ],
)
def test_sound_alikes_never_reach_names_addresses_or_code(text: str) -> None:
    assert "imidatly" not in {word.lower() for word in found(text)}


def test_a_locked_or_own_word_keeps_its_spelling_whatever_it_sounds_like(table: TokenTable) -> None:
    reader = WordEndPriceReader(table, {"imidatly": 30.0, "immediately": 0.0})
    locked = plan_of("Reply imidatly, please.", locks=("imidatly",))
    assert seeds(proofread_plan(locked, table, reader)) == "Reply imidatly, please."
    mine = plan_of("Reply imidatly, please.", known_words=("imidatly",))
    assert seeds(proofread_plan(mine, table, reader)) == "Reply imidatly, please."
    free = plan_of("Reply imidatly, please.")
    assert seeds(proofread_plan(free, table, reader)) == "Reply immediately, please."


def test_read_alike_the_likelier_slip_wins(table: TokenTable) -> None:
    """ "comments" (an ``m`` written once) and "moments" (a ``c`` for an ``m``) read the same
    here: the channel prefers the doubled letter."""
    prices = {"coments": 9.0, "comments": 2.0, "moments": 2.0}
    out = proofread_plan(
        plan_of("I read the coments today."), table, WordEndPriceReader(table, prices)
    )
    assert seeds(out) == "I read the comments today."


@settings(max_examples=100, deadline=None)
@given(st.floats(0.0, 6.0), st.floats(0.0, 6.0), st.integers(0, 4), st.integers(0, 4))
def test_a_likelier_slip_never_has_to_save_more(
    slip: float, more: float, sound: int, further: int
) -> None:
    margin = spelling_margin(slip, sound)
    assert margin >= LIGHTEST_MARGIN
    assert spelling_margin(slip + more, sound) >= margin
    assert spelling_margin(slip, sound + further) >= margin
    assert spelling_margin(slip, SOUND_APART) >= spelling_margin(slip, 0)


def test_a_suggestion_is_never_the_word_as_typed() -> None:
    # "unequalled" spelt American is "unequaled": the word itself, no suggestion
    for word in ("unequaled", "Unequaled", "recieved"):
        assert word not in Speller().suggestions(word)
