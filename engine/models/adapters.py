"""Merging a LoRA adapter (PEFT's on-disk format) into a loaded model's weights.

The embedded model becomes a diffusion model through an adapter kept in
``resources/models/smollm2-diffusion/`` (``adapter_config.json`` + ``adapter_model.safetensors``,
as ``peft`` saves them). Merging it once at load (``W += scale · B @ A``) costs nothing per step
and needs no ``peft`` dependency. :class:`BaseSwitch` takes it back out on demand, so the
same weights also run as the base model (verified drafting reads with it, :mod:`engine.backends.
verified`). Anything beyond plain LoRA on linear layers is refused with a
clear error rather than half-applied, since a half-applied adapter would look adapted and not be.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import torch

from engine.core.errors import ModelLoadError

CONFIG = "adapter_config.json"
WEIGHTS = "adapter_model.safetensors"
# Trained embedding rows (the mask and filler tokens), kept apart from the LoRA tensors.
ROWS = "token_rows.safetensors"
# PEFT saves keys as "base_model.model.<module path>.lora_A.weight".
KEY_PREFIX = "base_model.model."
UNSUPPORTED_OPTIONS = ("use_dora", "fan_in_fan_out")


def lora_scale(config: dict[str, Any]) -> float:
    """PEFT's scaling: ``alpha / r``, or ``alpha / sqrt(r)`` for rank-stabilised LoRA."""
    rank = int(config["r"])
    alpha = float(config.get("lora_alpha", rank))
    return alpha / math.sqrt(rank) if config.get("use_rslora") else alpha / rank


def read_adapter(folder: Path) -> tuple[float, dict[str, tuple[torch.Tensor, torch.Tensor]]]:
    """The scale and, per module path, its ``(A, B)`` pair; a malformed adapter is refused."""
    from safetensors.torch import load_file

    try:
        config = json.loads((folder / CONFIG).read_text(encoding="utf-8"))
        scale = lora_scale(config)
        tensors = load_file(str(folder / WEIGHTS))
    except Exception as exc:  # unreadable JSON, missing keys, corrupt safetensors
        raise ModelLoadError(f"The adapter in {folder} cannot be read: {exc}") from exc
    problems = [o for o in UNSUPPORTED_OPTIONS if config.get(o)]
    if config.get("peft_type", "LORA") != "LORA" or problems or config.get("modules_to_save"):
        raise ModelLoadError(
            f"The adapter in {folder} is no plain LoRA adapter ({config.get('peft_type')}, "
            f"{problems or config.get('modules_to_save')}); Settle can merge plain LoRA only."
        )
    pairs: dict[str, dict[str, torch.Tensor]] = {}
    for key, tensor in tensors.items():
        module, _, part = key.removeprefix(KEY_PREFIX).rpartition(".lora_")
        if part not in ("A.weight", "B.weight"):
            raise ModelLoadError(f"The adapter in {folder} has an unexpected tensor {key!r}.")
        pairs.setdefault(module, {})[part[0]] = tensor
    if any(len(pair) != 2 for pair in pairs.values()):
        raise ModelLoadError(f"The adapter in {folder} has a LoRA layer without its A or B half.")
    return scale, {module: (pair["A"], pair["B"]) for module, pair in pairs.items()}


def adapter_attention(folder: Path) -> str:
    """How the adapter was trained to attend: "bidirectional" (the default) or "prefix-causal"."""
    try:
        config = json.loads((folder / CONFIG).read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise ModelLoadError(f"The adapter in {folder} cannot be read: {exc}") from exc
    return str(config.get("attention", "bidirectional"))


def merge_lora(model: Any, folder: Path) -> int:
    """Add the adapter's low-rank updates into ``model``'s linear weights; returns layers merged.

    Trained token rows, when the adapter has them, are applied too (:func:`apply_token_rows`).
    """
    scale, pairs = read_adapter(folder)
    modules = dict(model.named_modules())
    for name, (a, b) in pairs.items():
        weight = getattr(modules.get(name), "weight", None)
        if not isinstance(weight, torch.Tensor) or weight.shape != (b.shape[0], a.shape[1]):
            raise ModelLoadError(
                f"The adapter in {folder} does not fit this model (layer {name!r})."
            )
        delta = scale * (b.to(torch.float32) @ a.to(torch.float32))
        with torch.no_grad():
            weight.add_(delta.to(device=weight.device, dtype=weight.dtype))
    apply_token_rows(model, folder)
    return len(pairs)


def apply_token_rows(model: Any, folder: Path) -> None:
    """Add the adapter's trained embedding-row deltas (``token_rows`` in its config), if any.

    The deltas go into the input embedding and, when the output head is a separate matrix, into
    its rows too: training learned one delta used on both sides (SmolLM2 ties them anyway).
    """
    from safetensors.torch import load_file

    config = json.loads((folder / CONFIG).read_text(encoding="utf-8"))
    spec = config.get("token_rows")
    if not spec:
        return
    try:
        delta = load_file(str(folder / spec["file"]))["delta"]
        ids = [int(i) for i in spec["ids"]]
    except Exception as exc:  # a missing file, a wrong key: the adapter is broken
        raise ModelLoadError(
            f"The token rows of the adapter in {folder} cannot be read: {exc}"
        ) from exc
    weights = {model.get_input_embeddings().weight, model.get_output_embeddings().weight}
    for weight in weights:
        if delta.shape != (len(ids), weight.shape[1]) or max(ids) >= weight.shape[0]:
            raise ModelLoadError(
                f"The token rows of the adapter in {folder} do not fit this model."
            )
        with torch.no_grad():
            weight[ids] += delta.to(device=weight.device, dtype=weight.dtype)


class BaseSwitch:
    """The merged adapter taken back out on demand: forwards inside :meth:`off` run the base.

    Keeping the base weights beside the merged ones would cost a second copy of the model
    (540 MB at 135M parameters in float32); each adapted linear layer instead subtracts its own
    low-rank update (``scale · x Aᵀ Bᵀ``: rank-r work, a few percent of the layer's) while
    switched off. The trained token rows stay: only the mask and filler rows changed, and the
    base never reads either.
    """

    def __init__(self, model: Any, folder: Path) -> None:
        scale, pairs = read_adapter(folder)
        modules = dict(model.named_modules())
        self.scale = scale
        self.layers: list[tuple[Any, torch.Tensor, torch.Tensor]] = []
        for name, (a, b) in pairs.items():
            weight = modules[name].weight
            a, b = (t.to(weight.device, weight.dtype) for t in (a, b))
            self.layers.append((modules[name], a, b))

    @contextmanager
    def off(self) -> Iterator[None]:
        """Forwards of the model inside this block run without the adapter."""
        handles = [module.register_forward_hook(self._undo(a, b)) for module, a, b in self.layers]
        try:
            yield
        finally:
            for handle in handles:
                handle.remove()

    def _undo(self, a: torch.Tensor, b: torch.Tensor) -> Callable[..., torch.Tensor]:
        scale = self.scale

        def hook(_module: Any, inputs: tuple[torch.Tensor, ...], output: torch.Tensor) -> Any:
            return output - scale * ((inputs[0] @ a.t()) @ b.t())

        return hook
