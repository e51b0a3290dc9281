"""Proofreading a rewrite's seed: candidate forms and register swaps, chosen by a reader."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.plan import EditPlan, Free, Locked, find_locks, plan_edit
from engine.core.protocol import Edit, EditMode, Span
from engine.core.tokens import TokenTable, special_tokens
from engine.intent import read_intent
from engine.language.en.registers import (
    CASUAL_PHRASES,
    CONTRACTING,
    EXPANSIONS,
    FORMAL_GREETINGS,
    FORMAL_PHRASES,
    FORMAL_SWAPS,
    FORMAL_WORDS,
)
from engine.language.en.rewordings import CONCISE, Rewording
from engine.language.en.spelling import Speller
from engine.passes import offers
from engine.passes.offers import PRUNE_NATS, offered, style_for
from engine.passes.proofread import (
    Change,
    Read,
    differing,
    not_avoided,
    proofread_plan,
    sentences,
    split_words,
)
from tests.helpers.readers import WordEndPriceReader, WordPriceReader
from tests.helpers.tiny import tiny_tokenizer

# "Yesterdays" is a form of "Yesterday" too (the noun's plural): it reads worse.
PRICES = {"goes": 5.0, "go": 3.0, "went": 0.2, "yesterdays": 5.0}


@pytest.fixture(scope="module")
def table() -> TokenTable:
    tok = tiny_tokenizer()
    return TokenTable(tok, special_tokens(tok, len(tok), filler_candidates=("<fill>",)))


def plan_of(text: str, instruction: str = "fix grammar", locks: tuple[str, ...] = ()) -> EditPlan:
    """A rewrite of ``text``'s second line, the first and last lines around it."""
    doc = f"Title\n{text}\nEnd"
    target = Span(6, 6 + len(text))
    return plan_edit(Edit(1, doc, target, find_locks(doc, target, list(locks)), instruction))


def seeds(plan: EditPlan) -> str:
    return "".join(s.text if isinstance(s, Locked) else s.seed for s in plan.segments)


def style(instruction: str):
    return style_for(read_intent(instruction))


def test_each_instruction_word_asks_for_its_style() -> None:
    assert style("Fix grammar").grammar and not style("fix grammar").tables
    formal = style("make it more formal")
    assert formal.tables == (FORMAL_SWAPS,) and formal.grammar
    assert formal.required == (
        (EXPANSIONS, offers.EXPANSION_TOLERANCE),
        (FORMAL_GREETINGS, offers.EXPANSION_TOLERANCE),
        (FORMAL_WORDS, offers.SLANG_TOLERANCE),
    )
    assert set(FORMAL_WORDS) | set(FORMAL_GREETINGS) | set(FORMAL_SWAPS) == set(FORMAL_PHRASES)
    casual = style("informal please")  # not "formal"
    assert casual.tables == (CASUAL_PHRASES,)
    assert casual.required == ((CONTRACTING, offers.CONTRACTION_TOLERANCE),)
    assert style("clearer").tables == (CONCISE,) and not style("clearer").required
    both = style("casual, and correct the spelling")
    assert both.tables == (CASUAL_PHRASES,) and both.spelling and not both.grammar
    assert style("tighter") is None and style("") is None


def test_the_form_that_reads_best_beyond_its_margin_is_the_new_seed(table: TokenTable) -> None:
    reader = WordPriceReader(table, PRICES)
    plan = plan_of("Yesterday we goes home.")
    out = proofread_plan(plan, table, reader)
    assert seeds(out) == "Yesterday we went home."
    assert (out.before, out.after, out.target) == (plan.before, plan.after, plan.target)
    assert all(prune == PRUNE_NATS for *_, prune in reader.calls)


