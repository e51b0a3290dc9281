"""The full-size architectures for the GPU benchmark, built fast, and what they read per step.

DiffusionGemma-26B-A4B and the same-size autoregressive Gemma 4 26B-A4B from their config
classes with random weights: parameters on the ``meta`` device first (no memory), then allocated
in bf16 on the device and filled with seeded random values. Beside them: parameter counts, the
bytes of weights and KV cache a forward reads, the device's measured rates, the roofline, and
the timed step and token with CUDA events (wall time on the CPU, where the tests run them).

The full-size numbers in :data:`FULL_TEXT` are Gemma 4 26B-A4B's published text configuration as
best known here; ``python -m tools.bench.gpu --config`` takes a checkpoint's ``config.json``.
"""

from __future__ import annotations

import gc
import time
from collections.abc import Callable
from typing import Any

import torch

from engine.backends.gemma.backend import _preload_inductor, stop_thresholds, temperature_schedule
from tools.bench.common import median

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
