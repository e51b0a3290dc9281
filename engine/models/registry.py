"""The model registry: which models Settle can run, where they are, and how each one runs.

A model is described by a :class:`ModelSpec` before anything heavy is imported: :func:`discover`
lists the embedded default and the runnable models in the Hugging Face hub cache (read from disk
only: Settle never downloads), :func:`resolve` turns a name from the window or the CLI into a
spec. Loading one (a :class:`~engine.core.protocol.LoadModel` request into a ready backend) is
:func:`engine.models.loading.load`, which imports this module, never the other way round; the
embedded
model's one-off conversion is in :mod:`engine.models.embedded`.

How a checkpoint runs is decided by its ``config.json`` through one table, :data:`ARCHES`, and
the tokens each architecture uses as mask and filler through another, :data:`TOKEN_CHOICES`.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from engine.core.errors import ModelLoadError
from engine.core.protocol import LoadProgress, ModelInfo
from engine.models import embedded

Progress = Callable[[LoadProgress], None]

# --- how each architecture runs ---------------------------------------------------------------


@dataclass(frozen=True)
class Arch:
    """How one kind of checkpoint runs as a Settle backend."""

    name: str
    family: str  # "masked" | "diffusion-gemma"
    auto_class: str  # the transformers class that loads it
    shifted: bool  # predicts token i at row i-1 (Dream-style)
    force_bidirectional: bool  # a causal model made to attend both ways
    adapted: bool  # trained to denoise; False: a base model run as a masked-diffusion model


GEMMA_CLASS = "DiffusionGemmaForBlockDiffusion"
ARCHES: dict[str, Arch] = {
    arch.name: arch
    for arch in (
        # name             family             transformers class       shifted bidir. adapted
        Arch("diffusion-gemma", "diffusion-gemma", GEMMA_CLASS,      False,  False, True),
        Arch("masked-lm",  "masked",          "AutoModelForMaskedLM",  False,  False, True),
        Arch("llada",      "masked",          "AutoModel",             False,  False, True),
        Arch("dream",      "masked",          "AutoModel",             True,   False, True),
        Arch("causal",     "masked",          "AutoModelForCausalLM",  True,   True,  False),
    )
}  # fmt: skip

# The families whose models are instruction-tuned and follow any instruction, by the name the
# model picker shows them under: what a rewrite that a small masked model cannot follow names.
INSTRUCTION_TUNED_FAMILIES: dict[str, str] = {"diffusion-gemma": "DiffusionGemma"}

# Natively supported masked LMs (bidirectional encoders with an MLM head).
MASKED_LM_TYPES = frozenset(
    {"modernbert", "bert", "roberta", "xlm-roberta", "distilbert", "camembert", "deberta-v2",
     "electra", "eurobert"}
)  # fmt: skip
# Decoder-only models whose masks come from transformers.masking_utils, which honours
# ``is_causal=False``: only these can be made bidirectional without their own code changing.
CAUSAL_TYPES = frozenset(
    {"llama", "mistral", "qwen2", "qwen3", "smollm3", "phi3", "olmo2", "granite", "gemma", "gemma2"}
)


@dataclass(frozen=True)
class TokenChoice:
    """Token *strings* tried, in order, after the tokenizer's own mask/pad token."""

    mask: tuple[str, ...]
    filler: tuple[str, ...]
    need_mask: bool = True


# The one table of per-family / per-model token choices. A base causal model has no mask token of
# its own, so an unused special token of its vocabulary stands in: SmolLM2's repository-metadata
# tokens (``<reponame>`` made a reasonable mask zero-shot), Llama 3's reserved tokens, Qwen2.5's
# FIM padding, Gemma's unused slots.
TOKEN_CHOICES: dict[str, TokenChoice] = {
    "diffusion-gemma": TokenChoice(mask=(), filler=("<pad>",), need_mask=False),
    "masked-lm": TokenChoice(mask=("[MASK]", "<mask>"), filler=("[PAD]", "<pad>")),
    "llada": TokenChoice(mask=("<|mdm_mask|>",), filler=("<|endoftext|>",)),
    "dream": TokenChoice(mask=("<|mask|>",), filler=("<|endoftext|>",)),
    "causal": TokenChoice(
        mask=("<reponame>", "<|reserved_special_token_0|>", "<|fim_pad|>", "<unused0>"),
        filler=("<empty_output>", "<|finetune_right_pad_id|>", "<|endoftext|>", "<unused1>"),
    ),
}