def test_a_respelt_word_is_offered_its_own_forms_once_in_a_later_round(table: TokenTable) -> None:
    """A misspelling is no form of any word: the dictionary's nearest candidate ("answered",
    one slip away) is chosen first, and only then can the word's forms be read ("did not
    answer"). Each word changes at most twice: a spelling, then a form."""
    prices = {"answerred": 9.0, "answered": 6.0, "answer": 0.1}
    others = ("answering", "answers", "answerer", "unanswered", "answer red")
    reader = WordEndPriceReader(table, prices | dict.fromkeys(others, 9.0))
    out = proofread_plan(plan_of("They did not answerred it.", "proofread"), table, reader)
    assert seeds(out) == "They did not answer it."
    # a word that was a word all along is changed once, as ever
    plain = proofread_plan(plan_of("They did not answered it."), table, reader)
    assert seeds(plain) == "They did not answer it."


def test_nothing_changes_where_nothing_reads_better(table: TokenTable) -> None:
    plan = plan_of("Then the guide explain it.")
    assert proofread_plan(plan, table, WordPriceReader(table, {})) == plan


def test_a_past_word_with_no_past_verb_makes_the_past_a_rule(table: TokenTable) -> None:
    """ "Yesterday we goes": the past is made though it reads no better (the rule's
    tolerance), but never in a word that is no clause's verb ("home" after "goes")."""
    plan = plan_of("Yesterday we goes home.")
    assert (
        seeds(proofread_plan(plan, table, WordPriceReader(table, {}))) == "Yesterday we went home."
    )


def test_a_locked_word_is_never_proofread(table: TokenTable) -> None:
    plan = plan_of("Yesterday we goes home.", locks=("goes",))
    out = proofread_plan(plan, table, WordPriceReader(table, PRICES))
    assert seeds(out) == "Yesterday we goes home."
    assert [s for s in out.segments if isinstance(s, Locked)] == [Locked("goes")]


def test_a_restyled_text_to_avoid_gives_way_to_the_words_as_written(table: TokenTable) -> None:
    """A later version avoids an earlier one's text: a change that only restyles ("We're")
    gives way to the user's own words."""
    plan = plan_of("We are happy to help.", "make it casual")
    best = seeds(proofread_plan(plan, table, WordPriceReader(table, {})))
    assert best == "We're happy to help."
    again = proofread_plan(replace(plan, avoid=(best,)), table, WordPriceReader(table, {}))
    assert seeds(again) == "We are happy to help."


def form(text: str, corrects: bool = False) -> Change:
    """A candidate for word 1 of " we goes home" (its tokens do not matter here)."""
    return Change(0, Rewording(1, 2, text), 1.0, 1, 2, 2, (), corrects=corrects)


TEXTS, ROUNDS = [" we goes home"], {0: [None, None, None]}


def test_an_avoided_restyling_gives_way_to_a_near_form_then_to_the_words_as_written() -> None:
    went, go, gone = form(" went"), form(" go"), form(" gone")
    read = Read([went, go, gone], [3.0, 2.5, 0.5])  # "gone" reads 2.5 nats worse than "went"
    assert not_avoided(TEXTS, read, [went], ROUNDS, 0, [" we went home"]) == [go]
    both = [" we went home", " we go home"]
    assert not_avoided(TEXTS, read, [went], ROUNDS, 0, both) == []  # not "gone": far worse
    assert not_avoided(TEXTS, read, [went], ROUNDS, 0, [" we gone home"]) == [went]


def test_an_avoided_correction_never_gives_way_to_the_error() -> None:
    went, go = form(" went", corrects=True), form(" go", corrects=True)
    read = Read([went, go], [3.0, 2.5])
    assert not_avoided(TEXTS, read, [went], ROUNDS, 0, [" we went home"]) == [go]
    both = [" we went home", " we go home"]
    assert not_avoided(TEXTS, read, [went], ROUNDS, 0, both) == [went]  # stands: merged later


def test_fixes_far_apart_are_made_in_one_read(table: TokenTable) -> None:
    reader = WordPriceReader(table, PRICES)
    out = proofread_plan(plan_of("We goes home, and so they goes out again."), table, reader)
    assert seeds(out) == "We went home, and so they went out again."
    assert len(reader.calls) == 2  # one read making both fixes, one finding nothing more


