"""Several masked-diffusion requests settled as one batch: one forward per round for them all.

A rewrite's later versions (:mod:`engine.run.versions`) are independent canvases over the same
document. On their own each step is a forward of one sequence; here every canvas still open
takes its next step in the same round, and the round's forwards run over all of them at once:
a model reads three sequences in one forward for less than three forwards cost (``python -m
tools.bench.review``). Everything else stays each canvas's own: its seed and generator, its
blocks and schedule, its locks, guards and decode processors, its commit (the per-request step
of :class:`~engine.backends.masked.backend.MaskedBackend`, driven by :class:`~.state.Turn`).
A canvas that has settled drops out of the batch.

Only requests that keep their keys and values (:mod:`.locked_kv`: free text's dual cache, the
shipped default, and structured fills) are batched; a round groups them by what their step runs:

* a *fill* (a block starts; the store is stale) runs every canvas-side row, after the prefix's
  exact keys and values (from the :class:`.PrefixCache`) or, without one, the whole sequence
  under the prefix-causal mask the model was adapted with;
* a *step* inside a block runs the rows it predicts and the rows committed since, against the
  rest of its store.

Each canvas of a group brings its own stored keys and values and its own rows; they are padded
to the longest and an attention mask keeps each row to its own canvas's keys (the mask is what
makes padding harmless: a padded key is never attended to, a padded row is never read). A
group of one, and a request without a store (``kv_cache`` off, or a model that cannot keep
one), runs exactly the one-request forward. The batched forward computes the same function as
one forward per canvas, but not the same floats: the padded, masked attention sums in another
order, so a near tie between two tokens can go the other way (the tests compare what holds).
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from dataclasses import dataclass
from typing import Any

import torch

from engine.backends.base import Stepped, StepResult
from engine.backends.masked.forward import ForwardPath, prefix_causal_mask
from engine.backends.masked.state import Turn, Turns, advance


def rounds(
    path: ForwardPath, prepared: Sequence[Turns | StepResult]
) -> Generator[list[Stepped], None, None]:
    """One list of steps per round, in job order; a canvas with nothing masked reports its one
    result in a first round that runs no forward. Nothing runs before the first ``next``."""
    waiting: dict[int, tuple[Turn, Turns]] = {}
    first: list[Stepped] = []
    for job, ready in enumerate(prepared):
        if isinstance(ready, StepResult):
            first.append(Stepped(job, ready, True))
            continue
        turn = next(ready, None)
        if turn is not None:  # a plan's blocks always hold a masked position: never None
            waiting[job] = (turn, ready)
    if first:
        yield first
    while waiting:
        jobs = sorted(waiting)
        with torch.inference_mode():
            logits = predict_together(path, [waiting[job][0] for job in jobs])
        stepped = []
        for job, predicted in zip(jobs, logits, strict=True):
            turn, turns = waiting.pop(job)
            following = advance(turns, predicted)
            stepped.append(Stepped(job, turn.result(), following is None))
            if following is not None:
                waiting[job] = (following, turns)
        yield stepped


def predict_together(path: ForwardPath, turns: Sequence[Turn]) -> list[torch.Tensor]:
    """Each turn's logits, as :meth:`ForwardPath.predict` gives them one at a time: the kept
    fills batched together, the kept steps together, anything else one by one."""
    out: dict[int, torch.Tensor] = {}
    fills: list[int] = []
    steps: list[int] = []
    for i, turn in enumerate(turns):
        kv = turn.state.kv
        if kv is None:
            out[i] = path.predict(turn.state, turn.positions)
        else:
            (steps if kv.ready(turn.state.seq) else fills).append(i)
    for group in (fills, steps):
        if len(group) == 1:
            out[group[0]] = path.predict(turns[group[0]].state, turns[group[0]].positions)
        elif group:
            parts = [part_of(path, turns[i]) for i in group]
            out.update(zip(group, kept_forward(path, parts), strict=True))
    return [out[i] for i in range(len(turns))]


@dataclass
class Part:
    """One canvas's share of a batched forward over kept keys and values."""

    turn: Turn
    run: torch.Tensor  # the sequence rows run through the model, sorted
    read: torch.Tensor  # indices into ``run`` of the rows whose logits the step reads
    keys: list[torch.Tensor]  # per layer (heads, stored rows, head_dim): what the rows attend to
    values: list[torch.Tensor]
    inner: torch.Tensor | None  # (run, run) bool: which run rows each sees (None: all)
    fill: bool  # the store is rebuilt from ``keys`` and the run rows (else written back)

    @property
    def stored(self) -> int:
        return int(self.keys[0].shape[1]) if self.keys else 0