# --- specs -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelSpec:
    """One runnable model, described without loading it."""

    id: str  # what LoadModel.model names: "embedded", an "org/name" repo id, or a folder path
    display_name: str  # says "base, not adapted" when that is the truth
    family: str  # "masked" | "diffusion-gemma"
    path: Path  # the folder holding config.json, tokenizer and safetensors weights
    source: str  # "embedded" | "hf-cache" | "folder"
    needs_remote_code: bool
    adapted: bool
    shifted: bool
    notes: str = ""
    arch: str = "causal"  # key of ARCHES
    adapter: Path | None = None  # LoRA adapter merged at load (the embedded model's)

    @property
    def force_bidirectional(self) -> bool:
        return ARCHES[self.arch].force_bidirectional


@dataclass
class LoadedModel:
    """A model ready to edit with: what the worker keeps and what the window shows."""

    backend: Any  # engine.backends.base.Backend (kept untyped so this module imports no torch)
    info: ModelInfo
    spec: ModelSpec


def read_config(folder: Path) -> dict[str, Any]:
    """The folder's ``config.json`` as a dict, or a :class:`ModelLoadError` saying what is wrong."""
    if not folder.is_dir():
        raise ModelLoadError(f"There is no model folder at {folder}.")
    path = folder / "config.json"
    if not path.is_file():
        raise ModelLoadError(
            f"{folder} has no config.json, so it cannot be a Hugging Face model folder."
        )
    try:
        config = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelLoadError(f"The config.json in {folder} cannot be read ({exc}).") from exc
    if not isinstance(config, dict):
        raise ModelLoadError(f"The config.json in {folder} does not hold a JSON object.")
    return config


def classify(config: dict[str, Any]) -> Arch | None:
    """The architecture entry a config runs as, or None when Settle cannot run it."""
    model_type = str(config.get("model_type", "")).lower()
    auto_map = config.get("auto_map") or {}
    if model_type == "diffusion_gemma":
        return ARCHES["diffusion-gemma"]
    if model_type == "llada":
        return ARCHES["llada"]
    if model_type == "dream":
        return ARCHES["dream"]
    if model_type in MASKED_LM_TYPES or "AutoModelForMaskedLM" in auto_map:
        return ARCHES["masked-lm"]
    if model_type in CAUSAL_TYPES:
        return ARCHES["causal"]
    return None


def needs_remote_code(config: dict[str, Any], arch: Arch) -> bool:
    """True when the model's classes come from Python files in its own folder."""
    native = str(config.get("model_type", "")).lower() in MASKED_LM_TYPES | CAUSAL_TYPES
    return bool(config.get("auto_map")) and not native and arch.name != "diffusion-gemma"


def spec_for_folder(folder: Path, *, source: str, model_id: str, name: str) -> ModelSpec:
    """Describe a model folder; a config Settle cannot run is a :class:`ModelLoadError`."""
    config = read_config(folder)
    arch = classify(config)
    if arch is None:
        raise ModelLoadError(
            f"{name} is a {config.get('model_type', 'unknown')!r} model, which Settle cannot run. "
            "Supported: DiffusionGemma, LLaDA, Dream, masked LMs (ModernBERT, BERT, RoBERTa…) "
            f"and these causal models run as masked diffusion: {', '.join(sorted(CAUSAL_TYPES))}."
        )
    remote = needs_remote_code(config, arch)
    label = name if arch.adapted else f"{name} (base, not adapted)"
    notes = ""
    if remote:
        notes = "runs its own code from its folder: Settle asks first"
    elif not arch.adapted:
        notes = "a causal model run as masked diffusion without adaptation: expect rough output"
    return ModelSpec(
        id=model_id, display_name=label, family=arch.family, path=folder, source=source,
        needs_remote_code=remote, adapted=arch.adapted, shifted=arch.shifted, notes=notes,
        arch=arch.name,
    )  # fmt: skip


