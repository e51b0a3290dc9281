"""Hooks that bend the stock DiffusionGemma ``generate`` to an edit plan without forking it.

``transformers.DiffusionGemmaForBlockDiffusion.generate`` owns the denoising loop; the backend
only plugs into its documented seams:

* :class:`SharedProcessors`, a logits processor, runs the decode processors every family shares
  (:mod:`engine.decode.processors`): it pins locked positions to their token, restricts slots to
  their allowed set, applies the prose guards, bans EOS everywhere and forces the tail past the
  plan's end to the filler (a forced row is all but one-hot: entropy about 0, so the
  entropy-bound sampler accepts it at once).
* :class:`SeededSampler` replaces the stock ``EntropyBoundSampler`` (through ``_prepare_sampler``)
  so a rewrite starts from the original text with only a ``strength`` share renoised, and keeps
  renoising toward that text instead of toward uniform noise (SDEdit-style, DESIGN §4). It also
  records what it accepted each step, which the draft overlay shows as settled.
* :class:`RecordingStopper` is the stock adaptive stop, remembering whether it just fired, so the
  backend knows which draft is the last one without running another forward.

The sampler and the stopper live as long as their backend and are re-armed per call, because the
stock code caches compiled versions of their methods (static cache on CUDA) bound to the first
instance it saw.
"""

from __future__ import annotations

import torch
from transformers import LogitsProcessor
from transformers.models.diffusion_gemma.generation_diffusion_gemma import (
    EntropyBoundSampler,
    EntropyBoundSamplerConfig,
    StableAndConfidentStoppingCriteria,
)

from engine.core.canvas import Canvas, Kind
from engine.core.tokens import TokenTable
from engine.decode.allowed import allowed_mask
from engine.decode.processors import DecodeProcessors, StepView


