"""The adaptation run: LoRA + token rows trained with the masked-diffusion loss, resumably.

One loop for the CPU and CUDA: bf16 autocast where the hardware runs it fast (CUDA, a CPU
with AMX: 2–4× faster than fp32), fp32 elsewhere (without AMX, bf16 was up to 10× slower), base
weights frozen in bf16, LoRA weights and the two token-row deltas in fp32. A checkpoint (the
trainable tensors, the optimizer, the step) is written every few minutes and at the end, and a
run started again with the same run folder continues from it. A wall-clock budget stops the run
cleanly before a deadline; the learning-rate schedule follows steps, never the clock, so a run
that is not cut short is the same on any machine.
"""

from __future__ import annotations

import json
import math
import os
import platform
import shutil
import time
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

import torch
import torch.nn.functional as F

from tools.adapt import corpus
from tools.adapt.examples import IGNORE, Specials, Stream, batch, canvas_starts
from tools.adapt.lora import TokenRows, inject, load_adapter_into, save_adapter

CHECKPOINT = "checkpoint.pt"
PROBE_STEPS = 20  # steps timed before ``fit_budget`` sets the step count
WARM_STEPS = 5  # not timed: the first steps pay for kernel selection and allocator growth
LOG = "log.jsonl"
SUMMARY = "summary.json"
TRAINING_LOG = "training-log.jsonl"  # the log as shipped beside an adapter (the card's curve)


@dataclass(frozen=True)
class TrainConfig:
    base: Path  # the converted base model folder
    corpus: Path  # holds train.jsonl
    run: Path  # checkpoints, log and the latest adapter
    out: Path | None = None  # where the final adapter goes (resources/models/...)
    rank: int = 24  # r32 in bf16 is 19.6 MB, over the 16 MiB a shipped file may have
    alpha: float = 48.0
    lr: float = 4e-4
    rows_lr: float = 2e-3
    length: int = 128
    batch: int = 4
    steps: int = 1600
    warmup: int = 40
    budget_s: float = 3600.0
    checkpoint_s: float = 240.0
    seed: int = 0
    device: str = "cpu"
    threads: int = 1
    # "bidirectional": every row attends both ways; "prefix-causal": the text before the canvas
    # is read causally, as the base reads it, and only the canvas (and after) attends both ways.
    attention: str = "bidirectional"
    init: Path | None = None  # an adapter to start from instead of zero
    # Set ``steps`` from the speed of the first steps so the schedule ends with the budget:
    # a run on borrowed hardware has minutes, not a known step count.
    fit_budget: bool = False


@dataclass
class State:
    step: int = 0
    tokens: int = 0  # every position of every sequence trained on
    targets: int = 0  # the positions that carried a loss
    elapsed_s: float = 0.0


def specials_for(tokenizer: Any, vocab: int) -> Specials:
    """The ids the app will use (the registry's token choices), so training matches inference."""
    from engine.core.tokens import special_tokens
    from engine.models.registry import TOKEN_CHOICES

    choice = TOKEN_CHOICES["causal"]
    found = special_tokens(tokenizer, vocab, choice.mask, choice.filler, True)
    start = found.bos_id if found.bos_id is not None else min(found.eos_ids)
    assert found.mask_id is not None
    banned = tuple(sorted(found.banned))
    return Specials(start, found.mask_id, found.filler_id, banned)


def prefix_causal_mask(starts: torch.Tensor, length: int) -> torch.Tensor:
    """``(batch, 1, L, L)`` bool: causal everywhere, both ways among rows from ``starts[b]`` on.

    The rows before a canvas then see exactly what the base model sees, which keeps what it
    knows about the text there and makes their keys and values a cache that is exact to reuse.
    """
    pos = torch.arange(length, device=starts.device)
    causal = pos[None, :] <= pos[:, None]
    late = pos[None, :] >= starts[:, None]  # (batch, L)
    both = late[:, :, None] & late[:, None, :]
    return (causal[None] | both)[:, None]


def diffusion_loss(
    model: Any,
    rows: TokenRows,
    ids: torch.Tensor,
    targets: torch.Tensor,
    weights: torch.Tensor,
    mask: torch.Tensor | None = None,
) -> torch.Tensor:
    """Row ``i - 1`` predicting token ``i``, LM head on targets only; both ways unless ``mask``."""
    embeds = rows.embed(ids, model.get_input_embeddings()(ids))
    attention: dict[str, Any] = {"is_causal": False} if mask is None else {"attention_mask": mask}
    hidden = model.model(inputs_embeds=embeds, **attention).last_hidden_state
    b, i = torch.nonzero(targets[:, 1:] != IGNORE, as_tuple=True)
    picked = hidden[b, i]  # row i predicts position i + 1
    logits = rows.logits(picked, model.get_output_embeddings()(picked))
    losses = F.cross_entropy(logits.float(), targets[b, i + 1], reduction="none")
    return (losses * weights[b, i + 1]).sum() / ids.shape[0]


