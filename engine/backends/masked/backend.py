"""The masked-diffusion family: LLaDA, Dream, masked LMs, causal models adapted to diffusion.

The model sees one sequence, ``[start] + instruction + before + canvas + after``: a start token
(so a shifted model always has a row before the canvas), the instruction header, the windowed
document context on both sides (:mod:`engine.core.context`), and the canvas in between. Free and
slot positions start as the mask token; locked positions hold their tokens and are never masked.

Each forward pass predicts the masked positions of the current block (later blocks show
nothing yet, and skipping their rows keeps the LM head and sampling cheap at large
vocabularies); the sampler then commits some predictions
(the most confident ones: LLaDA's low-confidence remasking, or all above a threshold:
Fast-dLLM's parallel decoding) and leaves the rest masked for the next pass. ``order_bias``
takes confidence off each position right of the block's first open one, so a step's quota
settles in reading order (a small model's flat confidences otherwise commit a word several
places ahead first); a threshold still commits any position sure enough. Semi-autoregressive
blocks of ``block_length`` positions are finished left to right, which keeps long canvases
coherent. Constraints enter as an additive logit bias built once per request
(:func:`~engine.backends.base.constraint_bias`), so the mask token, banned specials and
out-of-set tokens are never committed.

The step budget holds in both modes: ``settings.steps`` is spread over the blocks, each block's
steps re-spread what is still masked (LLaDA's even schedule), and a confidence threshold commits
*at least* that share plus every position above it (so parallel decoding only ever saves
forwards).

Prefix KV reuse is opt-in (``backend.prefix_cache = PrefixCache()``; off by default, so what the
window shows is unchanged): the text before the canvas is then encoded *causally* once into a
KV cache kept across steps and across edits, and each step runs only the canvas and the text
after it, attending to that cache. A causal prefix makes the cache exact to extend and to cut:
the next edit reuses it up to the first changed token and encodes only the rest. The price is
that the prefix no longer sees the canvas (with bidirectional attention its keys would depend on
it; Fast-dLLM's approximation drops that dependence the same way).

A plan with ``cache_locked`` (structured fills) keeps the keys and values of every row after
the first forward (:mod:`engine.backends.masked.locked_kv`): later steps run only the rows that
predict
still-masked positions and the positions that changed, against the stored rest. Free text
does the same with ``settings.kv_cache`` (Fast-dLLM's dual cache), the store recomputed as each
block starts, so a step inside a block costs its open rows instead of the whole canvas; the
first forward of a fill continues the prefix cache, so the prefix stays exact and causal.

``shifted`` models (Dream, adapted autoregressive checkpoints) predict token ``i`` from row
``i - 1``; ``force_bidirectional`` passes ``is_causal=False`` to the forward, which is how an
adapted causal Llama attends both ways (setting it on the attention modules does not work).
"""

from __future__ import annotations

import inspect
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

import torch

from engine.backends.base import StepResult
from engine.backends.masked.blocks import Block, choose_masked, plan_blocks, position_states
from engine.backends.masked.locked_kv import LockedKV
from engine.backends.masked.prefix_cache import PrefixCache
from engine.backends.masked.reader import PassageReader
from engine.backends.masked.schedule import (
    pick_open_rows,
    prefer_left,
    select_fixed,
    shift_logits,
    transfer_schedule,
)
from engine.backends.masked.verified_draft import VerifiedDraft, verifiable
from engine.backends.masked.verified_values import VerifiedValues
from engine.core.canvas import Canvas, Kind
from engine.core.config import SamplerSettings
from engine.core.context import after_ids, before_ids, instruction_ids, passage_ids
from engine.core.errors import BadRequest, ModelLoadError
from engine.core.plan import EditPlan
from engine.core.tokens import TokenTable
from engine.decode.allowed import allowed_mask, constraint_bias
from engine.decode.guards import ProseGuards
from engine.decode.lock_echo import echo_bans, glued_word_bans, merge_bans
from engine.models.adapters import BaseSwitch

# Canvases beyond this many tokens make a step too slow to watch on a laptop CPU.
CANVAS_CAP = 1024
# Positions kept for the instruction and document context around even the longest canvas.
CONTEXT_ROOM = 256
# Where configs keep their context length, by family (Llama/BERT, LLaDA, GPT-2 style).
POSITION_KEYS = ("max_position_embeddings", "max_sequence_length", "n_positions")