def plan_allowed(
    canvas: Canvas, table: TokenTable, vocab_size: int, canvas_length: int, eos_ids: set[int]
) -> torch.Tensor:
    """Boolean ``(canvases * canvas_length, vocab)`` allowed mask for every generated position.

    Rows past the plan's end allow only the filler, so the last canvas's tail assembles to nothing.
    EOS is banned at every unlocked row: the stock loop truncates a canvas at the first EOS.
    """
    length = len(canvas)
    canvases = max(1, -(-length // canvas_length))
    mask = torch.zeros(canvases * canvas_length, vocab_size, dtype=torch.bool)
    mask[:length] = allowed_mask(canvas, table, vocab_size)
    unlocked = torch.tensor([k is not Kind.LOCKED for k in canvas.kinds], dtype=torch.bool)
    eos = sorted(i for i in eos_ids if i < vocab_size)
    if eos and unlocked.any():
        rows = unlocked.nonzero().squeeze(-1)
        mask[rows.unsqueeze(-1), torch.tensor(eos)] = False
    mask[length:, table.specials.filler_id] = True
    return mask


class SharedProcessors(LogitsProcessor):
    """The shared decode processors (:mod:`engine.decode.processors`) as ``generate``'s logits
    processor: the same allowed sets and prose guards the masked family decodes with.

    ``input_ids`` is the prompt plus the canvases already committed, so its length tells which
    canvas of the plan the scores belong to, and its tail holds those canvases' tokens. What the
    guards count as committed in the canvas being denoised is what the sampler accepted at its
    last step (:attr:`SeededSampler.accepted_canvas`), and every lock. Rows past the plan's end
    (the filler tail) get the allowed set only. The signature has no ``**kwargs`` on purpose:
    ``LogitsProcessorList`` passes extra arguments only to processors that name them.
    """

    def __init__(
        self,
        processors: DecodeProcessors,
        canvas: Canvas,
        sampler: SeededSampler,
        prompt_length: int,
        canvas_length: int,
    ) -> None:
        self.processors = processors
        self.sampler = sampler
        self.prompt_length = prompt_length
        self.canvas_length = canvas_length
        self.length = len(canvas)
        self.seed = list(canvas.seed_ids)
        self.locked = [k is Kind.LOCKED for k in canvas.kinds]

    def canvas_index(self, input_ids: torch.Tensor) -> int:
        return (int(input_ids.shape[1]) - self.prompt_length) // self.canvas_length

    def __call__(
        self, input_ids: torch.LongTensor, scores: torch.FloatTensor, cur_step: torch.Tensor
    ) -> torch.FloatTensor:
        index = self.canvas_index(input_ids)
        start = index * self.canvas_length
        inside = max(0, min(self.canvas_length, self.length - start))
        out = scores.clone()
        if inside:
            view = self.view(input_ids, index, start, inside, scores.device)
            out[0, :inside] = self.processors(view, scores[0, :inside].float()).to(scores.dtype)
        if inside < self.canvas_length:  # the tail: the allowed set alone
            tail = torch.arange(start + inside, start + self.canvas_length, device=scores.device)
            out[0, inside:] = scores[0, inside:] + self.processors.bias[tail].to(scores.dtype)
        return out  # type: ignore[return-value]

    def view(
        self, input_ids: torch.Tensor, index: int, start: int, inside: int, device: torch.device
    ) -> StepView:
        """The plan's canvas as committed so far, and the rows of canvas ``index``."""
        values, open_ = list(self.seed), [not lock for lock in self.locked]
        done = input_ids[0, self.prompt_length : self.prompt_length + start].tolist()
        for i, token in enumerate(done[: self.length]):
            values[i], open_[i] = int(token), False
        accepted = self.sampler.accepted_in(index)
        if accepted is not None:
            tokens, taken = accepted
            for j in range(inside):
                if taken[j] and not self.locked[start + j]:
                    values[start + j], open_[start + j] = tokens[j], False
        rows = list(range(start, start + inside))
        return StepView(
            torch.tensor(rows, dtype=torch.long, device=device),
            torch.tensor(values, dtype=torch.long, device=device),
            torch.tensor(open_, dtype=torch.bool, device=device),
            (rows, values, open_),
        )


def token_entropy(logits: torch.Tensor) -> torch.Tensor:
    """Per-position entropy in nats, in float32 (bf16 log-probabilities lose the small ones).

    Both factors come from the fused softmax kernels: ``exp`` of a log-probability, as the stock
    ``Categorical(...).entropy()`` does, takes a slow path on the CPU for the many banned scores
    of constrained rows (8x slower at vocab 4096 with 90% banned); this stays at the normal speed.
    """
    logits = logits.float()
    return -(torch.softmax(logits, dim=-1) * torch.log_softmax(logits, dim=-1)).sum(dim=-1)


def entropy_bound_accept(entropy: torch.Tensor, bound: float) -> torch.Tensor:
    """The stock acceptance rule: the lowest-entropy positions whose summed entropy, less the
    largest of them, stays within ``bound`` (arXiv 2505.24857). Returns a bool mask."""
    ordered, order = torch.sort(entropy, dim=-1)
    chosen = torch.cumsum(ordered, dim=-1) - ordered <= bound
    return torch.zeros_like(chosen).scatter(-1, order, chosen)


class SeededSampler(EntropyBoundSampler):
    """Entropy-bound sampler that starts from, and renoises toward, the original text.

    Per call, :meth:`prepare` loads the seed canvases ``(canvases, C)`` and which positions may be
    renoised (free and slot positions; never locks or the filler tail); :meth:`select` picks the
    canvas being denoised. At ``strength`` 1 this is the stock sampler: every free position starts
    as uniform noise and every unaccepted one is redrawn uniformly.
    """

    def __init__(self, canvas_length: int, vocab_size: int) -> None:
        super().__init__(EntropyBoundSamplerConfig(entropy_bound=1.0), canvas_length, vocab_size, 1)
        self.strength = 1.0
        self.seeds = torch.zeros(1, canvas_length, dtype=torch.long)
        self.renoisable = torch.zeros(1, canvas_length, dtype=torch.bool)
        self.seed_row = self.seeds[:1]
        self.free_row = self.renoisable[:1]
        self.canvas = 0
        self.start: torch.Tensor | None = None
        self.renoised: torch.Tensor | None = None  # which positions the start drew as noise
        self.entropy: torch.Tensor | None = None
        self.accepted: torch.Tensor | None = None  # accepted at the latest step
        # (canvas index, its tokens, accepted flags) after the latest step, as host lists
        self.accepted_canvas: tuple[int, list[int], list[bool]] | None = None

    def prepare(self, seeds: torch.Tensor, renoisable: torch.Tensor, strength: float) -> None:
        self.seeds, self.renoisable, self.strength = seeds, renoisable, float(strength)
        self.accepted = self.entropy = None
        self.accepted_canvas = None
        self.canvas = -1
        self.select(0)

    def select(self, canvas: int) -> None:
        """Denoise canvas ``canvas`` next; its start is drawn once, on first request."""
        if canvas == self.canvas:
            return  # the prompt's put() re-selects canvas 0, whose start is already handed over
        self.canvas = canvas
        row = min(canvas, self.seeds.shape[0] - 1)
        self.seed_row = self.seeds[row : row + 1]
        self.free_row = self.renoisable[row : row + 1]
        self.start = self.renoised = None

    def _noise_share(self, candidates: torch.Tensor) -> torch.Tensor:
        """A ``strength`` share of ``candidates``, each picked independently."""
        return candidates & (torch.rand(candidates.shape, device=candidates.device) < self.strength)

    def _uniform(self, like: torch.Tensor) -> torch.Tensor:
        return torch.randint(0, self.vocab_size, like.shape, device=like.device)

    def initialize_canvas(self, batch_size: int, device: torch.device) -> torch.LongTensor:
        # generate() evaluates this even when decoder_input_ids is given, so it must be idempotent:
        # the start handed over as decoder_input_ids stays the one the sampler knows about.
        if self.start is None:
            seed = self.seed_row.to(device).expand(batch_size, -1)
            self.renoised = self._noise_share(self.free_row.to(device).expand(batch_size, -1))
            self.start = torch.where(self.renoised, self._uniform(seed), seed)
        return self.start  # type: ignore[return-value]

    def accept_canvas(
        self,
        current_canvas: torch.LongTensor,
        denoiser_canvas: torch.LongTensor,
        logits: torch.Tensor,
        cur_step: int,
    ) -> torch.LongTensor:
        entropy = token_entropy(logits)
        accepted = entropy_bound_accept(entropy, self.entropy_bound)
        self.entropy, self.accepted = entropy, accepted
        self.accepted_token_mask = accepted  # type: ignore[assignment]  # the stock name, kept in sync
        canvas = torch.where(accepted, denoiser_canvas, current_canvas)
        self.accepted_canvas = (self.canvas, canvas[0].tolist(), accepted[0].tolist())
        return canvas  # type: ignore[return-value]

    def accepted_in(self, canvas: int) -> tuple[list[int], list[bool]] | None:
        """Canvas ``canvas``'s tokens and accepted flags after the latest step, if it ran one."""
        if self.accepted_canvas is None or self.accepted_canvas[0] != canvas:
            return None
        return self.accepted_canvas[1], self.accepted_canvas[2]

    def renoise_canvas(self, accepted_canvas: torch.LongTensor, cur_step: int) -> torch.LongTensor:
        """Unaccepted positions: a ``strength`` share back to noise, the rest back to the seed."""
        accepted = self.accepted
        assert accepted is not None, "renoise_canvas before accept_canvas"
        seed = self.seed_row.to(accepted_canvas.device).expand_as(accepted_canvas)
        free = self.free_row.to(accepted_canvas.device).expand_as(accepted_canvas)
        open_ = ~accepted
        noisy = self._noise_share(open_ & free)
        reverted = torch.where(open_, seed, accepted_canvas)
        return torch.where(noisy, self._uniform(accepted_canvas), reverted)  # type: ignore[return-value]


class RecordingStopper(StableAndConfidentStoppingCriteria):
    """The stock stable-and-confident stop, remembering its latest verdict."""

    def __init__(self) -> None:
        super().__init__(stability_threshold=1, confidence_threshold=1.0)
        self.verdict: torch.Tensor | None = None

    def configure(self, stability_threshold: int, confidence_threshold: float) -> None:
        self.stability_threshold = stability_threshold
        self.confidence_threshold = confidence_threshold
        self.reset()

    def __call__(
        self, argmax_canvas: torch.LongTensor, logits: torch.Tensor, **kwargs: object
    ) -> torch.BoolTensor:
        self.verdict = super().__call__(argmax_canvas, logits, **kwargs)
        return self.verdict

    def reset(self) -> None:
        super().reset()
        self.verdict = None

    def fired(self) -> bool:
        return self.verdict is not None and bool(self.verdict.all())
