"""Training and evaluation examples: token windows with masks, targets and loss weights.

Three kinds of example, mixed in every batch (:data:`MIX`):

* **diffusion**: a window with each token masked with probability ``t ~ U(0, 1)``, the
  masked-diffusion objective (loss on masked tokens weighted ``1/t``);
* **span**: a contiguous span masked with context on both sides, the way a rewrite uses the
  model; half the spans are longer than their text and end in a run of filler tokens the model
  must predict, so it learns to end a segment early instead of padding it with stray tokens;
* **instruction**: an ``Instruction: ...`` header left unmasked (the header the masked backend
  builds) and the answer masked, followed by filler to the end of the window.

Position 0 always holds the start token and is never masked: with Dream-style shifted logits
row ``i - 1`` predicts token ``i``, so the first token has no row to predict it.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Any

import torch

from tools.adapt.corpus import Doc

IGNORE = -100
MIX = {"diffusion": 0.45, "span": 0.4, "instruction": 0.15}
SOURCES = {"python": 0.25, "node": 0.15, "rust": 0.2, "bible": 0.15, "synthetic": 0.25}
MIN_T = 0.05  # a floor on the mask ratio: 1/t weights from near-empty masks only add noise
MAX_SPAN = 64


@dataclass(frozen=True)
class Specials:
    start_id: int
    mask_id: int
    filler_id: int
    banned: tuple[int, ...] = ()  # never predicted (the backend's banned specials)


@dataclass
class Example:
    ids: list[int]  # the model's input, masks in place
    targets: list[int]  # the token to predict at each position, IGNORE where none
    weight: float  # the loss weight of each of its targets
    canvas_start: int = 0  # the first row that attends both ways (the row before the first mask)


class Stream:
    """Draws examples from documents with its own seeded random generator."""

    def __init__(
        self,
        docs: list[Doc],
        tokenizer: Any,
        specials: Specials,
        length: int,
        seed: int,
        prefix_causal: bool = False,
    ):
        self.prefix_causal = prefix_causal
        self.by_source: dict[str, list[Doc]] = {}
        for doc in docs:
            self.by_source.setdefault(doc.source, []).append(doc)
        self.tokenizer = tokenizer
        self.specials = specials
        self.length = length
        self.rng = random.Random(seed)
        # Each document is tokenized once: re-encoding whole manuals on every draw kept a GPU
        # waiting on the CPU. The draws (and so a seeded run) are the same either way.
        self.encoded: dict[tuple[int, bool], list[int]] = {}

    def encode(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text, add_special_tokens=False))

    def encode_doc(self, doc: Doc, separated: bool = False) -> list[int]:
        key = (id(doc), separated)  # the docs live as long as the stream
        if key not in self.encoded:
            self.encoded[key] = self.encode(("\n\n" if separated else "") + doc.text)
        return self.encoded[key]

    def window(self, size: int, source: str | None = None) -> list[int]:
        """``size`` consecutive tokens from one source, documents joined with blank lines."""
        names = [s for s in SOURCES if s in self.by_source]
        source = source or self.rng.choices(names, [SOURCES[s] for s in names])[0]
        docs = self.by_source[source]
        ids = list(self.encode_doc(self.rng.choice(docs)))
        while len(ids) < size + 1:
            ids += self.encode_doc(self.rng.choice(docs), separated=True)
        start = self.rng.randrange(0, len(ids) - size)
        return ids[start : start + size]

    def draw(self) -> Example:
        kind = self.rng.choices(list(MIX), list(MIX.values()))[0]
        if kind == "instruction":
            prompted = [d for d in self.by_source.get("synthetic", []) if d.prompt]
            if prompted:
                return self.instruction(self.rng.choice(prompted))
        return self.diffusion() if kind == "diffusion" else self.span()

    def diffusion(self, ratio: float | None = None) -> Example:
        content = self.window(self.length - 1)
        t = ratio if ratio is not None else max(MIN_T, self.rng.random())
        # With a causal prefix the canvas follows some text read left to right, as in the app.
        split = self.rng.randrange(1, self.length // 2) if self.prefix_causal else 1
        region = range(split, self.length)
        count = max(1, round(t * len(region)))
        chosen = set(self.rng.sample(region, count))
        return self._masked([self.specials.start_id, *content], chosen, t, len(region))

    def span(self, length: int | None = None, filler: bool | None = None) -> Example:
        """A span masked inside a window; with filler, its slot is longer than its text."""
        content = [self.specials.start_id, *self.window(self.length - 1)]
        most = min(MAX_SPAN, (self.length - 2) // 2)  # room for the span and its filler
        k = length or min(most, int(math.exp(self.rng.uniform(0, math.log(MAX_SPAN)))))
        extra = 0
        if filler if filler is not None else self.rng.random() < 0.5:
            extra = self.rng.randint(1, max(1, k))
        start = self.rng.randrange(1, self.length - k - extra + 1)
        text = content[start : start + k] + [self.specials.filler_id] * extra
        right = content[start + k :] if self.rng.random() < 0.85 or length else []
        seq = (content[:start] + text + right)[: self.length]
        seq += [self.specials.filler_id] * (self.length - len(seq))  # no right context: filler
        region = range(start, self.length if not right else start + len(text))
        t = 1.0 if length else max(MIN_T, self.rng.random())
        chosen = {i for i in region if self.rng.random() < t} or {region[0]}
        return self._masked(seq, chosen, t, len(region))

    def instruction(self, doc: Doc) -> Example:
        head = [self.specials.start_id, *self.encode(f"Instruction: Write {doc.prompt}.\n\n")]
        if len(head) > self.length // 2:  # no room left for an answer worth learning from
            return self.span()
        answer = self.encode(doc.text)[: self.length - len(head)]
        seq = head + answer + [self.specials.filler_id] * (self.length - len(head) - len(answer))
        t = max(MIN_T, self.rng.random())
        region = range(len(head), self.length)
        chosen = {i for i in region if self.rng.random() < t} or {region[0]}
        return self._masked(seq, chosen, t, len(region))

    def _masked(self, seq: list[int], chosen: set[int], t: float, region: int) -> Example:
        ids = [self.specials.mask_id if i in chosen else tok for i, tok in enumerate(seq)]
        targets = [tok if i in chosen else IGNORE for i, tok in enumerate(seq)]
        # The masked-diffusion loss: 1/t per masked token over the region's length, an unbiased
        # estimate of the region's mean loss whatever t was drawn
        return Example(ids, targets, 1.0 / (t * region), max(0, min(chosen) - 1))


def canvas_starts(examples: list[Example]) -> torch.Tensor:
    """``(batch,)``: where each example's both-ways region begins (prefix-causal attention)."""
    return torch.tensor([e.canvas_start for e in examples])


def batch(examples: list[Example]) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """``(ids, targets, weights)`` tensors of shape ``(batch, length)``."""
    ids = torch.tensor([e.ids for e in examples])
    targets = torch.tensor([e.targets for e in examples])
    weights = torch.tensor([[e.weight] * len(e.ids) for e in examples]) * (targets != IGNORE)
    return ids, targets, weights
