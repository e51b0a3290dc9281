"""Clause-level and sentence-level cuts a shorter rewrite takes (engine/language/en/cut_clauses.py,
engine/language/en/cut_sentences.py), found by shape on text written for these tests, and the
checks that keep them a person's."""

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
from engine.language.en import cut_clauses as cc
from engine.language.en import cut_openers as co
from engine.language.en import cut_sentences as cs
from engine.language.en.cut_phrases import hedge_openers
from engine.language.en.cut_safety import cut_damage, mending_damage, stranded_degrees
from engine.language.en.cut_units import obligation_openers, reduced_relatives
from engine.passes.base import PassContext, Settled
from engine.passes.shorten import ASKED_SHARE, Shorten
from engine.run.answers import LONGER_THAN_ASKED
from tests.helpers.words import cut, filler_table, words_of


@pytest.mark.parametrize(
    ("finder", "text", "expected"),
    [
        (co.announcements, "Please note that the lab shuts early.", "The lab shuts early."),
        (co.announcements, "It should be noted that fees rose.", "Fees rose."),
        (co.announcements, "It is worth noting that fees rose.", "Fees rose."),
        (co.announcements, "We would like to remind you that rooms vary.", "Rooms vary."),
        (co.announcements, "I wanted to let you know that we moved.", "We moved."),
        (co.announcements, "A short reminder that forms close today.", "Forms close today."),
        (cc.fact_clauses, "We ran owing to the fact that it hailed.", "We ran because it hailed."),
        (cc.fact_clauses, "Despite the fact that it hailed, I ran.", "Although it hailed, I ran."),
        (cc.fact_clauses, "She is proud of the fact that it works.", "She is proud that it works."),
        (cc.fact_clauses, "In light of the fact that it hailed, I ran.", "Since it hailed, I ran."),
        (
            cc.fact_clauses,
            "I ran on account of the fact that it hailed.",
            "I ran because it hailed.",
        ),
        (co.existentials, "There are some cooks who prefer gas.", "Some cooks prefer gas."),
        (co.existentials, "There is a page that lists them.", "A page lists them."),
        (cc.relative_complements, "Get the box that is on the shelf.", "Get the box on the shelf."),
        (cc.relative_complements, "A town that is close to the sea.", "A town close to the sea."),
        (cc.object_relatives, "The songs which we sang were old.", "The songs we sang were old."),
        (cc.coordinated_pairs, "It reads clearly and simply here.", "It reads clearly here."),
        (cc.coordinated_pairs, "The soup was warm and very tasty.", "The soup was warm."),
        (cc.intensifiers, "The bus came so slowly today.", "The bus came slowly today."),
        (cc.intensifiers, "This road is much shorter now.", "This road is shorter now."),
        (cc.intensifiers, "It took a lot longer than planned.", "It took longer than planned."),
        (cc.purpose_markers, "We met in order to plan it.", "We met to plan it."),
        (cc.purpose_markers, "Stir it so as to mix it.", "Stir it to mix it."),
        (cc.example_asides, "Fruit, such as plums and figs, is sold.", "Fruit is sold."),
        (co.comment_openers, "As we said before, the hall is shut.", "The hall is shut."),
        (cc.shell_nouns, "The task of sorting the mail took long.", "Sorting the mail took long."),
        (co.necessity_openers, "It is vital that you lock the door.", "Lock the door."),
        (co.necessity_openers, "It is essential to water them daily.", "Water them daily."),
        (cc.of_all, "First of all, boil the water.", "First, boil the water."),
        (cc.ability_phrases, "She will not be able to come.", "She cannot come."),
        (
            cc.compared_auxiliaries,
            "It ran faster than the old car did.",
            "It ran faster than the old car.",
        ),
        (
            co.passives,
            "The gate was opened by the guard. We left.",
            "The guard opened the gate. We left.",
        ),
        (
            co.passives,
            "The files are checked by our tools. They go.",
            "Our tools check the files. They go.",
        ),
        (
            co.passives,
            "This form is signed by the tenant. It goes.",
            "The tenant signs this form. It goes.",
        ),
        (
            co.passives,
            "The plan was quietly approved by Mia. It won.",
            "Mia quietly approved the plan. It won.",
        ),
        (cc.ability_phrases, "We would be able to help.", "We could help."),
        (obligation_openers, "To reset it, you need to hold it.", "To reset it, hold it."),
        (obligation_openers, "You really must sign it here.", "Sign it here."),
        (hedge_openers, "In our own experience, the tool works.", "The tool works."),
        (reduced_relatives, "Files that were saved early stay.", "Files saved early stay."),
    ],
)
def test_a_wordy_shape_reads_as_the_shorter_text_a_person_writes(finder, text, expected) -> None:
    assert cut(finder, text) == [expected]