def embedded_spec() -> ModelSpec:
    """The embedded default (SmolLM2-135M-Instruct), whether or not it is converted yet."""
    adapter, problem = embedded.adapter_state()
    adapted = adapter is not None
    name = (
        embedded.ADAPTED_NAME
        if adapted
        else f"{embedded.DISPLAY_NAME} (embedded, base, not adapted)"
    )
    notes = problem or ("" if embedded.gguf_path() else embedded.MISSING_PACKAGE)
    return ModelSpec(
        id=embedded.EMBEDDED_ID, display_name=name,
        family="masked", path=embedded.converted_folder(), source="embedded",
        needs_remote_code=False, adapted=adapted, shifted=True, notes=notes, arch="causal",
        adapter=adapter,
    )  # fmt: skip


# --- the Hugging Face cache ----------------------------------------------------------------------


def ensure_offline_default() -> None:
    """Settle never downloads unless the user opted in by setting ``HF_HUB_OFFLINE=0``."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")


def hf_cache_dir() -> Path:
    """Where huggingface_hub keeps downloaded repos, by its own environment rules."""
    for variable in ("HF_HUB_CACHE", "HUGGINGFACE_HUB_CACHE"):
        if os.environ.get(variable):
            return Path(os.environ[variable]).expanduser()
    if os.environ.get("HF_HOME"):
        return Path(os.environ["HF_HOME"]).expanduser() / "hub"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "huggingface" / "hub"


def snapshot(repo_dir: Path) -> Path | None:
    """The snapshot ``refs/main`` points at, else the newest one holding a config.json."""
    ref = repo_dir / "refs" / "main"
    if ref.is_file():
        pinned = repo_dir / "snapshots" / ref.read_text(encoding="utf-8").strip()
        if (pinned / "config.json").is_file():
            return pinned
    candidates = [p for p in (repo_dir / "snapshots").glob("*") if (p / "config.json").is_file()]
    return max(candidates, key=lambda p: p.stat().st_mtime, default=None)


def has_safetensors(folder: Path) -> bool:
    return any(folder.glob("*.safetensors"))


def _cached_spec(repo_dir: Path) -> ModelSpec | None:
    folder = snapshot(repo_dir)
    if folder is None or not has_safetensors(folder):
        return None  # nothing Settle may load (no snapshot, or pickle/GGUF-only weights)
    repo_id = repo_dir.name.removeprefix("models--").replace("--", "/")
    try:
        return spec_for_folder(
            folder, source="hf-cache", model_id=repo_id, name=repo_id.split("/")[-1]
        )
    except ModelLoadError:
        return None  # a family Settle cannot run: not offered


def discover(hf_cache: Path | None = None) -> list[ModelSpec]:
    """The embedded default first, then the runnable models in the Hugging Face cache."""
    ensure_offline_default()
    root = hf_cache if hf_cache is not None else hf_cache_dir()
    found = [embedded_spec()]
    if root.is_dir():
        for repo_dir in sorted(root.glob("models--*")):
            spec = _cached_spec(repo_dir)
            if spec is not None:
                found.append(spec)
    return found


REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


def resolve(name: str) -> ModelSpec:
    """The spec ``name`` means: "embedded" (or its id), a folder, or an "org/name" in the cache."""
    ensure_offline_default()
    if name.strip() in ("embedded", embedded.EMBEDDED_ID):
        return embedded_spec()
    path = Path(name).expanduser()
    if path.exists() or not REPO_ID.match(name):
        folder = path.resolve()
        return spec_for_folder(folder, source="folder", model_id=str(folder), name=folder.name)
    repo_dir = hf_cache_dir() / ("models--" + name.replace("/", "--"))
    cached = snapshot(repo_dir) if repo_dir.is_dir() else None
    if cached is None:
        raise ModelLoadError(
            f"{name} is not in the Hugging Face cache ({hf_cache_dir()}) and names no folder. "
            f"Settle works offline: download it first (`hf download {name}`) or pick its folder."
        )
    return spec_for_folder(cached, source="hf-cache", model_id=name, name=name.split("/")[-1])