def use_bf16(config: TrainConfig) -> bool:
    """bf16 where it is fast: CUDA, or a CPU with AMX (see
    ``engine.models.loading.choose_dtype``)."""
    from engine.models.loading import cpu_has_amx

    return config.device.startswith("cuda") or cpu_has_amx()


def compute_dtype(config: TrainConfig) -> torch.dtype:
    return torch.bfloat16 if use_bf16(config) else torch.float32


def learning_rate(config: TrainConfig, step: int) -> float:
    """Linear warm-up, then cosine decay to a tenth of the peak at ``config.steps``."""
    if step < config.warmup:
        return (step + 1) / config.warmup
    progress = min(1.0, (step - config.warmup) / max(1, config.steps - config.warmup))
    return 0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * progress))


def prepare(config: TrainConfig) -> tuple[Any, Any, TokenRows, Specials]:
    """The base model (frozen, bf16) with LoRA injected, its tokenizer, rows and special ids."""
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(config.base))
    model = AutoModelForCausalLM.from_pretrained(str(config.base), dtype=compute_dtype(config))
    model.requires_grad_(False)
    torch.manual_seed(config.seed)
    inject(model, config.rank, config.alpha)
    specials = specials_for(tokenizer, model.config.vocab_size)
    rows = TokenRows([specials.mask_id, specials.filler_id], model.config.hidden_size)
    if config.init is not None:
        load_adapter_into(model, rows, config.init)
    device = torch.device(config.device)
    model = model.to(device)  # type: ignore[arg-type]  # transformers types .to oddly
    return model, tokenizer, rows.to(device), specials


def optimizer_for(model: Any, rows: TokenRows, config: TrainConfig) -> torch.optim.AdamW:
    lora = [p for p in model.parameters() if p.requires_grad]
    groups = [
        {"params": lora, "lr": config.lr, "weight_decay": 0.0},
        {"params": list(rows.parameters()), "lr": config.rows_lr, "weight_decay": 0.0},
    ]
    return torch.optim.AdamW(groups)


def trainable_state(model: Any, rows: TokenRows) -> dict[str, torch.Tensor]:
    state = {n: p.detach() for n, p in model.named_parameters() if p.requires_grad}
    return {**state, "rows.delta": rows.delta.detach()}


def save_checkpoint(path: Path, model: Any, rows: TokenRows, opt: Any, state: State) -> None:
    temporary = path.with_name(path.name + ".tmp")
    torch.save(
        {"trainable": trainable_state(model, rows), "optimizer": opt.state_dict(),
         "state": asdict(state)},
        temporary,
    )  # fmt: skip
    os.replace(temporary, path)


def load_checkpoint(path: Path, model: Any, rows: TokenRows, opt: Any) -> State:
    saved = torch.load(path, map_location="cpu", weights_only=True)
    params = dict(model.named_parameters())
    with torch.no_grad():
        for name, tensor in saved["trainable"].items():
            target = rows.delta if name == "rows.delta" else params[name]
            target.copy_(tensor)
    opt.load_state_dict(saved["optimizer"])
    return State(**saved["state"])


def adapter_config(config: TrainConfig, specials: Specials, state: State) -> dict[str, Any]:
    """PEFT's fields plus what Settle needs to check and run the adapter."""
    from engine.models import embedded

    gguf = embedded.gguf_path()
    sha = embedded.file_fingerprint(gguf)["sha256"] if gguf else None
    return {
        "peft_type": "LORA", "r": config.rank, "lora_alpha": config.alpha,
        "target_modules": ["q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj",
                           "down_proj"],
        "base_model": embedded.GGUF_NAME, "base_sha256": sha,
        "mask_id": specials.mask_id, "filler_id": specials.filler_id,
        "start_id": specials.start_id, "shift": True,
        "bidirectional": config.attention == "bidirectional",
        "attention": config.attention,
        "training": {"steps": state.step, "tokens": state.tokens, "targets": state.targets,
                     "seconds": round(state.elapsed_s), "length": config.length,
                     "batch": config.batch, "lr": config.lr, "seed": config.seed,
                     "device": config.device, "hardware": hardware_name(config.device),
                     "init": config.init.name if config.init is not None else None},
        "history": lineage(config.init),
    }  # fmt: skip


def hardware_name(device: str) -> str:
    """What the run trained on, for the model card: the GPU's name, else the CPU's model."""
    if device.startswith("cuda") and torch.cuda.is_available():
        return torch.cuda.get_device_name(torch.device(device))
    return cpu_name()


