"""Measuring the adaptation on the fixed held-out split, against two baselines.

Three models see the very same positions: the adapted diffusion model, the unadapted base run
bidirectionally (what Settle ran before the adapter existed) and the base run autoregressively
(its own next-token accuracy, with the true left context and no right context). Metrics:

* masked-token accuracy at mask ratios 0.15 / 0.5 / 0.9: one forward, argmax per masked token;
* span-infill accuracy: a 16-token span masked between context, decoded greedily over 8 steps,
  most confident positions first (how the masked backend denoises);
* span + filler accuracy: the same span in a 24-position slot, so the last 8 must become
  filler (how a slot longer than its text ends early).

Every example comes from a seeded :class:`~tools.adapt.examples.Stream` over ``heldout.jsonl``,
so each run scores the same positions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import torch

from tools.adapt import corpus
from tools.adapt.examples import IGNORE, Example, Specials, Stream

RATIOS = (0.15, 0.5, 0.9)
SPAN, EXTRA, SPAN_STEPS = 16, 8, 8
EVAL_SEED = 20261130
EVAL_LENGTH = 128
SAMPLE_SLOT = 12
BATCH = 16  # examples per forward: batching makes a one-thread CPU eval ~2x cheaper
# Ten fixed infill prompts: (text before the blank, text after it).
SAMPLES = (
    ("The capital of France is", " and the capital of Germany is Berlin."),
    ("In the beginning God created the heaven and the earth. And the earth was without form,"
     " and", "; and darkness was upon the face of the deep."),
    ('{"name": "Ada Lovelace", "email":', ', "age": 36}'),
    ("| product | qty | price |\n| --- | ---: | ---: |\n| pen | 2 | 1.50 |\n| mug |",
     " | 7.25 |"),
    ("To read a file in Python, open it with", " and call its read() method."),
    ("fn main() {\n    let x = 5;\n", "\n}"),
    ("The quick brown fox", " over the lazy dog."),
    ("Node.js is a JavaScript runtime built on", "."),
    ("Dear Anna,\n\nThank you for", ". I will reply by Friday.\n\nBest,\nTom"),
    ("A list in Python is", ", while a tuple cannot be changed after it is created."),
)  # fmt: skip


@dataclass
class EvalSet:
    ratios: dict[float, list[Example]]
    spans: list[Example]
    filled: list[Example]


def eval_set(docs: list[corpus.Doc], tokenizer: Any, specials: Specials, count: int) -> EvalSet:
    stream = Stream(docs, tokenizer, specials, EVAL_LENGTH, EVAL_SEED)
    ratios = {r: [stream.diffusion(r) for _ in range(count)] for r in RATIOS}
    spans = [stream.span(SPAN, filler=False) for _ in range(count)]
    filled = [_with_filler(stream.span(SPAN, filler=False), specials) for _ in range(count)]
    return EvalSet(ratios, spans, filled)


def _with_filler(example: Example, specials: Specials) -> Example:
    """Widen the span's slot by :data:`EXTRA` positions whose answer is the filler token."""
    end = max(i for i, t in enumerate(example.targets) if t != IGNORE) + 1
    ids = example.ids[:end] + [specials.mask_id] * EXTRA + example.ids[end:]
    targets = example.targets[:end] + [specials.filler_id] * EXTRA + example.targets[end:]
    return Example(ids[:EVAL_LENGTH], targets[:EVAL_LENGTH], example.weight)


def canvas_starts(ids: torch.Tensor, specials: Specials) -> torch.Tensor:
    """``(B,)``: the row before each sequence's first mask, where a prefix-causal model's
    both-ways region begins (the examples' own ``canvas_start``, read back from the ids)."""
    masked = ids == specials.mask_id
    first = torch.where(masked.any(1), masked.int().argmax(1), ids.shape[1])
    return (first - 1).clamp(min=0)


def predict(
    model: Any,
    ids: torch.Tensor,
    at: torch.Tensor,
    causal: bool,
    specials: Specials,
    starts: torch.Tensor | None = None,
) -> torch.Tensor:
    """Float logits ``(at.sum(), vocab)`` for the ``True`` positions of ``at`` (both ``(B, L)``).

    Row ``i - 1`` predicts token ``i``; the LM head runs on the needed rows only. ``starts``
    reads each row prefix-causally up to its start (the attention a prefix-causal adapter was
    trained with); without it a non-causal model attends both ways everywhere.
    """
    from tools.adapt.train import prefix_causal_mask

    kwargs: dict[str, Any] = {} if causal else {"is_causal": False}
    if starts is not None:
        kwargs = {"attention_mask": prefix_causal_mask(starts, ids.shape[1])}
    hidden = model.model(input_ids=ids, **kwargs).last_hidden_state
    logits = model.get_output_embeddings()(hidden[:, :-1][at[:, 1:]]).float()
    # what the backend never generates (the mask, other specials) is never an answer here either
    logits[:, [specials.mask_id, *specials.banned]] = float("-inf")
    return logits


