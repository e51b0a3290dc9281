"""LoRA written out (no ``peft``): wrapped linear layers, trained token rows, and saving both.

The saved adapter is what :func:`engine.models.adapters.merge_lora` reads: PEFT's on-disk format
(``adapter_config.json`` + ``adapter_model.safetensors`` keyed
``base_model.model.<module>.lora_A.weight``), plus the trained embedding rows of the mask and
filler tokens' embedding rows as deltas in their own file (``token_rows.safetensors``), which
:func:`engine.models.adapters.apply_token_rows` adds into the embedding at load.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any

import torch
from torch import nn

from engine.models.adapters import CONFIG, KEY_PREFIX, ROWS, WEIGHTS

TARGETS = ("q_proj", "k_proj", "v_proj", "o_proj", "gate_proj", "up_proj", "down_proj")


class LoRALinear(nn.Module):
    """``base(x) + scale · B(A(x))``, with ``B`` starting at zero so training starts at the base."""

    def __init__(self, base: nn.Linear, rank: int, alpha: float) -> None:
        super().__init__()
        self.base = base
        self.scale = alpha / rank
        self.lora_A = nn.Parameter(torch.empty(rank, base.in_features))
        self.lora_B = nn.Parameter(torch.zeros(base.out_features, rank))
        nn.init.kaiming_uniform_(self.lora_A, a=math.sqrt(5))  # PEFT's initialisation

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.base(x) + (x @ self.lora_A.t().to(x.dtype)) @ self.lora_B.t().to(x.dtype) * (
            self.scale
        )


class TokenRows(nn.Module):
    """Trainable replacements for a few rows of a tied embedding (the mask and filler tokens).

    Only deltas are learned: the input side adds them to the looked-up embeddings, the output
    side adds ``h · delta`` to those tokens' logits. That equals training the rows of the tied
    matrix, without a gradient for all 49k rows.
    """

    def __init__(self, ids: list[int], width: int) -> None:
        super().__init__()
        self.ids = ids
        self.delta = nn.Parameter(torch.zeros(len(ids), width))

    def embed(self, input_ids: torch.Tensor, embeds: torch.Tensor) -> torch.Tensor:
        for k, token in enumerate(self.ids):
            hit = (input_ids == token).unsqueeze(-1).to(embeds.dtype)
            embeds = embeds + hit * self.delta[k].to(embeds.dtype)
        return embeds

    def logits(self, hidden: torch.Tensor, logits: torch.Tensor) -> torch.Tensor:
        index = torch.tensor(self.ids, device=logits.device)
        extra = (hidden @ self.delta.t().to(hidden.dtype)).to(logits.dtype)
        return logits.index_add(-1, index, extra)


def inject(model: nn.Module, rank: int, alpha: float) -> list[str]:
    """Wrap every target linear layer of ``model`` in :class:`LoRALinear`; returns their names."""
    names = [n for n, m in model.named_modules() if isinstance(m, nn.Linear) and _target(n)]
    for name in names:
        parent_name, _, child = name.rpartition(".")
        parent = model.get_submodule(parent_name)
        setattr(parent, child, LoRALinear(getattr(parent, child), rank, alpha))
    return names


def _target(name: str) -> bool:
    return name.rpartition(".")[2] in TARGETS


def lora_state(model: nn.Module) -> dict[str, torch.Tensor]:
    """The adapter tensors under PEFT's key names."""
    state: dict[str, torch.Tensor] = {}
    for name, module in model.named_modules():
        if isinstance(module, LoRALinear):
            state[f"{KEY_PREFIX}{name}.lora_A.weight"] = module.lora_A.detach()
            state[f"{KEY_PREFIX}{name}.lora_B.weight"] = module.lora_B.detach()
    return state


def save_adapter(
    folder: Path, model: Any, rows: TokenRows, config: dict[str, Any], dtype: torch.dtype
) -> None:
    """Write the adapter (weights in ``dtype``) and its config into ``folder``."""
    from safetensors.torch import save_file

    folder.mkdir(parents=True, exist_ok=True)
    tensors = {k: v.to(dtype).contiguous() for k, v in lora_state(model).items()}
    save_file(tensors, str(folder / WEIGHTS))
    # fp32: two rows cost nothing, and a bf16 delta would round away small updates
    save_file({"delta": rows.delta.detach().float().contiguous()}, str(folder / ROWS))
    full = {**config, "token_rows": {"file": ROWS, "ids": rows.ids}}
    (folder / CONFIG).write_text(json.dumps(full, indent=2) + "\n", encoding="utf-8")


def load_adapter_into(model: nn.Module, rows: TokenRows, folder: Path) -> None:
    """Start training from a saved adapter: its LoRA pairs and token rows, same rank and ids."""
    from safetensors.torch import load_file

    from engine.models.adapters import read_adapter

    _, pairs = read_adapter(folder)
    modules = dict(model.named_modules())
    with torch.no_grad():
        for name, (a, b) in pairs.items():
            layer = modules[name]
            assert isinstance(layer, LoRALinear), f"{name} is not a LoRA layer"
            layer.lora_A.copy_(a.float())
            layer.lora_B.copy_(b.float())
        saved = json.loads((folder / CONFIG).read_text(encoding="utf-8"))["token_rows"]
        if list(saved["ids"]) == rows.ids:
            rows.delta.copy_(load_file(str(folder / ROWS))["delta"].float())
