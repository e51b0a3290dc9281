"""Bit-for-bit pins: every backend family's outputs on fixed requests at fixed seeds.

The safety net for moving code (issue 26): edits, drafts and fills through the tiny test
models of every backend, each reduced to what a user or a client could observe (the proposal's
text and segments, the forward counts, churn, a digest of every frame's positions, texts and
states, and the frames' mean confidence). A refactor that changes none of the engine's
behaviour leaves every pin as it was. A change that means to move an output re-pins it in
the same commit, saying why: ``SETTLE_REPIN=1 pytest tests/engine/test_pins.py`` rewrites
``pins.json``.

Confidences are floats out of the model's softmax, and their last bits follow the CPU's
kernels: on another machine (an AMD EPYC), the same commit gave every pin the same texts,
segments, counts and churn, but a digest that hashed the raw confidences broke every pin. They
are pinned as their mean, within :data:`CONFIDENCE_TOLERANCE`; the rest stays bit for bit.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from engine.backends.base import Backend
from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, EditMode, Fill, FillKind, Frame, Proposal, Span
from engine.run.edit_run import run_edit
from engine.structured.fill import run_fill
from tests.helpers.adapted import adapted_backend, save_tiny_adapter
from tests.helpers.backends import llama_backend, modernbert_backend
from tests.helpers.gemma import gemma_backend

PINS = Path(__file__).with_name("pins.json")
REPIN = os.environ.get("SETTLE_REPIN") == "1"
# How far the frames' mean confidence may move between machines: far above the last bits a
# CPU's kernels change, far below what a changed confidence computation moves.
CONFIDENCE_TOLERANCE = 1e-4

PARAGRAPH = (
    "Paris is the capital of France. The quick brown fox jumps over the lazy dog, "
    "and Settle rewrites a paragraph in place."
)
AFTER = "\n\nBerlin is the capital of Germany.\n"
TABLE = "| item | qty | price |\n|------|-----|-------|\n| pen | 2 | 1.50 |\n| ink |  |  |\n"
SCHEMA = json.dumps(
    {
        "type": "object",
        "properties": {
            "name": {"type": "string", "maxLength": 12},
            "age": {"type": "integer", "minimum": 0, "maximum": 120},
            "tags": {"type": "array", "items": {"enum": ["math", "engines"]}, "minItems": 1},
        },
        "required": ["name", "age", "tags"],
    }
)

FAST = SamplerSettings(steps=12, draft_tokens=12)
SETTINGS = {
    "default": SamplerSettings(draft_tokens=16),
    "threshold": FAST.with_changes(threshold=0.5, block_length=4),
    "sampled": FAST.with_changes(temperature=0.8, seed=7, strength=1.0),
}


def rewrite(instruction: str, settings: str, locked: bool = True) -> Callable[[], Edit]:
    def make() -> Edit:
        text = PARAGRAPH + AFTER
        target = Span(0, len(PARAGRAPH))
        start = PARAGRAPH.index("France")
        locks = (Span(start, start + len("France")),) if locked else ()
        return Edit(1, text, target, locks, instruction, EditMode.REWRITE, SETTINGS[settings])

    return make


def draft(at_end: bool, settings: str) -> Callable[[], Edit]:
    def make() -> Edit:
        text = PARAGRAPH + (" " if at_end else AFTER)
        cursor = len(text) if at_end else len(PARAGRAPH)
        mode = EditMode.DRAFT
        return Edit(2, text, Span(cursor, cursor), (), "", mode, SETTINGS[settings])

    return make


def table_fill() -> Fill:
    text = "Stock:\n\n" + TABLE
    return Fill(3, FillKind.TABLE, text, Span(len("Stock:\n\n"), len(text)), settings=FAST)


def json_fill() -> Fill:
    return Fill(4, FillKind.JSON, "", Span(0, 0), schema=SCHEMA, settings=FAST)


REQUESTS: dict[str, Callable[[], Edit | Fill]] = {
    "rewrite": rewrite("", "default"),
    "rewrite-threshold": rewrite("", "threshold"),
    "rewrite-sampled": rewrite("", "sampled", locked=False),
    "tighter": rewrite("tighter", "default"),
    "fix-grammar": rewrite("fix grammar", "default"),
    "formal": rewrite("formal", "threshold"),
    "draft-end": draft(True, "default"),
    "draft-middle": draft(False, "threshold"),
    "table": table_fill,
    "json": json_fill,
}


@cache
def adapted() -> Backend:
    folder = Path(os.environ.get("SETTLE_PIN_TMP", "/tmp")) / "settle-pin-adapter"
    folder.mkdir(parents=True, exist_ok=True)
    return adapted_backend(save_tiny_adapter(folder))


BACKENDS: dict[str, Callable[[], Backend]] = {
    "llama": llama_backend,
    "modernbert": modernbert_backend,
    "adapted": adapted,
    "gemma": lambda: gemma_backend(seed=0, canvas_length=32),
}


def frame_digest(frames: list[Frame]) -> str:
    """A digest of what a frame shows, bit for bit: steps, positions, texts, states."""
    digest = hashlib.sha256()
    for frame in frames:
        digest.update(repr((frame.step, frame.max_steps, frame.length)).encode())
        for view in frame.updates:
            digest.update(repr((view.index, view.text, view.state.value)).encode())
    return digest.hexdigest()[:16]


def mean_confidence(frames: list[Frame]) -> float:
    """The mean confidence over every position every frame shows (0 for no frame)."""
    found = [view.confidence for frame in frames for view in frame.updates]
    return round(sum(found) / len(found), 6) if found else 0.0


def observed(backend: Backend, request: Edit | Fill) -> dict[str, Any]:
    """What a request's run shows a user, without the timings."""
    run = run_fill if isinstance(request, Fill) else run_edit
    events = list(run(backend, request))  # type: ignore[arg-type]
    frames = [e for e in events if isinstance(e, Frame)]
    proposal = events[-1]
    assert isinstance(proposal, Proposal), proposal
    metrics = proposal.metrics
    return {
        "text": proposal.text,
        "segments": [[s.text, s.locked] for s in proposal.segments],
        "forwards": metrics.forwards,
        "generated": metrics.tokens_generated,
        "churn": round(metrics.churn, 9),
        "put_back": metrics.put_back,
        "frames": frame_digest(frames),
        "confidence": mean_confidence(frames),
    }


def case_ids() -> list[tuple[str, str]]:
    return [(b, r) for b in BACKENDS for r in REQUESTS]


def stored() -> dict[str, Any]:
    return json.loads(PINS.read_text(encoding="utf-8")) if PINS.exists() else {}


@pytest.fixture(scope="module")
def pins() -> Iterable[dict[str, Any]]:
    table = stored()
    yield table
    if REPIN:
        PINS.write_text(json.dumps(table, indent=1, sort_keys=True) + "\n", encoding="utf-8")


@pytest.mark.parametrize(("backend", "request_name"), case_ids())
def test_output_is_pinned(pins: dict[str, Any], backend: str, request_name: str) -> None:
    key = f"{backend}/{request_name}"
    got = observed(BACKENDS[backend](), REQUESTS[request_name]())
    if REPIN:
        pins[key] = got
        return
    assert key in pins, f"no pin for {key}: run with SETTLE_REPIN=1 and commit pins.json"
    want = dict(pins[key])
    assert got.pop("confidence") == pytest.approx(want.pop("confidence"), abs=CONFIDENCE_TOLERANCE)
    assert got == want
