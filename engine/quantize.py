"""Int8 weights for the CPU: what makes a denoising step cheap where the step is memory-bound.

A step of the embedded 135M model on this class of CPU reads every weight once and does little
arithmetic with it: one thread, fp32, a forward of 1 / 8 / 49 tokens against a 300-token cache
took 70 / 111 / 255 ms (2026-11-30, 2-core EPYC, AVX2). The few rows a cached step runs cost
about as much as one row, so the weights' bytes set the time. Dynamic int8 quantization of the
linear layers (PyTorch's fbgemm kernels: int8 weights per output channel, activations
quantized per call) reads a quarter of the bytes: an 8-token forward took 36 ms against 132 ms
in the same sitting.

Opt-in per load (:attr:`engine.protocol.LoadModel.weights`): ``"int8"`` quantizes, ``"full"``
keeps the checkpoint's dtype, ``"auto"`` quantizes where it pays and is supported (an fp32
model on the CPU). The quality suite measures each choice (``python -m engine.eval --weights``).
"""

from __future__ import annotations

import warnings
from typing import Any

import torch

from engine.errors import BadRequest

WEIGHT_CHOICES = ("auto", "full", "int8")


def check_weights(choice: str) -> str:
    """``choice`` if Settle knows it, else a clear error (it comes from a flag or a request)."""
    if choice not in WEIGHT_CHOICES:
        raise BadRequest(f"Unknown weights {choice!r}; choose one of: {', '.join(WEIGHT_CHOICES)}.")
    return choice


def int8_supported() -> bool:
    """Whether this PyTorch build has a CPU int8 engine (fbgemm on x86, qnnpack on ARM)."""
    return any(
        engine in ("fbgemm", "x86", "qnnpack")
        for engine in torch.backends.quantized.supported_engines
    )


def wants_int8(choice: str, device: torch.device, dtype: torch.dtype) -> bool:
    """Whether a model loaded in ``dtype`` on ``device`` gets int8 weights under ``choice``.

    "auto" only picks it for fp32 on the CPU: a bf16 model is there because the CPU has AMX
    (where bf16 already halves the bytes and runs on matrix units), and accelerators have
    their own kernels.
    """
    if check_weights(choice) == "full" or device.type != "cpu" or not int8_supported():
        return False
    return choice == "int8" or dtype == torch.float32


def quantize_int8(model: Any) -> int:
    """Replace ``model``'s linear layers by dynamic int8 ones, in place; returns how many.

    The LM head is one of them: it is the largest single matrix of a small model (49k x 576 of
    135M parameters). PyTorch warns that this API is deprecated; the pinned torch has it, and
    the warning would only reach users' terminals.
    """
    from torch.ao.quantization import quantize_dynamic

    before = sum(isinstance(m, torch.nn.Linear) for m in model.modules())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8, inplace=True)
    after = sum(isinstance(m, torch.nn.Linear) for m in model.modules())
    return before - after
