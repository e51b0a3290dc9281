"""Verified values: the base model reads a settled fill and rewrites its text values."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from engine.backends.masked import backend as masked
from engine.backends.masked import verified_values
from engine.backends.masked.verified_values import soft_ends, text_runs
from engine.core.canvas import build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, ExcludingConstraint, LiteralConstraint, Locked, Slot
from engine.core.protocol import EditMode, Fill, FillKind, Span
from engine.core.tokens import charset
from engine.decode.allowed import allowed_mask, constraint_bias
from engine.structured.fill import run_json
from engine.structured.slots import Filled
from tests.helpers.adapted import adapted_backend, recording, save_tiny_adapter
from tests.helpers.backends import tiny_table

CARD = {
    "type": "object",
    "properties": {
        "title": {"type": "string"},
        "status": {"enum": ["open", "closed"]},
        "count": {"type": "integer", "minimum": 0, "maximum": 99},
        "summary": {"type": "string", "maxLength": 40},
    },
    "required": ["title", "status", "count", "summary"],
    "additionalProperties": False,
}


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_tiny_adapter(tmp_path_factory.mktemp("adapter"))


Recording = recording(verified_values.VerifiedValues)


def fill(backend, schema: dict, check: float, seed: int = 0) -> Filled:
    request = Fill(
        1, FillKind.JSON, "", Span(0, 0), schema=json.dumps(schema),
        settings=SamplerSettings(verify_values=check, seed=seed),
    )  # fmt: skip
    [done] = [e for e in run_json(backend, request) if isinstance(e, Filled)]
    return done


def test_only_text_values_are_verified() -> None:
    text = ExcludingConstraint("string", frozenset('"\\'))
    digits = charset("digits", "0123456789")
    literal = LiteralConstraint("status", ("open", "closed"))
    segments = (
        Locked('{"a": "'), Slot(text, 3), Locked('", "n": '), Slot(digits, 2),
        Locked(', "s": "'), Slot(literal, 2), Locked('"}'),
    )  # fmt: skip
    plan = EditPlan(Span(0, 0), segments, "", "", "", EditMode.DRAFT)
    canvas = build_canvas(plan, tiny_table(), SamplerSettings(), 64)
    runs = text_runs(canvas)
    assert [canvas.segment_of[r.start] for r in runs] == [1]
    assert [len(r) for r in runs] == [3]


def test_a_value_may_end_inside_a_soft_minimum_only() -> None:
    letters, lower = charset("letters", "abcdefghij"), charset("lower", "abcdefghij")
    segments = (
        Locked('{"name": "'), Slot(letters, 2, min_tokens=1),
        Slot(lower, 1, min_tokens=1, soft_min=True), Slot(letters, 2),
        Locked('", "code": "'), Slot(letters, 1, min_tokens=1), Slot(lower, 1, min_tokens=1),
        Locked('"}'),
    )  # fmt: skip
    plan = EditPlan(Span(0, 0), segments, "", "", "", EditMode.DRAFT)
    table = tiny_table()
    canvas = build_canvas(plan, table, SamplerSettings(), 64)
    bias = constraint_bias(allowed_mask(canvas, table, len(table.tokenizer)))
    # the two values' runs of slot positions (letters, so no text values to text_runs)
    name = range(canvas.segment_positions(1).start, canvas.segment_positions(3).stop)
    code = range(canvas.segment_positions(5).start, canvas.segment_positions(6).stop)
    soft = soft_ends(canvas, [name, code], bias, table.specials.filler_id)
    # the name may end after its first word (its second token was a soft minimum), not before
    assert soft == {name.start + 2}
    assert code.start + 1 not in soft  # a hard minimum holds


def test_a_fill_stays_valid_and_the_caches_hold_only_the_prefix(adapter, monkeypatch) -> None:
    monkeypatch.setattr(masked, "VerifiedValues", Recording)
    Recording.made.clear()
    backend = adapted_backend(adapter)
    done = fill(backend, CARD, 1.0)
    assert Draft202012Validator(CARD).is_valid(done.value)
    assert Recording.made and all(len(r.runs) >= 1 for r in Recording.made)
    cache = backend.base_cache
    assert cache.cache is None or cache.cache.get_seq_length() == len(cache.ids)


def test_verify_values_zero_and_unadapted_models_keep_the_canvas_values(
    adapter, monkeypatch
) -> None:
    monkeypatch.setattr(masked, "VerifiedValues", Recording)
    Recording.made.clear()
    backend = adapted_backend(adapter)
    fill(backend, CARD, 0.0)
    backend.base = None
    fill(backend, CARD, 1.0)
    assert Recording.made == []


@settings(
    max_examples=6, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(seed=st.integers(0, 1000), check=st.sampled_from([0.2, 1.0]))
def test_verified_fills_always_validate_and_never_touch_literals(adapter, seed, check) -> None:
    backend = adapted_backend(adapter)
    done = fill(backend, CARD, check, seed)
    assert Draft202012Validator(CARD).is_valid(done.value)
    assert done.value["status"] in ("open", "closed")
    assert "  " not in done.value["title"] + done.value["summary"]
