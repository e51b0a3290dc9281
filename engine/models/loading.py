"""Loading a model onto a device, as a backend: :func:`load` answers a ``LoadModel`` request.

Callers import this module directly; the registry (:mod:`engine.models.registry`) only describes
models
and never imports it. Everything that imports torch and transformers for loading lives here, so
listing models stays cheap. The order of :func:`load_spec` is chosen so that cheap refusals
come first: the weights files are checked (safetensors only, complete) and the tokenizer's
special tokens are picked *before* any weight is read, so a pickle-only folder or a masked model
without a mask token is refused with nothing loaded.

Placement: on a CUDA GPU, weights load through accelerate (``device_map="auto"``), which spills
layers to the CPU (and disk) when the GPU is too small; :func:`placement_summary` says where they
went. On the CPU and on Apple's MPS the model loads plainly and is moved as a whole.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import torch

from engine.core.errors import ModelLoadError, OutOfMemory
from engine.core.protocol import LoadModel, LoadProgress, ModelInfo
from engine.core.tokens import TokenTable, special_tokens
from engine.models import embedded
from engine.models.adapters import BaseSwitch, adapter_attention, merge_lora
from engine.models.registry import (
    ARCHES,
    TOKEN_CHOICES,
    LoadedModel,
    ModelSpec,
    Progress,
    read_config,
    resolve,
)
from engine.process.load_progress import weights_progress

DEVICES = ("auto", "cuda", "mps", "cpu")
PICKLE_SUFFIXES = frozenset({".bin", ".pt", ".pth", ".ckpt", ".pkl", ".pickle"})
# A safetensors header is JSON of a few hundred bytes per tensor; anything larger is corrupt.
MAX_HEADER_BYTES = 100_000_000
# Above this many parameters a CPU load is bf16 whatever the CPU: fp32 would need > 6 GB of RAM.
CPU_BF16_ABOVE = 1_500_000_000
# Settle edits text only: DiffusionGemma's vision tower is dead weight, and a text-only
# checkpoint does not carry it at all.
VISION_MODULES = ("vision_tower", "embed_vision")
OOM_ADVICE = (
    "Close other programs using the {device}, pick the CPU (slower, uses system memory), "
    "or choose a smaller model."
)


# --- device and dtype -----------------------------------------------------------------------


def pick_device(name: str) -> torch.device:
    """The device a request names; "auto" prefers CUDA, then MPS, then the CPU."""
    wanted = (name or "auto").strip().lower()
    kind, _, index = wanted.partition(":")
    if kind not in DEVICES or (index and (kind != "cuda" or not index.isdigit())):
        raise ModelLoadError(f"Unknown device {name!r}: choose one of {', '.join(DEVICES)}.")
    if kind == "auto":
        if torch.cuda.is_available():
            return torch.device("cuda", 0)
        return torch.device("mps") if _mps_available() else torch.device("cpu")
    if kind == "cuda":
        return _cuda_device(int(index or 0))
    if kind == "mps" and not _mps_available():
        raise ModelLoadError(
            "The Apple GPU (MPS) was asked for, but this machine has none. Pick 'auto' or 'cpu'."
        )
    return torch.device(kind)


def _cuda_device(index: int) -> torch.device:
    if not torch.cuda.is_available():
        build = "" if torch.version.cuda else " (this PyTorch is built without CUDA)"
        raise ModelLoadError(
            f"A CUDA GPU was asked for, but none is available{build}. Pick 'auto' or 'cpu'."
        )
    if index >= torch.cuda.device_count():
        raise ModelLoadError(
            f"There is no CUDA GPU {index}: this machine has {torch.cuda.device_count()}."
        )
    return torch.device("cuda", index)


def _mps_available() -> bool:
    backend = getattr(torch.backends, "mps", None)
    return bool(backend is not None and backend.is_available())


def cpu_has_amx() -> bool:
    """Intel AMX: the only CPU feature under which bf16 beat fp32 in our measurements."""
    probe = getattr(torch.cpu, "_is_amx_tile_supported", None)
    return bool(probe is not None and probe())


def choose_dtype(device: torch.device, parameters: int) -> torch.dtype:
    """bf16 on GPUs; on the CPU, fp32 unless the CPU has AMX or the model is large.

    Measured on SmolLM2-135M, one thread, one bidirectional forward of 128 / 256 tokens
    (2026-11-30, Xeon with AMX): fp32 324 / 651 ms, bf16 137 / 178 ms. The same run with oneDNN
    capped below AMX made bf16 the slow one: AVX512-BF16 742 / 1002 ms, AVX512 1205 / 2278 ms,
    AVX2 3062 / 6431 ms (fp32 315–440 / 600–675 ms throughout). So bf16 only where AMX runs it,
    or where fp32 would not fit in memory.
    """
    if device.type == "cuda":
        return torch.bfloat16 if torch.cuda.is_bf16_supported() else torch.float16
    if device.type == "mps":
        return torch.bfloat16 if _mps_takes_bf16() else torch.float16
    return torch.bfloat16 if cpu_has_amx() or parameters > CPU_BF16_ABOVE else torch.float32


def _mps_takes_bf16() -> bool:
    try:  # bf16 on MPS needs macOS 14; older systems raise on allocation
        torch.zeros(1, dtype=torch.bfloat16, device="mps")
    except (RuntimeError, TypeError):
        return False
    return True


# --- the files -------------------------------------------------------------------------------


def weight_files(folder: Path) -> list[Path]:
    """The safetensors files a load reads; pickle-only or weightless folders are refused."""
    index = folder / "model.safetensors.index.json"
    if index.is_file():
        return _indexed_shards(folder, index)
    if (folder / "model.safetensors").is_file():
        return [folder / "model.safetensors"]
    files = sorted(folder.glob("*.safetensors"))
    if files:
        return files
    pickles = sorted(p.name for p in folder.iterdir() if p.suffix in PICKLE_SUFFIXES)
    if pickles:
        raise ModelLoadError(
            f"{folder} holds its weights only in pickle format ({', '.join(pickles[:3])}). "
            "Settle loads safetensors weights only, because opening a pickle file can run any "
            "code hidden in it. Use a version of the model that ships .safetensors files."
        )
    raise ModelLoadError(f"{folder} has no weights: it contains no .safetensors file.")


def _indexed_shards(folder: Path, index: Path) -> list[Path]:
    try:
        weight_map = json.loads(index.read_text(encoding="utf-8"))["weight_map"]
        names = sorted(set(weight_map.values()))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError) as exc:
        raise ModelLoadError(f"The weights index {index} cannot be read ({exc}).") from exc
    missing = [name for name in names if not (folder / name).is_file()]
    if missing:
        raise ModelLoadError(
            f"{folder} is incomplete: weight shard(s) {', '.join(missing[:3])} are missing."
        )
    return [folder / name for name in names]


def safetensors_parameters(path: Path) -> int:
    """How many numbers a safetensors file holds, after checking it is whole (header + data)."""
    size = path.stat().st_size
    with path.open("rb") as handle:
        head = handle.read(8)
        length = int.from_bytes(head, "little") if len(head) == 8 else -1
        if not 0 < length <= min(size - 8, MAX_HEADER_BYTES):
            raise ModelLoadError(f"The weights file {path} is corrupt (its header is unreadable).")
        try:
            header = json.loads(handle.read(length))
            tensors = [v for k, v in header.items() if k != "__metadata__"]
            end = max((int(t["data_offsets"][1]) for t in tensors), default=0)
            count = sum(_numel(t["shape"]) for t in tensors)
        except (UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, ValueError) as exc:
            raise ModelLoadError(f"The weights file {path} is corrupt ({exc}).") from exc
    if 8 + length + end > size:
        raise ModelLoadError(
            f"The weights file {path} is truncated: it has {size} bytes but needs "
            f"{8 + length + end}. Download or convert the model again."
        )
    return count


def _numel(shape: list[int]) -> int:
    count = 1
    for dim in shape:
        count *= int(dim)
    return count


# --- tokens ----------------------------------------------------------------------------------


def load_table(spec: ModelSpec, config: dict[str, Any], trust_code: bool) -> TokenTable:
    """The tokenizer and the family's special tokens (a masked model needs a mask token)."""
    from transformers import AutoTokenizer

    try:
        tokenizer = AutoTokenizer.from_pretrained(
            str(spec.path), local_files_only=True, trust_remote_code=trust_code
        )
    except Exception as exc:  # transformers raises many kinds; all mean "unusable tokenizer"
        raise ModelLoadError(f"The tokenizer in {spec.path} cannot be loaded: {exc}") from exc
    choice = TOKEN_CHOICES[spec.arch]
    text_config = config.get("text_config") or {}
    vocab = int(config.get("vocab_size") or text_config.get("vocab_size") or len(tokenizer))
    specials = special_tokens(tokenizer, vocab, choice.mask, choice.filler, choice.need_mask)
    return TokenTable(tokenizer, specials)


