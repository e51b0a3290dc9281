"""Structured tasks and the cost of constraints.

*Fill a JSON template* and *fill a table* run the structured engine (:mod:`engine.structured`)
on a shipped template; validity is what the engine guarantees (an invalid result is never
offered), so the quality proxy is the share of slots whose first denoised value was already
valid (the rest were re-denoised or repaired). The autoregressive baseline gets the schema as
a prompt and writes JSON freely; its quality is whether that parses and validates.

The constraint overhead compares a denoising step on a canvas of slots (per-position allowed
sets, as JSON and tables use) with a step on a free canvas of the same length, plus the two
pieces on their own: building the allowed sets once per request, and adding the bias per step.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import torch

from engine.backends.base import Backend
from engine.backends.masked.schedule import pick_tokens
from engine.core.canvas import build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, ExcludingConstraint, Free, Locked, Segment, Slot
from engine.core.protocol import EditMode, Fill, FillKind, Span
from engine.core.tokens import charset
from engine.decode.allowed import allowed_mask, constraint_bias
from tools.bench.common import median

TEMPLATES = Path(__file__).resolve().parents[2] / "resources" / "templates"
JSON_SCHEMA = "contact-card.schema.json"
TABLE_DOC = "product-comparison.md"
AR_JSON_TOKENS = 160
CELL_TOKENS = 24  # room for the longest cell of the shipped table under any test tokenizer


def structured_tasks(backend: Backend, ar_model: Any, settings: SamplerSettings) -> dict[str, Any]:
    """Both structured tasks, or why they were skipped (the structured engine may be absent)."""
    try:
        from engine.structured.fill import run_json
        from engine.structured.slots import Filled
        from engine.structured.tables import find_tables, run_table
    except ImportError as exc:
        return {"skipped": f"engine.structured is not available ({exc})"}
    schema = (TEMPLATES / JSON_SCHEMA).read_text(encoding="utf-8")
    doc = (TEMPLATES / TABLE_DOC).read_text(encoding="utf-8")
    fills = {
        "json": Fill(1, FillKind.JSON, "", Span(0, 0), schema=schema, settings=settings),
        "table": Fill(
            1,
            FillKind.TABLE,
            doc,
            find_tables(doc)[0].span,
            cell_tokens=CELL_TOKENS,
            settings=settings,
        ),
    }
    results: dict[str, Any] = {}
    for name, fill in fills.items():
        runner = run_json if name == "json" else run_table
        started = time.perf_counter()
        filled = [e for e in runner(backend, fill) if isinstance(e, Filled)]
        seconds = time.perf_counter() - started
        if not filled:
            results[name] = {"valid": False, "settle_s": seconds}
            continue
        stats, metrics = filled[0].stats, filled[0].proposal.metrics
        results[name] = {
            "valid": True,  # run_json / run_table validate before they return a fill
            "settle_s": seconds,
            "first_frame_s": metrics.time_to_first_frame_s,
            "forwards": metrics.forwards,
            "steps": metrics.steps,
            "churn": metrics.churn,
            **stats.as_dict(),
            "slots_valid_first_round": stats.accepted_first / max(stats.slots, 1),
        }
    results["json_autoregressive"] = autoregressive_json(ar_model, backend, schema)
    return results


@torch.inference_mode()
def autoregressive_json(model: Any, backend: Backend, schema: str) -> dict[str, Any]:
    """The same-size causal model writes JSON after the schema; does it parse and validate?"""
    from jsonschema import Draft202012Validator, FormatChecker

    prompt = f"JSON Schema:\n{schema}\nA JSON instance that satisfies this schema:\n{{"
    ids = torch.tensor([backend.table.encode(prompt)], dtype=torch.long)
    started = time.perf_counter()
    out = model.generate(
        ids,
        attention_mask=torch.ones_like(ids),
        max_new_tokens=AR_JSON_TOKENS,
        do_sample=False,
        pad_token_id=model.config.pad_token_id,
    )
    seconds = time.perf_counter() - started
    text = "{" + backend.table.decode(out[0, ids.shape[1] :].tolist())
    instance, parsed = first_json_object(text)
    validator = Draft202012Validator(json.loads(schema), format_checker=FormatChecker())
    valid = parsed and not list(validator.iter_errors(instance))
    return {
        "parsed": parsed,
        "valid": bool(valid),
        "settle_s": seconds,
        "tokens": out.shape[1] - ids.shape[1],
    }


def first_json_object(text: str) -> tuple[Any, bool]:
    """The first JSON value at the start of ``text`` (trailing text ignored), if any."""
    try:
        value, _ = json.JSONDecoder().raw_decode(text)
    except json.JSONDecodeError:
        return None, False
    return value, True


def slot_plan(length: int) -> EditPlan:
    """A JSON-shaped canvas: keys and punctuation locked, a digits slot and a string slot."""
    string = ExcludingConstraint("json-string", frozenset('"\\'))
    segments: tuple[Segment, ...] = (
        Locked('{"qty": '),
        Slot(charset("digits", "0123456789"), length // 4),
        Locked(', "name": "'),
        Slot(string, length - length // 4),
        Locked('"}'),
    )
    return EditPlan(Span(0, 0), segments, "", "", "", EditMode.REWRITE)


def free_plan(length: int) -> EditPlan:
    return EditPlan(Span(0, 0), (Free(budget=length),), "", "", "", EditMode.REWRITE)


def step_seconds(backend: Backend, plan: EditPlan, steps: int) -> float:
    """Median time of the denoising steps after the first (the first also builds the request)."""
    settings = SamplerSettings(steps=steps, block_length=0, seed=0)
    canvas = build_canvas(plan, backend.table, settings, backend.max_canvas_tokens)
    times, last = [], time.perf_counter()
    for _ in backend.denoise(canvas, settings):
        now = time.perf_counter()
        times.append(now - last)
        last = now
    return median(times[1:])


def constraint_overhead(backend: Backend, length: int = 64, repeats: int = 20) -> dict[str, Any]:
    """A slot-masked step against an unconstrained one, and the two pieces on their own."""
    table, plan = backend.table, slot_plan(length)
    vocab = int(getattr(backend, "vocab_size", len(table.tokenizer)))
    canvas = build_canvas(plan, table, SamplerSettings(), backend.max_canvas_tokens)
    started = time.perf_counter()
    bias = constraint_bias(allowed_mask(canvas, table, vocab))
    build_s = time.perf_counter() - started
    generator = torch.Generator().manual_seed(0)
    logits = torch.randn(len(canvas), vocab, generator=generator)
    plain, masked = [], []
    for _ in range(repeats):
        t0 = time.perf_counter()
        pick_tokens(logits, 0.0, generator)
        t1 = time.perf_counter()
        pick_tokens(logits + bias, 0.0, generator)
        t2 = time.perf_counter()
        plain.append(t1 - t0)
        masked.append(t2 - t1)
    step_free = step_seconds(backend, free_plan(len(canvas)), 4)
    step_slots = step_seconds(backend, plan, 4)
    return {
        "canvas_tokens": len(canvas),
        "vocab": vocab,
        "allowed_sets_build_ms": 1000 * build_s,
        "pick_unconstrained_ms": 1000 * median(plain),
        "pick_with_bias_ms": 1000 * median(masked),
        "step_free_ms": 1000 * step_free,
        "step_slots_ms": 1000 * step_slots,
        "step_overhead": step_slots / max(step_free, 1e-9) - 1.0,
    }