def cpu_name() -> str:
    cpu = platform.processor() or platform.machine()
    for line in (
        Path("/proc/cpuinfo").read_text().splitlines() if Path("/proc/cpuinfo").exists() else []
    ):
        if line.startswith("model name"):
            return line.split(":", 1)[1].strip()
    return cpu


def lineage(init: Path | None) -> list[dict[str, Any]]:
    """The training records of the adapters this one continued from, oldest first."""
    if init is None or not (init / "adapter_config.json").is_file():
        return []
    earlier = json.loads((init / "adapter_config.json").read_text(encoding="utf-8"))
    return [*earlier.get("history", []), earlier.get("training", {})]


def train(config: TrainConfig) -> State:
    """Run (or resume) until ``config.steps`` or the time budget, then save the adapter."""
    torch.set_num_threads(config.threads)
    model, tokenizer, rows, specials = prepare(config)
    opt = optimizer_for(model, rows, config)
    config.run.mkdir(parents=True, exist_ok=True)
    checkpoint = config.run / CHECKPOINT
    state = load_checkpoint(checkpoint, model, rows, opt) if checkpoint.is_file() else State()
    docs = corpus.read(config.corpus / "train.jsonl")
    prefix = config.attention == "prefix-causal"
    stream = Stream(docs, tokenizer, specials, config.length, config.seed + state.step, prefix)
    config = loop(config, model, rows, opt, stream, state)
    save_checkpoint(checkpoint, model, rows, opt, state)
    for folder in (config.run / "adapter", config.out):
        if folder is not None:
            save_adapter(
                folder, model, rows, adapter_config(config, specials, state), torch.bfloat16
            )
            if (config.run / LOG).is_file():  # the curve, for the model card
                shutil.copyfile(config.run / LOG, folder / TRAINING_LOG)
    (config.run / SUMMARY).write_text(json.dumps(asdict(state), indent=2), encoding="utf-8")
    return state


def fitted_steps(config: TrainConfig, state: State, probe_start: State) -> int:
    """The step count the rest of the budget allows at the speed of the steps since the probe."""
    per_step = (state.elapsed_s - probe_start.elapsed_s) / max(1, state.step - probe_start.step)
    left = max(0.0, config.budget_s - state.elapsed_s)
    return state.step + max(1, int(0.97 * left / max(per_step, 1e-9)))  # room for the last save


def loop(
    config: TrainConfig, model: Any, rows: TokenRows, opt: Any, stream: Stream, state: State
) -> TrainConfig:
    """The training loop: one short iteration per step, a checkpoint every few minutes.

    Returns the config it ended with (``fit_budget`` replaces the step count after the probe).
    """
    device = torch.device(config.device)
    started, last_save, trainable = time.monotonic(), time.monotonic(), list(opt.param_groups)
    base_elapsed, ema, first, probe = state.elapsed_s, None, state.step, None
    while state.step < config.steps and state.elapsed_s < config.budget_s:
        if config.fit_budget and state.step == first + WARM_STEPS:
            probe = State(**asdict(state))
        if probe is not None and state.step == probe.step + PROBE_STEPS:
            config = replace(config, steps=fitted_steps(config, state, probe))
            print(json.dumps({"fitted_steps": config.steps}), flush=True)
        examples = [stream.draw() for _ in range(config.batch)]
        ids, targets, weights = (t.to(device) for t in batch(examples))
        mask = (
            prefix_causal_mask(canvas_starts(examples).to(device), ids.shape[1])
            if stream.prefix_causal
            else None
        )
        for group, peak in zip(trainable, (config.lr, config.rows_lr), strict=True):
            group["lr"] = peak * learning_rate(config, state.step)
        with torch.autocast(device.type, dtype=torch.bfloat16, enabled=use_bf16(config)):
            loss = diffusion_loss(model, rows, ids, targets, weights, mask)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_([p for g in trainable for p in g["params"]], 1.0)
        opt.step()
        state.step += 1
        state.tokens += ids.numel()
        state.targets += int((targets != IGNORE).sum())
        state.elapsed_s = base_elapsed + time.monotonic() - started
        value = loss.item()
        ema = value if ema is None else 0.98 * ema + 0.02 * value
        if state.step % 10 == 0:
            log(config.run, state, ema, value, opt.param_groups[0]["lr"])
        if time.monotonic() - last_save > config.checkpoint_s:
            save_checkpoint(config.run / CHECKPOINT, model, rows, opt, state)
            last_save = time.monotonic()
    return config


def log(run: Path, state: State, ema: float, loss: float, lr: float) -> None:
    record = {**asdict(state), "loss": round(loss, 4), "ema": round(ema, 4), "lr": lr,
              "tok_s": round(state.tokens / max(state.elapsed_s, 1e-9), 1)}  # fmt: skip
    with (run / LOG).open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
    print(json.dumps(record), flush=True)
