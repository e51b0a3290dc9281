"""The model's own check of a rewrite: changed runs that read worse are put back (review)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.core.canvas import Canvas, Kind
from engine.core.plan import find_locks, plan_edit
from engine.core.protocol import Edit, Span
from engine.language.en.content import content_words, marks_for_a_word, replaces_content
from engine.language.en.spelling import Speller
from engine.passes.reread import READ_AFTER, changed_runs, hunks, reread, writes_non_word
from tests.helpers.readers import TokenPriceReader

FILLER = 0
PLAN = plan_edit(Edit(1, "a b", Span(0, 3), find_locks("a b", Span(0, 3), [])))
F, L = Kind.FREE, Kind.LOCKED


def canvas(seed: list[int], kinds: list[Kind], seeded: list[bool]) -> Canvas:
    return Canvas(PLAN, tuple(seed), tuple(kinds), (0,) * len(seed), tuple(seeded))


SEED = [10, 11, 12, 90, 13, 14, FILLER, FILLER]
KINDS = [F, F, F, L, F, F, F, F]
SEEDED = [True, True, True, True, True, True, False, False]


def test_changed_runs_are_split_by_locks_and_unchanged_words() -> None:
    c = canvas(SEED, KINDS, SEEDED)
    ids = [10, 21, 22, 90, 23, 14, 24, FILLER]
    assert changed_runs(c, ids, FILLER) == [range(1, 3), range(4, 5), range(6, 7)]
    # Text written where nothing stood (the room past the seed) is a change too.
    assert changed_runs(c, [10, 11, 12, 90, 13, 14, 24, 25], FILLER) == [range(6, 8)]


def test_a_run_that_reads_worse_goes_back_and_one_that_reads_better_stays() -> None:
    seed = [10, 11, 12, 90, 16, 17, 18, 19, 13, 14, FILLER]
    c = canvas(seed, [F, F, F, L, F, F, F, F, F, F, F], [True] * 10 + [False])
    ids = [10, 21, 22, 90, 16, 17, 18, 19, 23, 14, FILLER]
    reader = TokenPriceReader({21: 3.0, 22: 3.0, 23: 0.1})  # 21 22 worse, 23 better
    out = reread(c, ids, FILLER, reader, [7], [])
    assert out == [10, 11, 12, 90, 16, 17, 18, 19, 23, 14, FILLER]
    [(context, tokens, variants)] = reader.calls
    assert context == [7] and tokens == ids[:-1]
    assert variants == [(1, [11, 12, 90, 16, 17, 18]), (8, [13, 14])]


def test_a_run_ending_the_canvas_is_read_into_the_text_after_it() -> None:
    c = canvas([10, 11], [F, F], [True, True])
    reader = TokenPriceReader({})
    reread(c, [10, 31], FILLER, reader, [], [40, 41, 42, 43, 44, 45])
    [(_, tokens, variants)] = reader.calls
    assert tokens == [10, 31, 40, 41, 42, 43, 44, 45]
    assert variants == [(1, [11, *[40, 41, 42, 43, 44, 45][:READ_AFTER]])]


def test_a_deleted_word_is_read_back_in_and_an_added_one_read_out() -> None:
    seed = [10, 11, 12, 15, 16, 17, 18, FILLER]
    c = canvas(seed, [F] * 8, [True] * 7 + [False])
    reader = TokenPriceReader({11: 5.0, 30: 2.0})
    # The model dropped 11 (filler in its place) and wrote 30 in the room past the seed.
    out = reread(c, [10, FILLER, 12, 15, 16, 17, 18, 30], FILLER, reader, [], [])
    # 11 costs more than leaving it out: that change stays; 30 costs more than nothing: it goes.
    assert out == [10, FILLER, 12, 15, 16, 17, 18, FILLER]
    assert reader.calls[0][2] == [(1, [11, 12, 15, 16, 17]), (6, [])]


def test_nothing_changed_means_nothing_read() -> None:
    c = canvas(SEED, KINDS, SEEDED)
    reader = TokenPriceReader({})
    assert reread(c, SEED, FILLER, reader, [], []) == SEED
    assert reader.calls == []


@given(
    changes=st.lists(st.tuples(st.integers(0, 7), st.integers(20, 30)), max_size=8),
    prices=st.dictionaries(st.integers(10, 30), st.floats(0, 5)),
)
def test_every_position_ends_as_written_or_as_it_was(
    changes: list[tuple[int, int]], prices: dict[int, float]
) -> None:
    c = canvas(SEED, KINDS, SEEDED)
    ids = list(SEED)
    for at, token in changes:
        if KINDS[at] is F:
            ids[at] = token
    out = reread(c, ids, FILLER, TokenPriceReader(prices), [], [])
    for i, token in enumerate(out):
        assert token in (ids[i], SEED[i] if SEEDED[i] else FILLER)
    assert out[3] == SEED[3]  # the lock


def test_runs_close_together_are_judged_as_one_stretch() -> None:
    assert hunks([range(1, 3), range(5, 6), range(12, 14)], gap=4) == [range(1, 6), range(12, 14)]
    assert hunks([range(1, 3), range(7, 8)], gap=4) == [range(1, 3), range(7, 8)]
    assert hunks([]) == []
    c = canvas([10, 11, 12, 13, 14, 15], [F] * 6, [True] * 6)
    # 21 alone and 23 alone each read better than putting one back beside the other...
    reader = TokenPriceReader({21: 0.5, 23: 0.5, 11: 9.0, 13: 9.0})
    out = reread(c, [10, 21, 12, 23, 14, 15], FILLER, reader, [], [])
    assert reader.calls[0][2] == [(1, [11, 12, 13, 14, 15])]  # ...but they are read together
    assert out == [10, 21, 12, 23, 14, 15]


WORDS = {10: "Returns,", 11: "if", 12: "unused", 13: "manager", 21: "None,", 22: "office", 23: "so"}
WORDS |= {24: "--", 25: "_", 26: "iif"}


def words(ids) -> str:
    return " ".join(WORDS.get(i, "x") for i in ids)


def test_a_run_saying_other_content_words_goes_back_however_well_it_reads() -> None:
    c = canvas([10, 11, 12, 13], [F] * 4, [True] * 4)
    cheap = TokenPriceReader({21: 0.1, 22: 0.1})  # both new words read far better
    assert reread(c, [21, 11, 12, 22], FILLER, cheap, [], [], words) == [10, 11, 12, 13]
    assert reread(c, [21, 11, 12, 22], FILLER, cheap, [], []) == [21, 11, 12, 22]
    # Dropping a content word, or changing only function words, is no new content.
    assert reread(c, [10, 11, 23, 13], FILLER, cheap, [], [], words) == [10, 11, 23, 13]


def test_content_words_are_long_words_that_are_not_function_words() -> None:
    assert content_words("The guide would explain it to Mary") == {"guide", "explain", "mary"}
    assert replaces_content("to the manager", "to the office")
    assert not replaces_content("which is about two weeks", "which is two weeks")
    assert not replaces_content("we should have", "we would have")
    assert not replaces_content("", "new words here")  # added text: read by fluency alone


def test_a_run_writing_marks_in_a_words_place_goes_back_however_well_it_reads() -> None:
    c = canvas([10, 11, 12, 13], [F] * 4, [True] * 4)
    cheap = TokenPriceReader({24: 0.1, 25: 0.1})
    assert reread(c, [24, 11, 12, 13], FILLER, cheap, [], [], words) == [10, 11, 12, 13]
    assert reread(c, [10, 25, 12, 13], FILLER, cheap, [], [], words) == [10, 11, 12, 13]
    # at strength 1 (no decode) fluency alone judges
    assert reread(c, [24, 11, 12, 13], FILLER, cheap, [], []) == [24, 11, 12, 13]


def test_a_run_writing_a_word_no_dictionary_knows_goes_back_however_well_it_reads() -> None:
    c = canvas([10, 11, 12, 13], [F] * 4, [True] * 4)
    cheap = TokenPriceReader({26: 0.1})  # "iif" for "if" reads better
    speller = Speller()
    assert reread(c, [10, 26, 12, 13], FILLER, cheap, [], [], words, speller) == [10, 11, 12, 13]
    # without a speller (or at strength 1) fluency alone judges it
    assert reread(c, [10, 26, 12, 13], FILLER, cheap, [], [], words) == [10, 26, 12, 13]
    # a change beside the user's own unknown word is judged as any other (the word is theirs)
    c = canvas([10, 26, 12, 13], [F] * 4, [True] * 4)
    cheap = TokenPriceReader({23: 0.1})
    assert reread(c, [10, 26, 23, 13], FILLER, cheap, [], [], words, speller) == [10, 26, 23, 13]


def test_a_non_word_is_judged_whole_and_only_where_the_canvas_wrote_it() -> None:
    speller = Speller()
    assert writes_non_word(" was realy glad", " was reall so glad", speller)
    assert not writes_non_word(" was realy glad", " was really glad", speller)
    assert not writes_non_word(" was realy glad", " was realy so glad", speller)  # the user's
    assert not writes_non_word(" met Bob", " met Bobb", speller)  # a capital: maybe a name
    assert not writes_non_word(" see the docs", " see the docs_v2", speller)  # code, a mark
    assert not writes_non_word(" it is", " it's", speller)
    assert not writes_non_word(" bla", " blaa", Speller.with_words(["blaa"]))  # user's word


def test_marks_in_a_words_place_are_neither_a_cut_nor_punctuation() -> None:
    assert marks_for_a_word("Still it rained.", "-- it rained.")
    assert marks_for_a_word("and then", "_ then")
    assert not marks_for_a_word("Still, it rained.", "It rained.")  # a cut
    assert not marks_for_a_word("it rained, then", "it rained. Then")  # punctuation
    assert not marks_for_a_word("it rained and then", "it rained. Then")  # a split
    assert not marks_for_a_word("if it rains you will", "if it rains, you")  # a cut
    assert not marks_for_a_word("it rain", "it rained.")  # a form, and a stop
    assert not marks_for_a_word("dont", "don't")  # an apostrophe is part of the word


@given(st.text(alphabet="ab Cd.,-_'!\n", max_size=40))
def test_a_text_kept_or_only_lowered_never_puts_marks_for_a_word(text: str) -> None:
    assert not marks_for_a_word(text, text)
    assert not marks_for_a_word(text, text.lower())


@given(
    st.text(alphabet="abcdefghij ,.'", max_size=40), st.text(alphabet="abcdefghij ", max_size=12)
)
def test_a_run_that_writes_only_the_users_words_writes_no_non_word(text: str, cut: str) -> None:
    """Whatever the user wrote, known or not, written again (or in part) is no non-word."""
    speller = Speller()
    assert not writes_non_word(text, text, speller)
    assert not writes_non_word(text + " " + cut, text, speller)
