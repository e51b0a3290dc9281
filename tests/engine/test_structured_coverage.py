"""Coverage: the real-world schemas in ``resources/schemas`` are filled validly or refused by name.

Thirty-odd schemas of the kinds people keep (package manifests, CI configs, API payloads, app
settings, invoices, contacts; see that folder's README) run through the whole fill loop with the
fast deterministic filler backend (:mod:`tests.helpers.filler`: junk that respects every
per-position constraint, so shapes, re-denoising and repairs are all exercised), and a sample of
them through the tiny random Llama with the locked-text cache, the real masked backend. Every
instance must validate under ``jsonschema`` and pass Settle's stricter format checks; the counts,
the share filled and the median time per fill are printed in every run (times are reported,
never asserted).
"""

from __future__ import annotations

import json
import statistics
import time
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from engine.core.config import SamplerSettings
from engine.core.protocol import Fill, FillKind, Span
from engine.structured.compiler import compile_json
from engine.structured.fill import run_json
from engine.structured.formats import strict
from engine.structured.schema import Refusal, Unsatisfiable, pointer
from engine.structured.slots import Filled
from engine.structured.tree import lookup
from tests.helpers.backends import llama_backend, tiny_table
from tests.helpers.filler import FillerBackend

ROOT = Path(__file__).parents[2] / "resources"
SCHEMAS = sorted((ROOT / "schemas").glob("*.schema.json"))
LLAMA_EVERY = 12  # every n-th schema also runs through the tiny Llama (3 of them)


def fill(backend: Any, schema: Any, seed: int = 0) -> Filled:
    settings = SamplerSettings(seed=seed)
    request = Fill(1, FillKind.JSON, "", Span(0, 0), schema=json.dumps(schema), settings=settings)
    done = [e for e in run_json(backend, request) if isinstance(e, Filled)]
    assert len(done) == 1
    return done[0]


def problems(schema: Any, instance: Any) -> list[str]:
    """What is wrong with an instance: schema errors, then values failing Settle's own checks."""
    validator = Draft202012Validator(schema, format_checker=FormatChecker())
    found = [e.message for e in validator.iter_errors(instance)]
    for value in compile_json(schema).leaves():
        text = lookup(instance, pointer(value.path))
        if value.leaf.fmt and not strict(value.leaf.fmt, text):
            found.append(f"{pointer(value.path)}: {text!r} is not a {value.leaf.fmt}")
    return found


def test_the_collection_holds_at_least_thirty_schemas_each_with_a_title() -> None:
    assert len(SCHEMAS) >= 30
    for path in SCHEMAS:
        schema = json.loads(path.read_text(encoding="utf-8"))
        assert schema.get("title") and schema.get("description"), path.name


def test_every_real_world_schema_is_filled_validly_or_refused_by_name(
    capsys: pytest.CaptureFixture[str],
) -> None:
    backend = FillerBackend(tiny_table())
    counts = {"valid": 0, "refused": 0, "invalid": 0}
    invalid: list[str] = []
    fillable: list[Any] = []
    seconds: list[float] = []
    for path in SCHEMAS:
        schema = json.loads(path.read_text(encoding="utf-8"))
        started = time.perf_counter()
        try:
            filled = fill(backend, schema)
        except (Refusal, Unsatisfiable) as error:
            assert error.keywords, f"{path.name}: a refusal must name keywords ({error})"
            counts["refused"] += 1
            continue
        seconds.append(time.perf_counter() - started)
        wrong = problems(schema, filled.value)
        counts["invalid" if wrong else "valid"] += 1
        if wrong:
            invalid.append(f"{path.name}: {wrong[:3]}")
        else:
            fillable.append(schema)
    share = counts["valid"] / len(SCHEMAS)
    with capsys.disabled():  # shown in every run's output, not only on failure
        print(
            f"\nReal-world schemas ({len(SCHEMAS)}): {counts}, filled {share:.0%}, "
            f"median {1000 * statistics.median(seconds):.0f} ms per fill (filler backend)"
        )
    assert counts["invalid"] == 0, invalid
    assert counts["valid"] >= 30


def test_a_sample_fills_validly_through_the_tiny_model_with_the_locked_text_cache() -> None:
    backend = llama_backend()
    for number, path in enumerate(SCHEMAS):
        if number % LLAMA_EVERY:
            continue
        schema = json.loads(path.read_text(encoding="utf-8"))
        try:
            filled = fill(backend, schema, seed=number)
        except (Refusal, Unsatisfiable):
            continue
        assert not problems(schema, filled.value), path.name