@dataclass
class Denoising:
    """One request's mutable state; every tensor is indexed by canvas position.

    The ``host_*`` lists mirror the canvas on the host, refreshed by the one read-back each step
    makes: every decision the host takes (what is still open, the guards' bans, the frame) is
    made from them, so a step never waits on the device for anything else.
    """

    seq: torch.Tensor  # (L,) the model's input; the canvas part holds the mask id where masked
    start: int  # index of canvas position 0 in ``seq``
    locked: torch.Tensor  # bool
    masked: torch.Tensor  # bool: not yet committed
    guess: torch.Tensor  # what the overlay shows: committed token, latest prediction, or mask
    confidence: torch.Tensor  # float: at commit time, else of the latest prediction (or 0)
    bias: torch.Tensor  # (n, vocab) additive constraint bias
    forwards: int = 0
    kv: LockedKV | None = None  # kept keys and values (``plan.cache_locked``, ``kv_cache``)
    refresh_per_block: bool = False  # free text's store is recomputed when a block starts
    guards: ProseGuards | None = None  # filler-tail and repeat bans (free text), word bans (slots)
    host_locked: list[bool] = field(default_factory=list)
    host_masked: list[bool] = field(default_factory=list)
    host_ids: list[int] = field(default_factory=list)
    host_guess: list[int] = field(default_factory=list)
    host_confidence: list[float] = field(default_factory=list)

    @property
    def ids(self) -> torch.Tensor:
        """The canvas part of ``seq`` (a view: writing to it updates the model's input)."""
        return self.seq[self.start : self.start + len(self.masked)]


