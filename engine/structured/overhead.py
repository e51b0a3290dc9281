"""Benchmark: what constraint masking costs per denoising step, against an unconstrained step.

``python -m engine.structured.overhead [SCHEMA] [--model M]`` compiles a schema, builds the
first round's canvas and times, on the loaded masked-diffusion backend, the parts of one step:
the forward pass, the additive constraint bias (gathered for the predicted rows and added to
the logits) and token picking, plus the once-per-request cost of building the allowed mask
(cold: the tokenizer's allowed-id sets scanned; warm: cached). Medians of several repeats.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from engine.backends.masked.backend import MaskedBackend
from engine.backends.masked.schedule import pick_tokens
from engine.core.canvas import build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan
from engine.core.protocol import EditMode, LoadModel, Span
from engine.decode.allowed import allowed_mask
from engine.structured.compiler import compile_json
from engine.structured.json_problem import JsonProblem

DEFAULT_SCHEMA = Path(__file__).parents[2] / "resources" / "templates" / "invoice.schema.json"


def median_ms(run: Callable[[], Any], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


@torch.inference_mode()
def measure(backend: MaskedBackend, schema: Any, repeats: int = 7) -> dict[str, float]:
    """Per-step timings (ms) on the first round's canvas of ``schema``."""
    settings = SamplerSettings()
    problem = JsonProblem(compile_json(schema), backend.table)
    segments, _ = problem.layout({})
    plan = EditPlan(Span(0, 0), segments, "", "", "Fill in realistic values", EditMode.FILL)
    canvas = build_canvas(plan, backend.table, settings, backend.max_canvas_tokens)
    cold = median_ms(lambda: allowed_mask(canvas, backend.table, backend.vocab_size), 1)
    warm = median_ms(lambda: allowed_mask(canvas, backend.table, backend.vocab_size), repeats)
    generator = torch.Generator().manual_seed(0)
    state = backend.start(canvas, settings, generator)
    positions = state.masked.nonzero().flatten()
    logits = backend.path.predict(state, positions)
    forward = median_ms(lambda: backend.path.predict(state, positions), repeats)
    bias = median_ms(lambda: logits + state.bias[positions], repeats)
    pick = median_ms(lambda: pick_tokens(logits, 0.0, generator), repeats)
    step = forward + pick
    return {
        "canvas_tokens": float(len(canvas)),
        "predicted_rows": float(len(positions)),
        "forward_ms": forward,
        "pick_ms": pick,
        "bias_ms": bias,
        "unconstrained_step_ms": step,
        "overhead_percent": 100 * bias / step,
        "mask_build_cold_ms": cold,
        "mask_build_warm_ms": warm,
    }


def main() -> None:
    from engine.models.loading import load
    from engine.process.runtime import configure_threads

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("schema", nargs="?", type=Path, default=DEFAULT_SCHEMA)
    parser.add_argument("--model", default="embedded")
    args = parser.parse_args()
    configure_threads()
    backend = load(LoadModel(args.model), lambda _: None).backend
    if not isinstance(backend, MaskedBackend):
        raise SystemExit("This benchmark runs on masked-diffusion backends.")
    schema = json.loads(args.schema.read_text(encoding="utf-8"))
    print(json.dumps(measure(backend, schema), indent=2))


if __name__ == "__main__":
    main()
