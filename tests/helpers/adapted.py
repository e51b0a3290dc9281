"""A tiny causal model with a random LoRA adapter merged, as the loader builds the embedded one.

The adapter is saved in PEFT's format (:func:`tools.adapt.lora.save_adapter`) with the
"prefix-causal" attention the shipped adapter declares, merged into a fresh copy of the same
tiny Llama, and wrapped as the loader wraps it: prefix cache on, adapter switchable off.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar, TypeVar

import torch

from engine.backends.masked.backend import MaskedBackend
from engine.models.adapters import BaseSwitch, merge_lora
from tests.helpers.backends import tiny_table
from tests.helpers.tiny import tiny_llama
from tools.adapt.lora import TokenRows, inject, save_adapter

SEED = 0
T = TypeVar("T")


def save_tiny_adapter(folder: Path, scale: float = 0.2) -> Path:
    """A rank-4 adapter on every linear layer, its B half random (so it changes the model)."""
    model = tiny_llama(SEED)
    model.requires_grad_(False)
    inject(model, rank=4, alpha=8.0)
    with torch.no_grad():
        for name, param in model.named_parameters():
            if "lora_B" in name:
                param.normal_(0, scale)
    specials = tiny_table().specials
    assert specials.mask_id is not None
    rows = TokenRows([specials.mask_id, specials.filler_id], model.config.hidden_size)
    config = {"peft_type": "LORA", "r": 4, "lora_alpha": 8.0, "attention": "prefix-causal"}
    save_adapter(folder, model, rows, config, torch.float32)
    return folder


def adapted_backend(folder: Path) -> MaskedBackend:
    """The tiny Llama with the adapter in ``folder`` merged, as :func:`make_backend` sets it up."""
    model = tiny_llama(SEED)
    merge_lora(model, folder)
    return MaskedBackend(
        model, tiny_table(), shifted=True, force_bidirectional=True, causal_prefix=True,
        base=BaseSwitch(model, folder),
    )  # fmt: skip


def recording(cls: type[T]) -> Any:
    """``cls`` with every instance remembered in ``made``, so a test can monkeypatch it in and
    then rebuild the request an instance served."""

    class Recording(cls):  # type: ignore[misc, valid-type]
        made: ClassVar[list[Any]] = []

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, **kwargs)
            Recording.made.append(self)

    return Recording
