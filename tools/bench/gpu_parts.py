"""The parts of ``python -m tools.bench.gpu`` (issue #15), each run guarded by :func:`run_part`.

* ``bandwidth``: measured copy bandwidth and bf16 matmul rate, the rooflines' denominators.
* ``diffusion``: DiffusionGemma per denoising step at each prompt length, beside its roofline
  (weights + the prompt's KV cache read per step), and tokens/s at 10, 15, 20 accepted per step.
* ``settle_overhead``: Settle's own loop (:class:`GemmaBackend` driven by
  :func:`engine.run.edit_run.run_edit`: locks, allowed-set bias, draft streamer) against stock
  ``generate`` on the same model, per step, from two step counts.
* ``autoregressive``: Gemma 4 26B-A4B per generated token beside its roofline.
* ``embedded``: the app's default model (SmolLM2-135M + diffusion adapter) on the device: a
  rewrite's time to settle and its time per forward.
"""

from __future__ import annotations

import math
import time
from typing import Any, cast

import torch

from tools.bench import gpu_models
from tools.bench.common import median

ACCEPTED = (10, 15, 20)  # tokens accepted per forward: the model card's range
NOMINAL_GB_S = 4800.0  # H200 HBM3e, the roofline denominator
NEEDS = {"bandwidth": 5.0, "diffusion": 60.0, "settle_overhead": 30.0, "autoregressive": 45.0,
         "embedded": 20.0}  # fmt: skip
NEEDS_TINY = dict.fromkeys(NEEDS, 0.5)
SETTLE_TEXT = "The engine reads its instructions from punched cards. "