def test_a_later_round_reads_again_only_the_sentences_the_last_one_changed(
    table: TokenTable,
) -> None:
    reader = WordPriceReader(table, PRICES)
    out = proofread_plan(plan_of("We goes home. It is what it is."), table, reader)
    assert seeds(out) == "We went home. It is what it is."
    boundary = len(table.encode("We went home."))
    first, second = (call[2] for call in reader.calls)
    assert any(at >= boundary for at, _ in first)  # "is" → "was" was read once...
    assert second and all(at < boundary for at, _ in second)  # ...and not again


def test_sentences_run_on_through_a_lock() -> None:
    texts = ["we goes to the ", "museum", " and see it. Then we", " left."]
    assert sentences(texts, [0, 2]) == {0: [0, 0, 0, 0], 2: [0, 0, 0, 1, 1]}


@pytest.fixture
def gonna_as_a_swap(monkeypatch):
    """The word "gonna" as a phrase swap (formal writes a slang word out: see the test after
    these), so the swap's own rules can be read on it."""
    monkeypatch.setattr(offers, "FORMAL_WORDS", ())
    monkeypatch.setattr(offers, "FORMAL_SWAPS", FORMAL_PHRASES)


def test_a_register_swap_only_has_to_read_no_worse(table: TokenTable, gonna_as_a_swap) -> None:
    text = "So it is gonna be fine."
    flat = WordPriceReader(table, {})  # "going to" is one more token: it reads worse
    assert seeds(proofread_plan(plan_of(text, "formal"), table, flat)) == text
    dear = WordPriceReader(table, {"gonna": 3.0})
    out = seeds(proofread_plan(plan_of(text, "formal"), table, dear))
    assert out == "So it is going to be fine."


def test_a_longer_register_swap_may_read_no_worse_per_token(
    table: TokenTable, monkeypatch, gonna_as_a_swap
) -> None:
    text = "So it is gonna be fine."
    # "gonna"'s last three tokens at 1.2 nats, "going to"'s four at 1: more in total (with the
    # tokens read after them), less per token.
    reader = WordPriceReader(table, {"gonna": 1.2})
    assert seeds(proofread_plan(plan_of(text, "formal"), table, reader)) == (
        "So it is going to be fine."
    )
    monkeypatch.setattr(offers, "REGISTER_PER_TOKEN", False)
    assert seeds(proofread_plan(plan_of(text, "formal"), table, reader)) == text


def test_formal_writes_a_slang_word_out_unless_it_reads_far_worse(table: TokenTable) -> None:
    text = "So it is gonna be fine."
    flat = WordPriceReader(table, {})  # "going to" is one more token: it reads a little worse
    assert seeds(proofread_plan(plan_of(text, "formal"), table, flat)) == (
        "So it is going to be fine."
    )
    far = WordPriceReader(table, {"going": offers.SLANG_TOLERANCE + 2.0})
    assert seeds(proofread_plan(plan_of(text, "formal"), table, far)) == text


def test_formal_writes_a_casual_greeting_out_however_it_reads(table: TokenTable) -> None:
    text = "Hey, the report is late."
    reader = WordPriceReader(table, {"hello": 9.0})  # past the veto slang has
    out = seeds(proofread_plan(plan_of(text, "formal"), table, reader))
    assert out == "Hello, the report is late."


def test_formal_writes_every_contraction_out_however_it_reads(table: TokenTable) -> None:
    text = "So it'll be fine, we're sure."
    reader = WordPriceReader(table, {"will": 9.0, "are": 9.0})  # the expansions read far worse
    out = proofread_plan(plan_of(text, "formal"), table, reader)
    assert seeds(out) == "So it will be fine, we are sure."
    assert any(prune == float("inf") for *_, prune in reader.calls)  # read without pruning