@pytest.mark.parametrize(
    ("finder", "text"),
    [
        (co.announcements, "He reminded us that the lab shuts early."),  # who said it matters
        (co.announcements, "The clerk noted that fees rose."),  # a noun: the one who said it
        (co.announcements, "Let me know that you arrived."),  # a request, not an announcement
        (co.announcements, "It is possible that fees rose."),  # announces nothing: it hedges
        (cc.fact_clauses, "In spite of the fact that it snowed, we left."),  # would add a contrast
        (cc.compared_auxiliaries, "It is faster than the old one ever was."),  # "ever" needs it
        (co.existentials, "There are many places that tourists visit."),  # no subject relative
        (cc.relative_complements, "The box, which is on the shelf, is red."),  # an aside
        (cc.relative_complements, "A town that is small grew."),  # no phrase after the adjective
        (cc.object_relatives, "The songs, which we sang, were old."),  # an aside
        (cc.coordinated_pairs, "It is fast, cheap and simple."),  # a list of three
        (cc.coordinated_pairs, "We wash and clean the cups."),  # verbs, not describing words
        (cc.coordinated_pairs, "Pick between red and green ones."),  # a range
        (cc.intensifiers, "The dog was so tired that it slept."),  # a result clause follows
        (cc.intensifiers, "Thank you so much for it."),  # "much" is a quantity
        (cc.intensifiers, "The film was too long for us."),  # "too" says more than "long"
        (cc.example_asides, "Fruit, such as 4 plums, is sold."),  # a number
        (co.comment_openers, "As I was leaving, the phone rang."),  # says when
        (co.necessity_openers, "It is important that the team knows."),  # no instruction
        (co.necessity_openers, "It is hard to say it."),  # no necessity
        (cc.shell_nouns, "She did the job of packing the boxes."),  # an object, not a subject
        (cc.shell_nouns, "We are in the process of moving."),  # after a preposition
    ],
)
def test_a_shape_that_only_looks_wordy_is_left_alone(finder, text) -> None:
    assert cut(finder, text) == []


def test_a_sentence_most_of_whose_words_the_rest_says_goes_and_only_one_of_a_pair() -> None:
    text = (
        "The garden gets sun all morning. Tomatoes grow well in the garden. "
        "Tomatoes grow well in a garden with sun."
    )
    assert cut(cs.redundant_sentences, text) == [
        "The garden gets sun all morning. Tomatoes grow well in the garden."
    ]
    twins = "We fixed the heater. Then we fixed the heater again. It works now."
    assert len(cs.redundant_sentences(words_of(twins))) == 1


def test_a_sentence_that_adds_what_the_rest_does_not_say_stays() -> None:
    text = "The garden gets sun all morning. The garden also has a pond with fish."
    assert cut(cs.redundant_sentences, text) == []
    heading = "Garden notes\nThe garden gets sun. The sunny garden gets sun."
    assert all("\n" in out for out in cut(cs.redundant_sentences, heading))


def test_a_short_courtesy_to_the_reader_goes_a_request_stays() -> None:
    text = "Hope you had a good weekend. The van comes at noon. Thanks for your patience."
    assert cut(cs.courtesy_sentences, text) == [
        "The van comes at noon. Thanks for your patience.",
        "Hope you had a good weekend. The van comes at noon.",
    ]
    assert cut(cs.courtesy_sentences, "The van comes at noon. Please send the keys.") == []


def test_a_degree_word_never_loses_its_adjective() -> None:
    assert stranded_degrees("the most useful tools here", "the most tools here") == 1
    assert cut_damage("It is the most useful tool.", "It is the most tool.") == "degree"
    assert cut_damage("It uses a lot less power.", "It uses less power.") is None
    assert cut_damage("It was very very busy.", "It was very busy.") is None
    assert cut_damage("We left so that they could rest.", "We left so they could rest.") is None


def test_every_sentence_cut_leaves_the_meaning_check_to_refuse_a_number_or_a_name() -> None:
    text = "Ana sent the report. The report came from Ana in 2020. It was long."
    words = words_of(text)
    for found in cs.redundant_sentences(words):
        after = "".join(words[: found.first]) + found.text + "".join(words[found.stop :])
        assert cut_damage(text, after) is not None