def _chunks(examples: list[Example]) -> list[tuple[torch.Tensor, torch.Tensor]]:
    """``(ids, targets)`` tensors of :data:`BATCH` examples at a time (one forward each)."""
    out = []
    for first in range(0, len(examples), BATCH):
        part = examples[first : first + BATCH]
        out.append((torch.tensor([e.ids for e in part]), torch.tensor([e.targets for e in part])))
    return out


def masked_accuracy(
    model: Any, examples: list[Example], causal: bool, specials: Specials, prefix: bool = False
) -> float:
    """Argmax accuracy at the targets; the causal model reads the true sequence, no masks."""
    hits = total = 0
    for ids, targets in _chunks(examples):
        at = targets != IGNORE
        source = torch.where(at, targets, ids) if causal else ids
        starts = canvas_starts(ids, specials) if prefix else None
        guess = predict(model, source, at, causal, specials, starts).argmax(-1)
        hits += int((guess == targets[at]).sum())
        total += int(at.sum())
    return hits / max(1, total)


def decode(
    model: Any, ids: torch.Tensor, specials: Specials, steps: int, prefix: bool = False
) -> torch.Tensor:
    """Greedy masked decoding of ``(B, L)`` ids: each step commits each row's most confident
    share of its masks, as the masked backend does (the canvas stays where the masks began)."""
    seq = ids.clone()
    starts = canvas_starts(ids, specials) if prefix else None
    for step in range(steps):
        masked = seq == specials.mask_id
        if not masked.any():
            break
        logits = predict(model, seq, masked, False, specials, starts)
        confidence, guess = logits.softmax(-1).max(-1)
        scores = torch.full(seq.shape, -1.0)
        scores[masked] = confidence
        tokens = seq.clone()
        tokens[masked] = guess
        rank = scores.argsort(dim=1, descending=True).argsort(dim=1)
        share = -(-masked.sum(1, keepdim=True) // (steps - step))
        seq = torch.where(masked & (rank < share), tokens, seq)
    return seq


def infill_accuracy(
    model: Any, examples: list[Example], specials: Specials, prefix: bool = False
) -> float:
    hits = total = 0
    for ids, targets in _chunks(examples):
        result = decode(model, ids, specials, SPAN_STEPS, prefix)
        at = targets != IGNORE
        hits += int((result[at] == targets[at]).sum())
        total += int(at.sum())
    return hits / max(1, total)


def scores(
    model: Any, data: EvalSet, specials: Specials, causal: bool, prefix: bool = False
) -> dict[str, float]:
    """Every metric for one model; the causal model scores its next-token accuracy instead.

    ``prefix``: the model reads the text before each example's first mask causally, as a
    prefix-causal adapter was trained to and as the backend runs it.
    """
    out = {
        f"masked@{r}": masked_accuracy(model, ex, causal, specials, prefix)
        for r, ex in data.ratios.items()
    }
    if causal:
        out["span"] = masked_accuracy(model, data.spans, True, specials)
        return out
    out["span"] = infill_accuracy(model, data.spans, specials, prefix)
    out["span+filler"] = infill_accuracy(model, data.filled, specials, prefix)
    return out


def samples(model: Any, tokenizer: Any, specials: Specials, prefix: bool = False) -> list[str]:
    """The ten fixed infills, decoded greedily; filler dropped as the app drops it."""
    out = []
    for before, after in SAMPLES:
        head = [specials.start_id, *tokenizer.encode(before, add_special_tokens=False)]
        tail = tokenizer.encode(after, add_special_tokens=False)
        ids = head + [specials.mask_id] * SAMPLE_SLOT + tail
        result = decode(model, torch.tensor([ids]), specials, SAMPLE_SLOT // 2, prefix)[0].tolist()
        filled = result[len(head) : len(head) + SAMPLE_SLOT]
        text = tokenizer.decode([t for t in filled if t != specials.filler_id])
        out.append(f"{before}[{text}]{after}")
    return out
