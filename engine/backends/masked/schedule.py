"""Small pure tensor functions of masked-diffusion sampling, shared by the samplers.

A masked-diffusion sampler (LLaDA, Dream, Fast-dLLM) repeats one move: predict every masked
position at once, then *commit* only some of those predictions and leave the rest masked for
the next forward pass. These functions are that move's parts:

* :func:`pick_tokens` chooses a token per position (greedy or Gumbel-max sampling, see
  :func:`add_gumbel_noise`) and reports the model's confidence in it; :func:`pick_open_rows`
  does it over a fixed set of rows, drawing noise only for the open ones;
* :func:`transfer_schedule` says how many positions a fixed-count sampler commits per step;
* :func:`select_fixed` (low-confidence remasking: the k most confident) and
  :func:`select_threshold` (parallel decoding: every confident one) choose which;
* :func:`shift_logits` realigns Dream-style models, whose row ``i - 1`` predicts token ``i``.

They know nothing of canvases, tokenizers or models, so tests can pin them down exactly.
"""

from __future__ import annotations

import torch

# Low mantissa bits of a float32 score ignored when ranking (see most_confident_first): the
# kernels' rounding noise lives in the last 2-3 of 23; dropping 8 keeps 1 part in 32,000.
RANKING_DROPPED_BITS = 8


def add_gumbel_noise(
    logits: torch.Tensor, temperature: float, generator: torch.Generator | None = None
) -> torch.Tensor:
    """Scores whose argmax is a sample from ``softmax(logits / temperature)`` (Gumbel-max trick).

    With ``temperature == 0`` the logits come back unchanged, so the argmax is greedy decoding.

    The noise is drawn in float64 on purpose. Masked diffusion commits the *argmax* of noisy
    scores, so the sample is only as good as the noise's tails: in float32 (worse in bf16) the
    uniform draws are coarse near 0 and 1, which truncates the Gumbel distribution and quietly
    lowers the effective temperature. That makes generations look better by perplexity while
    they lose diversity and quality (Zheng et al. 2024, arXiv:2409.02908); LLaDA samples in
    float64 for this reason. ``generator`` makes the draw reproducible from the request's seed.
    """
    if temperature == 0:
        return logits
    uniform = torch.rand(
        logits.shape, generator=generator, dtype=torch.float64, device=logits.device
    )
    # A uniform draw of exactly 0 gives a Gumbel of -inf: that token just cannot win, no NaN.
    gumbel = -torch.log(-torch.log(uniform))
    return logits.to(torch.float64) / temperature + gumbel


def pick_tokens(
    logits: torch.Tensor, temperature: float, generator: torch.Generator | None = None
) -> tuple[torch.Tensor, torch.Tensor]:
    """Token ids ``(n,)`` chosen from ``logits`` ``(n, vocab)``, and the model's confidence in each.

    Confidence is the noise-free probability of the chosen token (LLaDA's "low-confidence
    remasking" score): sampling noise decides *which* token, but the model's own belief decides
    *when* it is committed, so an unlucky sample stays masked and gets another chance.
    """
    ids = add_gumbel_noise(logits, temperature, generator).argmax(dim=-1)
    probs = torch.softmax(logits.to(torch.float32), dim=-1)
    confidence = probs.gather(-1, ids.unsqueeze(-1)).squeeze(-1)
    return ids, confidence


def pick_open_rows(
    logits: torch.Tensor,
    open_rows: torch.Tensor,
    count: int,
    temperature: float,
    generator: torch.Generator | None = None,
) -> tuple[torch.Tensor, torch.Tensor]:
    """:func:`pick_tokens` over every row, with sampling noise drawn for the ``count`` rows flagged
    in ``open_rows`` only, in order: the same draws (and the same generator state after) as
    picking those rows alone, so a fixed-shape step samples exactly what a gathered one did.
    The other rows' picks are meaningless and must be ignored by the caller.
    """
    if temperature == 0 or count == len(logits):
        return pick_tokens(logits, temperature, generator)
    uniform = torch.rand(
        (count, logits.shape[-1]), generator=generator, dtype=torch.float64, device=logits.device
    )
    rank = (open_rows.cumsum(0) - 1).clamp(min=0)  # row → which of the ``count`` draws
    gumbel = -torch.log(-torch.log(uniform))[rank]
    ids = (logits.to(torch.float64) / temperature + gumbel).argmax(dim=-1)
    probs = torch.softmax(logits.to(torch.float32), dim=-1)
    return ids, probs.gather(-1, ids.unsqueeze(-1)).squeeze(-1)