def test_a_clitic_that_reads_two_ways_is_written_out_as_the_reading_that_fits(
    table: TokenTable,
) -> None:
    reader = WordPriceReader(table, {"is": 6.0})  # "it is gone" reads worse than "it has"
    out = seeds(proofread_plan(plan_of("So it's gone.", "formal"), table, reader))
    assert out == "So it has gone."
    reader = WordPriceReader(table, {"has": 6.0})
    assert seeds(proofread_plan(plan_of("So it's gone.", "formal"), table, reader)) == (
        "So it is gone."
    )


def test_formal_writes_a_nouns_clitic_out_where_it_is_a_verb(table: TokenTable) -> None:
    reader = WordPriceReader(table, {"is": 9.0})  # however it reads, as a contraction
    out = seeds(proofread_plan(plan_of("So the data's a mess.", "formal"), table, reader))
    assert out == "So the data is a mess."
    kept = "So the team's plan is fine."  # a possessive
    flat = WordPriceReader(table, {})
    assert seeds(proofread_plan(plan_of(kept, "formal"), table, flat)) == kept


def test_casual_contracts_a_nouns_is_unless_it_reads_far_worse(table: TokenTable) -> None:
    text = "So the meeting is postponed."
    flat = WordPriceReader(table, {})
    assert seeds(proofread_plan(plan_of(text, "casual"), table, flat)) == (
        "So the meeting's postponed."
    )
    far = WordPriceReader(table, {"meeting's": offers.CONTRACTION_TOLERANCE + 2.0})
    assert seeds(proofread_plan(plan_of(text, "casual"), table, far)) == text


# "we was" and "it came" read worse than "we were" and "it come"; every other form far worse.
OTHER_FORMS = {"be": 9.0, "been": 9.0, "being": 9.0, "is": 9.0, "are": 9.0, "am": 9.0}
TIMES = {"was": 3.0, "came": 3.0, "comes": 9.0, "coming": 9.0, **OTHER_FORMS}


def test_formal_fixes_agreement_but_never_puts_a_verb_in_another_time(table: TokenTable) -> None:
    reader = WordPriceReader(table, TIMES)
    text = "So we was there when it came."
    assert (
        seeds(proofread_plan(plan_of(text, "formal"), table, reader))
        == "So we were there when it came."
    )
    asked = seeds(proofread_plan(plan_of(text, "fix grammar"), table, reader))
    assert asked == "So we were there when it come."  # asked for grammar, a form may change time


def test_casual_contracts_within_its_tolerance_and_picks_the_better_contraction(
    table: TokenTable,
) -> None:
    text = "So we are not late."
    worse = offers.CONTRACTION_TOLERANCE / 4  # per token of "aren't": within tolerance
    reader = WordPriceReader(table, {"aren't": worse, "ain't": 2 * worse})
    out = seeds(proofread_plan(plan_of(text, "casual"), table, reader))
    assert out in ("So we aren't late.", "So we're not late.")
    far = WordPriceReader(table, {"aren't": 50.0, "ain't": 50.0, "we're": 50.0})
    assert seeds(proofread_plan(plan_of(text, "casual"), table, far)) == text


def test_a_cancelled_request_stops_proofreading_before_the_next_read(table: TokenTable) -> None:
    reader = WordPriceReader(table, PRICES)
    plan = plan_of("We goes home. It is what it is.")
    assert proofread_plan(plan, table, reader, lambda: True) == plan
    assert reader.calls == []
    asked = iter([False, True])  # cancelled after the first read
    out = proofread_plan(plan, table, reader, lambda: next(asked))
    assert seeds(out) == "We went home. It is what it is." and len(reader.calls) == 1


def test_no_style_or_a_draft_reads_nothing(table: TokenTable) -> None:
    reader = WordPriceReader(table, PRICES)
    plan = plan_of("Yesterday we goes home.", "tighter")
    assert proofread_plan(plan, table, reader) == plan
    draft = plan_edit(Edit(1, "we goes", Span(7, 7), mode=EditMode.DRAFT, instruction="grammar"))
    assert proofread_plan(draft, table, reader) == draft
    assert reader.calls == []


