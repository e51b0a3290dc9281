"""Markdown tables: found by markdown-it, cells as slots, structure kept, typed columns honoured."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.core.config import SamplerSettings
from engine.core.errors import BadRequest
from engine.core.protocol import Fill, FillKind, Span
from engine.structured.markdown import find_tables, split_cells, table_at, table_spans
from engine.structured.slots import Filled
from engine.structured.tables import DATE, NUMBER, run_table
from tests.helpers.backends import llama_backend, tiny_table
from tests.helpers.filler import FillerBackend

FILLER = FillerBackend(tiny_table())
DOC = (
    "# Stock\n\n"
    "| item | qty | status | when |\n"
    "|------|----:|--------|------|\n"
    "| pen | 2 | done | 2024-01-02 |\n"
    "| ink |  | open |  |\n"
    "| cap | 4 | done | 2024-02-03 |\n"
    "| a \\| b | 7 |  | 2024-03-03 |\n"
    "\nEnd.\n"
)


def fill(doc: str = DOC, backend: Any = FILLER, **kw: Any) -> Filled:
    at = max(doc.find("|"), 0)
    request = Fill(1, FillKind.TABLE, doc, Span(at, at), **kw)
    done = [e for e in run_table(backend, request) if isinstance(e, Filled)]
    assert len(done) == 1
    return done[0]


def cells(table_text: str) -> list[list[str]]:
    (table,) = find_tables(table_text)
    return [[row.cell(c) for c in range(1, table.columns + 1)] for row in table.body]


def test_empty_cells_are_filled_and_everything_else_is_byte_identical() -> None:
    filled = fill()
    before = cells(DOC[DOC.index("|") : DOC.index("\n\nEnd")])
    after = cells(filled.value)
    assert filled.value.splitlines()[:2] == DOC.splitlines()[2:4]
    for old_row, new_row in zip(before, after, strict=True):
        for old, new in zip(old_row, new_row, strict=True):
            assert new == old or not old
    assert after[0][0] == "pen" and after[3][0] == "a \\| b"


def test_typed_columns_get_numbers_dates_and_known_values() -> None:
    for seed in range(5):
        rows = cells(fill(cells="all", settings=SamplerSettings(seed=seed)).value)
        assert all(NUMBER.fullmatch(r[1]) for r in rows)
        assert all(r[2] in ("done", "open") for r in rows)
        assert all(DATE.fullmatch(r[3]) for r in rows)


def test_add_rows_appends_filled_rows_like_these() -> None:
    filled = fill(cells="1,1", add_rows=3)
    rows = cells(filled.value)
    assert len(rows) == 7 and all(len(r) == 4 for r in rows)
    assert rows[1][0] == "ink"  # not chosen: unchanged


def test_the_tiny_model_keeps_the_structure() -> None:
    filled = fill(backend=llama_backend(), settings=SamplerSettings(steps=6), add_rows=1)
    assert len(cells(filled.value)) == 5
    assert filled.proposal.target == Span(DOC.index("|"), DOC.index("\n\nEnd"))


@pytest.mark.parametrize(
    ("doc", "kw", "words"),
    [
        ("Just a paragraph.\n", {}, "no Markdown table"),
        (DOC, {"cell_tokens": 0}, "at least 1 token"),
        (DOC, {"cell_tokens": 2, "cells": "1,4"}, "cannot hold"),
        (DOC, {"cells": "9,9"}, "no body cell 9,9"),
        (DOC, {"cells": "x"}, "ROW,COL"),
        (DOC, {"add_rows": -1}, "negative"),
        ("| a | b |\n|---|---|\n| 1 | 2 |\n", {}, "no empty cell"),
        ("| a | b |\n|---|---|\n| 1 |  |\nText below.\n", {}, "Line 4 reads as one more row"),
        ("| a | b |\n|---|---|\n| 1 |  | 3 |\n", {}, "(the header: 2, that row: 3)"),
    ],
)
def test_bad_table_requests_are_refused(doc: str, kw: dict[str, Any], words: str) -> None:
    with pytest.raises(BadRequest) as raised:
        fill(doc, **kw)
    assert words in str(raised.value)


def test_a_ragged_table_elsewhere_does_not_stop_this_one() -> None:
    ragged = "| x | y |\n|---|---|\n| 1 |\nno blank line after it\n\n"
    doc = ragged + DOC
    with pytest.raises(BadRequest):
        find_tables(doc)  # the whole document's tables: one of them is ragged
    at = doc.index("| item")
    assert table_at(doc, at) is not None and table_at(doc, at).span.start == at
    request = Fill(1, FillKind.TABLE, doc, Span(at, at))
    done = [e for e in run_table(FILLER, request) if isinstance(e, Filled)]
    assert len(done) == 1 and done[0].proposal.text.startswith("| item | qty |")
    assert table_spans(doc)[0] == Span(0, doc.index("\n\n"))


def test_split_cells_respects_escaped_pipes_and_optional_outer_pipes() -> None:
    line = "| a \\| b | c |"
    assert [line[a:b].strip() for a, b in split_cells(line)] == ["a \\| b", "c"]
    assert len(split_cells("a | b")) == 2


words = st.text("abcdefgh123 ", min_size=1, max_size=6).map(str.strip).filter(bool)


@settings(max_examples=40, deadline=None)
@given(
    header=st.lists(words, min_size=1, max_size=4, unique=True),
    data=st.data(),
    seed=st.integers(0, 100),
)
def test_random_tables_with_random_empty_cells_keep_their_structure(
    header: list[str], data: Any, seed: int
) -> None:
    width = len(header)
    rows = data.draw(
        st.lists(
            st.lists(st.one_of(st.just(""), words), min_size=width, max_size=width),
            min_size=1,
            max_size=5,
        )
    )
    if all(all(cell for cell in row) for row in rows):
        rows[0][0] = ""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * width]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    doc = "Intro\n\n" + "\n".join(lines) + "\n"
    filled = fill(doc, settings=SamplerSettings(seed=seed))
    assert filled.value.splitlines()[:2] == lines[:2]
    after = cells(filled.value)
    assert len(after) == len(rows)
    for old_row, new_row in zip(rows, after, strict=True):
        assert len(new_row) == width
        for old, new in zip(old_row, new_row, strict=True):
            assert new == old or not old


def test_dates_keep_their_dashes_and_text_cells_start_with_a_word() -> None:
    from engine.core.plan import Locked
    from engine.structured.tables import table_problem

    at = DOC.find("|")
    request = Fill(1, FillKind.TABLE, DOC, Span(at, at), cells="all")
    problem = table_problem(request, tiny_table())
    segments, owners = problem.layout({})
    when = [s for s, o in zip(segments, owners, strict=True) if o == (2, 4)]
    # The column's span (2024-01-02 to 2024-03-03, and a little around it) locks its year.
    assert [s.text for s in when if isinstance(s, Locked)] == ["2024-0", "-"]
    filled = fill(cells="all", settings=SamplerSettings(seed=3))
    rows = find_tables(filled.value)[0].body
    for row in rows:
        assert DATE.fullmatch(row.cell(4)) and row.cell(1)[:2].isalpha()


def test_a_column_of_words_gets_words_never_digits() -> None:
    doc = (
        "| owner | decision | due |\n|---|---|---|\n| Priya | Ship it | 2025-03-14 |\n"
        "| Marco |  | 2025-03-21 |\n|  | Rewrite the page | 2025-04-01 |\n"
    )
    for seed in range(4):
        filled = fill(doc, llama_backend(), cells="all", settings=SamplerSettings(seed=seed))
        rows = cells(filled.value)
        assert not any(c.isdigit() for row in rows for c in row[0] + row[1])
        assert all(DATE.fullmatch(row[2]) for row in rows)


def test_a_text_column_with_digits_may_still_get_them() -> None:
    from engine.structured.tables import CELL_SAFE, CELL_WORDS, text_safe

    with_digits = text_safe(("Release 2.4 scope", "Pricing"))
    assert not with_digits.banned & set("0123456789") and "-" in with_digits.banned
    words = text_safe(("Priya", "Marco"))
    assert words.banned >= CELL_WORDS.banned and "-" in words.banned
    assert "-" not in text_safe(("Jean-Luc", "Marco")).banned  # the column uses dashes
    assert text_safe(()) is CELL_SAFE  # nothing to learn from: anything a cell may hold


def test_a_name_column_gets_no_mark_its_names_do_not_use() -> None:
    from engine.structured.tables import text_safe
    from engine.structured.words import word_shape

    plain = word_shape("Owner", 6, text_safe(("Priya", "Marco")))[-1].constraint
    assert plain.chars >= set("Pa ") and "-" not in plain.chars
    hyphened = word_shape("Owner", 6, text_safe(("Jean-Luc", "Marco")))[-1].constraint
    assert "-" in hyphened.chars


def test_an_open_text_cell_writes_its_own_leading_space() -> None:
    from engine.core.plan import Locked, Slot
    from engine.structured.tables import table_problem

    at = DOC.find("|")
    request = Fill(1, FillKind.TABLE, DOC, Span(at, at), cells="all")
    segments, owners = table_problem(request, tiny_table()).layout({})
    first = owners.index((2, 1))  # "ink": a text column; the request refills every cell
    before, head = segments[first - 1], segments[first]
    assert isinstance(before, Locked) and before.text.endswith("\n|")
    assert isinstance(head, Slot) and head.constraint.allows(" Marco")
    assert not head.constraint.allows("Marco") and not head.constraint.allows(" 12")
    qty = owners.index((2, 2))  # a number column keeps its space locked
    assert segments[qty - 1].text.endswith("| ")
    for seed in range(3):
        filled = fill(cells="all", settings=SamplerSettings(seed=seed))
        for line in filled.value.splitlines()[2:]:
            assert line.startswith("| ") and not line.startswith("|  ")


def test_a_cell_value_never_holds_a_run_of_spaces() -> None:
    from engine.structured.tables import CELL_SAFE, text_safe
    from engine.structured.values import STRING_SAFE

    for constraint in (
        CELL_SAFE,
        text_safe(("Priya", "Marco")),
        text_safe(("v2", "x")),
        STRING_SAFE,
    ):
        assert constraint.allows(" done") and not constraint.allows("      ")
        assert not constraint.allows("  done")


def test_a_shaped_cell_word_is_never_a_run_of_spaces() -> None:
    from engine.structured.tables import text_safe
    from engine.structured.words import word_shape

    for header in ("Owner", "Decision", "Notes"):
        for part in word_shape(header, 6, text_safe(("Priya", "Ship it"))):
            if not isinstance(part, str):
                assert not part.constraint.allows("    "), header
