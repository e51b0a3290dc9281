"""``python -m tools.bench.gpu``: the full-size architectures on a GPU against their roofline.

Builds the DiffusionGemma-26B-A4B text architecture and the same-size autoregressive Gemma 4
26B-A4B with random bf16 weights (:mod:`tools.bench.gpu_models`) and runs the parts of the
measurement (:mod:`tools.bench.gpu_parts`) within a budget, each guarded and saved. Measures
with CUDA events the diffusion decoder's per-step time (from two step counts, so the prompt's
encoding cancels) and the autoregressive per-token time (two token counts), and sets each
against its roofline: the larger of weight bytes read / measured copy bandwidth and FLOPs /
measured bf16 matmul rate. Without a GPU it prints why and exits 0; the unit tests run the same
code on the CPU with a tiny configuration.

The full-size numbers in :data:`FULL_TEXT` are Gemma 4 26B-A4B's published text configuration as
best known here; the build prints total and active parameter counts (expect ~26B and ~4B), and
``--config`` takes a checkpoint's ``config.json`` to use its ``text_config`` instead.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from tools.bench.gpu_models import FULL_TEXT, TINY_TEXT


def machine_info(device: torch.device) -> dict[str, Any]:
    """The GPU, its driver and the library versions, beside the CPU description of the benches."""
    import transformers

    from tools.bench.common import machine

    info = {**machine(), "device": str(device), "torch_cuda": torch.version.cuda}
    info["transformers"] = transformers.__version__
    try:
        import accelerate

        info["accelerate"] = accelerate.__version__
    except ImportError:
        info["accelerate"] = None
    if device.type == "cuda":
        props = torch.cuda.get_device_properties(device)
        info["gpu"] = torch.cuda.get_device_name(device)
        info["gpu_memory_gib"] = props.total_memory / 2**30
        info["driver"] = _nvidia_smi("driver_version")
    return info


def _nvidia_smi(field: str) -> str | None:
    try:
        done = subprocess.run(
            ["nvidia-smi", f"--query-gpu={field}", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=20, check=False,
        )  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip().splitlines()[0] if done.returncode == 0 and done.stdout else None


class Budget:
    """The wall-clock budget: what is left overall, and what one part may use."""

    def __init__(self, seconds: float, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.deadline = clock() + seconds

    def left(self) -> float:
        return self.deadline - self.clock()


def run_part(
    results: dict[str, Any],
    name: str,
    work: Callable[[float], dict[str, Any]],
    budget: Budget,
    needs_s: float,
    reserve_s: float,
    save: Callable[[], None],
) -> None:
    """One guarded part: skipped with its reason when the budget is short, its exception recorded
    with the traceback (never as a number), and the results saved as soon as it ends.

    ``work`` gets the monotonic deadline it should finish by (the later parts' ``reserve_s``
    kept back), so it can drop its own last measurements rather than the next part.
    """
    left = budget.left()
    parts = results.setdefault("parts", {})
    if left - reserve_s < needs_s:
        parts[name] = {"skipped": f"{left:.0f} s of budget left; this part needs {needs_s:.0f} s"
                       f" and {reserve_s:.0f} s are kept for the later parts"}  # fmt: skip
        print(f"[gpu] {name}: skipped ({parts[name]['skipped']})", flush=True)
        save()
        return
    print(f"[gpu] {name} … ({left:.0f} s of budget left)", flush=True)
    started = time.monotonic()
    try:
        parts[name] = work(budget.deadline - reserve_s)
    except Exception as exc:  # a broken part must not lose the others' numbers
        parts[name] = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()}
        print(f"[gpu] {name} failed: {parts[name]['error']}", flush=True)
    parts[name]["wall_s"] = time.monotonic() - started
    print(f"[gpu] {name}: {parts[name]['wall_s']:.1f} s", flush=True)
    save()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.gpu", description=__doc__)
    parser.add_argument("--out-dir", type=Path, default=Path("docs/gpu-run"))
    parser.add_argument("--budget-s", type=float, default=240.0, help="wall-clock budget, all in")
    parser.add_argument("--config", type=Path, help="a checkpoint's config.json (text_config)")
    parser.add_argument("--canvas", type=int, default=256)
    parser.add_argument("--prompts", default="64,1024,8192", help="prompt lengths, comma-separated")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--embedded", action="store_true", help="also the embedded model (GGUF)")
    parser.add_argument("--adapter", type=Path, help="the embedded model's adapter folder")
    parser.add_argument(
        "--only", help="run only these parts (comma-separated; gpu_report merges several runs)"
    )
    parser.add_argument("--tiny", action="store_true", help=argparse.SUPPRESS)  # the CPU tests
    parser.add_argument("--device", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.device is None and not torch.cuda.is_available():
        print("tools.bench.gpu: no CUDA GPU here; skipped (the CPU benchmarks are `make bench`).")
        return 0
    from tools.bench import gpu_parts
    from tools.bench.gpu_report import write_report

    budget = Budget(args.budget_s)
    device = torch.device(args.device or "cuda")
    text = dict(TINY_TEXT if args.tiny else FULL_TEXT)
    if args.config:
        loaded = json.loads(args.config.read_text(encoding="utf-8"))
        text = {k: v for k, v in loaded.get("text_config", loaded).items() if k in FULL_TEXT}
    args.out_dir.mkdir(parents=True, exist_ok=True)
    out_json = args.out_dir / "gpu.json"
    prompts = tuple(int(p) for p in args.prompts.split(",") if p.strip())
    settings = {"canvas": args.canvas, "prompts": list(prompts), "repeats": args.repeats,
                "tiny": args.tiny, "budget_s": args.budget_s, "embedded": args.embedded,
                "adapter": str(args.adapter) if args.adapter else None,
                "accepted_per_forward": list(gpu_parts.ACCEPTED)}  # fmt: skip
    results: dict[str, Any] = {"settings": settings, "text_config": text, "parts": {}}

    def save() -> None:
        results["budget_left_s"] = budget.left()
        results["headline"] = gpu_parts.headline(results["parts"])
        out_json.write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
        try:
            write_report(results, args.out_dir / "benchmarks-gpu.md")
        except Exception as exc:  # the JSON is what counts; the page can be rebuilt from it
            print(f"[gpu] report not written: {exc}", flush=True)

    results["machine"] = machine_info(device)
    save()
    run = gpu_parts.Run(text, device, prompts, args.canvas, args.repeats, args.tiny)
    # Minimum seconds each part needs, and what is kept back for the parts after it.
    needs = gpu_parts.NEEDS_TINY if args.tiny else gpu_parts.NEEDS
    order: list[tuple[str, Callable[[float], dict[str, Any]]]] = [
        ("bandwidth", run.bandwidth),
        ("diffusion", run.diffusion),
        ("settle_overhead", run.settle_overhead),
        ("autoregressive", run.autoregressive),
    ]
    if args.embedded:
        order.append(("embedded", lambda deadline: run.embedded(deadline, args.adapter)))
    if args.only:
        wanted = {name.strip() for name in args.only.split(",")}
        order = [(name, work) for name, work in order if name in wanted]
    for index, (name, work) in enumerate(order):
        reserve = sum(needs[later] for later, _ in order[index + 1 :])
        if name == "autoregressive" or name == "embedded":
            run.drop_diffusion()  # the 26B diffusion model leaves the GPU before the next
        run_part(results, name, work, budget, needs[name], reserve, save)
    run.drop_diffusion()
    print(json.dumps(results, indent=2, default=str))
    print(f"[gpu] wrote {out_json} and {args.out_dir / 'benchmarks-gpu.md'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
