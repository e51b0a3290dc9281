"""Structured infill: compiler choices, locks, refusals, the fill loop and the worker path.

Most fills use the fast filler backend (tests/helpers/filler.py: constraint-respecting junk);
a few use the tiny random Llama, the real masked backend.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator, FormatChecker

from engine.core.config import SamplerSettings
from engine.core.errors import BadRequest
from engine.core.protocol import (
    Cancelled,
    Failed,
    Fill,
    FillKind,
    Frame,
    LoadModel,
    ModelReady,
    Proposal,
    Span,
)
from engine.process.client import ThreadWorker
from engine.structured.compiler import compile_json
from engine.structured.fill import run_fill, run_json
from engine.structured.schema import Refusal, Unsatisfiable
from engine.structured.slots import Filled
from tests.helpers.backends import llama_backend, tiny_table
from tests.helpers.filler import FillerBackend
from tests.helpers.worker_models import Loaded, tiny_info

FILLER = FillerBackend(tiny_table())
INVOICE = {
    "type": "object",
    "properties": {
        "number": {"type": "string", "pattern": "^INV-[0-9]{4}$"},
        "issued": {"type": "string", "format": "date"},
        "customer": {
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "email": {"type": "string", "format": "email"},
            },
            "required": ["name", "email"],
        },
        "lines": {
            "type": "array",
            "minItems": 1,
            "items": {
                "type": "object",
                "properties": {
                    "item": {"type": "string", "maxLength": 30},
                    "qty": {"type": "integer", "minimum": 1, "maximum": 99},
                    "price": {"type": "number", "exclusiveMinimum": 0},
                },
                "required": ["item", "qty", "price"],
                "additionalProperties": False,
            },
        },
        "paid": {"type": "boolean"},
        "currency": {"enum": ["EUR", "USD", "GBP"]},
        "notes": {"type": "string"},
    },
    "required": ["number", "issued", "customer", "lines", "paid", "currency"],
    "additionalProperties": False,
}


def fill_json(schema: Any, template: str = "", backend: Any = FILLER, **kw: Any) -> Filled:
    request = Fill(
        1, FillKind.JSON, template, Span(0, len(template)), schema=json.dumps(schema), **kw
    )
    done = [e for e in run_json(backend, request) if isinstance(e, Filled)]
    assert len(done) == 1
    return done[0]


def valid(schema: Any, instance: Any) -> bool:
    return Draft202012Validator(schema, format_checker=FormatChecker()).is_valid(instance)


def test_an_invoice_is_valid_with_required_fields_and_no_unticked_optional_ones() -> None:
    filled = fill_json(INVOICE)
    assert valid(INVOICE, filled.value)
    assert "notes" not in filled.value and len(filled.value["lines"]) == 2
    assert json.loads(filled.proposal.text) == filled.value


def test_ticked_optional_properties_are_filled() -> None:
    filled = fill_json(INVOICE, include=("/notes",))
    assert isinstance(filled.value["notes"], str) and valid(INVOICE, filled.value)


def test_the_tiny_model_fills_a_valid_invoice_and_the_frames_stream() -> None:
    request = Fill(
        1,
        FillKind.JSON,
        "",
        Span(0, 0),
        schema=json.dumps(INVOICE),
        settings=SamplerSettings(steps=8),
    )
    events = list(run_fill(llama_backend(), request))
    assert any(isinstance(e, Frame) for e in events)
    proposal = events[-1]
    assert isinstance(proposal, Proposal) and valid(INVOICE, json.loads(proposal.text))


def test_locked_values_stay_and_only_slots_change() -> None:
    template = json.dumps(
        {
            "number": "INV-0042",
            "issued": "2024-03-01",
            "customer": {"name": "Ada Lovelace", "email": "ada@example.com"},
            "lines": [{"item": "Analytical engine", "qty": 1, "price": 1200.5}],
            "paid": False,
            "currency": "GBP",
        }
    )
    locks = ("/customer", "/lines/0/item", "/number")
    filled = fill_json(INVOICE, template, locks=locks)
    value = filled.value
    assert value["customer"] == {"name": "Ada Lovelace", "email": "ada@example.com"}
    assert value["lines"][0]["item"] == "Analytical engine" and value["number"] == "INV-0042"
    assert list(value) == list(json.loads(template))  # the template's structure is kept
    assert len(value["lines"]) == 1 and valid(INVOICE, value)
    locked_text = "".join(s.text for s in filled.proposal.segments if s.locked)
    assert '"Ada Lovelace"' in locked_text and '"INV-0042"' in locked_text


def test_the_template_picks_the_one_of_branch() -> None:
    schema = {
        "oneOf": [
            {"type": "integer"},
            {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
        ]
    }
    assert isinstance(fill_json(schema, '{"a": "x"}').value, dict)
    assert isinstance(fill_json(schema).value, int)


@pytest.mark.parametrize(
    ("schema", "error", "words"),
    [
        ({"type": "integer", "minimum": 5, "maximum": 2}, Unsatisfiable, "bounds"),
        ({"$ref": "https://example.com/remote.json"}, Refusal, "$ref"),
        ({"type": "object", "not": {"required": ["a"]}}, Refusal, "not"),
        ({"type": "string", "format": "idn-email"}, Refusal, "format: idn-email"),
        ({"type": 12}, BadRequest, "JSON Schema is invalid"),
        ([1, 2], BadRequest, "object or a boolean"),
        (False, Unsatisfiable, "false"),
    ],
)
def test_bad_schemas_are_refused_before_generation(schema: Any, error: type, words: str) -> None:
    with pytest.raises(error, match=None) as raised:
        compile_json(schema)
    assert words in str(raised.value)


REQUIRED_A = {"type": "object", "required": ["a"]}


@pytest.mark.parametrize(
    ("a", "says", "never"),
    [
        ({"not": {"type": "string"}}, "cannot honour: not (at /a)", "type"),
        ({"$ref": "https://example.com/s.json"}, "refers to a remote schema", "unresolved"),
        ({"$ref": "#/$defs/missing"}, "unresolved $ref, '#/$defs/missing'", "remote"),
        ({"type": "string", "minLength": 5, "maxLength": 2}, "unsatisfiable at /a", "honour"),
        ({"type": "array", "items": {"not": {}}, "minItems": 1}, "honour: not (at /a/0)", "type"),
    ],
)
def test_refusals_name_only_what_is_wrong_and_where(a: Any, says: str, never: str) -> None:
    """A refusal never lists keywords Settle supports as if it could not honour them."""
    with pytest.raises(BadRequest) as raised:
        compile_json({**REQUIRED_A, "properties": {"a": a}})
    assert says in str(raised.value)
    assert never not in str(raised.value)


def test_invalid_json_and_bad_locks_are_bad_requests() -> None:
    with pytest.raises(BadRequest, match="schema is not valid JSON"):
        run_json(FILLER, Fill(1, FillKind.JSON, "", Span(0, 0), schema="{nope")).__next__()
    with pytest.raises(BadRequest, match="template instance is not valid JSON"):
        fill_json(INVOICE, "{oops")
    with pytest.raises(BadRequest, match="Nothing to lock at /missing"):
        fill_json(INVOICE, "{}", locks=("/missing",))
    bad = json.dumps({"number": "nope"})
    with pytest.raises(BadRequest, match="locked value at /number"):
        fill_json(INVOICE, bad, locks=("/number",))


def test_a_fill_through_the_worker_ends_in_a_proposal() -> None:
    def loader(request: LoadModel, progress: Any) -> Loaded:
        return Loaded(FILLER, tiny_info(request.model, FILLER))  # type: ignore[arg-type]

    worker = ThreadWorker(loader=loader)
    worker.start()
    try:
        worker.send(LoadModel("filler"))
        assert any(isinstance(e, ModelReady) for e in _until(worker, ModelReady))
        worker.send(Fill(7, FillKind.JSON, "", Span(0, 0), schema=json.dumps(INVOICE)))
        events = _until(worker, Proposal)
        assert isinstance(events[-1], Proposal) and events[-1].request_id == 7
        assert valid(INVOICE, json.loads(events[-1].text))
        worker.send(Fill(8, FillKind.JSON, "", Span(0, 0), schema='{"not": {}}'))
        failed = _until(worker, Failed)[-1]
        assert failed.request_id == 8 and failed.kind == "bad-request" and "not" in failed.message
    finally:
        worker.stop()


def test_a_cancelled_fill_ends_cancelled_and_offers_nothing() -> None:
    request = Fill(3, FillKind.JSON, "", Span(0, 0), schema=json.dumps(INVOICE))
    events = list(run_fill(FILLER, request, cancelled=lambda: True))
    assert isinstance(events[-1], Cancelled) and not any(isinstance(e, Proposal) for e in events)


def _until(worker: ThreadWorker, kind: type) -> list[Any]:
    events = []
    for event in worker.events(timeout=60):
        events.append(event)
        if isinstance(event, kind):
            return events
    raise AssertionError(events)


# --- property test: random schemas over the supported keywords ---------------------------------

FORMATS = ["date", "time", "date-time", "email", "uuid", "uri", "ipv4", "hostname"]


@st.composite
def bounded_integer(draw: Any) -> dict[str, Any]:
    low = draw(st.integers(-50, 50))
    schema: dict[str, Any] = {
        "type": "integer",
        "minimum": low,
        "maximum": low + draw(st.integers(0, 40)),
    }
    if draw(st.booleans()):
        schema["multipleOf"] = draw(st.sampled_from([2, 3, 5]))
        schema["maximum"] += 10
    return schema


leaves = st.one_of(
    bounded_integer(),
    st.builds(
        lambda m: {"type": "number", "exclusiveMinimum": 0, "multipleOf": m},
        st.sampled_from([0.5, 0.25, 1]),
    ),
    st.builds(
        lambda a, b: {"type": "string", "minLength": a, "maxLength": a + b},
        st.integers(0, 5),
        st.integers(0, 10),
    ),
    st.builds(lambda f: {"type": "string", "format": f}, st.sampled_from(FORMATS)),
    st.builds(
        lambda p: {"type": "string", "pattern": p},
        st.sampled_from(["^[a-z]{2,4}$", "^[A-Z][0-9]+$", "x"]),
    ),
    st.builds(
        lambda v: {"enum": v},
        st.lists(
            st.one_of(st.integers(), st.text(max_size=4), st.booleans(), st.none()),
            min_size=1,
            max_size=4,
            unique_by=json.dumps,
        ),
    ),
    st.builds(lambda v: {"const": v}, st.one_of(st.integers(), st.text(max_size=5))),
    st.just({"type": "boolean"}),
    st.just({"type": ["string", "null"]}),
    st.just({}),
)


def composite(children: Any) -> Any:
    objects = st.builds(
        lambda props, data: {
            "type": "object",
            "properties": props,
            "required": data.draw(st.lists(st.sampled_from(sorted(props)), unique=True))
            if props
            else [],
            "additionalProperties": False,
        },
        st.dictionaries(st.text("abcxyz", min_size=1, max_size=4), children, max_size=4),
        st.data(),
    )
    arrays = st.builds(
        lambda item, low: {"type": "array", "items": item, "minItems": low, "maxItems": low + 2},
        children,
        st.integers(0, 3),
    )
    tuples = st.builds(
        lambda items: {"type": "array", "prefixItems": items, "items": False},
        st.lists(children, min_size=1, max_size=3),
    )
    choices = st.builds(
        lambda key, options: {key: options},
        st.sampled_from(["anyOf", "oneOf"]),
        st.lists(children, min_size=1, max_size=3),
    )
    merged = st.builds(lambda a, b: {"allOf": [a, b]}, bounded_integer(), bounded_integer())
    return st.one_of(objects, arrays, tuples, choices, merged)


schemas = st.recursive(leaves, composite, max_leaves=10)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=schemas, seed=st.integers(0, 1000))
def test_random_schemas_are_always_filled_validly_or_refused(schema: Any, seed: int) -> None:
    try:
        filled = fill_json(schema, settings=SamplerSettings(seed=seed))
    except (Refusal, Unsatisfiable) as error:
        assert error.keywords
        return
    assert valid(schema, filled.value), (schema, filled.value)
    assert json.loads(filled.proposal.text) == filled.value


def test_anchored_patterns_and_formats_narrow_the_slot_to_their_characters() -> None:
    from engine.core.plan import CharsetConstraint
    from engine.structured.patterns import alphabet

    assert alphabet("^INV-[0-9]{4}$") == "-0123456789INV"
    assert alphabet("INV") is None and alphabet(r"^\S+$") is None
    compiled = compile_json({"type": "string", "pattern": "^INV-[0-9]{4}$"})
    (leaf,) = compiled.leaves()
    assert isinstance(leaf.leaf.constraint, CharsetConstraint)
    assert leaf.leaf.constraint.chars == frozenset("-0123456789INV")


def test_a_fill_request_survives_the_pipe_to_a_spawned_worker() -> None:
    import pickle

    request = Fill(2, FillKind.TABLE, "| a |\n|---|\n|  |\n", Span(0, 0), cells="all", add_rows=1)
    assert pickle.loads(pickle.dumps(request)) == request


def test_the_masking_benchmark_times_each_part_of_a_step() -> None:
    from engine.structured.overhead import measure

    timings = measure(llama_backend(), INVOICE, repeats=1)
    assert timings["predicted_rows"] > 0 and timings["canvas_tokens"] >= timings["predicted_rows"]
    assert timings["unconstrained_step_ms"] == timings["forward_ms"] + timings["pick_ms"]
    assert (
        timings["overhead_percent"] == 100 * timings["bias_ms"] / timings["unconstrained_step_ms"]
    )


def test_a_fill_settles_every_slot_in_one_canvas_within_its_forward_budget() -> None:
    from engine.structured.slots import FIRST_ROUND_STEPS, REDENOISE_ROUNDS, REDENOISE_STEPS

    filled = fill_json(INVOICE, backend=llama_backend(), settings=SamplerSettings(steps=32))
    stats = filled.stats
    assert stats.slots == len(compile_json(INVOICE).leaves())
    budget = FIRST_ROUND_STEPS + REDENOISE_STEPS * (stats.rounds - 1)
    assert stats.rounds <= REDENOISE_ROUNDS + 1 and stats.forwards <= budget
    assert stats.as_dict()["forwards_per_slot"] == stats.forwards / stats.slots
    assert len(stats.settled_at) == stats.slots  # each value: the forward it had settled by
    assert all(1 <= n <= FIRST_ROUND_STEPS for n in stats.settled_at.values())
    assert valid(INVOICE, filled.value)


def test_every_round_starts_from_noise_in_one_block_whatever_the_edit_settings() -> None:
    from engine.structured.slots import FIRST_ROUND_STEPS, REDENOISE_STEPS, round_settings

    edit = SamplerSettings(steps=32, strength=0.3, block_length=32, threshold=None, seed=5)
    first, second = round_settings(edit, 0), round_settings(edit, 1)
    assert first.strength == second.strength == 1.0 and first.block_length == 0
    assert (first.steps, second.steps) == (FIRST_ROUND_STEPS, REDENOISE_STEPS)
    assert first.threshold is not None and (first.seed, second.seed) == (5, 6)
