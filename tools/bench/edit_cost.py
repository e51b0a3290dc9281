"""Edit cost against document length: rewrite the last paragraph of a 1k…32k-token document.

Each length's first edit of its document is measured (what a user's first try costs), and the
windowed one again (a second try, with whatever the backend kept from the first).

Measured twice: with the context window as shipped (``SamplerSettings.context_tokens`` tokens
before the target, which bounds the cost by construction) and with the window opened to the
whole document, which the model's own context length then caps (8192 positions for SmolLM2).
The opened window is measured a third time with the masked backend's prefix KV cache
(:mod:`engine.backends.masked.prefix_cache`, opt-in): cold, the first edit of a document, which
encodes
the prefix once, and warm, the same paragraph edited again, which reuses it whole.
"""

from __future__ import annotations

import time
from typing import Any, cast

from engine.backends.base import Backend
from engine.backends.masked.backend import MaskedBackend
from engine.backends.masked.prefix_cache import PrefixCache
from engine.backends.masked.sizing import fit_context
from engine.core.canvas import build_canvas
from engine.core.config import SamplerSettings
from engine.core.context import after_ids, before_ids, instruction_ids
from engine.core.plan import plan_edit
from engine.core.protocol import Edit, Proposal, Span
from engine.run.edit_run import run_edit
from tools.bench.common import heldout_text, median

PARAGRAPH_TOKENS = 64
OPEN = 1 << 20  # a context budget no document here reaches: "the whole document"


def document(table: Any, tokens: int) -> tuple[str, Span]:
    """A document of about ``tokens`` tokens of held-out prose; the target is its last paragraph,
    the same text at every length (the held-out text's first tokens), so lengths differ only in
    what comes before it: cut from the repeated text, each length's last paragraph was other
    text (Python examples at 1k, JSON at 32k), and the table compared different rewrites."""
    source = heldout_text()
    ids: list[int] = []
    while len(ids) < tokens:
        ids += table.encode(source + "\n\n")
    body = table.decode(ids[: tokens - PARAGRAPH_TOKENS])
    paragraph = table.decode(ids[:PARAGRAPH_TOKENS]).strip()
    text = body.rstrip() + "\n\n" + paragraph
    return text, Span(len(text) - len(paragraph), len(text))


def seen_tokens(backend: MaskedBackend, edit: Edit) -> int:
    """How many positions the model's input holds for this edit (context plus canvas)."""
    plan = plan_edit(edit)
    canvas = len(build_canvas(plan, backend.table, edit.settings, backend.max_canvas_tokens))
    parts = fit_context(
        instruction_ids(plan, backend.table),
        before_ids(plan, backend.table, edit.settings),
        after_ids(plan, backend.table, edit.settings),
        backend.max_positions - 1 - canvas,
    )
    return 1 + sum(len(p) for p in parts) + canvas


def timed_edit(backend: MaskedBackend, edit: Edit) -> tuple[float, int]:
    """(seconds to the settled proposal, forwards) of one edit."""
    started = time.perf_counter()
    proposal = None
    for event in run_edit(cast(Backend, backend), edit):
        if isinstance(event, Proposal):
            proposal = event
    if proposal is None:
        raise RuntimeError("the edit ended without a proposal")
    return time.perf_counter() - started, proposal.metrics.forwards


def cached_edits(backend: MaskedBackend, edit: Edit, repeats: int) -> dict[str, float]:
    """The edit with prefix KV reuse on: cold (the prefix encoded first) and warm (the same
    document edited again, so the cache is reused whole), plus prefix tokens encoded."""
    cache = PrefixCache()
    with backend.path.prefix_cache_swapped(cache):  # a prefix-causal model keeps its own
        cold = timed_edit(backend, edit)[0]
        warm = median([timed_edit(backend, edit)[0] for _ in range(repeats)])
    return {"cold_edit_s": cold, "warm_edit_s": warm, "prefix_tokens": cache.encoded_tokens}


def edit_cost(
    backend: MaskedBackend, lengths: tuple[int, ...], steps: int = 2, repeats: int = 1
) -> dict[str, Any]:
    """Seconds per edit at each length: windowed as shipped, opened to the whole document, and
    opened with the prefix KV cache (cold and warm); the last-to-first ratios of each."""
    results: dict[str, Any] = {"steps": steps, "lengths": list(lengths), "windowed": {}, "open": {}}
    # verify_drafts 0: the last paragraph at strength 1 with nothing after it is a continuation,
    # which the base model would verify and end at a sentence end, so each length would write
    # a different number of tokens (54 forwards at 1k, 100 at 32k in the stop-15 run): the
    # table measures what the context costs, with the same work at every length.
    base = SamplerSettings(
        steps=steps, block_length=0, strength=1.0, slack=0.0, seed=0, verify_drafts=0.0
    )
    windows = {"windowed": base, "open": base.with_changes(context_tokens=OPEN, suffix_tokens=OPEN)}
    # The warm-up edits another document: a prefix-causal model keeps the text before its last
    # target cached, so warming up on the first length's document measured that length's edit
    # warm (1.5 s) and every other cold (3.7 s), a 2.5x that was only the cache.
    text, target = document(backend.table, lengths[0] // 2)
    timed_edit(backend, Edit(1, text, target, settings=base))
    for name, settings in windows.items():
        for length in lengths:
            text, target = document(backend.table, length)
            edit = Edit(1, text, target, settings=settings)
            first, forwards = timed_edit(backend, edit)
            row: dict[str, Any] = {
                "edit_s": first,
                "forwards": forwards,
                "model_sees_tokens": seen_tokens(backend, edit),
            }
            if name == "windowed":  # the same edit again: what a second try costs
                row["again_s"] = median([timed_edit(backend, edit)[0] for _ in range(repeats)])
            if name == "open" and backend.path.can_cache_prefix:
                row["cached"] = cached_edits(backend, edit, repeats)
            results[name][str(length)] = row
        results[name]["ratio_last_to_first"] = ratio(results[name], lengths, "edit_s")
    results["windowed"]["again_ratio"] = ratio(results["windowed"], lengths, "again_s")
    if backend.path.can_cache_prefix:
        for key in ("cold_edit_s", "warm_edit_s"):
            rows = {str(n): results["open"][str(n)]["cached"] for n in lengths}
            results["open"][f"cached_{key[:4]}_ratio"] = ratio(rows, lengths, key)
    return results


def ratio(rows: dict[str, Any], lengths: tuple[int, ...], key: str) -> float:
    return float(rows[str(lengths[-1])][key] / rows[str(lengths[0])][key])