# --- weights ---------------------------------------------------------------------------------


def load_weights(
    spec: ModelSpec, device: torch.device, dtype: torch.dtype, trust_code: bool
) -> Any:
    """Read the weights (CUDA: through accelerate's device map); failures become clear errors."""
    import transformers

    model_class = getattr(transformers, ARCHES[spec.arch].auto_class)
    kwargs: dict[str, Any] = {
        "dtype": dtype,
        "use_safetensors": True,
        "local_files_only": True,
        "trust_remote_code": trust_code,
        "output_loading_info": True,
    }
    if device.type == "cuda":
        kwargs.update(cuda_placement(spec, device))
    try:
        model, info = model_class.from_pretrained(str(spec.path), **kwargs)
    except (torch.OutOfMemoryError, MemoryError) as exc:
        raise OutOfMemory(
            f"{spec.display_name} does not fit in memory. " + OOM_ADVICE.format(device=device.type)
        ) from exc
    except Exception as exc:  # any failure inside transformers means this model cannot load
        raise ModelLoadError(f"{spec.display_name} could not be loaded: {exc}") from exc
    check_complete(spec, info.get("missing_keys", ()))
    return model


def cuda_placement(spec: ModelSpec, device: torch.device) -> dict[str, Any]:
    """accelerate arguments: fill the chosen GPU, then CPU memory, then a disk folder."""
    from accelerate.utils import get_max_memory

    budget = get_max_memory()
    if device.index is not None:  # a named GPU: leave the others alone
        budget = {k: v for k, v in budget.items() if k in (device.index, "cpu")}
    offload = embedded.cache_dir() / "offload" / spec.path.name
    return {"device_map": "auto", "max_memory": budget, "offload_folder": str(offload)}


