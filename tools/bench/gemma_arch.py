"""DiffusionGemma's architecture on the CPU: the real transformers class, random weights.

Per-step latency against canvas length and prompt length, from two ``generate`` calls that differ
only in their step count (so the prompt's encoding and the set-up cancel out), and the stock
``generate`` against Settle's loop around it (:class:`~engine.backends.gemma.backend.GemmaBackend`
driven
by :func:`engine.run.edit_run.run_edit`: locks, allowed sets, the draft streamer and its lock-step
thread) at the same settings. The model is small (a few million parameters) so the sweep fits
the CPU; the shape of the curves, not the absolute times, is what carries over.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, cast

import torch

from engine.backends.base import Backend
from engine.backends.gemma.backend import GemmaBackend
from engine.backends.gemma.prompt import prompt_ids
from engine.core.config import SamplerSettings
from engine.core.plan import plan_edit
from engine.core.protocol import Edit, EditMode, Proposal, Span
from engine.core.tokens import TokenTable
from engine.run.edit_run import run_edit
from tools.bench.common import median


@dataclass(frozen=True)
class GemmaSize:
    """A text-only DiffusionGemma configuration, small enough for a CPU sweep."""

    hidden: int = 256
    layers: int = 4
    heads: int = 4
    experts: int = 4
    vision_hidden: int = 16  # the config needs a vision tower; it is dropped after building


def build_gemma(table: TokenTable, size: GemmaSize, canvas_length: int, seed: int = 0) -> Any:
    """A random-initialised text-only ``DiffusionGemmaForBlockDiffusion`` for ``table``'s vocab."""
    from transformers import DiffusionGemmaConfig, DiffusionGemmaForBlockDiffusion

    torch.manual_seed(seed)
    tok, head = table.tokenizer, size.hidden // size.heads
    text = {
        "vocab_size": len(tok),
        "hidden_size": size.hidden,
        "intermediate_size": size.hidden * 2,
        "num_hidden_layers": size.layers,
        "num_attention_heads": size.heads,
        "num_key_value_heads": 1,
        "head_dim": head,
        "global_head_dim": head,
        "num_experts": size.experts,
        "top_k_experts": 2 if size.experts > 1 else 1,
        "moe_intermediate_size": size.hidden,
        # Gemma's pattern: sliding layers, then a full one last.
        "layer_types": ["sliding_attention"] * (size.layers - 1) + ["full_attention"],
        "sliding_window": 512,
        "max_position_embeddings": 4096,
        "pad_token_id": tok.pad_token_id,
        "eos_token_id": tok.eos_token_id,
        "bos_token_id": tok.bos_token_id,
    }
    v = size.vision_hidden
    vision = {
        "model_type": "gemma4_vision",
        "hidden_size": v,
        "intermediate_size": 2 * v,
        "num_hidden_layers": 1,
        "num_attention_heads": 1,
        "num_key_value_heads": 1,
        "head_dim": v,
    }
    config = DiffusionGemmaConfig(
        text_config=text, vision_config=vision, canvas_length=canvas_length
    )
    model = DiffusionGemmaForBlockDiffusion(config)
    model.model.encoder.vision_tower = None
    model.model.encoder.embed_vision = None
    return model.eval()


def parameters(model: Any) -> int:
    return sum(p.numel() for p in model.parameters())


def stock_kwargs(backend: GemmaBackend, steps: int, prompt_length: int) -> dict[str, Any]:
    """The very keyword arguments Settle passes, minus its streamer and processors."""
    settings = SamplerSettings(steps=steps, adaptive_stop=False, seed=0)
    return backend.generate_kwargs(settings, prompt_length, 1)


@torch.inference_mode()
def generate_s(model: Any, backend: GemmaBackend, prompt: int, steps: int) -> float:
    ids = torch.randint(
        100, backend.vocab_size - 1, (1, prompt), generator=torch.Generator().manual_seed(0)
    )
    torch.manual_seed(0)
    started = time.perf_counter()
    model.generate(ids, attention_mask=torch.ones_like(ids), **stock_kwargs(backend, steps, prompt))
    return time.perf_counter() - started


def per_step_ms(
    model: Any, backend: GemmaBackend, prompt: int, steps: tuple[int, int], repeats: int
) -> float:
    """Milliseconds per denoising step: the difference of two step counts, median of repeats."""
    lo, hi = steps
    samples = [
        (generate_s(model, backend, prompt, hi) - generate_s(model, backend, prompt, lo))
        / (hi - lo)
        for _ in range(repeats)
    ]
    return 1000 * median(samples)


def sweep(
    table: TokenTable,
    size: GemmaSize,
    canvases: tuple[int, ...],
    prompts: tuple[int, ...],
    steps: tuple[int, int] = (2, 6),
    repeats: int = 3,
) -> dict[str, Any]:
    """Per-step latency against canvas length (at the first prompt length) and prompt length
    (at the largest canvas), plus stock ``generate`` against Settle's loop at that canvas."""
    by_canvas, model, backend = {}, None, None
    for canvas in canvases:
        model = build_gemma(table, size, canvas)
        backend = GemmaBackend(model, table)
        generate_s(model, backend, prompts[0], 1)  # warm-up
        by_canvas[canvas] = per_step_ms(model, backend, prompts[0], steps, repeats)
    assert model is not None and backend is not None
    by_prompt = {p: per_step_ms(model, backend, p, steps, repeats) for p in prompts}
    return {
        "parameters": parameters(model),
        "size": size.__dict__,
        "per_step_ms_by_canvas": by_canvas,
        "per_step_ms_by_prompt": {"canvas": canvases[-1], "ms": by_prompt},
        "stock_vs_settle": stock_vs_settle(model, backend, steps[1], repeats),
    }


def stock_vs_settle(model: Any, backend: GemmaBackend, steps: int, repeats: int) -> dict[str, Any]:
    """One canvas drafted by Settle's loop against ``generate`` alone, same prompt length."""
    settings = SamplerSettings(
        steps=steps, adaptive_stop=False, seed=0, draft_tokens=backend.canvas_length
    )
    text = "The engine reads its instructions from punched cards. " * 4
    edit = Edit(1, text, Span(len(text), len(text)), mode=EditMode.DRAFT, settings=settings)
    prompt = len(prompt_ids(plan_edit(edit), backend.table, settings))
    settle = []
    for _ in range(repeats + 1):  # the first is a warm-up
        started = time.perf_counter()
        proposal = [e for e in run_edit(cast(Backend, backend), edit) if isinstance(e, Proposal)]
        settle.append(time.perf_counter() - started)
        assert proposal, "Settle's loop ended without a proposal"
    stock = [generate_s(model, backend, prompt, steps) for _ in range(repeats)]
    return {
        "steps": steps,
        "prompt_tokens": prompt,
        "stock_s": median(stock),
        "settle_s": median(settle[1:]),
        "overhead": median(settle[1:]) / max(median(stock), 1e-9) - 1.0,
    }
