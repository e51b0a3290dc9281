"""Conformance: every schema of the JSON Schema Test Suite is refused by name or filled validly.

All groups of ``draft2020-12`` (``optional/`` included) run through the compiler and the
whole fill loop with the fast deterministic filler backend (:mod:`tests.helpers.filler`: junk
that respects every per-position constraint, so the re-denoising and the repair are exercised
on every slot); a fixed sample of the fillable schemas also runs through the tiny random Llama,
the real masked backend. Zero invalid instances is the bar; the counts are printed.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator, FormatChecker

from engine.core.errors import BadRequest
from engine.core.protocol import Fill, FillKind, Span
from engine.structured.fill import run_json
from engine.structured.schema import Refusal, Unsatisfiable
from engine.structured.slots import Filled
from tests.helpers.backends import llama_backend, tiny_table
from tests.helpers.filler import FillerBackend

SUITE = Path(__file__).parents[2].parent / "shared" / "conformance" / "json-schema-test-suite"
DRAFT = SUITE / "tests" / "draft2020-12"
LLAMA_SAMPLE = 12  # schemas (every n-th fillable one) also filled by the tiny Llama

pytestmark = pytest.mark.skipif(
    not DRAFT.is_dir(), reason=f"the JSON Schema Test Suite is not checked out at {SUITE}"
)


def groups() -> list[tuple[str, Any]]:
    found = []
    for path in sorted(DRAFT.rglob("*.json")):
        for group in json.loads(path.read_text(encoding="utf-8")):
            found.append((f"{path.relative_to(DRAFT)}: {group['description']}", group["schema"]))
    return found


def fill(backend: Any, schema: Any) -> Any:
    request = Fill(1, FillKind.JSON, "", Span(0, 0), schema=json.dumps(schema))
    results = [e for e in run_json(backend, request) if isinstance(e, Filled)]
    assert len(results) == 1
    return results[0].value


def is_valid(schema: Any, instance: Any) -> bool:
    return Draft202012Validator(schema, format_checker=FormatChecker()).is_valid(instance)


def test_every_schema_is_refused_by_name_or_filled_validly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    backend = FillerBackend(tiny_table())
    counts = {"valid": 0, "refused": 0, "invalid": 0}
    invalid: list[str] = []
    fillable: list[Any] = []
    for name, schema in groups():
        try:
            instance = fill(backend, schema)
        except (Refusal, Unsatisfiable) as error:
            assert error.keywords, f"{name}: a refusal must name keywords ({error})"
            counts["refused"] += 1
            continue
        except BadRequest as error:
            assert "(at /" in str(error), f"{name}: {error}"  # a schema error names its keyword
            counts["refused"] += 1
            continue
        if is_valid(schema, instance):
            counts["valid"] += 1
            fillable.append(schema)
        else:
            counts["invalid"] += 1
            invalid.append(f"{name}: {json.dumps(instance)[:80]}")
    with capsys.disabled():  # shown in every run's output, not only on failure
        print(f"\nJSON Schema Test Suite (draft2020-12): {counts}")
    assert counts["invalid"] == 0, invalid
    assert counts["valid"] > 200  # the supported keywords cover most of the suite

    step = max(1, len(fillable) // LLAMA_SAMPLE)
    for schema in fillable[::step]:
        assert is_valid(schema, fill(llama_backend(), schema)), schema
