"""``python -m engine.bench.gpu``: the full-size architectures on a GPU against their roofline.

Builds the DiffusionGemma-26B-A4B text architecture and the same-size autoregressive Gemma 4
26B-A4B from their config classes with random weights: parameters on the ``meta`` device first
(no memory), then allocated in bf16 on the GPU and filled with seeded random values. Measures
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
import gc
import json
import subprocess
import time
import traceback
from collections.abc import Callable
from pathlib import Path
from typing import Any

import torch

from engine.backends.gemma import _preload_inductor, stop_thresholds, temperature_schedule
from engine.bench.common import median

FULL_TEXT: dict[str, Any] = {
    "vocab_size": 262144, "hidden_size": 2816, "intermediate_size": 2112,
    "num_hidden_layers": 30, "num_attention_heads": 16, "num_key_value_heads": 8,
    "head_dim": 256, "global_head_dim": 512, "num_experts": 128, "top_k_experts": 8,
    "moe_intermediate_size": 704, "sliding_window": 1024, "max_position_embeddings": 262144,
    "layer_types": (["sliding_attention"] * 5 + ["full_attention"]) * 5,
    "hidden_size_per_layer_input": 0, "enable_moe_block": True,
}  # fmt: skip
TINY_TEXT: dict[str, Any] = {
    "vocab_size": 512, "hidden_size": 64, "intermediate_size": 64, "num_hidden_layers": 2,
    "num_attention_heads": 2, "num_key_value_heads": 1, "head_dim": 32, "global_head_dim": 32,
    "num_experts": 4, "top_k_experts": 2, "moe_intermediate_size": 32, "sliding_window": 64,
    "max_position_embeddings": 2048, "layer_types": ["sliding_attention", "full_attention"],
    "hidden_size_per_layer_input": 0, "enable_moe_block": True,
}  # fmt: skip
TINY_VISION = {"model_type": "gemma4_vision", "hidden_size": 16, "intermediate_size": 32,
               "num_hidden_layers": 1, "num_attention_heads": 1, "num_key_value_heads": 1,
               "head_dim": 16}  # fmt: skip
IDS: dict[str, Any] = {"pad_token_id": 0, "bos_token_id": 2, "eos_token_id": 1}


def materialise(make: Callable[[], Any], device: torch.device, dtype: torch.dtype) -> Any:
    """Parameters on ``meta`` (no memory), then allocated on ``device`` and randomly filled.

    Buffers (rotary tables, embedding scales, layer scalars) are built for real on the CPU, where
    they are small, and moved: ``to_empty`` would leave them as garbage.
    """
    from accelerate import init_empty_weights

    previous = torch.get_default_dtype()
    torch.set_default_dtype(dtype)
    try:
        with init_empty_weights(include_buffers=False):
            model = make()
    finally:
        torch.set_default_dtype(previous)
    torch.manual_seed(0)
    for module in model.modules():
        for name, param in list(module._parameters.items()):
            if param is not None and param.is_meta:
                module._parameters[name] = random_parameter(name, param, device)
    model.to(device)  # the buffers
    model.tie_weights()  # each parameter got its own storage above, untying the head
    return model.eval()


def random_parameter(name: str, like: torch.Tensor, device: torch.device) -> torch.nn.Parameter:
    """Norm scales at 1, everything else small: random weights that keep activations finite."""
    value = torch.empty(like.shape, dtype=like.dtype, device=device)
    value.fill_(1.0) if like.dim() == 1 and "norm" in name else value.normal_(0, 0.02)
    return torch.nn.Parameter(value, requires_grad=False)


def build_diffusion(
    text: dict[str, Any], device: torch.device, dtype: torch.dtype, canvas: int = 256
) -> Any:
    from transformers import DiffusionGemmaConfig, DiffusionGemmaForBlockDiffusion

    config = DiffusionGemmaConfig(
        text_config={**text, **IDS}, vision_config=TINY_VISION, canvas_length=canvas
    )
    model = materialise(lambda: DiffusionGemmaForBlockDiffusion(config), device, dtype)
    model.model.encoder.vision_tower = None  # text only: the tower is not part of the benchmark
    model.model.encoder.embed_vision = None
    _preload_inductor()  # generate's first step imports torch._inductor: not part of a step
    return model


def build_autoregressive(text: dict[str, Any], device: torch.device, dtype: torch.dtype) -> Any:
    from transformers import Gemma4ForCausalLM, Gemma4TextConfig

    config = Gemma4TextConfig(**text, **IDS)
    return materialise(lambda: Gemma4ForCausalLM(config), device, dtype)


def counts(model: Any, text: dict[str, Any]) -> dict[str, float]:
    """Total and active parameters (experts count at top_k / num_experts).

    DiffusionGemma's decoder shares every weight with the encoder's language model (only its
    self-conditioning block is its own), so one denoising step reads the whole text model; tied
    parameters (embedding and head) are counted once, and the head is read in full per forward.
    """
    total = expert = 0
    for name, param in model.named_parameters():
        total += param.numel()
        expert += param.numel() if "experts" in name else 0
    share = text["top_k_experts"] / text["num_experts"]
    return {"total": total, "expert": expert, "active": total - expert + expert * share}


def experts_touched(text: dict[str, Any], tokens: int) -> float:
    """Expected share of a layer's experts that ``tokens`` routed tokens read (uniform routing)."""
    return 1.0 - (1.0 - text["top_k_experts"] / text["num_experts"]) ** tokens


