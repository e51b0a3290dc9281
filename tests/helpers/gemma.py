"""The tiny DiffusionGemma as a Settle backend: its TokenTable and a ready GemmaBackend.

The tiny tokenizer has no chat template, so prompts use the plain layout; ``<fill>`` is the
filler (never generated as text), and DiffusionGemma needs no mask token.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache

from engine.backends.base import StepResult
from engine.backends.gemma.backend import GemmaBackend
from engine.core.canvas import Canvas
from engine.core.config import SamplerSettings
from engine.core.tokens import TokenTable, special_tokens
from tests.helpers.tiny import tiny_diffusion_gemma, tiny_tokenizer


@cache
def gemma_table() -> TokenTable:
    tok = tiny_tokenizer()
    specials = special_tokens(tok, len(tok), need_mask=False, filler_candidates=("<fill>",))
    return TokenTable(tok, specials)


def gemma_backend(seed: int = 0, canvas_length: int = 32) -> GemmaBackend:
    return GemmaBackend(tiny_diffusion_gemma(seed, canvas_length), gemma_table())


class RecordingBackend:
    """Wraps a backend and keeps every StepResult it yields (for checks run_edit hides)."""

    def __init__(self, inner: GemmaBackend) -> None:
        self.inner = inner
        self.family = inner.family
        self.table = inner.table
        self.max_canvas_tokens = inner.max_canvas_tokens
        self.results: list[StepResult] = []
        self.canvases: list[Canvas] = []

    def reader(self) -> None:
        return None

    def denoise(self, canvas: Canvas, settings: SamplerSettings) -> Iterator[StepResult]:
        self.results = []
        self.canvases.append(canvas)
        for result in self.inner.denoise(canvas, settings):
            self.results.append(result)
            yield result
