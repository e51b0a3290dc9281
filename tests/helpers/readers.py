"""Fake passage readers: prices from a table, no model.

:class:`DamageTable` serves :func:`engine.language.en.drops.drop_words`: each word has a damage
(nats), and when the word is missing from a candidate, the first token kept after it reads that much
worse, which is how a real causal model shows a bad cut (the noun after a dropped article).
Every other kept token costs nothing. :class:`TokenPriceReader` and :class:`WordPriceReader`
serve the self-check and the proofreader: a token's price by its id, or by the word it is in.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from engine.core.canvas import Canvas, build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan
from engine.core.tokens import TokenTable
from engine.intent import read_intent
from engine.language.en.drops import word_spans
from engine.passes.base import PassContext
from engine.passes.shorten import Shorten


class DamageTable:
    """Callable as :data:`engine.language.en.drops.TokenCosts`; counts its reads."""

    def __init__(
        self,
        spans: Sequence[range],
        damage: dict[int, float],
        covers: dict[int, tuple[int, ...]] | None = None,
    ) -> None:
        self.word_of = {i: w for w, span in enumerate(spans) for i in span}
        self.damage = damage  # word index -> nats its absence adds to the next kept token
        self.covers = covers or {}  # a swap's token -> the words it says in fewer
        self.reads = 0

    def __call__(self, rows: Sequence[Sequence[int]]) -> list[list[float]]:
        self.reads += 1
        return [self.row(row) for row in rows]

    def row(self, kept: Sequence[int]) -> list[float]:
        """Per kept token; a token past the passage's own (a swap's concise form) costs
        nothing, and the words it ``covers`` count as present."""
        present = {self.word_of[i] for i in kept if i in self.word_of}
        present |= {w for i in kept for w in self.covers.get(i, ())}
        costs = []
        previous = -1
        for i in kept:
            word = self.word_of.get(i)
            if word is None:
                costs.append(0.0)
                continue
            missing = range(previous + 1, word) if word != previous else range(0)
            costs.append(sum(self.damage.get(w, 0.0) for w in missing if w not in present))
            previous = word
        return costs


class RecordingReader:
    """A :class:`~engine.backends.base.Reader` pricing cuts: remembers what it was shown and
    prices every cut the same (so the fixed word order decides)."""

    def __init__(self) -> None:
        self.shown: list[tuple[list[int], list[int]]] = []
        self.following: list[list[int]] = []
        self.forwards = 0

    def read_cuts(self, context, original, rows, following=()):
        self.forwards += 1
        if not self.shown or self.shown[-1] != (context, original):
            self.shown.append((context, original))
            self.following.append(list(following))
        return [[0.0] * len(row) for row in rows]


class TokenPriceReader:
    """A :class:`~engine.backends.base.Reader` for the reread pass: each token costs its price
    (default 1 nat) wherever it stands, so a test decides which version of a run reads better."""

    def __init__(self, prices: dict[int, float]) -> None:
        self.prices = prices
        self.calls: list[tuple[list[int], list[int], list[tuple[int, list[int]]]]] = []
        self.forwards = 0

    def read(self, context: list[int], tokens: list[int], variants, prune=math.inf):
        self.calls.append((context, list(tokens), list(variants)))
        price = lambda token: self.prices.get(token, 1.0)  # noqa: E731
        return [price(t) for t in tokens], [[price(t) for t in tail] for _, tail in variants]


class WordPriceReader:
    """A :class:`~engine.backends.base.Reader` for the proofread pass: each token costs the price
    of the word it is part of (lower-cased, marks stripped; default 1 nat) in the text it is read
    in, so a test decides which form of a word reads better. Never prunes; records each call."""

    def __init__(self, table, prices: dict[str, float]) -> None:
        self.table = table
        self.prices = prices
        self.calls: list[tuple[list[int], list[int], list[tuple[int, list[int]]], float]] = []
        self.forwards = 0

    def read(self, context: list[int], tokens: list[int], variants, prune=math.inf):
        self.calls.append((context, list(tokens), list(variants), prune))
        fresh = [self.priced([*tokens[:at], *tail])[at:] for at, tail in variants]
        return self.priced(tokens), fresh

    def priced(self, ids: Sequence[int]) -> list[float]:
        pieces = [self.table.text(i) for i in ids]
        out = [1.0] * len(ids)
        for span in word_spans(pieces):
            word = "".join(pieces[i] for i in span).strip().strip(".,!?").lower()
            for i in span:
                out[i] = self.prices.get(word, 1.0)
        return out


class WordEndPriceReader(WordPriceReader):
    """Like :class:`WordPriceReader`, but causal as a model is: a word costs its price (default
    1 nat) once, at its last token, and the tokens before cost nothing, so two spellings that
    share their first tokens are compared by what differs (the spelling pass's candidates)."""

    def priced(self, ids: Sequence[int]) -> list[float]:
        pieces = [self.table.text(i) for i in ids]
        out = [0.0] * len(ids)
        for span in word_spans(pieces):
            word = "".join(pieces[i] for i in span).strip().strip(".,!?").lower()
            out[span[-1]] = self.prices.get(word, 1.0)
        return out


def shortened_canvas(
    plan: EditPlan, table: TokenTable, settings: SamplerSettings, max_tokens: int, reader=None
) -> Canvas:
    """``plan``'s canvas after the shorten pass, as the pipeline builds it (``reader`` prices)."""
    ctx = PassContext(table, settings, read_intent(plan.instruction), reader)
    shorten = Shorten()
    shortened = shorten.before(plan, ctx)
    return build_canvas(shortened, table, settings, max_tokens, shorten.seed_cut(ctx))