def test_where_tokens_differ() -> None:
    assert differing([1, 2, 3, 4], [1, 2, 3, 4]) is None
    assert differing([1, 2, 3, 4], [1, 9, 9, 3, 4]) == (1, 2, 3)
    assert differing([1, 2, 2], [1, 2]) == (2, 3, 2)


@given(st.text(alphabet=st.sampled_from("ab \n.,'"), max_size=40))
def test_words_and_trailing_space_give_back_the_text(text: str) -> None:
    words, trail = split_words(text)
    assert "".join(words) + trail == text
    assert all(word.strip() for word in words)


WORDS = ["we", "goes", "go", "went", "is", "are", "their", "it's", "gonna", "home", "Ada"]


@settings(max_examples=25, deadline=None)
@given(
    st.lists(st.sampled_from(WORDS), min_size=1, max_size=8),
    st.sets(st.integers(0, 7), max_size=2),
    st.dictionaries(st.sampled_from(WORDS), st.floats(0.0, 6.0), max_size=5),
    st.sampled_from(["fix grammar", "formal", "casual"]),
)
def test_locks_the_text_around_and_each_gaps_edges_hold(
    table: TokenTable, words: list[str], locked: set[int], prices: dict[str, float], ask: str
) -> None:
    text = " ".join(words) + "."
    starts = [sum(len(w) + 1 for w in words[:i]) for i in range(len(words))]
    spans = tuple(
        Span(6 + starts[i], 6 + starts[i] + len(words[i])) for i in sorted(locked) if i < len(words)
    )
    doc = f"Title\n{text}\nEnd"
    plan = plan_edit(Edit(1, doc, Span(6, 6 + len(text)), spans, ask))
    out = proofread_plan(plan, table, WordPriceReader(table, prices))
    assert (out.before, out.after, out.target, out.mode) == (
        plan.before, plan.after, plan.target, plan.mode,
    )  # fmt: skip
    assert len(out.segments) == len(plan.segments)
    for was, now in zip(plan.segments, out.segments, strict=True):
        if isinstance(was, Locked):
            assert now == was
        else:
            assert isinstance(now, Free)
            assert now.seed[:1].isspace() == was.seed[:1].isspace()
            assert now.seed[-1:].isspace() == was.seed[-1:].isspace()


def test_a_rule_of_writing_is_read_whole_and_made_within_its_tolerance() -> None:
    """A capital or a linking phrase's comma is never pruned by its first token (a passage's
    first word in capitals reads dear there) and may read up to RULE_TOLERANCE nats worse."""
    words, _ = split_words("for example the bus was late")
    found = {o.rewording.text: (o.margin, o.prune) for o in offered(
        words, offers.Offer(style("fix grammar")), closes=True)}  # fmt: skip
    for rule in ("For", "For example,", "for example,", " late."):
        assert found[rule] == (-offers.RULE_TOLERANCE, float("inf"))
    assert found[" buses"][1] == PRUNE_NATS


def test_a_fix_that_takes_a_word_out_is_read_whole() -> None:
    """ "I am agree" → "I agree": the first token after the cut is the next word's, which reads
    worse there than the word it takes out; pruned by it, no such fix was ever read on."""
    words, _ = split_words("I am agree with it.")
    found = offered(words, offers.Offer(style("fix grammar"), Speller()))
    prunes = {o.rewording.text.strip(): o.prune for o in found if o.rewording.first == 1}
    assert prunes["agree"] == math.inf and prunes["be"] == PRUNE_NATS


def test_a_change_two_sources_offer_is_read_once_at_the_lower_margin() -> None:
    # "dont" is grammar's rule ("don't", certain) and a spelling candidate under proofread
    words, _ = split_words("I dont know.")
    found = offered(words, offers.Offer(style("proofread"), Speller()))
    contraction = [o for o in found if o.rewording.text == " don't"]
    assert len(contraction) == 1
    grammar_only = offered(words, offers.Offer(style("fix grammar"), Speller()))
    assert contraction[0].margin == min(
        o.margin for o in grammar_only if o.rewording.text == " don't"
    )
