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
import json
import time
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


def build_diffusion(text: dict[str, Any], device: torch.device, dtype: torch.dtype) -> Any:
    from transformers import DiffusionGemmaConfig, DiffusionGemmaForBlockDiffusion

    config = DiffusionGemmaConfig(text_config={**text, **IDS}, vision_config=TINY_VISION)
    model = materialise(lambda: DiffusionGemmaForBlockDiffusion(config), device, dtype)
    model.model.encoder.vision_tower = None  # text only: the tower is not part of the benchmark
    model.model.encoder.embed_vision = None
    _preload_inductor()  # generate's first step imports torch._inductor: not part of a step
    return model


def build_autoregressive(text: dict[str, Any], device: torch.device, dtype: torch.dtype) -> Any:
    from transformers import Gemma4ForCausalLM, Gemma4TextConfig

    config = Gemma4TextConfig(**text, **IDS)
    return materialise(lambda: Gemma4ForCausalLM(config), device, dtype)


def counts(model: Any, text: dict[str, Any], prefix: str = "") -> dict[str, float]:
    """Total and active parameters (experts count at top_k / num_experts), optionally a part."""
    total = expert = 0
    for name, param in model.named_parameters():
        if prefix and prefix not in name and "lm_head" not in name:
            continue
        total += param.numel()
        expert += param.numel() if "experts" in name else 0
    share = text["top_k_experts"] / text["num_experts"]
    return {"total": total, "expert": expert, "active": total - expert + expert * share}


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


def random_prompt(model: Any, length: int, device: torch.device) -> torch.Tensor:
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
def ar_token_ms(model: Any, prompt: int, timer: Timer, repeats: int = 3) -> float:
    """Per generated token with the KV cache: (time at 34 tokens - time at 2) / 32."""
    device = next(model.parameters()).device
    ids = random_prompt(model, prompt, device)

    def run(n: int) -> float:
        return timer(
            lambda: model.generate(ids, attention_mask=torch.ones_like(ids), max_new_tokens=n,
                                   min_new_tokens=n, do_sample=False, pad_token_id=0)
        )  # fmt: skip

    run(2)  # warm-up
    return median([(run(34) - run(2)) / 32 for _ in range(repeats)])


def measure(
    text: dict[str, Any],
    device: torch.device,
    prompts: tuple[int, ...],
    canvas: int,
    mib: int,
    repeats: int = 3,
) -> dict[str, Any]:
    """Both architectures on ``device``: measured times, rooflines and their ratio."""
    dtype = torch.bfloat16
    timer = Timer(device)
    gb_s = copy_gb_s(device, mib, timer)
    tflop_s = matmul_tflop_s(device, 4096 if device.type == "cuda" else 256, dtype, timer)
    out: dict[str, Any] = {"device": str(device), "copy_gb_s": gb_s, "matmul_tflop_s": tflop_s}
    model = build_diffusion(text, device, dtype)
    decoder = counts(model, text, prefix="decoder")
    out["diffusion"] = {"parameters": counts(model, text), "decoder": decoder, "canvas": canvas}
    touched = min(1.0, canvas * text["top_k_experts"] / text["num_experts"])  # experts read
    step_bytes = 2 * (decoder["total"] - decoder["expert"] * (1 - touched))
    bound = roofline_ms(step_bytes, 2 * decoder["active"] * canvas, gb_s, tflop_s)
    for prompt in prompts:
        ms = diffusion_step_ms(model, prompt, canvas, timer, repeats)
        out["diffusion"][f"prompt_{prompt}"] = {"step_ms": ms, "roofline_ms": bound,
                                                "tokens_per_s": canvas / (ms / 1000)}  # fmt: skip
    del model
    release(device)
    model = build_autoregressive(text, device, dtype)
    ar = counts(model, text)
    bound = roofline_ms(2 * ar["active"], 2 * ar["active"], gb_s, tflop_s)
    out["autoregressive"] = {"parameters": ar}
    for prompt in prompts:
        ms = ar_token_ms(model, prompt, timer, repeats)
        out["autoregressive"][f"prompt_{prompt}"] = {"token_ms": ms, "roofline_ms": bound}
    del model
    release(device)
    return out


def release(device: torch.device) -> None:
    if device.type == "cuda":
        torch.cuda.empty_cache()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m engine.bench.gpu", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs/benchmarks-gpu.json"))
    parser.add_argument("--config", type=Path, help="a checkpoint's config.json (text_config)")
    parser.add_argument("--canvas", type=int, default=256)
    args = parser.parse_args(argv)
    if not torch.cuda.is_available():
        print("engine.bench.gpu: no CUDA GPU here; skipped (the CPU benchmarks are `make bench`).")
        return 0
    text = dict(FULL_TEXT)
    if args.config:
        loaded = json.loads(args.config.read_text(encoding="utf-8"))
        text = {k: v for k, v in loaded.get("text_config", loaded).items() if k in FULL_TEXT}
    result = measure(text, torch.device("cuda"), (256, 2048), args.canvas, mib=1024)
    result["gpu"] = torch.cuda.get_device_name(0)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
