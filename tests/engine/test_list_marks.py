"""No list item opens a line of a prose draft, in whichever order its tokens are committed."""

from __future__ import annotations

import re

from hypothesis import example, given
from hypothesis import strategies as st

from engine.core.canvas import build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, Free
from engine.core.protocol import EditMode, Span
from engine.core.tokens import TokenTable
from engine.decode.list_marks import ListMarkBans, mark_tokens, starts_line
from engine.decode.processors import prose_guards
from tests.helpers.backends import tiny_table

BUDGET = 8


def draft_canvas(before: str, table: TokenTable):
    plan = EditPlan(
        Span(len(before), len(before)), (Free(budget=BUDGET),), before, "", "", EditMode.DRAFT
    )
    return build_canvas(plan, table, SamplerSettings(), 64)


def one(table: TokenTable, text: str) -> int:
    [token] = table.encode(text)
    return token


def banned_at(bans: ListMarkBans, p: int, values: list[int], committed: list[bool]) -> set[int]:
    return {token for row, token in bans.bans([p], values, committed) if row == 0}


def test_a_line_start_takes_no_bullet_and_its_digits_no_closing_mark() -> None:
    table = tiny_table()
    canvas = draft_canvas("We walked to the harbour.", table)
    bans = ListMarkBans(canvas, mark_tokens(table))
    filler = table.specials.filler_id
    newline, digit, dash, word = (one(table, t) for t in ("\n", "2", "-", "a"))
    values = [word, newline, filler, filler, filler, filler, filler, filler]
    committed = [True, True, False, False, False, False, False, False]
    at_start = banned_at(bans, 2, values, committed)
    assert dash in at_start and digit not in at_start  # "2024 was" may open a line
    values[2], committed[2] = digit, True
    after_digit = banned_at(bans, 3, values, committed)
    assert one(table, ".") in after_digit and dash not in after_digit
    assert not banned_at(bans, 4, [word] * 8, [True] * 8)  # mid-line: nothing banned


def test_a_break_never_goes_before_a_committed_item_mark() -> None:
    table = tiny_table()
    canvas = draft_canvas("We walked to the harbour.", table)
    bans = ListMarkBans(canvas, mark_tokens(table))
    filler = table.specials.filler_id
    newline, digit, dot, dash = (one(table, t) for t in ("\n", "3", ".", "-"))
    open_ = [False] * BUDGET
    for item in ([dash], [digit, dot]):
        values = [filler] * BUDGET
        values[3 : 3 + len(item)] = item
        committed = [i in range(3, 3 + len(item)) for i in range(BUDGET)]
        assert newline in banned_at(bans, 2, values, committed)
    assert newline not in banned_at(bans, 2, [filler] * BUDGET, open_)


def test_inside_a_list_a_draft_gets_no_such_bans() -> None:
    table = tiny_table()
    assert prose_guards(draft_canvas("Shopping:\n\n- milk\n", table), table).list_marks is None
    prose = prose_guards(draft_canvas("We walked.", table), table)
    assert prose is not None and prose.list_marks is not None


def test_a_draft_opens_a_line_after_a_break_a_sentence_end_or_at_the_start() -> None:
    table = tiny_table()
    assert starts_line(draft_canvas("We walked.\n\n", table))
    assert starts_line(draft_canvas("The meeting is on 12 March. ", table))
    assert starts_line(draft_canvas("", table))
    assert not starts_line(draft_canvas("We walked", table))  # "We walked 2." may end it


def test_a_sentence_closed_by_a_quote_a_bracket_or_emphasis_has_ended() -> None:
    table = tiny_table()
    for before in ('He said, "We leave at noon." ', "(See the map.)", "**Done.**\n", "Why?'"):
        assert starts_line(draft_canvas(before, table)), before
    for before in ('He said "noon', "the list (below", "a **bold"):
        assert not starts_line(draft_canvas(before, table)), before


LIST_ITEM = re.compile(r"(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)")


@example(["\n", "\n", "\n", "1", ")", "1"])
@given(st.lists(st.sampled_from(["\n", "-", "1", "2", ".", ")", "a", " ", "b"]), max_size=8))
def test_a_draft_written_under_the_bans_has_no_list_item(words: list[str]) -> None:
    """Commit tokens one at a time in a random order, each the first of its choices the bans
    allow: no line of the result opens with a bullet or an item number."""
    table = tiny_table()
    canvas = draft_canvas("We walked to the harbour.", table)
    bans = ListMarkBans(canvas, mark_tokens(table))
    filler = table.specials.filler_id
    values, committed = [filler] * BUDGET, [False] * BUDGET
    wanted = [one(table, w) for w in words] + [filler] * (BUDGET - len(words))
    fallback = one(table, "a")
    order = sorted(range(BUDGET), key=lambda p: (wanted[p] * 7 + p * 3) % BUDGET)
    for p in order:
        banned = banned_at(bans, p, values, committed)
        values[p] = wanted[p] if wanted[p] not in banned else fallback
        committed[p] = True
    text = "We walked to the harbour." + table.decode([v for v in values if v != filler])
    for line in text.splitlines():
        # CommonMark's list item start: a bullet, or up to nine digits and "." or ")", then a
        # space or the line's end ("1)1" is no item: hypothesis found the engine right there)
        assert not LIST_ITEM.match(line.lstrip()), line
