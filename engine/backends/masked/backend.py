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

Prefix KV reuse comes with a prefix-causal adaptation (``causal_prefix``; the bench can lend any
model that can cache one, :meth:`.ForwardPath.prefix_cache_swapped`): the text before the canvas is
then encoded *causally* once into a KV cache kept across steps and across edits, and each step runs
only the canvas and the text after it, attending to that cache. A causal prefix makes the cache
exact to extend and to cut: the next edit reuses it up to the first changed token and encodes only
the rest. The price is that the prefix no longer sees the canvas (with bidirectional attention its
keys would depend on it; Fast-dLLM's approximation drops that dependence the same way).

A plan with ``cache_locked`` (structured fills) keeps the keys and values of every row after
the first forward (:mod:`engine.backends.masked.locked_kv`): later steps run only the rows that
predict
still-masked positions and the positions that changed, against the stored rest. Free text
does the same with ``settings.kv_cache`` (Fast-dLLM's dual cache), the store recomputed as each
block starts, so a step inside a block costs its open rows instead of the whole canvas; the
first forward of a fill continues the prefix cache, so the prefix stays exact and causal.

Each step is a :class:`~.state.Turn` (the positions it needs predicted) of a generator that is
sent the turn's logits: :meth:`MaskedBackend.denoise` runs one request's turns one forward at a
time, and :meth:`MaskedBackend.denoise_together` several requests' in one batch (:mod:`.batch`,
a rewrite's later versions), each through the same per-request step.

``shifted`` models (Dream, adapted autoregressive checkpoints) predict token ``i`` from row
``i - 1``; ``force_bidirectional`` passes ``is_causal=False`` to the forward, which is how an
adapted causal Llama attends both ways (setting it on the attention modules does not work).
"""

from __future__ import annotations

from collections.abc import Generator, Iterator, Sequence
from typing import Any

import torch

from engine.backends.base import Stepped, StepResult
from engine.backends.masked.batch import rounds
from engine.backends.masked.blocks import Block, choose_masked, plan_blocks
from engine.backends.masked.forward import ForwardPath, VerifyModels
from engine.backends.masked.locked_kv import LockedKV
from engine.backends.masked.prefix_cache import PrefixCache
from engine.backends.masked.reader import PassageReader
from engine.backends.masked.schedule import (
    pick_open_rows,
    prefer_left,
    select_fixed,
    transfer_schedule,
)
from engine.backends.masked.sizing import fit_context, max_canvas, max_positions, special_ids
from engine.backends.masked.state import Denoising, Turn, Turns, driven, result, step_view
from engine.backends.masked.verified_draft import VerifiedDraft, verifiable
from engine.backends.masked.verified_values import VerifiedValues
from engine.core.canvas import Canvas, Kind
from engine.core.config import SamplerSettings
from engine.core.context import after_ids, before_ids, instruction_ids, passage_ids
from engine.core.errors import BadRequest
from engine.core.plan import EditPlan
from engine.core.tokens import TokenTable
from engine.decode.allowed import allowed_mask
from engine.decode.processors import decode_processors
from engine.models.adapters import BaseSwitch


class MaskedBackend:
    """Runs a masked-diffusion model as a Settle :class:`~engine.backends.base.Backend`.

    ``causal_prefix``: the model was adapted with a causal prefix (the loader reads it from the
    adapter); ``base``: the adapter, switchable off, so continuations and template values are
    verified by the base model (:mod:`.verified_draft`, :mod:`.verified_values`);
    ``cache_prefix``: keep a prefix cache or not whatever ``causal_prefix`` says (see
    :class:`.ForwardPath`).
    """

    family = "masked"

    def __init__(
        self,
        model: Any,
        table: TokenTable,
        *,
        shifted: bool,
        force_bidirectional: bool,
        device: torch.device | str = "cpu",
        causal_prefix: bool = False,
        base: BaseSwitch | None = None,
        cache_prefix: bool | None = None,
    ) -> None:
        self.model = model
        self.table = table
        self.shifted = shifted
        self.device = torch.device(device)
        self.mask_id, self.start_id = special_ids(table)
        config = model.config.get_text_config()
        self.vocab_size = int(config.vocab_size)
        self.max_positions = max_positions(config)
        self.max_canvas_tokens = max_canvas(self.max_positions)
        self.path = ForwardPath(
            model, shifted=shifted, force_bidirectional=force_bidirectional,
            causal_prefix=causal_prefix, device=self.device, cache_prefix=cache_prefix,
        )  # fmt: skip
        # Such a model still reads causally as well as its base: the passes read through it
        # (:mod:`.reader`); the base (adapter off) reads through its own cache.
        can_read = self.path.can_cache_prefix
        self.passage_reader = PassageReader(model, self.start_id, self.device) if can_read else None
        self.base = base
        self.base_cache = PrefixCache()

    def reader(self) -> PassageReader | None:
        """The model read causally, when it can be (:mod:`.reader`): the passes' reader."""
        return self.passage_reader

    def verify_models(self) -> VerifyModels | None:
        """What the verifying passes over a canvas read with, on an adapted model that keeps
        a prefix cache; else ``None``."""
        if self.base is None:
            return None
        return VerifyModels(
            self.path, self.base, self.base_cache, self.table, self.mask_id, self.device
        )

    def check_size(self, canvas: Canvas) -> None:
        """Refuse a canvas longer than the model takes, before any model work."""
        if len(canvas) > self.max_canvas_tokens:
            raise BadRequest(
                f"The canvas needs {len(canvas)} tokens; this model takes at most "
                f"{self.max_canvas_tokens}."
            )

    def denoise(self, canvas: Canvas, settings: SamplerSettings) -> Iterator[StepResult]:
        """Yield one :class:`StepResult` per forward; nothing runs until the first ``next``."""
        self.check_size(canvas)
        generator = torch.Generator(device=self.device).manual_seed(settings.seed)
        state = self.start(canvas, settings, generator)
        models = self.verify_models()
        if settings.verify_drafts > 0 and models is not None and verifiable(models, canvas, state):
            yield from VerifiedDraft(models, state, settings).rounds()
            return
        blocks = plan_blocks(state.masked, settings.block_length, settings.steps)
        total = sum(share for _, share in blocks)
        if not blocks:
            yield result(state, state.host_masked, total)
            return
        yield from driven(self.turns(state, blocks, total, settings, generator), self.path.predict)
        if settings.verify_values > 0 and models is not None and Kind.SLOT in canvas.kinds:
            yield from VerifiedValues(models, state, canvas, settings).rounds(total)

    def denoise_together(
        self, jobs: Sequence[tuple[Canvas, SamplerSettings]]
    ) -> Generator[list[Stepped], None, None] | None:
        """Settle several canvases as one batch (:mod:`.batch`): per round, one forward over
        every canvas still open (grouped by kind of step), and each canvas's step in that
        round; ``None`` when one of them takes a path that cannot be batched (a verified
        continuation, template values), so the caller settles them one after another."""
        prepared = [self.prepared(canvas, settings) for canvas, settings in jobs]
        ready = [p for p in prepared if p is not None]
        if len(ready) == len(prepared):
            return rounds(self.path, ready)
        for job in ready:
            if not isinstance(job, StepResult):
                job.close()
        return None

    def prepared(self, canvas: Canvas, settings: SamplerSettings) -> Turns | StepResult | None:
        """What :meth:`denoise` would run for ``canvas``, as turns to drive (or the one result
        of a canvas with nothing masked); ``None`` for a canvas that takes a verified path."""
        self.check_size(canvas)
        generator = torch.Generator(device=self.device).manual_seed(settings.seed)
        state = self.start(canvas, settings, generator)
        models = self.verify_models()
        if models is not None and (
            (settings.verify_drafts > 0 and verifiable(models, canvas, state))
            or (settings.verify_values > 0 and Kind.SLOT in canvas.kinds)
        ):
            return None
        blocks = plan_blocks(state.masked, settings.block_length, settings.steps)
        total = sum(share for _, share in blocks)
        if not blocks:
            return result(state, state.host_masked, total)
        return self.turns(state, blocks, total, settings, generator)

    def turns(
        self,
        state: Denoising,
        blocks: list[tuple[torch.Tensor, int]],
        total: int,
        settings: SamplerSettings,
        generator: torch.Generator,
    ) -> Turns:
        """The semi-autoregressive blocks, left to right, each in its share of the steps: a
        :class:`Turn` per forward the step needs, sent back the logits it predicts."""
        for block, share in blocks:
            # Fixed per block: the rows predicted at every step of it (and their host copy).
            in_block = block.tolist()
            rows_list = [i for i, inside in enumerate(in_block) if inside]
            rows = self.tensor(rows_list)
            if state.kv is not None and state.refresh_per_block:
                state.kv.refresh()
            for steps_left in range(share, 0, -1):
                open_ = [i for i in rows_list if state.host_masked[i]]
                if not open_:
                    break  # the threshold finished this block early
                now = Block(block, rows, rows_list, open_)
                positions = self.positions(state, now)
                logits = yield Turn(state, positions, in_block, total)
                self.step(state, now, positions, logits, steps_left, settings, generator)

    @torch.inference_mode()
    def start(
        self, canvas: Canvas, settings: SamplerSettings, generator: torch.Generator
    ) -> Denoising:
        """A request's state before its first forward: the seed, masked at the strength."""
        n, plan = len(canvas), canvas.plan
        seed = torch.tensor(canvas.seed_ids, dtype=torch.long, device=self.device)
        locked = torch.tensor([k is Kind.LOCKED for k in canvas.kinds], device=self.device)
        allowed = allowed_mask(canvas, self.table, self.vocab_size).to(self.device)
        allowed[~locked, self.mask_id] = False  # whatever a tokenizer lists as special
        masked = self.initially_masked(canvas, settings, generator, allowed, seed, locked)
        ids = torch.where(masked, self.mask_id, seed)
        free = settings.kv_cache and Kind.FREE in canvas.kinds
        prefix, before, after = self.context(plan, settings, n)
        host_ids, host_masked = ids.tolist(), masked.tolist()
        seq = torch.tensor([*prefix, *before, *host_ids, *after], device=self.device)
        return Denoising(
            seq=seq,
            start=len(prefix) + len(before),
            locked=locked,
            masked=masked,
            guess=ids.clone(),
            confidence=(~masked).float(),
            processors=decode_processors(canvas, self.table, allowed),
            kv=LockedKV() if self.path.can_cache_prefix and (plan.cache_locked or free) else None,
            refresh_per_block=free and not plan.cache_locked,
            host_locked=[k is Kind.LOCKED for k in canvas.kinds],
            host_masked=host_masked,
            host_ids=host_ids,
            host_guess=list(host_ids),
            host_confidence=[0.0 if m else 1.0 for m in host_masked],
        )

    def initially_masked(
        self,
        canvas: Canvas,
        settings: SamplerSettings,
        generator: torch.Generator,
        allowed: torch.Tensor,
        seed: torch.Tensor,
        locked: torch.Tensor,
    ) -> torch.Tensor:
        """Which positions start masked: the strength's share of the original tokens, and every
        position that holds none.

        A seed token its position may not hold (a letter in a digits slot, a special token
        typed into the document) is always renoised, so the output keeps every constraint.
        Strength is the share of the *original* tokens renoised: positions that hold no
        original token (a draft, a rewrite's extra room) have nothing to keep and start masked.
        """
        fits = allowed[torch.arange(len(canvas), device=self.device), seed]
        seeded = torch.tensor(canvas.seeded, device=self.device)
        joins = torch.tensor(canvas.joins, device=self.device) if canvas.joins else None
        masked = choose_masked(~locked & seeded, fits, settings.strength, generator, joins)
        return masked | (~locked & ~seeded)

    def context(
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

    def positions(self, state: Denoising, block: Block) -> torch.Tensor:
        """The canvas positions a step of ``block`` predicts (see :meth:`step`)."""
        fixed = self.path.fixed_rows and state.kv is None
        return block.rows if fixed else self.tensor(block.open)

    @torch.inference_mode()
    def step(
        self,
        state: Denoising,
        block: Block,
        positions: torch.Tensor,
        predicted: torch.Tensor,
        steps_left: int,
        settings: SamplerSettings,
        generator: torch.Generator,
    ) -> None:
        """Given one forward's logits at ``positions``, commit this step's share of the block's
        open positions.

        Only the current block's rows are predicted (committed positions cannot change and
        later blocks show nothing yet; at a 49k vocabulary the LM head and the sampling of rows
        nobody uses would cost more than the transformer body). With ``fixed_rows`` (an
        accelerator) every row of the block is predicted at every step, so shapes stay fixed
        through a block; on the CPU only the open rows run (a changing shape costs nothing
        there, the extra rows would). With the locked text's keys and values kept
        (``state.kv``) only the open rows run either way: that saving is the cache's point.
        Either way the step reads the device back once, after choosing what to commit.
        """
        fixed = self.path.fixed_rows and state.kv is None
        eligible = state.masked & block.mask
        open_rows = eligible[positions]
        view = step_view(state, positions, block.rows_list if fixed else block.open)
        logits = state.processors(view, predicted)
        count = len(block.open)
        ids, confidence = pick_open_rows(logits, open_rows, count, settings.temperature, generator)
        guess, scores = state.guess.clone(), state.confidence.clone()
        guess[positions] = torch.where(open_rows, ids, guess[positions])
        scores[positions] = torch.where(open_rows, confidence, scores[positions])
        ranked = scores if state.guards is None else state.guards.rank(scores, guess)
        chosen = self.chosen(ranked, eligible, block, steps_left, settings)
        veto = state.guards is not None and steps_left > 1  # a block's last step commits all
        self.commit(state, guess, scores, ranked if veto else None, chosen)

    def chosen(
        self,
        ranked: torch.Tensor,
        eligible: torch.Tensor,
        block: Block,
        steps_left: int,
        settings: SamplerSettings,
    ) -> torch.Tensor:
        """The positions this step commits: its quota, nearly left to right, and with a
        threshold every position sure enough.

        Re-spreading what is left over the steps left gives LLaDA's schedule in fixed mode and
        keeps the step budget when a threshold has committed more than its share."""
        count = len(block.open)
        quota = transfer_schedule(count, steps_left)[0]
        chosen = select_fixed(
            prefer_left(ranked, block.open[0], settings.order_bias), eligible, quota, count
        )
        if settings.threshold is not None:  # the quota already commits at least one
            chosen |= eligible & (ranked > settings.threshold)
        return chosen

    def commit(
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
            chosen = self.tensor(picked, torch.bool)
        state.ids[chosen] = guess[chosen]
        state.masked &= ~chosen
        state.guess, state.confidence = guess, scores
        for i, commit in enumerate(picked):
            if commit:
                state.host_ids[i] = state.host_guess[i]
                state.host_masked[i] = False
        state.forwards += 1

    def tensor(self, values: list[Any], dtype: torch.dtype = torch.long) -> torch.Tensor:
        return torch.tensor(values, dtype=dtype, device=self.device)
