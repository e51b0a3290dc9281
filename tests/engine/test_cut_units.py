"""Whole units a shorter rewrite cuts (engine/language/en/cut_units.py), the checks that keep a
cut a person's, and the character target with its note (engine/passes/shorten.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.backends.base import StepResult
from engine.core.canvas import build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import plan_edit
from engine.core.protocol import Edit, Span
from engine.core.tokens import TokenTable
from engine.intent import read_intent
from engine.language.en import cut_units
from engine.language.en.cut_phrases import hedge_openers, openers_with, side_clauses
from engine.language.en.cut_safety import (
    cut_damage,
    modifier_before_noun,
    pronoun_after_preposition,
)
from engine.passes.base import PassContext, Settled
from engine.passes.shorten import ASKED_SHARE, Shorten
from engine.run.answers import LONGER_THAN_ASKED, REASONS
from tests.helpers.words import cut, filler_table, read, words_of

SETTINGS = SamplerSettings()


@pytest.fixture(scope="module")
def table() -> TokenTable:
    return filler_table()


@pytest.mark.parametrize(
    ("finder", "text", "expected"),
    [
        (cut_units.stance_phrases, "It is, in our view, the best road.", "It is the best road."),
        (cut_units.stance_phrases, "It is in my view too slow.", "It is too slow."),
        (cut_units.going_to, "The shop is going to close soon.", "The shop will close soon."),
        (cut_units.going_to, "We were going to call them.", "We would call them."),
        (cut_units.quantity_phrases, "We saw a lot of birds here.", "We saw many birds here."),
        (cut_units.quantity_phrases, "It took a lot of time today.", "It took much time today."),
        (cut_units.quantity_phrases, "It has a number of flaws.", "It has several flaws."),
        (cut_units.quantity_phrases, "It has a huge number of flaws.", "It has many flaws."),
        (cut_units.light_verbs, "She made a decision to stay.", "She decided to stay."),
        (cut_units.light_verbs, "Please take a look at it.", "Please look at it."),
        (cut_units.light_verbs, "He gave an explanation of the rule.", "He explained the rule."),
        (cut_units.clefts, "What you have to do is press it.", "You have to press it."),
        (cut_units.purpose_phrases, "We met with the aim of finding one.", "We met to find one."),
        (
            cut_units.reduced_relatives,
            "The files that were deleted went.",
            "The files deleted went.",
        ),
        (cut_units.reduced_relatives, "A plan that had been approved won.", "A plan approved won."),
        (cut_units.parentheticals, "The tool (the old one) broke.", "The tool broke."),
        (cut_units.obligation_openers, "You will need to restart it.", "Restart it."),
        (cut_units.obligation_openers, "Hi. You must sign here.", "Hi. Sign here."),
        (cut_units.obligation_openers, "If so, you need to wait here.", "If so, wait here."),
        (cut_units.quantifier_of, "We read all of the notes.", "We read all the notes."),
        (cut_units.reported_speech, "She told me that it rained.", "She said that it rained."),
    ],
)
def test_a_wordy_unit_reads_as_the_shorter_text_a_person_writes(finder, text, expected) -> None:
    assert cut(finder, text) == [expected]


@pytest.mark.parametrize(
    ("finder", "text"),
    [
        (cut_units.going_to, "She is going to the shop now."),  # no verb after "to"
        (cut_units.light_verbs, "She made the decision to stay."),  # one decision, said before
        (cut_units.light_verbs, "He made a change to the code."),  # "changed to the code"
        (cut_units.light_verbs, "He made a mistake here."),  # not the act of a verb in its list
        (cut_units.reduced_relatives, "The door that is open stays."),  # no participle
        (cut_units.parentheticals, "The tool (since 2019) broke."),  # a number
        (cut_units.parentheticals, "The tool (not mine) broke."),  # a negation
        (cut_units.parentheticals, "The tool (from Oslo) broke."),  # a name
        (cut_units.obligation_openers, "You should restart it."),  # advice, not an instruction
        (cut_units.obligation_openers, "Yes, you need to see it."),  # no clause put first
        (cut_units.quantifier_of, "We read all of them."),
        (cut_units.reported_speech, "She told me the story."),  # no clause need follow
        (cut_units.reported_speech, "She told him that it rained."),  # who heard it matters
        (cut_units.clefts, "I know what we need to do is odd."),  # inside a sentence
    ],
)
def test_a_shape_that_only_looks_wordy_is_left_alone(finder, text) -> None:
    assert cut(finder, text) == []


def test_openers_in_a_row_go_together_and_join_the_unit_after_them() -> None:
    text = "In my view, I think that the plan works."
    assert cut(hedge_openers, text) == ["The plan works."]
    cleft = "Basically, what we need to do is to find a fix."
    words = words_of(cleft)
    openers = hedge_openers(words)
    joined = openers_with(openers, cut_units.clefts(words))
    assert read(cleft, joined) == ["We need to find a fix."]


def test_a_stance_phrase_may_say_whose_stance_it_is() -> None:
    assert cut(hedge_openers, "In my personal opinion, the park works.") == ["The park works."]
    assert cut(hedge_openers, "In our honest view, the park works.") == ["The park works."]
    # an adjective that says what kind of view it is makes it no stance phrase
    assert cut(hedge_openers, "In my wide view, the park works.") == []


def test_a_side_clause_ending_its_sentence_leaves_the_sentence_end() -> None:
    text = "We saw the hall, which opened in spring. It was busy today."
    assert cut(side_clauses, text) == ["We saw the hall. It was busy today."]


WORD = st.sampled_from(
    [
        "a",
        "an",
        "the",
        "lot",
        "of",
        "number",
        "many",
        "is",
        "are",
        "was",
        "going",
        "to",
        "be",
        "made",
        "make",
        "take",
        "look",
        "decision",
        "what",
        "we",
        "need",
        "do",
        "you",
        "will",
        "must",
        "all",
        "that",
        "were",
        "had",
        "been",
        "deleted",
        "(",
        ")",
        "in",
        "my",
        "view",
        "opinion",
        ",",
        ".",
        "told",
        "us",
        "for",
        "purpose",
        "aim",
        "keeping",
        "find",
        "large",
    ]
)


@given(st.lists(WORD, min_size=1, max_size=14))
def test_every_unit_is_shorter_and_keeps_its_place(tokens: list[str]) -> None:
    words = words_of(" ".join(tokens))
    finders = (*cut_units.WORDING_UNITS, cut_units.reduced_relatives, cut_units.parentheticals)
    for found in (r for finder in finders for r in finder(words)):
        replaced = "".join(words[found.first : found.stop])
        assert 0 <= found.first < found.stop <= len(words)
        assert len(found.text) < len(replaced)
        assert found.text[:1].isspace() == replaced[:1].isspace()


def test_a_cut_may_not_leave_a_mark_dangling_or_a_sentence_without_its_capital() -> None:
    assert cut_damage("It works, and we know it.", "It works, .") == "punctuation"
    assert cut_damage("Yes. The plan works.", "Yes. plan works.") == "capital"
    assert cut_damage("Yes. The plan works well.", "Yes. The plan works.") is None


def test_a_cut_never_runs_two_sentences_together() -> None:
    text = "The slides look good to me. I added two notes. Ask if unsure."
    assert cut_damage(text, "The slides look good I added two notes. Ask if unsure.") == "sentence"
    assert cut_damage(text, "The slides look good. I added two notes. Ask if unsure.") is None
    assert cut_damage(text, "The slides look good to me. Ask if unsure.") == "number"
    # a whole sentence cut with its mark leaves the one before it ending as it did
    assert cut_damage("It rained. We stayed in. It was fine.", "It rained. It was fine.") is None


def test_the_words_that_tell_a_noun_apart_stay() -> None:
    assert not modifier_before_noun("current", "one")  # "not only the current one"
    assert not modifier_before_noun("large", "number")  # "a large number of"
    assert not modifier_before_noun("top", "corner")
    assert modifier_before_noun("small", "bugs")


def test_a_pronoun_goes_with_its_preposition_only_as_the_one_a_thing_is_for() -> None:
    def pair(text: str, preposition: str) -> bool:
        words = [f" {w}" for w in text.split()]
        return pronoun_after_preposition(words, text.split().index(preposition))

    assert pair("we will check in with you soon", "with")  # a verb's particle before it
    assert pair("the users reported to us that", "to")
    assert not pair("we wrote about it last week", "about")  # what was written about
    assert not pair("I went through them this morning", "through")
    assert not pair("call me before you try it", "before")  # a clause
    assert not pair("the repair, according to him, is simple", "to")  # an "-ing" form's
    assert not pair("the hotel is close to us all", "to")  # an adjective's
    assert not pair("they look good, said to me. Then", "to")  # "me." ends a sentence


def settle(shorten: Shorten, text: str, table: TokenTable, instruction: str = "shorter") -> Settled:
    """``text``'s canvas cut by ``shorten`` for ``instruction`` and settled as seeded."""
    ctx = PassContext(table, SETTINGS, read_intent(instruction))
    plan = shorten.before(plan_edit(Edit(1, text, Span(0, len(text)), (), instruction)), ctx)
    canvas = build_canvas(plan, table, SETTINGS, 512, shorten.seed_cut(ctx))
    ids = list(canvas.seed_ids)
    last = StepResult(SETTINGS.steps, ids, ids, [], [0.0] * len(ids), SETTINGS.steps)
    return shorten.after(Settled(canvas, last), ctx)