def transfer_schedule(masked_count: int, steps: int) -> list[int]:
    """How many masked positions to commit at each step: an even spread, larger shares first.

    LLaDA's noise schedule is linear in time, so the expected number of tokens unmasked per step
    is constant: ``masked_count // steps`` each, the remainder one extra on the earliest steps.
    Unlike LLaDA, steps that would commit nothing are dropped (``len <= masked_count``): a
    forward pass that changes no token costs a full step and shows the user nothing.
    """
    if masked_count <= 0 or steps <= 0:
        return []
    steps = min(steps, masked_count)
    base, extra = divmod(masked_count, steps)
    return [base + 1 if step < extra else base for step in range(steps)]


def select_fixed(
    confidence: torch.Tensor, eligible: torch.Tensor, k: int, available: int | None = None
) -> torch.Tensor:
    """Boolean mask of the ``k`` most confident eligible positions (fewer if fewer are eligible).

    The rest stay masked and are predicted again next step with more context: committing the
    surest tokens first is what makes low-confidence remasking better than random unmasking.
    ``available`` is how many are eligible, when the caller knows it (no device read then).
    """
    chosen = torch.zeros_like(eligible)
    k = min(k, int(eligible.sum()) if available is None else available)
    if k <= 0:
        return chosen
    order = most_confident_first(confidence)
    chosen[order[eligible[order]][:k]] = True
    return chosen


def most_confident_first(scores: torch.Tensor) -> torch.Tensor:
    """Positions by descending score, those equal but for their last bits taken left first.

    Why not ``topk``: two predictions of one token (a tiny model's repeated "----", a real
    model's repeated word) score alike up to the float32 rounding of the matrix kernels, and
    those last bits differ between CPUs (AVX-512 against AVX2 sums in another order). Ranked
    on the raw scores, the same seed committed those positions in another order on another
    machine. With the last ``RANKING_DROPPED_BITS`` mantissa bits cleared (a truncation toward
    zero, which keeps the order of the rest) and sorted stably, the same seed settles the same
    way everywhere, and a tie goes to the leftmost position, as ``prefer_left`` would have it.
    """
    keep = ~((1 << RANKING_DROPPED_BITS) - 1)
    rounded = (scores.float().contiguous().view(torch.int32) & keep).view(torch.float32)
    return torch.sort(rounded, descending=True, stable=True).indices


def prefer_left(ranked: torch.Tensor, first_open: int, bias: float) -> torch.Tensor:
    """``ranked`` less ``bias`` for each position right of the block's first open one.

    A 135M model's confidences are low and flat (the committed token's probability is mostly
    0.1–0.3), so the most confident position is often a word several places ahead of the text
    already written, and the words between are then forced to bridge the gap ("stand there the
    lamp"). A small positional prior makes the block settle nearly left to right, as the text
    is read, while a clearly surer position can still go first.
    """
    if bias <= 0:
        return ranked
    index = torch.arange(len(ranked), device=ranked.device, dtype=ranked.dtype)
    return ranked - bias * (index - first_open).clamp(min=0)


def select_threshold(
    confidence: torch.Tensor, eligible: torch.Tensor, threshold: float, available: int | None = None
) -> torch.Tensor:
    """Boolean mask of every eligible position with confidence above ``threshold``, at least one.

    Fast-dLLM's parallel decoding: tokens the model is sure of are nearly independent given the
    context, so committing them together costs little quality and saves forwards. The single
    most confident position is always committed, so every forward makes progress and the
    sampler cannot stall however low the confidences are.
    """
    chosen = eligible & (confidence > threshold)
    return chosen | select_fixed(confidence, eligible, 1, available)


def shift_logits(logits: torch.Tensor) -> torch.Tensor:
    """Realign Dream-style logits ``(seq, vocab)`` so that row ``i`` predicts token ``i``.

    Models adapted from autoregressive checkpoints (Dream, the embedded SmolLM2 adapter) keep
    the next-token head: the row at position ``i - 1`` predicts token ``i``. Shifting by one row
    lets the rest of the sampler treat them like LLaDA. Row 0 has no predecessor and keeps its
    own logits, which is why a sampler puts a start token before the canvas: no canvas position
    ever depends on that meaningless row.
    """
    return torch.cat([logits[:1], logits[:-1]], dim=0)
