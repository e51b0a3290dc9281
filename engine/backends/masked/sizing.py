"""How much a masked model takes: its context length, its largest canvas, and the context kept
around a canvas when the document is longer than the model's window; the special tokens a
masked model cannot do without."""

from __future__ import annotations

from typing import Any

from engine.core.errors import ModelLoadError
from engine.core.tokens import TokenTable

# Canvases beyond this many tokens make a step too slow to watch on a laptop CPU.
CANVAS_CAP = 1024
# Positions kept for the instruction and document context around even the longest canvas.
CONTEXT_ROOM = 256
# Where configs keep their context length, by family (Llama/BERT, LLaDA, GPT-2 style).
POSITION_KEYS = ("max_position_embeddings", "max_sequence_length", "n_positions")


def special_ids(table: TokenTable) -> tuple[int, int]:
    """The mask token and the start token (BOS, else the first EOS) a masked model needs."""
    specials = table.specials
    if specials.mask_id is None:
        raise ModelLoadError("A masked-diffusion model needs a mask token; this one has none.")
    start = specials.bos_id if specials.bos_id is not None else next(iter(specials.eos_ids), None)
    if start is None:
        raise ModelLoadError("This model's tokenizer has neither a BOS nor an EOS token.")
    return specials.mask_id, start


def max_positions(config: Any) -> int:
    """The model's context length from its config, or enough for the largest canvas if unknown."""
    for key in POSITION_KEYS:
        value = getattr(config, key, None)
        if isinstance(value, int) and value > 0:
            return value
    return CANVAS_CAP + CONTEXT_ROOM


def max_canvas(positions: int) -> int:
    """Canvas tokens a model of ``positions`` context takes, leaving room for its context."""
    return max(0, min(CANVAS_CAP, positions - min(CONTEXT_ROOM, positions // 2)))


def fit_context(
    instruction: list[int], before: list[int], after: list[int], room: int
) -> tuple[list[int], list[int], list[int]]:
    """Cut the context to ``room`` tokens: instruction first, then mostly the text before.

    Text before the target matters most (it is what the canvas continues), so the text after
    gets at most a third of what is left unless the text before needs less.
    """
    instruction = instruction[: max(room, 0)]
    room = max(room - len(instruction), 0)
    keep_after = min(len(after), room // 3)
    keep_before = min(len(before), room - keep_after)
    keep_after = min(len(after), room - keep_before)
    return instruction, before[len(before) - keep_before :], after[:keep_after]