def test_a_passage_that_cannot_reach_the_target_says_so(table: TokenTable) -> None:
    settled = settle(Shorten(), "Ada wrote it in Paris on Monday.", table)
    assert settled.notes == (f"Shorter: {LONGER_THAN_ASKED}.",)
    assert LONGER_THAN_ASKED in REASONS
    assert settle(Shorten(), "Ada wrote it in Paris on Monday.", table, "formal").notes == ()


def test_a_passage_cut_to_its_target_has_no_note(table: TokenTable) -> None:
    text = "Basically, we really think that a lot of people are going to like it very much."
    shorten = Shorten()
    settled = settle(shorten, text, table)
    assert settled.notes == ()
    assert shorten.record.kept_share() <= ASKED_SHARE


def test_a_pronoun_phrase_after_a_verb_is_what_is_said_not_filler() -> None:
    from engine.language.en.drops import drop_words

    kept = "".join(
        words_of(t)[i]
        for t in ["Please let you know that we left early today."]
        for i in drop_words(words_of(t), 1)
    )
    assert "you know" in kept  # "let you know that": the verb's object
    filler = "We left early and I think we got home by noon today."
    assert "I think" not in "".join(words_of(filler)[i] for i in drop_words(words_of(filler), 1))


def test_a_side_clause_goes_only_once_the_words_cannot_reach_the_target() -> None:
    from engine.language.en.drops import drop_words

    text = "The plan, which the team wrote in spring, is really very good and it works well today."
    pieces = words_of(text)
    target = len(text) - len(" really very")  # the hedges alone reach it

    def cheap_clause(rows):  # the model reads the clause's loss as free, every word as dear
        return [[0.0 if len(row) < len(pieces) - 6 else 1.0 for _ in row] for row in rows]

    kept = "".join(pieces[i] for i in drop_words(pieces, 1, cheap_clause, chars=target))
    assert "which the team wrote" in kept and "really" not in kept
