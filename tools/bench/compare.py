"""Diffusion against autoregressive decoding: same model, same task, same machine, one run.

Two tasks cut from held-out text: *rewrite* regenerates a span with its context on both sides
(the autoregressive model can only use the text before it: that is the difference the design
is about), and *draft* continues the text. The diffusion side sweeps its speed–quality setting
(steps, and the "balanced" preset's confidence threshold); the autoregressive side has one
setting, and its quality at a latency budget is read from when each token was emitted.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from engine.backends.base import Backend
from engine.core.config import PRESETS, SamplerSettings
from engine.core.protocol import Edit, EditMode, Span
from tools.bench.common import Cut, cut_spans, heldout_text, median
from tools.bench.runs import Run, autoregressive_run, diffusion_run

BUDGETS_S = (0.1, 0.5, 2.0)  # the seed's latency budgets for "quality at latency"
BLOCK = 32  # a "useful block": the sampler's default block length


@dataclass(frozen=True)
class Task:
    """One benchmark task: how its cuts are made and which diffusion settings are swept."""

    name: str
    span_tokens: int
    before_tokens: int
    after_tokens: int
    sweep: tuple[dict[str, Any], ...]  # SamplerSettings changes, one per sweep point
    samples: int

    def edit(self, cut: Cut, changes: dict[str, Any]) -> Edit:
        settings = SamplerSettings(
            strength=1.0, slack=0.0, seed=0, draft_tokens=self.span_tokens, **changes
        )
        if self.after_tokens == 0:  # a draft: new text at the end of what is there
            end = len(cut.before)
            return Edit(1, cut.before, Span(end, end), mode=EditMode.DRAFT, settings=settings)
        text = cut.before + cut.span + cut.after
        target = Span(len(cut.before), len(cut.before) + len(cut.span))
        return Edit(1, text, target, settings=settings)


def label(changes: dict[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in changes.items())


def default_tasks(span: int = 64, draft: int = 128, samples: int = 3) -> tuple[Task, Task]:
    balanced = {k: PRESETS["balanced"][k] for k in ("steps", "threshold")}
    rewrite_steps = [s for s in (4, 8, 16, 32, 64) if s <= span]
    draft_steps = [s for s in (8, 32, 128) if s <= draft]
    return (
        Task(
            "rewrite", span, 192, 128, (*({"steps": s} for s in rewrite_steps), balanced), samples
        ),
        Task("draft", draft, 256, 0, (*({"steps": s} for s in draft_steps), balanced), samples),
    )


def compare_task(backend: Backend, ar_model: Any, task: Task) -> dict[str, Any]:
    """Every sweep point and the autoregressive run on each cut; medians and the six metrics."""
    cuts = cut_spans(
        heldout_text(),
        backend.table,
        task.samples,
        task.span_tokens,
        task.before_tokens,
        task.after_tokens,
    )
    start = [_start_id(backend)]
    warm_up(backend, ar_model, task, cuts[0], start)
    ar_runs = [
        autoregressive_run(ar_model, start + backend.table.encode(c.before), c.reference, BLOCK)
        for c in cuts
    ]
    points = {}
    for changes in task.sweep:
        runs = [diffusion_run(backend, task.edit(c, changes), c.reference, BLOCK) for c in cuts]
        points[label(changes)] = runs
    default = label(task.sweep[-1])
    return {
        "task": task.name,
        "span_tokens": task.span_tokens,
        "context_tokens": [task.before_tokens, task.after_tokens],
        "samples": task.samples,
        "autoregressive": summarize(ar_runs),
        "autoregressive_curve": curve(ar_runs),
        "diffusion": {name: summarize(runs) for name, runs in points.items()},
        "diffusion_default": default,
        "six_metrics": {
            "autoregressive": six_metrics(ar_runs, [ar_runs]),
            "diffusion": six_metrics(points[default], list(points.values())),
        },
    }


def warm_up(backend: Backend, ar_model: Any, task: Task, cut: Cut, start: list[int]) -> None:
    """One short run of each system, so first-call costs (allocations, kernels) are not timed."""
    short = cut.reference[: min(8, len(cut.reference))]
    autoregressive_run(ar_model, start + backend.table.encode(cut.before), short, BLOCK)
    diffusion_run(backend, task.edit(cut, {"steps": 2}), cut.reference, BLOCK)


def _start_id(backend: Backend) -> int:
    specials = backend.table.specials
    if specials.bos_id is not None:
        return specials.bos_id
    return next(iter(specials.eos_ids))


def summarize(runs: list[Run]) -> dict[str, float]:
    """Medians over the cuts of every per-run number."""

    def med(get: Callable[[Run], float]) -> float:
        return median([get(r) for r in runs])

    return {
        "first_frame_s": med(lambda r: r.first_frame_s),
        "first_block_s": med(lambda r: r.first_block_s),
        "settle_s": med(lambda r: r.settle_s),
        "tokens_per_s": med(lambda r: r.tokens / max(r.settle_s, 1e-9)),
        "tokens_per_forward": med(lambda r: r.tokens / max(r.forwards, 1)),
        "forwards": med(lambda r: r.forwards),
        "churn": med(lambda r: r.churn),
        "cpu_s": med(lambda r: r.cpu_s),
        "accuracy": med(lambda r: r.accuracy),
    }


def curve(runs: list[Run], points: int = 12) -> list[tuple[float, float]]:
    """Quality against latency for a system with one setting: median accuracy final by ``t``."""
    end = max(r.settle_s for r in runs)
    times = [end * (k + 1) / points for k in range(points)]
    return [(t, median([r.accuracy_at(t) for r in runs])) for t in times]


def six_metrics(runs: list[Run], all_settings: list[list[Run]]) -> dict[str, Any]:
    """The seed's six metrics for one system on one task (medians over the cuts).

    Quality at a budget is the best any swept setting reached by then (each cut scored by what
    was final at the budget), so it reads the whole speed–quality curve, not one point.
    """
    quality = {
        f"{budget:g}s": max(median([r.accuracy_at(budget) for r in runs]) for runs in all_settings)
        for budget in BUDGETS_S
    }
    return {
        "time_to_first_useful_block_s": median([r.first_block_s for r in runs]),
        "time_to_complete_s": median([r.settle_s for r in runs]),
        "revision_churn": median([r.churn for r in runs]),
        "quality_at_budget": quality,
        "effective_throughput_tok_s": median([r.tokens / max(r.settle_s, 1e-9) for r in runs]),
        "device_s_per_output": median([r.cpu_s for r in runs]),
    }
