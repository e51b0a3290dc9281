"""Shapes, formats and words: values that have their form while they denoise.

Property tests spell shapes at random (what any model could write into their slots, filler
included) and check that every spelling of a pattern's shape matches the pattern, and that
Settle's stricter format checks only ever accept what ``jsonschema`` accepts too.
"""

from __future__ import annotations

import re
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, FormatChecker

from engine.core.canvas import build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import CharsetConstraint, EditPlan, Locked, Slot
from engine.core.protocol import EditMode, Span
from engine.core.tokens import charset
from engine.decode.allowed import allowed_mask
from engine.structured.compiler import compile_json
from engine.structured.formats import EXAMPLES, STRICT, format_shape, strict
from engine.structured.json_problem import JsonProblem
from engine.structured.shapes import Run, Shape, lengths, pattern_shape
from engine.structured.values import NOTHING, STRING_SAFE
from engine.structured.words import key_words, word_shape
from tests.helpers.backends import tiny_table

PATTERNS = [
    "^INV-[0-9]{4}$",
    "^[A-Z]{2}[0-9A-Z]{8,12}$",
    "^(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)\\.(0|[1-9][0-9]*)$",
    "^[a-z0-9][a-z0-9._-]*$",
    "^(GET|POST|PUT)$",
    "^#[0-9a-fA-F]{6}$",
    "^ORD-\\d{6}$",
    "^[a-z]{2}(-[A-Z]{2})?$",
    "^v[0-9]+\\.[0-9]+\\.[0-9]+$",
    "^[a-z][a-z0-9_]{2,15}$",
    "^\\+[0-9]{7,14}$",
    "^[a-z:]+( [a-z:]+)*$",
    "^evt_[A-Za-z0-9]{12}$",
    "^E\\d{5}$",
    "[0-9]{3}",
    "^a.c$",
]


@st.composite
def spelling(draw: Any, shape: Shape) -> str:
    """What a model could write into a shape's slots: any allowed tokens, filler anywhere
    after the positions that must hold a token."""
    out = []
    for part in shape:
        if isinstance(part, str):
            out.append(part)
            continue
        constraint = part.constraint
        if isinstance(constraint, CharsetConstraint):
            chars = sorted(constraint.chars)
            count = draw(st.integers(part.least, part.budget))
            width = (1, 1) if constraint.single else (constraint.min_chars, 4)
            words = st.text(st.sampled_from(chars), min_size=width[0], max_size=width[1])
            out += draw(st.lists(words, min_size=count, max_size=count))
        else:
            out.append(draw(st.sampled_from(constraint.alternatives)))  # type: ignore[union-attr]
    return "".join(out)


@settings(max_examples=300, deadline=None)
@given(data=st.data(), pattern=st.sampled_from(PATTERNS))
def test_every_spelling_of_a_patterns_shape_matches_the_pattern(data: Any, pattern: str) -> None:
    shape = pattern_shape(pattern)
    if shape is None:
        return
    text = data.draw(spelling(shape))
    assert re.search(pattern, text), (pattern, text, shape)
    low, high = lengths(shape)
    assert low <= len(text) and (high is None or len(text) <= high)


def test_literals_are_locked_and_bounded_classes_become_one_character_positions() -> None:
    shape = pattern_shape("^INV-[0-9]{4}$")
    assert shape is not None and shape[0] == "INV-"
    run = shape[1]
    assert isinstance(run, Run) and (run.budget, run.least) == (4, 4)
    assert run.constraint == charset("one:0123456789", "0123456789", single=True)
    assert pattern_shape("^(?=a)b$") is None  # look-arounds are outside the subset
    assert pattern_shape("abc") is None  # nothing open: the plain slot and the check remain


@settings(max_examples=300, deadline=None)
@given(data=st.data(), fmt=st.sampled_from(sorted(STRICT)))
def test_what_settle_accepts_for_a_format_jsonschema_accepts_too(data: Any, fmt: str) -> None:
    text = data.draw(spelling(format_shape(fmt)))
    checker = Draft202012Validator({"format": fmt}, format_checker=FormatChecker())
    if strict(fmt, text):
        assert checker.is_valid(text), (fmt, text)


def test_the_stricter_checks_refuse_what_jsonschema_lets_through() -> None:
    lenient = Draft202012Validator({"format": "email"}, format_checker=FormatChecker())
    assert lenient.is_valid("@") and not strict("email", "@")
    for fmt, bad in [
        ("email", "1@b.co"),
        ("email", "ada@example"),
        ("date", "2024-02-30"),
        ("ipv4", "256.1.1.1"),
        ("time", "25:00:00Z"),
        ("hostname", "localhost"),
        ("uri", "https://x"),
    ]:
        assert not strict(fmt, bad), (fmt, bad)
    for fmt, examples in EXAMPLES.items():
        assert all(strict(fmt, e) for e in examples), fmt


def test_formats_lock_their_punctuation() -> None:
    date = format_shape("date")
    assert [p for p in date if isinstance(p, str)] == ["-0", "-"]  # months 01-09
    email = format_shape("email")
    assert "@" in email and "." in email


@settings(max_examples=200, deadline=None)
@given(data=st.data(), fmt=st.sampled_from(["date", "time", "date-time", "email", "ipv4", "uuid"]))
def test_these_formats_are_valid_by_construction(data: Any, fmt: str) -> None:
    text = data.draw(spelling(format_shape(fmt)))
    checker = Draft202012Validator({"format": fmt}, format_checker=FormatChecker())
    assert strict(fmt, text) and checker.is_valid(text), (fmt, text)