WORD = st.sampled_from(
    [
        "It", "it", "is", "important", "to", "note", "that", "Please", "be", "aware", "of",
        "the", "fact", "due", "There", "are", "many", "who", "which", "people", "believe",
        "quickly", "and", "easily", "so", "much", "more", "a", "lot", "in", "order", "As",
        "I", "said", ",", ".", "you", "hope", "thanks", "box", "on", "task", "sorting",
        "first", "all", "such", "as", "lock", "shelf", "very", "clean", "clear",
    ]
)  # fmt: skip


@given(st.lists(WORD, min_size=1, max_size=16))
def test_every_unit_is_shorter_and_keeps_its_place(tokens: list[str]) -> None:
    words = words_of(" ".join(tokens))
    finders = (
        *cc.CLAUSE_WORDINGS,
        *co.OPENER_WORDINGS,
        *cc.DESCRIBING_CUTS,
        *cc.ASIDES,
        cs.redundant_sentences,
        cs.courtesy_sentences,
    )
    for found in (r for finder in finders for r in finder(words)):
        replaced = "".join(words[found.first : found.stop])
        assert 0 <= found.first < found.stop <= len(words)
        assert len(found.text) < len(replaced)
        assert found.text[:1].isspace() == replaced[:1].isspace() or found.first == 0


@pytest.fixture(scope="module")
def table() -> TokenTable:
    return filler_table()


def canvas_for(text: str, table: TokenTable, instruction: str = "shorter"):
    """``text``'s canvas, its seed cut by the shorten pass, and the pass and its context."""
    shorten = Shorten()
    ctx = PassContext(table, SamplerSettings(), read_intent(instruction))
    plan = shorten.before(plan_edit(Edit(1, text, Span(0, len(text)), (), instruction)), ctx)
    canvas = build_canvas(plan, table, SamplerSettings(), 512, shorten.seed_cut(ctx))
    return canvas, shorten, ctx


def settled_as(canvas, ids: list[int]) -> Settled:
    return Settled(canvas, StepResult(1, ids, ids, [], [0.0] * len(ids), 1))


def without(canvas, table: TokenTable, word: str) -> list[int]:
    """The canvas's seed with the tokens that spell ``word`` (its first time) left empty."""
    ids = list(canvas.seed_ids)
    texts = [table.text(i) for i in ids]
    starts = [sum(len(t) for t in texts[:k]) for k in range(len(texts))]
    at = "".join(texts).index(word)
    gone = [k for k, s in enumerate(starts) if at <= s < at + len(word)]
    for k in gone:
        ids[k] = table.specials.filler_id
    return ids


def test_mending_that_loses_a_content_word_is_put_back_to_the_checked_seed(table) -> None:
    text = "Basically, we really think that a lot of people are going to like it very much."
    canvas, shorten, ctx = canvas_for(text, table)
    mended = settled_as(canvas, without(canvas, table, " people"))
    after = shorten.after(mended, ctx)
    assert after.last.ids == list(canvas.seed_ids)
    assert after.put_back == 1


def test_mending_that_keeps_what_the_seed_says_stays(table) -> None:
    text = "Basically, we really think that a lot of people are going to like it very much."
    canvas, shorten, ctx = canvas_for(text, table)
    seed = settled_as(canvas, list(canvas.seed_ids))
    assert shorten.after(seed, ctx).last.ids == list(canvas.seed_ids)
    assert mending_damage("We left early. We would stay.", "We left early and would stay.") == (
        "sentence"
    )
    assert mending_damage("The blue van left.", "The van left.") == "content"
    assert mending_damage("The van left.", "The van van left.") == "doubled"
    assert mending_damage("The van that left.", "The van left.") is None
    assert mending_damage("We wait so the tests can run.", "We wait so that tests can run.") == (
        "article"
    )


def test_a_held_out_passage_whose_only_cuts_change_its_meaning_says_so(table) -> None:
    """A paragraph of facts, none of them said twice: no safe cut reaches four fifths."""
    text = (
        "Our clinic opens at eight on weekdays and at ten on Saturdays. Bring your card "
        "and a list of the medicines you take. Parking is free behind the building."
    )
    canvas, shorten, ctx = canvas_for(text, table)
    settled = shorten.after(settled_as(canvas, list(canvas.seed_ids)), ctx)
    assert shorten.record.kept_share() > ASKED_SHARE
    assert settled.notes == (f"Shorter: {LONGER_THAN_ASKED}.",)


def test_an_adjective_that_picks_out_which_one_stays_though_it_ends_like_a_describing_one() -> None:
    """ "-ous" marks a describing adjective ("famous"), but "previous" says which version."""
    from engine.language.en.cut_safety import modifier_before_noun

    assert modifier_before_noun("famous", "bridge")
    assert not modifier_before_noun("previous", "version")
    assert not modifier_before_noun("various", "tools")