def check_complete(spec: ModelSpec, missing: Any) -> None:
    """Refuse a checkpoint with weights missing: transformers would fill them with noise."""
    absent = sorted(k for k in missing if not any(m in k for m in VISION_MODULES))
    if absent:
        raise ModelLoadError(
            f"The checkpoint in {spec.path} is incomplete: {len(absent)} weight(s) are missing "
            f"(for example {absent[0]}), and loading it would fill them with random numbers."
        )


def drop_vision(model: Any) -> None:
    encoder = getattr(getattr(model, "model", None), "encoder", None)
    for name in VISION_MODULES:
        if encoder is not None and getattr(encoder, name, None) is not None:
            setattr(encoder, name, None)


def placement_summary(model: Any, device: torch.device) -> str:
    """Where the layers went: "all on cuda:0", or counts per device when accelerate split them."""
    device_map = getattr(model, "hf_device_map", None) or {}
    counts = Counter(_device_name(where) for where in device_map.values())
    if len(counts) <= 1:
        return f"all layers on {next(iter(counts), str(device))}"
    parts = [f"{n} modules on {where}" for where, n in counts.most_common()]
    return ", ".join(parts) + " (offloaded parts run slower)"


def _device_name(where: Any) -> str:
    return f"cuda:{where}" if isinstance(where, int) else str(where)


def input_device(model: Any, device: torch.device) -> torch.device:
    """Where input ids go: the first GPU in accelerate's map (its hooks move the rest)."""
    device_map = getattr(model, "hf_device_map", None) or {}
    gpus = sorted(where for where in device_map.values() if isinstance(where, int))
    if gpus:
        return torch.device("cuda", gpus[0])
    return torch.device("cpu") if device_map else device