class MaskedBackend:
    """Runs a masked-diffusion model as a Settle :class:`~engine.backends.base.Backend`."""

    family = "masked"

    def __init__(
        self,
        model: Any,
        table: TokenTable,
        *,
        shifted: bool,
        force_bidirectional: bool,
        device: torch.device | str = "cpu",
    ) -> None:
        specials = table.specials
        if specials.mask_id is None:
            raise ModelLoadError("A masked-diffusion model needs a mask token; this one has none.")
        start = (
            specials.bos_id if specials.bos_id is not None else next(iter(specials.eos_ids), None)
        )
        if start is None:
            raise ModelLoadError("This model's tokenizer has neither a BOS nor an EOS token.")
        self.model = model
        self.table = table
        self.shifted = shifted
        self.force_bidirectional = force_bidirectional
        self.device = torch.device(device)
        self.mask_id: int = specials.mask_id
        self.start_id: int = start
        config = model.config.get_text_config()
        self.vocab_size = int(config.vocab_size)
        self.max_positions = max_positions(config)
        self.max_canvas_tokens = max_canvas(self.max_positions)
        # Models that take ``logits_to_keep`` skip the LM head outside the canvas (a large share
        # of a forward at a 49k vocabulary); the others are sliced after the fact.
        parameters = inspect.signature(model.forward).parameters
        self._keeps_rows = "logits_to_keep" in parameters
        # Only causal models adapted to run both ways take a cache and a per-call is_causal;
        # sliding-window caches cannot be cut back (their layers drop old keys).
        self.can_cache_prefix = (
            force_bidirectional
            and self._keeps_rows
            and "cache" in parameters
            and not getattr(config, "sliding_window", None)
        )
        self.prefix_cache: PrefixCache | None = None
        # Such a model still reads causally as well as its base: it prices the words a shorter
        # rewrite drops (:mod:`.passage_reader`); without one they go in a fixed order.
        self.passage_reader = (
            PassageReader(model, start, self.device) if self.can_cache_prefix else None
        )
        # The adapter, switchable off (:class:`engine.models.adapters.BaseSwitch`), when the loader
        # merged one: continuations are then verified by the base (:mod:`.verified`), which
        # reads through its own cache (the adapter changes every key and value).
        self.base: BaseSwitch | None = None
        self.base_cache = PrefixCache()
        # Adapted with a causal prefix (``tools.adapt``, attention "prefix-causal"): the text
        # before the canvas must be read causally, and its cache is then exact, so it is kept.
        self.causal_prefix = False
        # Fixed logits shapes through a block: no per-step reshaping on an accelerator (a
        # CUDA graph needs it); on the CPU the open rows alone are cheaper (same output).
        self.fixed_rows = self.device.type != "cpu"

    def reader(self) -> PassageReader | None:
        """The model read causally, when it can be (:mod:`.reader`): the passes' reader."""
        return self.passage_reader

    def read_prefix_causally(self) -> None:
        """Run as a prefix-causal adaptation was trained: cache the prefix when the model can."""
        self.causal_prefix = True
        if self.can_cache_prefix and self.prefix_cache is None:
            self.prefix_cache = PrefixCache()

    def denoise(self, canvas: Canvas, settings: SamplerSettings) -> Iterator[StepResult]:
        """Yield one :class:`StepResult` per forward; nothing runs until the first ``next``."""
        if len(canvas) > self.max_canvas_tokens:
            raise BadRequest(
                f"The canvas needs {len(canvas)} tokens; this model takes at most "
                f"{self.max_canvas_tokens}."
            )
        generator = torch.Generator(device=self.device).manual_seed(settings.seed)
        state = self._start(canvas, settings, generator)
        if settings.draft_check > 0 and verifiable(self, canvas, state):
            yield from VerifiedDraft(self, state, settings).rounds()
            return
        blocks = plan_blocks(state.masked, settings.block_length, settings.steps)
        total = sum(share for _, share in blocks)
        if not blocks:
            yield self._result(state, state.host_masked, total)
            return
        for block, share in blocks:
            # Fixed per block: the rows predicted at every step of it (and their host copy).
            in_block = block.tolist()
            rows_list = [i for i, inside in enumerate(in_block) if inside]
            rows = self._tensor(rows_list)
            if state.kv is not None and state.refresh_per_block:
                state.kv.refresh()
            for steps_left in range(share, 0, -1):
                open_ = [i for i in rows_list if state.host_masked[i]]
                if not open_:
                    break  # the threshold finished this block early
                now = Block(block, rows, rows_list, open_)
                self._step(state, now, steps_left, settings, generator)
                yield self._result(state, in_block, total)
        if settings.value_check > 0 and self.base is not None and Kind.SLOT in canvas.kinds:
            yield from VerifiedValues(self, state, canvas, settings).rounds(total)

    @torch.inference_mode()
    def _start(
        self, canvas: Canvas, settings: SamplerSettings, generator: torch.Generator
    ) -> Denoising:
        n, plan = len(canvas), canvas.plan
        seed = torch.tensor(canvas.seed_ids, dtype=torch.long, device=self.device)
        locked = torch.tensor([k is Kind.LOCKED for k in canvas.kinds], device=self.device)
        allowed = allowed_mask(canvas, self.table, self.vocab_size).to(self.device)
        allowed[~locked, self.mask_id] = False  # whatever a tokenizer lists as special
        # A seed token its position may not hold (a letter in a digits slot, a special token
        # typed into the document) is always renoised, so the output keeps every constraint.
        fits = allowed[torch.arange(n, device=self.device), seed]
        # Strength is the share of the *original* tokens renoised: positions that hold no
        # original token (a draft, a rewrite's extra room) have nothing to keep and start masked.
        seeded = torch.tensor(canvas.seeded, device=self.device)
        joins = torch.tensor(canvas.joins, device=self.device) if canvas.joins else None
        masked = choose_masked(~locked & seeded, fits, settings.strength, generator, joins)
        masked |= ~locked & ~seeded
        ids = torch.where(masked, self.mask_id, seed)
        free = settings.kv_cache and Kind.FREE in canvas.kinds
        prefix, before, after = self._context(plan, settings, n)
        host_ids, host_masked = ids.tolist(), masked.tolist()
        seq = torch.tensor([*prefix, *before, *host_ids, *after], device=self.device)
        return Denoising(
            seq=seq,
            start=len(prefix) + len(before),
            locked=locked,
            masked=masked,
            guess=ids.clone(),
            confidence=(~masked).float(),
            bias=constraint_bias(allowed),
            guards=self._guards(canvas),
            kv=LockedKV() if self.can_cache_prefix and (plan.cache_locked or free) else None,
            refresh_per_block=free and not plan.cache_locked,
            host_locked=[k is Kind.LOCKED for k in canvas.kinds],
            host_masked=host_masked,
            host_ids=host_ids,
            host_guess=list(host_ids),
            host_confidence=[0.0 if m else 1.0 for m in host_masked],
        )

    def _guards(self, canvas: Canvas) -> ProseGuards | None:
        """The request's prose guards: free text's filler and repeat rules, slots' word rules,
        and the echoes of locks and of a template's own words (:mod:`.lock_echo`)."""
        if Kind.FREE not in canvas.kinds and Kind.SLOT not in canvas.kinds:
            return None
        table = self.table
        echoes = merge_bans(
            echo_bans(canvas.kinds, canvas.seed_ids, table.text, table.spellings),
            glued_word_bans(
                canvas.kinds, canvas.segment_of, canvas.plan.template_words, table.glued_spellings
            ),
        )
        return ProseGuards(
            canvas, table.specials.filler_id, table.is_word, echoes, table.is_blank,
            table.breaking_ids(),
        )  # fmt: skip

    def _context(
        self, plan: EditPlan, settings: SamplerSettings, n: int
    ) -> tuple[list[int], list[int], list[int]]:
        """Start token + instruction, then before/after ids cut to what fits around ``n``."""
        room = self.max_positions - 1 - n
        instruction, before, after = fit_context(
            instruction_ids(plan, self.table) + passage_ids(plan, self.table, settings),
            before_ids(plan, self.table, settings),
            after_ids(plan, self.table, settings),
            room,
        )
        return [self.start_id, *instruction], before, after

    @torch.inference_mode()
    def _step(
        self,
        state: Denoising,
        block: Block,
        steps_left: int,
        settings: SamplerSettings,
        generator: torch.Generator,
    ) -> None:
        """One forward, then commit this step's share of the block's open positions.

        Only the current block's rows are predicted (committed positions cannot change and
        later blocks show nothing yet; at a 49k vocabulary the LM head and the sampling of rows
        nobody uses would cost more than the transformer body). With ``fixed_rows`` (an
        accelerator) every row of the block is predicted at every step, so shapes stay fixed
        through a block; on the CPU only the open rows run (a changing shape costs nothing
        there, the extra rows would). With the locked text's keys and values kept
        (``state.kv``) only the open rows run either way: that saving is the cache's point.
        Either way the step reads the device back once, after choosing what to commit.
        """
        fixed = self.fixed_rows and state.kv is None
        positions = block.rows if fixed else self._tensor(block.open)
        eligible = state.masked & block.mask
        open_rows = eligible[positions]
        logits = self._predict(state, positions) + state.bias[positions]
        if state.guards is not None:
            rows = block.rows_list if fixed else block.open
            host = (rows, state.host_ids, state.host_masked)
            logits = state.guards.adjust(positions, logits, state.ids, state.masked, host)
        count = len(block.open)
        ids, confidence = pick_open_rows(logits, open_rows, count, settings.temperature, generator)
        guess, scores = state.guess.clone(), state.confidence.clone()
        guess[positions] = torch.where(open_rows, ids, guess[positions])
        scores[positions] = torch.where(open_rows, confidence, scores[positions])
        # Re-spreading what is left over the steps left gives LLaDA's schedule in fixed mode and
        # keeps the step budget when a threshold has committed more than its share.
        quota = transfer_schedule(count, steps_left)[0]
        ranked = scores if state.guards is None else state.guards.rank(scores, guess)
        # The step's quota goes nearly left to right; a threshold still commits any sure token.
        chosen = select_fixed(
            prefer_left(ranked, block.open[0], settings.order_bias), eligible, quota, count
        )
        if settings.threshold is not None:  # the quota already commits at least one
            chosen |= eligible & (ranked > settings.threshold)
        veto = state.guards is not None and steps_left > 1  # a block's last step commits all
        self._commit(state, guess, scores, ranked if veto else None, chosen)

    def _commit(
        self,
        state: Denoising,
        guess: torch.Tensor,
        scores: torch.Tensor,
        ranked: torch.Tensor | None,
        chosen: torch.Tensor,
    ) -> None:
        """Read the step back once, let the guards veto on the host, commit on both sides."""
        parts = [guess, scores, chosen] + ([ranked] if ranked is not None else [])
        host = torch.stack([p.to(torch.float64) for p in parts]).tolist()
        state.host_guess = [int(t) for t in host[0]]
        state.host_confidence = host[1]
        picked = [bool(c) for c in host[2]]
        if ranked is not None and state.guards is not None:
            picked = state.guards.veto_lists(picked, state.host_guess, host[3])
            chosen = self._tensor(picked, torch.bool)
        state.ids[chosen] = guess[chosen]
        state.masked &= ~chosen
        state.guess, state.confidence = guess, scores
        for i, commit in enumerate(picked):
            if commit:
                state.host_ids[i] = state.host_guess[i]
                state.host_masked[i] = False
        state.forwards += 1

    def _tensor(self, values: list[Any], dtype: torch.dtype = torch.long) -> torch.Tensor:
        return torch.tensor(values, dtype=dtype, device=self.device)

    def _predict(self, state: Denoising, positions: torch.Tensor) -> torch.Tensor:
        """Float32 logits ``(len(positions), vocab)`` predicting those canvas positions."""
        at = state.start + positions
        kwargs: dict[str, Any] = {"is_causal": False} if self.force_bidirectional else {}
        if state.kv is not None:
            return self._predict_kept(state, at - int(self.shifted), kwargs).float()
        if self.prefix_cache is not None and self.can_cache_prefix and state.start > 1:
            return self._predict_cached(state, at, kwargs).float()
        if self.causal_prefix:
            kwargs["attention_mask"] = prefix_causal_mask(len(state.seq), state.start - 1)
        if self._keeps_rows:
            # The LM head runs on the needed rows only: in a shifted model, the row before each
            # position (the alignment :func:`shift_logits` gives a whole sequence).
            kwargs["logits_to_keep"] = at - int(self.shifted)
            return self._forward(state.seq, kwargs).float()
        logits = self._forward(state.seq, kwargs)
        return (shift_logits(logits) if self.shifted else logits)[at].float()

    def _predict_kept(
        self, state: Denoising, rows: torch.Tensor, kwargs: dict[str, Any]
    ) -> torch.Tensor:
        """Rows ``rows`` of ``state.seq`` through :attr:`Denoising.kv`, filling it when stale.

        A fill reads the text before the canvas as the model was adapted to: from the prefix
        cache when there is one (exact, and shared with the next edit), else through the
        prefix-causal mask. Later steps run only canvas-side rows, which see every row anyway.
        """
        assert state.kv is not None
        if state.kv.ready(state.seq):
            return state.kv.predict(self.model, state.seq, rows, kwargs)
        cut = state.start - 1
        if self.prefix_cache is not None and cut > 0:
            cache = self.prefix_cache.holding(self.model, state.seq[:cut])
            try:
                return state.kv.fill(self.model, state.seq, rows, kwargs, cache, cut)
            finally:
                self.prefix_cache.forget_beyond_prefix()
        if self.causal_prefix:
            kwargs = {**kwargs, "attention_mask": prefix_causal_mask(len(state.seq), cut)}
        return state.kv.fill(self.model, state.seq, rows, kwargs)

    def _predict_cached(
        self, state: Denoising, at: torch.Tensor, kwargs: dict[str, Any]
    ) -> torch.Tensor:
        """The same rows with the prefix read from :attr:`prefix_cache` instead of recomputed.

        The row just before the canvas stays out of the cache: a shifted model predicts canvas
        position 0 from it.
        """
        assert self.prefix_cache is not None
        cut = state.start - 1
        cache = self.prefix_cache.holding(self.model, state.seq[:cut])
        try:
            rows = at - cut - int(self.shifted)
            out = self.model(
                input_ids=state.seq[cut:].unsqueeze(0), cache=cache, use_cache=True, **kwargs,
                logits_to_keep=rows,
            )  # fmt: skip
        finally:
            self.prefix_cache.forget_beyond_prefix()
        return out.logits[0]

    def _forward(self, seq: torch.Tensor, kwargs: dict[str, Any]) -> torch.Tensor:
        return self.model(input_ids=seq.unsqueeze(0), **kwargs).logits[0]

    def _result(self, state: Denoising, in_block: list[bool], total: int) -> StepResult:
        """The step as host values, from the host mirror (nothing is read from the device)."""
        return StepResult(
            max_steps=total,
            ids=list(state.host_ids),
            draft_ids=list(state.host_guess),
            states=position_states(state.host_locked, state.host_masked, in_block),
            confidence=list(state.host_confidence),
            forwards=state.forwards,
            done=not any(state.host_masked),
        )


def prefix_causal_mask(length: int, start: int) -> torch.Tensor:
    """``(1, 1, L, L)`` bool: causal before ``start``, both ways among the rows from ``start`` on.

    The row before the canvas (``start``) is on the both-ways side: a shifted model predicts the
    canvas's first token from it, so it must see the canvas, as in training.
    """
    pos = torch.arange(length)
    causal = pos[None, :] <= pos[:, None]
    late = pos >= start
    return (causal | (late[:, None] & late[None, :]))[None, None]


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