def part_of(path: ForwardPath, turn: Turn) -> Part:
    """What ``turn`` runs, as :meth:`ForwardPath.predict_kept` would run it alone."""
    state = turn.state
    kv, seq = state.kv, state.seq
    assert kv is not None
    rows = state.start + turn.positions - int(path.shifted)
    if kv.ready(seq):
        assert kv.computed is not None
        stale = (seq != kv.computed).nonzero().flatten()
        run = torch.unique(torch.cat([rows, stale]))  # sorted
        keep = torch.ones(len(seq), dtype=torch.bool, device=seq.device)
        keep[run] = False
        kept = keep.nonzero().flatten()
        keys = [k[0][:, kept] for k in kv.keys]
        values = [v[0][:, kept] for v in kv.values]
        return Part(turn, run, torch.searchsorted(run, rows), keys, values, None, False)
    cut = state.start - 1
    if path.prefix_cache is not None and cut > 0:
        cache = path.prefix_cache.holding(path.model, seq[:cut])
        keys = [layer.keys[0, :, :cut].clone() for layer in cache.layers]
        values = [layer.values[0, :, :cut].clone() for layer in cache.layers]
        run = torch.arange(cut, len(seq), device=seq.device)
        return Part(turn, run, rows - cut, keys, values, None, True)
    inner = prefix_causal_mask(len(seq), cut)[0, 0].to(seq.device) if path.causal_prefix else None
    run = torch.arange(len(seq), device=seq.device)
    return Part(turn, run, rows, [], [], inner, True)


def kept_forward(path: ForwardPath, parts: Sequence[Part]) -> list[torch.Tensor]:
    """One forward over every part, padded, each row masked to its own canvas; each part's
    logits (float32, its rows in order) and its store updated as its own forward would."""
    ids, positions, mask, cache, offset = batched_inputs(path.model, parts)
    need = torch.unique(torch.cat([part.read for part in parts]))
    kwargs: dict[str, Any] = {"is_causal": False} if path.force_bidirectional else {}
    out = path.model(
        input_ids=ids, position_ids=positions, attention_mask=mask, cache=cache, use_cache=True,
        logits_to_keep=need, **kwargs,
    )  # fmt: skip
    logits = []
    for b, part in enumerate(parts):
        store(part, out.cache, b, offset)
        logits.append(out.logits[b, torch.searchsorted(need, part.read)].float())
    return logits


def batched_inputs(
    model: Any, parts: Sequence[Part]
) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor, Any, int]:
    """The padded ids and positions ``(B, R)``, the mask ``(B, 1, R, S + R)``, a cache of the
    stored keys and values ``(B, heads, S, head_dim)``, and ``S`` (where the run rows' keys
    land in the cache)."""
    from transformers import DynamicCache

    device = parts[0].run.device
    width, rows = max(p.stored for p in parts), max(len(p.run) for p in parts)
    ids = torch.zeros((len(parts), rows), dtype=torch.long, device=device)
    positions = torch.zeros_like(ids)
    mask = torch.zeros((len(parts), 1, rows, width + rows), dtype=torch.bool, device=device)
    for b, part in enumerate(parts):
        count = len(part.run)
        ids[b, :count] = part.turn.state.seq[part.run]
        positions[b, :count] = part.run
        mask[b, 0, :count, : part.stored] = True
        mask[b, 0, :count, width : width + count] = True if part.inner is None else part.inner
        pad = torch.arange(count, rows, device=device)
        mask[b, 0, pad, width + pad] = True  # a padded row sees itself: no empty softmax
    cache = DynamicCache(config=model.config)
    if width:
        for layer in range(len(parts[0].keys)):
            keys, values = (
                padded(parts, "keys", layer, width),
                padded(parts, "values", layer, width),
            )
            cache.update(keys, values, layer)
    return ids, positions, mask, cache, width


def padded(parts: Sequence[Part], name: str, layer: int, width: int) -> torch.Tensor:
    """Layer ``layer``'s stored keys (or values) of every part, zero-padded to ``width`` rows."""
    first = next(getattr(p, name)[layer] for p in parts if p.stored)
    heads, _, dim = first.shape
    out = first.new_zeros((len(parts), heads, width, dim))
    for b, part in enumerate(parts):
        if part.stored:
            out[b, :, : part.stored] = getattr(part, name)[layer]
    return out


def store(part: Part, cache: Any, b: int, offset: int) -> None:
    """Write part ``b``'s fresh keys and values into its request's store, as
    :meth:`~engine.backends.masked.locked_kv.LockedKV.fill` or ``predict`` would."""
    state = part.turn.state
    kv, seq, count = state.kv, state.seq, len(part.run)
    assert kv is not None
    keys = [layer.keys[b, :, offset : offset + count] for layer in cache.layers]
    values = [layer.values[b, :, offset : offset + count] for layer in cache.layers]
    if part.fill:
        kv.keys = [torch.cat([*part.keys[i : i + 1], k], dim=1)[None] for i, k in enumerate(keys)]
        kv.values = [
            torch.cat([*part.values[i : i + 1], v], dim=1)[None] for i, v in enumerate(values)
        ]
        kv.computed = seq.clone()
    else:
        assert kv.computed is not None
        for i, (k, v) in enumerate(zip(keys, values, strict=True)):
            kv.keys[i][:, :, part.run] = k[None]
            kv.values[i][:, :, part.run] = v[None]
        kv.computed[part.run] = seq[part.run]
    kv.rows_run += count