def test_small_counts_take_one_digit_and_shared_starts_of_enums_are_locked() -> None:
    servings = compile_json({"type": "integer", "minimum": 1, "maximum": 12}).leaves()[0].leaf
    assert servings.shape == (Run(charset("one:123456789", "123456789", single=True), 1, 1),)
    problem = JsonProblem(compile_json({"enum": ["net15", "net30", "net60"]}), tiny_table())
    segments, owners = problem.layout({})
    assert Locked("net") in segments and owners.count(()) == 2
    firsts, texts = problem.firsts[((), 1)]
    assert problem.read((), ["net", firsts[texts.index("30")]]) == "net30"


def test_plain_strings_start_with_a_word_and_phones_with_a_plus() -> None:
    assert key_words("firstName") >= {"first", "name", "firstname"}
    assert key_words("billing_email") >= {"billing", "email"}
    first = word_shape("description", 12, STRING_SAFE)[0]
    assert isinstance(first, Run) and first.least == 1
    assert isinstance(first.constraint, CharsetConstraint) and first.constraint.min_chars == 2
    assert word_shape("phone", 12, STRING_SAFE)[0] == "+"
    name = word_shape("customerName", 12, STRING_SAFE, min_length=5)
    second = name[1]
    assert isinstance(second, Run) and isinstance(second.constraint, CharsetConstraint)
    assert second.constraint.chars == frozenset("abcdefghijklmnopqrstuvwxyz")
    assert isinstance(name[2], Run) and name[2].least == 2  # 2 + 1 + 2 characters at least
    prose = word_shape("description", 12, STRING_SAFE)[1]
    assert isinstance(prose, Run) and isinstance(prose.constraint, CharsetConstraint)
    assert " " in prose.constraint.chars and prose.constraint.min_chars == 4
    assert len(word_shape("title", 1, STRING_SAFE)) == 1  # no room for more than the word


def test_a_words_second_token_is_a_soft_minimum_unless_the_schema_needs_it() -> None:
    for key in ("name", "title"):
        second = word_shape(key, 12, STRING_SAFE)[1]
        assert isinstance(second, Run) and second.least == 1 and second.soft
    needed = word_shape("customerName", 12, STRING_SAFE, min_length=5)[1]
    assert isinstance(needed, Run) and not needed.soft
    cell = word_shape("Owner", 12, STRING_SAFE, lead=" ")[1]
    assert isinstance(cell, Run) and cell.soft


def test_a_soft_minimum_reaches_the_plan_slot() -> None:
    schema = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    segments, _ = JsonProblem(compile_json(schema), tiny_table()).layout({})
    slots = [s for s in segments if isinstance(s, Slot)]
    assert any(s.soft_min and s.min_tokens == 1 for s in slots)


def test_a_slots_first_min_tokens_positions_never_take_the_filler() -> None:
    table = tiny_table()
    slot = Slot(charset("digits", "0123456789"), 4, min_tokens=2)
    plan = EditPlan(Span(0, 0), (Locked("n="), slot), "", "", "", EditMode.REWRITE)
    canvas = build_canvas(plan, table, SamplerSettings(), 100)
    mask = allowed_mask(canvas, table, len(table.tokenizer))
    first = canvas.segment_positions(1)
    filler = table.specials.filler_id
    assert [bool(mask[p, filler]) for p in first] == [False, False, True, True]


def test_schema_defaults_and_examples_come_before_generic_values() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"type": "string", "default": "hello"},
            "b": {"type": "string", "examples": ["first", "second"]},
            "n": {"type": "integer", "minimum": 0, "default": 7},
            "e": {"enum": ["x", "y", "z"], "default": "z"},
            "name": {"type": "string"},
        },
        "required": ["a", "b", "n", "e", "name"],
    }
    assert compile_json(schema).default == {
        "a": "hello",
        "b": "first",
        "n": 7,
        "e": "z",
        "name": "Ada Lovelace",
    }


def test_a_repaired_string_never_repeats_a_value_another_slot_holds() -> None:
    schema = {"type": "array", "items": {"type": "string", "maxLength": 12}, "minItems": 3}
    problem = JsonProblem(compile_json(schema), tiny_table())
    taken: list[Any] = []
    for index in range(3):
        taken.append(problem.default((index,), taken))
    assert len(set(taken)) == 3, taken
    only = {"type": "array", "items": {"enum": ["a", "b"]}, "minItems": 3}
    problem = JsonProblem(compile_json(only), tiny_table())
    assert problem.default((0,), ["a", "b"]) in ("a", "b")  # choices may repeat: nothing else fits
    literal = {"type": "array", "items": {"type": "string", "pattern": "^x$"}, "minItems": 2}
    problem = JsonProblem(compile_json(literal), tiny_table())
    assert problem.default((1,), ["x"]) == "x"  # the schema allows nothing else


def test_a_shaped_value_owns_its_slots_and_locked_characters() -> None:
    schema = {"type": "object", "properties": {"d": {"type": "string", "format": "date"}}}
    schema["required"] = ["d"]
    problem = JsonProblem(compile_json(schema), tiny_table())
    segments, owners = problem.layout({})
    owned = [s for s, o in zip(segments, owners, strict=True) if o == ("d",)]
    assert [s.text for s in owned if isinstance(s, Locked)] == ["-0", "-"]
    texts = ["2", "0", "2", "4", "-0", "5", "-", "1", "7"]
    assert problem.read(("d",), texts) == "2024-05-17"
    assert problem.read(("d",), [*texts[:7], "3", "7"]) is NOTHING  # read back, then checked