# --- the whole load --------------------------------------------------------------------------


def load_spec(
    spec: ModelSpec, device: torch.device, progress: Progress, *, allow_remote_code: bool
) -> LoadedModel:
    """Check, read and place ``spec``'s model, and wrap it in its family's backend."""
    config = read_config(spec.path)
    estimate = sum(safetensors_parameters(path) for path in weight_files(spec.path))
    trust_code = spec.needs_remote_code and allow_remote_code
    progress(LoadProgress("loading tokenizer", 0.0, "Loading the tokenizer…"))
    table = load_table(spec, config, trust_code)
    progress(LoadProgress("loading tokenizer", 1.0))
    dtype = choose_dtype(device, estimate)
    reading = f"Reading {short_count(estimate)} weights…"
    progress(LoadProgress("loading weights", -1.0, reading))
    with weights_progress(progress, reading):
        model = load_weights(spec, device, dtype, trust_code)
    progress(LoadProgress("placing on device", 0.0, f"Placing the model on {device}…"))
    model = prepare(model, spec, device)
    target = input_device(model, device)
    backend = make_backend(model, table, spec, target)
    progress(LoadProgress("placing on device", 1.0))
    return LoadedModel(backend=backend, info=model_info(spec, model, target), spec=spec)


def model_info(spec: ModelSpec, model: Any, device: torch.device) -> ModelInfo:
    return ModelInfo(
        model_id=spec.id,
        display_name=spec.display_name,
        family=spec.family,
        device=str(device),
        parameters=sum(p.numel() for p in model.parameters()),
        placement=placement_summary(model, device),
    )


def short_count(n: int) -> str:
    """135M, 26.0B, 44k: a parameter count as people say it."""
    for size, suffix in ((1e9, "B"), (1e6, "M"), (1e3, "k")):
        if n >= size:
            return f"{n / size:.1f}{suffix}" if suffix == "B" else f"{n / size:.0f}{suffix}"
    return str(n)


def prepare(model: Any, spec: ModelSpec, device: torch.device) -> Any:
    """Text-only, adapter merged, on its device, in inference mode (no gradients anywhere)."""
    if spec.family == "diffusion-gemma":
        drop_vision(model)
    if spec.adapter is not None:
        merge_lora(model, spec.adapter)
    try:
        if not getattr(model, "hf_device_map", None):
            model = model.to(device)
    except (torch.OutOfMemoryError, MemoryError) as exc:
        raise OutOfMemory(
            f"{spec.display_name} does not fit on the {device.type}. "
            + OOM_ADVICE.format(device=device.type)
        ) from exc
    model.eval()
    model.requires_grad_(False)
    return model


def make_backend(model: Any, table: TokenTable, spec: ModelSpec, device: torch.device) -> Any:
    if spec.family == "diffusion-gemma":
        from engine.backends.gemma.backend import GemmaBackend

        return GemmaBackend(model, table, device=device)
    from engine.backends.masked.backend import MaskedBackend

    causal = spec.adapter is not None and adapter_attention(spec.adapter) == "prefix-causal"
    return MaskedBackend(
        model,
        table,
        shifted=spec.shifted,
        force_bidirectional=spec.force_bidirectional,
        device=device,
        causal_prefix=causal,
        base=BaseSwitch(model, spec.adapter) if causal and spec.adapter is not None else None,
    )


def load(request: LoadModel, progress: Progress) -> LoadedModel:
    """Load the requested model onto its device and wrap it in its family's backend."""
    spec = resolve(request.model)
    device = pick_device(request.device)
    if spec.needs_remote_code and not request.allow_remote_code:
        raise ModelLoadError(
            f"{spec.display_name} runs its own Python code from its folder ({spec.path}). "
            "Settle needs your consent to run a model's own code; allow it for this model "
            "and load it again."
        )
    if spec.source == "embedded":
        _, problem = embedded.adapter_state()
        if problem:
            raise ModelLoadError(problem)
        embedded.ensure_converted(progress)
        spec = replace(spec, path=embedded.converted_folder())
    return load_spec(spec, device, progress, allow_remote_code=request.allow_remote_code)