class Run:
    """State shared by the parts: the settings, the measured rates, the diffusion model."""

    def __init__(
        self,
        text: dict[str, Any],
        device: torch.device,
        prompts: tuple[int, ...],
        canvas: int,
        repeats: int,
        tiny: bool,
    ) -> None:
        self.text, self.device, self.prompts = text, device, prompts
        self.canvas, self.repeats, self.tiny = canvas, repeats, tiny
        self.timer = gpu_models.Timer(device)
        self.dtype = torch.bfloat16
        self.gb_s = self.tflop_s = float("nan")
        self.model: Any = None

    # --- rates ---------------------------------------------------------------------------------

    def bandwidth(self, deadline: float) -> dict[str, Any]:
        mib, n = (8, 256) if self.tiny else (2048, 8192)
        self.gb_s = gpu_models.copy_gb_s(self.device, mib, self.timer)
        self.tflop_s = gpu_models.matmul_tflop_s(self.device, n, self.dtype, self.timer)
        gpu_models.release(self.device)
        return {
            "copy_gb_s": self.gb_s,
            "matmul_tflop_s": self.tflop_s,
            "nominal_gb_s": NOMINAL_GB_S,
        }

    def rates(self) -> tuple[float, float]:
        if math.isnan(self.gb_s):  #: the bandwidth part did not run
            self.bandwidth(0.0)
        return self.gb_s, self.tflop_s

    def roofline(self, weights: float, kv: float, flops: float) -> dict[str, float]:
        gb_s, tflop_s = self.rates()
        bytes_read = weights + kv
        return {
            "weight_bytes": weights,
            "kv_bytes": kv,
            "flops": flops,
            "bandwidth_ms": 1000 * bytes_read / (gb_s * 1e9),
            "nominal_bandwidth_ms": 1000 * bytes_read / (NOMINAL_GB_S * 1e9),
            "compute_ms": 1000 * flops / (tflop_s * 1e12),
            "roofline_ms": gpu_models.roofline_ms(bytes_read, flops, gb_s, tflop_s),
        }

    # --- item 1: the diffusion model ------------------------------------------------------------

    def diffusion_model(self) -> Any:
        if self.model is None:
            self.model = gpu_models.build_diffusion(self.text, self.device, self.dtype, self.canvas)
        return self.model

    def drop_diffusion(self) -> None:
        if self.model is not None:
            self.model = None
            gpu_models.release(self.device)

    def diffusion(self, deadline: float) -> dict[str, Any]:
        started = time.monotonic()
        model = self.diffusion_model()
        params = gpu_models.counts(model, self.text)
        out: dict[str, Any] = {"parameters": params, "canvas": self.canvas, "build_s":
                               time.monotonic() - started, "experts_implementation":
                               getattr(model.config.get_text_config(), "_experts_implementation",
                                       None), "prompts": {}}  # fmt: skip
        layers = gpu_models.kv_layers(model)
        weights = gpu_models.weight_bytes(
            params, gpu_models.experts_touched(self.text, self.canvas)
        )
        flops = 2 * params["active"] * self.canvas
        for prompt in self.prompts:
            if skipped(out["prompts"], prompt, deadline):
                continue
            t0 = time.monotonic()
            ms = gpu_models.diffusion_step_ms(model, prompt, self.canvas, self.timer, self.repeats)
            entry: dict[str, Any] = {
                "step_ms": ms,
                **self.roofline(weights, gpu_models.kv_bytes(layers, prompt), flops),
            }
            entry["step_over_roofline"] = ms / entry["roofline_ms"]
            entry["step_over_nominal_bandwidth"] = ms / entry["nominal_bandwidth_ms"]
            entry["tokens_per_s"] = {str(a): a / (ms / 1000) for a in ACCEPTED}
            entry["wall_s"] = time.monotonic() - t0
            out["prompts"][str(prompt)] = entry
            gpu_models.release(self.device)
        return out

    # --- item 2: Settle's loop against stock generate -------------------------------------------

    def settle_overhead(self, deadline: float) -> dict[str, Any]:
        from engine.backends.gemma.backend import GemmaBackend

        model = self.diffusion_model()
        table = vocab_table(int(model.config.get_text_config().vocab_size))
        backend = GemmaBackend(model, table, device=self.device)
        plain = backend.generate_kwargs
        # No torch.compile (the backend turns it on for CUDA): it would compile for minutes.
        backend.generate_kwargs = lambda *a: {**plain(*a), "disable_compile": True}  # type: ignore[method-assign]
        return stock_vs_settle(backend, self.timer, self.prompts[0], (2, 6), self.repeats)

    # --- item 1: the autoregressive model -------------------------------------------------------

    def autoregressive(self, deadline: float) -> dict[str, Any]:
        self.drop_diffusion()
        started = time.monotonic()
        model = gpu_models.build_autoregressive(self.text, self.device, self.dtype)
        try:
            params = gpu_models.counts(model, self.text)
            out: dict[str, Any] = {"parameters": params, "build_s": time.monotonic() - started,
                                   "prompts": {}}  # fmt: skip
            layers = gpu_models.kv_layers(model)
            weights = gpu_models.weight_bytes(params, gpu_models.experts_touched(self.text, 1))
            tokens = 10 if self.tiny else 18
            for prompt in self.prompts:
                if skipped(out["prompts"], prompt, deadline):
                    continue
                t0 = time.monotonic()
                ms = gpu_models.ar_token_ms(model, prompt, self.timer, self.repeats, tokens)
                kv = gpu_models.kv_bytes(layers, prompt + tokens // 2)
                entry = {"token_ms": ms, **self.roofline(weights, kv, 2 * params["active"])}
                entry["token_over_roofline"] = ms / entry["roofline_ms"]
                entry["tokens_per_s"] = 1000 / ms
                entry["wall_s"] = time.monotonic() - t0
                out["prompts"][str(prompt)] = entry
                gpu_models.release(self.device)
            return out
        finally:
            del model
            gpu_models.release(self.device)

    # --- item 3: the embedded model -------------------------------------------------------------

    def embedded(self, deadline: float, adapter: Any = None) -> dict[str, Any]:
        self.drop_diffusion()
        started = time.monotonic()
        backend, name = load_embedded(str(self.device), adapter)
        try:
            out = embedded_rewrites(backend, 3 if self.repeats > 1 else 1, deadline)
            out["model"] = name
            out["load_s_total"] = time.monotonic() - started
            return out
        finally:
            del backend
            gpu_models.release(self.device)


def skipped(done: dict[str, Any], prompt: int, deadline: float) -> bool:
    """Record a prompt length as skipped when the last one's time would overrun the deadline."""
    walls = [e["wall_s"] for e in done.values() if "wall_s" in e]
    grow = 4.0 if walls else 0.0  # the next length is longer: allow for it
    if walls and time.monotonic() + grow * walls[-1] > deadline:
        done[str(prompt)] = {"skipped": "not enough budget left for this prompt length"}
        return True
    return False


# --- item 2 ---------------------------------------------------------------------------------------


def vocab_tokenizer(size: int) -> Any:
    """A byte-level tokenizer with exactly ``size`` entries and no files: the 256 byte symbols,
    the specials, then made-up word pieces up to the model's vocabulary (262,144 for Gemma 4).

    Any text tokenizes (byte by byte: no merges), every id decodes, and the allowed-set and
    control-character scans run over the full vocabulary, as with Gemma's own tokenizer.
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast

    vocab = {s: i for i, s in enumerate(("<pad>", "<eos>", "<bos>", "<fill>"))}
    for ch in sorted(pre_tokenizers.ByteLevel.alphabet()):
        vocab[ch] = len(vocab)
    letters, index = "abcdefghijklmnopqrstuvwxyz", 0
    while len(vocab) < size:
        n, word = index, ""
        while True:
            word, n = word + letters[n % 26], n // 26
            if n == 0:
                break
        vocab["Ġ" + word] = len(vocab)
        index += 1
    backend = Tokenizer(models.BPE(vocab=vocab, merges=[]))
    backend.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    backend.decoder = decoders.ByteLevel()
    return PreTrainedTokenizerFast(
        tokenizer_object=backend, pad_token="<pad>", eos_token="<eos>", bos_token="<bos>"
    )


def vocab_table(size: int) -> Any:
    from engine.core.tokens import TokenTable, special_tokens

    tok = vocab_tokenizer(size)
    specials = special_tokens(tok, size, need_mask=False, filler_candidates=("<fill>",))
    return TokenTable(tok, specials)


def settle_edit(table: Any, canvas: int, prompt: int, steps: int) -> tuple[Any, int]:
    """A one-canvas draft whose prompt is about ``prompt`` tokens, and its exact prompt length."""
    from engine.backends.gemma.prompt import prompt_ids
    from engine.core.config import SamplerSettings
    from engine.core.plan import plan_edit
    from engine.core.protocol import Edit, EditMode, Span

    settings = SamplerSettings(steps=steps, adaptive_stop=False, seed=0, slack=0.0,
                               draft_tokens=canvas)  # fmt: skip
    text = (SETTLE_TEXT * (prompt // len(SETTLE_TEXT) + 1))[: max(8, prompt - 16)]
    edit = Edit(1, text, Span(len(text), len(text)), mode=EditMode.DRAFT, settings=settings)
    return edit, len(prompt_ids(plan_edit(edit), table, settings))


@torch.inference_mode()
def stock_vs_settle(
    backend: Any, timer: gpu_models.Timer, prompt: int, steps: tuple[int, int], repeats: int
) -> dict[str, Any]:
    """Settle's loop against ``generate`` with the very keyword arguments Settle passes (minus
    its streamer and processors), same prompt length, at two step counts: per step, both."""
    from engine.backends.base import Backend
    from engine.core.protocol import Proposal
    from engine.run.edit_run import run_edit

    model, table = backend.model, backend.table
    by_steps: dict[str, Any] = {}
    for n in steps:
        edit, length = settle_edit(table, backend.canvas_length, prompt, n)
        ids = gpu_models.random_prompt(model, length, backend.device)
        kwargs = backend.generate_kwargs(edit.settings, length, 1)

        def stock(ids: torch.Tensor = ids, kwargs: dict[str, Any] = kwargs) -> None:
            torch.manual_seed(0)
            model.generate(ids, attention_mask=torch.ones_like(ids), **kwargs)

        proposals: list[Any] = []

        def settle(edit: Any = edit, proposals: list[Any] = proposals) -> None:
            events = run_edit(cast(Backend, backend), edit)
            proposals[:] = [e for e in events if isinstance(e, Proposal)]

        stock()
        settle()  # warm-ups (the first also builds the allowed sets over the vocabulary)
        stock_ms = median([timer(stock) for _ in range(repeats)])
        settle_ms = median([timer(settle) for _ in range(repeats)])
        if not proposals:
            raise RuntimeError("Settle's loop ended without a proposal")
        metrics = proposals[0].metrics
        by_steps[str(n)] = {
            "prompt_tokens": length, "stock_ms": stock_ms, "settle_ms": settle_ms,
            "settle_forwards": metrics.forwards, "settle_steps": metrics.steps,
        }  # fmt: skip
    lo, hi = (by_steps[str(n)] for n in steps)
    stock_step = (hi["stock_ms"] - lo["stock_ms"]) / (steps[1] - steps[0])
    settle_step = (hi["settle_ms"] - lo["settle_ms"]) / (steps[1] - steps[0])
    return {
        "canvas": backend.canvas_length,
        "vocab": backend.vocab_size,
        "by_steps": by_steps,
        "stock_step_ms": stock_step,
        "settle_step_ms": settle_step,
        "overhead_per_step": settle_step / stock_step - 1.0 if stock_step > 0 else float("nan"),
        "overhead_total": hi["settle_ms"] / hi["stock_ms"] - 1.0,
    }


# --- item 3 ---------------------------------------------------------------------------------------


def load_embedded(device: str, adapter: Any = None) -> tuple[Any, str]:
    """The embedded default as the app loads it (``engine.models.registry.load``), on ``device``.

    ``adapter`` swaps the shipped diffusion adapter for another folder, the hook
    ``python -m tools.eval --adapter`` uses.
    """
    from pathlib import Path

    from engine.core.protocol import LoadModel
    from engine.models import embedded
    from engine.models.loading import load

    if adapter is not None:
        embedded.ADAPTER_DIR = Path(adapter).resolve()
    loaded = load(LoadModel("embedded", device=device), lambda _: None)
    return loaded.backend, loaded.info.display_name


def embedded_rewrites(backend: Any, samples: int, deadline: float) -> dict[str, Any]:
    """Rewrites of held-out spans at the app's default settings: time to settle, per forward."""
    from engine.backends.base import Backend
    from engine.core.config import SamplerSettings
    from engine.core.protocol import Edit, Proposal, Span
    from engine.run.edit_run import run_edit
    from tools.bench.common import cut_spans, heldout_text

    cuts = cut_spans(heldout_text(), backend.table, samples + 1, 64, 192, 128)
    runs = []
    for index, cut in enumerate(cuts):
        if index > 1 and time.monotonic() > deadline:
            break
        text = cut.before + cut.span + cut.after
        target = Span(len(cut.before), len(cut.before) + len(cut.span))
        edit = Edit(1, text, target, settings=SamplerSettings(seed=0))
        started = time.perf_counter()
        proposal = [e for e in run_edit(cast(Backend, backend), edit) if isinstance(e, Proposal)]
        wall = time.perf_counter() - started
        if not proposal:
            raise RuntimeError("the embedded model's rewrite ended without a proposal")
        m = proposal[0].metrics
        runs.append({"wall_s": wall, "settle_s": m.time_to_settle_s, "first_frame_s":
                     m.time_to_first_frame_s, "forwards": m.forwards, "steps": m.steps,
                     "tokens": m.tokens_generated, "forward_ms": 1000 * wall / max(m.forwards, 1),
                     "tokens_per_s": m.tokens_per_second})  # fmt: skip
    timed = runs[1:] or runs  # the first is a warm-up

    def med(key: str) -> float:
        return median([r[key] for r in timed])

    return {
        "span_tokens": 64,
        "context_tokens": [192, 128],
        "runs": runs,
        "settle_s": med("settle_s"),
        "first_frame_s": med("first_frame_s"),
        "forward_ms": med("forward_ms"),
        "forwards": med("forwards"),
        "tokens_per_s": med("tokens_per_s"),
    }


# --- the three ratios ----------------------------------------------------------------------------


def headline(parts: dict[str, Any]) -> dict[str, Any]:
    """Step time / roofline, diffusion / AR tokens per second, Settle's overhead per step."""
    diffusion = parts.get("diffusion", {}).get("prompts", {})
    ar = parts.get("autoregressive", {}).get("prompts", {})
    out: dict[str, Any] = {"step_over_roofline": {}, "diffusion_over_ar_tokens_per_s": {}}
    for prompt, entry in diffusion.items():
        if "step_ms" not in entry:
            continue
        out["step_over_roofline"][prompt] = entry["step_over_roofline"]
        if "token_ms" in ar.get(prompt, {}):
            ar_rate = ar[prompt]["tokens_per_s"]
            out["diffusion_over_ar_tokens_per_s"][prompt] = {
                a: rate / ar_rate for a, rate in entry["tokens_per_s"].items()
            }
    out["settle_overhead_per_step"] = parts.get("settle_overhead", {}).get("overhead_per_step")
    return out