def weight_bytes(parameters: dict[str, float], touched: float, element: int = 2) -> float:
    return element * (parameters["total"] - parameters["expert"] * (1.0 - touched))


def kv_layers(model: Any) -> list[tuple[int, int | None]]:
    """Per attention layer: K+V elements per cached token, and its sliding window (None: full)."""
    config = model.config.get_text_config()
    layers = next(
        m for n, m in model.named_modules() if n.endswith("layers") and hasattr(m[0], "self_attn")
    )
    found = []
    for layer, kind in zip(layers, config.layer_types, strict=False):
        attn = layer.self_attn
        k = attn.k_proj.out_features
        v = attn.v_proj.out_features if getattr(attn, "v_proj", None) is not None else 0
        found.append((k + v, config.sliding_window if kind == "sliding_attention" else None))
    return found


def kv_bytes(layers: list[tuple[int, int | None]], context: int, element: int = 2) -> float:
    """Bytes of KV cache one forward reads with ``context`` cached tokens in front of it."""
    return float(sum(per * min(context, window or context) * element for per, window in layers))


class Timer:
    """Milliseconds of GPU work with CUDA events, or of wall time on the CPU."""

    def __init__(self, device: torch.device) -> None:
        self.cuda = device.type == "cuda"

    def __call__(self, work: Callable[[], Any]) -> float:
        if not self.cuda:
            started = time.perf_counter()
            work()
            return 1000 * (time.perf_counter() - started)
        start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
        start.record()
        work()
        end.record()
        torch.cuda.synchronize()
        return float(start.elapsed_time(end))


def copy_gb_s(device: torch.device, mib: int, timer: Timer) -> float:
    """Measured device memory bandwidth: bytes read plus bytes written by a tensor copy."""
    src = torch.empty(mib * 2**20, dtype=torch.uint8, device=device)
    dst = torch.empty_like(src)
    dst.copy_(src)
    ms = median([timer(lambda: dst.copy_(src)) for _ in range(5)])
    return 2 * src.numel() / (ms / 1000) / 1e9


def matmul_tflop_s(device: torch.device, n: int, dtype: torch.dtype, timer: Timer) -> float:
    a = torch.randn(n, n, device=device, dtype=dtype)
    b = torch.randn(n, n, device=device, dtype=dtype)
    a @ b
    ms = median([timer(lambda: a @ b) for _ in range(5)])
    return 2 * n**3 / (ms / 1000) / 1e12


def roofline_ms(bytes_read: float, flops: float, gb_s: float, tflop_s: float) -> float:
    return 1000 * max(bytes_read / (gb_s * 1e9), flops / (tflop_s * 1e12))


def random_prompt(model: Any, length: int, device: torch.device | str) -> torch.Tensor:
    vocab = int(model.config.get_text_config().vocab_size)
    generator = torch.Generator().manual_seed(0)
    return torch.randint(3, min(vocab, 1000), (1, length), generator=generator).to(device)


@torch.inference_mode()
def diffusion_step_ms(
    model: Any, prompt: int, canvas: int, timer: Timer, repeats: int = 3
) -> float:
    """Per denoising step: (time at 6 steps - time at 2 steps) / 4, adaptive stop off."""
    config, device = model.generation_config, next(model.parameters()).device
    ids = random_prompt(model, prompt, device)
    t_min, t_max = temperature_schedule(0.0, config)
    stability, confidence = stop_thresholds(False, config)

    def run(steps: int) -> float:
        kwargs = {"max_new_tokens": canvas, "max_length": prompt + canvas,
                  "max_denoising_steps": steps, "t_min": t_min, "t_max": t_max,
                  "stability_threshold": stability, "confidence_threshold": confidence,
                  "eos_token_id": None, "disable_compile": True}  # fmt: skip
        return timer(lambda: model.generate(ids, attention_mask=torch.ones_like(ids), **kwargs))

    run(1)  # warm-up
    return median([(run(6) - run(2)) / 4 for _ in range(repeats)])


@torch.inference_mode()
def ar_token_ms(model: Any, prompt: int, timer: Timer, repeats: int = 3, tokens: int = 18) -> float:
    """Per generated token with the KV cache: (time at ``tokens`` - time at 2) / (tokens - 2)."""
    device = next(model.parameters()).device
    ids = random_prompt(model, prompt, device)

    def run(n: int) -> float:
        return timer(
            lambda: model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=n,
                                   min_new_tokens=n, do_sample=False, pad_token_id=0,
                                   disable_compile=True)
        )  # fmt: skip

    run(2)  # warm-up
    return median([(run(tokens) - run(2)) / (tokens - 2) for _ in range(repeats)])


def release(device: torch.device) -> None:
    """Give a dropped model's memory back: collect it, then empty the CUDA caching allocator."""
    gc.collect()
    if device.type == "cuda":
        torch.cuda.empty_cache()


def machine_info(device: torch.device) -> dict[str, Any]:
    """The GPU, its driver and the library versions, beside the CPU description of the benches."""
    import transformers

    from engine.bench.common import machine

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
    parser = argparse.ArgumentParser(prog="python -m engine.bench.gpu", description=__doc__)
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
        print("engine.bench.gpu: no CUDA GPU here; skipped (the CPU benchmarks are `make bench`).")
        return 0
    from engine.bench import gpu_parts
    from engine.bench.gpu_report import write_report

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
