"""Shared pieces of the benchmarks: the machine's description, medians, held-out text, scoring.

The held-out text is the docstrings of a fixed list of standard-library modules: prose the
adaptation corpus (Debian documentation packages) does not contain verbatim in this form, that
ships with every Python, and that stays fixed for a given Python version.
"""

from __future__ import annotations

import importlib
import inspect
import os
import platform
import resource
import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

HELDOUT_MODULES = (
    "textwrap", "difflib", "heapq", "fractions", "statistics", "shlex", "calendar", "bisect",
    "argparse", "string", "fnmatch", "glob", "tempfile", "zipfile", "csv", "json",
)  # fmt: skip


def machine() -> dict[str, Any]:
    """What the numbers were measured on: CPU model, cores, library versions, torch threads."""
    import torch
    import transformers

    return {
        "cpu": _cpu_model(),
        "cores": os.cpu_count(),
        "platform": platform.platform(),
        "python": platform.python_version(),
        "torch": torch.__version__,
        "transformers": transformers.__version__,
        "torch_threads": torch.get_num_threads(),
        "amx": bool(getattr(torch.cpu, "_is_amx_tile_supported", lambda: False)()),
        "cuda": torch.cuda.get_device_name(0) if torch.cuda.is_available() else None,
    }


def _cpu_model() -> str:
    info = Path("/proc/cpuinfo")
    if info.is_file():
        for line in info.read_text(errors="replace").splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor() or "unknown"


def peak_rss_mb() -> float:
    """This process's peak resident set size (Linux reports kilobytes)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def median(values: Sequence[float]) -> float:
    return float(statistics.median(values)) if values else float("nan")


def heldout_text() -> str:
    """The held-out prose: standard-library module docstrings, paragraphs joined by blank lines."""
    parts = []
    for name in HELDOUT_MODULES:
        doc = inspect.getdoc(importlib.import_module(name)) or ""
        parts += [p.strip() for p in doc.split("\n\n") if len(p.strip()) > 80]
    return "\n\n".join(parts)


@dataclass(frozen=True)
class Cut:
    """A span of held-out text to regenerate: the text around it and the span's reference ids."""

    before: str
    span: str
    after: str
    reference: tuple[int, ...]


class Codec(Protocol):
    """What cutting needs from a tokenizer (a :class:`~engine.core.tokens.TokenTable` fits)."""

    def encode(self, text: str) -> list[int]: ...

    def decode(self, ids: Sequence[int]) -> str: ...


def cut_spans(
    text: str, codec: Codec, count: int, span_tokens: int, before_tokens: int, after_tokens: int
) -> list[Cut]:
    """``count`` evenly spaced cuts of ``span_tokens`` tokens, each with its context tokens.

    Cuts follow token boundaries of the whole text; the reference is the span's text encoded on
    its own, which is what a canvas holding that span would contain.
    """
    ids = codec.encode(text)
    window = before_tokens + span_tokens + after_tokens
    room = len(ids) - window
    if room < 0 or count < 1:
        raise ValueError(f"the held-out text has {len(ids)} tokens; a cut needs {window}")
    cuts = []
    for k in range(count):
        start = room * k // (count - 1) if count > 1 else room // 2
        a, b = start + before_tokens, start + before_tokens + span_tokens
        span = codec.decode(ids[a:b])
        before, after = codec.decode(ids[start:a]), codec.decode(ids[b : b + after_tokens])
        cuts.append(Cut(before, span, after, tuple(codec.encode(span))))
    return cuts


def token_accuracy(predicted: Sequence[int], reference: Sequence[int]) -> float:
    """Share of reference positions the prediction matches; missing positions count as wrong."""
    if not reference:
        return 0.0
    hits = sum(1 for p, r in zip(predicted, reference, strict=False) if p == r)
    return hits / len(reference)
