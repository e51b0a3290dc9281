"""Structured fills as requests: JSON under a schema here, Markdown tables in :mod:`.tables`.

:func:`run_json` compiles the schema and template into a :class:`JsonProblem`, lets the shared
slot loop (:func:`engine.structured.slots.fill_events`) fill it, then validates the whole
instance (repairing values that cross-slot keywords reject) before offering it; an instance that
fails is never offered. :func:`run_fill` is what the worker runs for either kind of fill.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

from engine.backends.base import Backend
from engine.core.errors import InvariantViolation
from engine.core.protocol import Cancelled, Fill, FillKind, Frame, Proposal, SegmentText
from engine.run.pipeline import RunContext, never
from engine.structured.compiler import Compiled, compile_json, parse_json_fill
from engine.structured.event_days import event_days
from engine.structured.json_problem import JsonProblem
from engine.structured.json_rules import complete
from engine.structured.json_values import (
    age_day,
    document_births,
    document_era,
    pointer_text,
    written_days,
)
from engine.structured.render import pieces
from engine.structured.slots import Filled, FillEvents, Layout, SlotStats, fill_events
from engine.structured.subjects import subject_names
from engine.structured.tables import run_table
from engine.structured.tree import Path, instance_of
from engine.structured.words import template_words

JSON_REPAIR_PASSES = 3  # whole-instance repairs (cross-slot keywords) before the default


REFUSED_NOTE = "its computed value breaks the schema, so a value the schema allows stands"


def run_json(
    backend: Backend,
    fill: Fill,
    cancelled: Callable[[], bool] = never,
    clock: Callable[[], float] = time.perf_counter,
) -> FillEvents:
    """Fill a JSON instance; yields frames, then one :class:`Filled` or ``Cancelled``."""
    run = RunContext.starting(fill.request_id, cancelled, clock)
    schema, template = parse_json_fill(fill)
    era = document_era(fill.text)
    births = document_births(fill.text)
    written = written_days(fill.text)
    on = age_day(fill.text)
    names = subject_names(fill.text)
    event = event_days(fill.text)
    compiled = compile_json(
        schema, template, fill.locks, fill.include, era, births, written, on, names, event
    )
    problem = JsonProblem(compiled, backend.table)
    title = schema.get("title", "") if isinstance(schema, dict) else ""
    instruction = f"Fill in realistic values: {title}".rstrip(": ")

    def finish(values: dict[Path, Any], stats: SlotStats, run: RunContext) -> Filled:
        filled = instance_of(compiled.tree, values)
        computed = complete(problem.leaves, values, filled, fill.text, str(title))
        repaired_before = len(stats.repaired)
        instance = validated_instance(problem, values, stats)
        notes = kept_notes(computed, set(stats.repaired[repaired_before:]))
        done = json_filled(fill, compiled, values, instance, stats, run.elapsed())
        return replace(done, proposal=replace(done.proposal, notes=notes))

    layout = Layout(fill.text, fill.target, instruction, template_words(schema))
    yield from fill_events(backend, fill, problem, layout, finish, run)


def kept_notes(computed: list[tuple[Path, str]], repaired: set[str]) -> tuple[str, ...]:
    """The review's notes on computed values, honest about the ones the schema refused: a
    computed total above its ``maximum`` is replaced by a valid value, and the note says so
    instead of naming a number the instance does not hold."""
    notes = []
    for path, note in computed:
        if str(path) in repaired:
            note = f"{pointer_text(path)}: {REFUSED_NOTE}"
        if note not in notes:
            notes.append(note)
    return tuple(notes)


def validated_instance(problem: JsonProblem, values: dict[Path, Any], stats: SlotStats) -> Any:
    """The filled instance, repaired where cross-slot keywords fail; never an invalid one."""
    compiled = problem.compiled
    validator = compiled.context.root_validator()
    for _ in range(JSON_REPAIR_PASSES):
        instance = instance_of(compiled.tree, values)
        errors = list(validator.iter_errors(instance))
        if not errors:
            return instance
        bad = [tuple(e.absolute_path) for e in errors]
        drop = [p for p in values if any(p[: len(b)] == b for b in bad)]
        for path in drop:
            others = [v for p, v in values.items() if p != path]
            values[path] = problem.default(path, others)
            stats.repaired.append(str(path))
    if validator.is_valid(compiled.default):
        values.clear()
        return compiled.default
    raise InvariantViolation("No valid instance could be produced; nothing is offered.")


def json_filled(
    fill: Fill,
    compiled: Compiled,
    values: dict[Path, Any],
    instance: Any,
    stats: SlotStats,
    elapsed_s: float,
) -> Filled:
    text = json.dumps(instance, indent=2, ensure_ascii=False)
    shown = {v.path: v.leaf.default for v in compiled.leaves()} | values
    parts = pieces(compiled.tree, shown)
    if "".join(p.text for p in parts) != text:
        # A whole-instance fallback replaced the tree's values: offer it as one segment.
        parts = []
    seg_texts = tuple(SegmentText(p.text, locked=p.path is None) for p in parts) or (
        SegmentText(text, locked=False),
    )
    locks = tuple(p.text for p in parts if p.path is None)
    proposal = Proposal(
        fill.request_id, fill.target, text, seg_texts, locks, stats.metrics(elapsed_s)
    )
    return Filled(proposal, instance, stats)


def run_fill(
    backend: Backend,
    fill: Fill,
    cancelled: Callable[[], bool] = never,
    clock: Callable[[], float] = time.perf_counter,
) -> Iterator[Frame | Proposal | Cancelled]:
    """What the worker runs: frames, then a ``Proposal`` (or ``Cancelled``)."""
    runner = run_json if fill.kind is FillKind.JSON else run_table
    for event in runner(backend, fill, cancelled, clock):
        yield event.proposal if isinstance(event, Filled) else event
