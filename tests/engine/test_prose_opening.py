"""A prose draft that opens a line or a sentence opens with a word, and a list item the user
has just opened is read as a list."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from engine.core.canvas import build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, Free
from engine.core.protocol import EditMode, Span
from engine.core.tokens import WORD_OPENING_MARKS, TokenTable
from engine.decode.allowed import allowed_mask, fills_open_item, opens_prose
from engine.decode.processors import prose_guards
from tests.helpers.backends import tiny_table

BUDGET = 8


def draft_canvas(before: str, table: TokenTable):
    plan = EditPlan(
        Span(len(before), len(before)), (Free(budget=BUDGET),), before, "", "", EditMode.DRAFT
    )
    return build_canvas(plan, table, SamplerSettings(), 64)


def first_allowed(before: str, table: TokenTable) -> set[int]:
    mask = allowed_mask(draft_canvas(before, table), table, len(table.tokenizer))
    return set(mask[0].nonzero().flatten().tolist())


def test_a_draft_that_opens_a_sentence_opens_with_a_word() -> None:
    table = tiny_table()
    for before in ("We walked to the harbour.\n\n", "The meeting is on 12 March. ", ""):
        allowed = first_allowed(before, table)
        assert allowed, before
        assert allowed <= set(table.word_openers()), before
        assert table.specials.filler_id not in allowed  # nothing at all is no opening
        assert not {t for t in allowed if table.text(t).lstrip()[:1].isdigit()}, before


def test_a_draft_inside_a_sentence_a_list_or_a_table_may_open_with_a_number() -> None:
    table = tiny_table()
    digits = {t for t in range(len(table.tokenizer)) if table.text(t)[:1].isdigit()}
    for before in ("We walked", "Shopping:\n\n- milk\n- ", "Facts: ", "| a | 1 |\n"):
        assert digits & first_allowed(before, table), before  # "walked 2 km", "- 2 eggs"


def test_a_list_item_the_user_just_opened_is_a_list() -> None:
    """ "- " or "2." typed and the draft asked for there: the text before reads "-" or "2."
    once its trailing spaces are trimmed. The draft writes that item's text, with no second
    mark before it, and a later line of it may open the next item."""
    table = tiny_table()
    openers = set(table.list_openers())
    for before in ("Shopping:\n\n- milk\n- ", "Steps:\n\n1. Boil water.\n2.", "Todo:\n-"):
        canvas = draft_canvas(before, table)
        assert not opens_prose(canvas) and fills_open_item(canvas), before
        assert not openers & first_allowed(before, table), before
        guards = prose_guards(canvas, table)
        assert guards is None or guards.list_marks is None, before
    assert opens_prose(draft_canvas("It cost 12.", table))  # a number ending a sentence
    assert not fills_open_item(draft_canvas("Shopping:\n\n- milk\n", table))  # a new item


@given(st.sampled_from(range(len(tiny_table().tokenizer))))
def test_a_word_opener_starts_with_a_letter_or_an_opening_mark(token: int) -> None:
    table = tiny_table()
    text = table.text(token).removeprefix(" ")
    opens = bool(text) and (text[0].isalpha() or text[0] in WORD_OPENING_MARKS)
    assert (token in table.word_openers()) == opens, repr(table.text(token))
