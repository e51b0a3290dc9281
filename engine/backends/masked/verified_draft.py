"""Verified drafting: the diffusion canvas proposes a run of tokens, the base model keeps them.

A draft at the end of the text has nothing after it for a bidirectional canvas to use, and the
135M adaptation drafts far less fluently than the model it was adapted from: the quality suite's
continuations read at 1.56 nats per token, the base model's own at 0.88. So a continuation runs
as speculative decoding with the diffusion model as the drafter and the base model (the same
weights with the adapter switched off, :class:`engine.models.adapters.BaseSwitch`) as the verifier,
as
DiffuSpec (arXiv 2509.23430) and SSD (arXiv 2510.04147) pair a diffusion drafter with a causal
verifier:

1. **propose**: one bidirectional forward over the next :data:`PROPOSAL` positions, masked,
   guesses them all at once (the committed text is its causal prefix, as adapted);
2. **verify**: one causal forward of the base reads those guesses after the committed text. A
   guess is kept while the base gives it at least ``verify_drafts`` of the probability of its own
   likeliest token; the first guess it rejects is replaced by that token, so every round
   commits at least one token and, when every guess holds, one more (the base's next token).

At ``verify_drafts`` 1 the draft is exactly the base model's greedy text under the canvas's
constraints and prose guards (the guards' repeat and list-mark bans apply to the verifier's
choices, position by position, as each is committed in order); lower values keep more of the
canvas's guesses. Each model keeps its own prefix cache; the rows a round commits are appended
causally, so both stay exact. A draft with text after it keeps the bidirectional sampler: there
the canvas must join the text after it, which a left-to-right reader cannot judge.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import torch

from engine.backends.base import StepResult
from engine.backends.masked.forward import VerifyModels
from engine.backends.masked.state import Denoising, result
from engine.core.canvas import Canvas, Kind
from engine.core.config import SamplerSettings
from engine.decode.allowed import BANNED
from engine.decode.guards import GUARD_BAN
from engine.language.en.content import is_content_word

# Guesses per round. The base keeps 0.8 of them per round on the quality suite's drafts, and
# the same share at 2, 3, 4 or 8 (a guess past the first few is almost never its choice); 4 was
# the fastest (75 s for the twelve drafts against 77 s at 3, 85 s at 2, 78 s at 8).
PROPOSAL = 4
# Forwards one round costs: the proposing read and the verifying read.
FORWARDS_PER_ROUND = 2
# Nats taken off a content word the draft already said. The base's greedy text loops in
# meaning where no 3-gram repeats ("The engine is the machine that is the computer."): on the
# quality suite's drafts 16% of content words were said again, 5% with this (1.12 nats per
# token against 1.11; 3 nats: 2%, 1.13).
SAID_PENALTY = 1.5


def verifiable(models: VerifyModels, canvas: Canvas, state: Denoising) -> bool:
    """A pure continuation on an adapted model that can read as its base: every position free
    and masked, nothing but whitespace after the canvas (a file's last newline), a shifted
    model with both prefix caches."""
    return (
        models.path.shifted
        and models.base is not None
        and models.path.prefix_cache is not None
        and not canvas.plan.after.strip()
        and all(kind is Kind.FREE for kind in canvas.kinds)
        and all(state.host_masked)
    )


class VerifiedDraft:
    """One continuation, drafted in rounds of propose and verify (see the module docstring)."""

    def __init__(self, models: VerifyModels, state: Denoising, settings: SamplerSettings) -> None:
        assert models.path.prefix_cache is not None
        self.models = models
        self.model = models.model
        self.base = models.base
        self.state = state
        self.ratio = settings.verify_drafts
        self.size = len(state.host_ids)
        self.committed: list[int] = []
        self.unread: list[int] = []  # committed, not yet in the adapted model's cache
        self.pending = 0  # committed, not yet in the base's cache
        self.shown = 0  # positions before this hold a committed token or a shown guess
        self.max_steps = FORWARDS_PER_ROUND * self.size  # a round commits at least one token

    def rounds(self) -> Iterator[StepResult]:
        """One :class:`StepResult` per round (two forwards); both prefix caches are left as
        they were found, holding the text before the canvas."""
        models, state = self.models, self.state
        assert models.path.prefix_cache is not None
        cut = state.start - 1
        try:
            with torch.inference_mode():
                adapted = models.path.prefix_cache.holding(self.model, state.seq[:cut])
                with self.base.off():
                    base = models.base_cache.holding(self.model, state.seq[:cut])
            # Nothing before the canvas but the start token: nothing kept, so fresh caches.
            adapted = adapted if adapted is not None else self._empty_cache()
            base = base if base is not None else self._empty_cache()
            self.pending = int(state.seq[cut])
            self.unread = [self.pending]
            while len(self.committed) < self.size:
                with torch.inference_mode():
                    self._round(adapted, base)
                    if self._end_at_sentence():
                        self.shown = 0
                yield self._result()
        finally:
            models.path.prefix_cache.forget_beyond_prefix()
            models.base_cache.forget_beyond_prefix()

    def _round(self, adapted: Any, base: Any) -> None:
        """Propose, verify, commit."""
        before = len(self.committed)
        left = self.size - before
        guesses = self._propose(adapted, min(PROPOSAL, left))
        kept = base.get_seq_length()
        with self.base.off():
            logits = self._read(base, [self.pending, *guesses])
        count, own = self._accept(logits, guesses)
        new = [*guesses[:count], own][:left]
        cut_cache(base, kept + 1 + count)  # the pending token and the kept guesses: exact
        self.committed += new
        self.pending = new[-1]
        self.unread = [self.unread[-1], *new]
        self.state.forwards += FORWARDS_PER_ROUND
        self._show(guesses, before)

    def _propose(self, adapted: Any, count: int) -> list[int]:
        """The canvas's one-shot guesses for its next ``count`` positions.

        Only those positions are shown, masked: guesses past the first few are almost never
        kept, and showing the whole rest of the canvas (up to the draft budget) made each
        proposing read several times the cost of a verifying one for the same guesses kept
        (the quality suite's drafts: 102 s against 75 s, same text, 0.88 tokens per forward).

        The tokens committed since the last round are read causally into the adapted cache in
        the same forward (the mask keeps them causal); the last of them is the row before the
        canvas, which sees the canvas as in training, so it is read again next round.
        """
        models, state = self.models, self.state
        causal = len(self.unread) - 1
        cached = adapted.get_seq_length()
        ids = self.unread + [models.mask_id] * count
        out = self.model(
            input_ids=self._tensor(ids)[None], cache=adapted, use_cache=True, is_causal=False,
            attention_mask=propose_mask(cached, causal, len(ids)).to(models.device),
            logits_to_keep=self._tensor(list(range(causal, causal + count))),
        )  # fmt: skip
        cut_cache(adapted, cached + causal)
        at = len(self.committed)
        logits = out.logits[0].float() + state.bias[at : at + count]
        logits[:, models.table.specials.filler_id] = BANNED  # a continuation fills its budget
        return [int(t) for t in logits.argmax(-1).tolist()]

    def _read(self, cache: Any, ids: list[int]) -> torch.Tensor:
        """Causal logits after each of ``ids``: row ``j`` predicts the token after ``ids[j]``."""
        ids_ = self._tensor(ids)[None]
        out = self.model(input_ids=ids_, cache=cache, use_cache=True, is_causal=True)
        return out.logits[0].float()

    def _accept(self, logits: torch.Tensor, guesses: list[int]) -> tuple[int, int]:
        """How many guesses the verifier keeps, and its own token after them."""
        return accept(
            [lambda j=j: self._guarded(logits[j], len(self.committed) + j, guesses[:j])
             for j in range(len(logits))],
            guesses, self.ratio,
        )  # fmt: skip

    def _guarded(self, row: torch.Tensor, position: int, accepted: list[int]) -> torch.Tensor:
        """The verifier's row for ``position`` under the canvas's constraints and prose guards."""
        state = self.state
        if position >= self.size:
            return row  # past the canvas: the verifier's token is never committed
        row = row + state.bias[position]
        row[self.models.table.specials.filler_id] = BANNED
        guards = state.guards
        if guards is None:
            return row
        values = self.committed + accepted + [0] * (self.size - position)
        open_ = [False] * position + [True] * (self.size - position)
        bans = guards.repeat_bans([position], values, open_)
        banned = {token for _, token in bans} | set(guards.echoes.get(position, ()))
        if guards.list_marks is not None:  # a prose draft: no list item opens a line
            committed = [not o for o in open_]
            banned |= {t for _, t in guards.list_marks.bans([position], values, committed)}
        if banned:
            row[self._tensor(sorted(banned))] += GUARD_BAN
        said = {t for t in self.committed + accepted if self._content_word(t)}
        if said and SAID_PENALTY:
            row[self._tensor(sorted(said))] -= SAID_PENALTY
        return row

    def _content_word(self, token: int) -> bool:
        """A token that is a whole content word ("machine"; not "the", not "would")."""
        return is_content_word(self.models.table.text(token).strip())

    def _end_at_sentence(self) -> bool:
        """End the draft at a sentence end: one in the budget's last quarter (another sentence
        would not fit), or, once the budget is spent mid-sentence ("... The computer is"), the
        last one if that keeps half the draft. The rest is filler; whether it ended."""
        table, state = self.models.table, self.state
        ends = sentence_ends([table.text(t) for t in self.committed])
        full = len(self.committed) >= self.size
        if not ends or not (ends[-1] > self.size - self.size // 4 or full):
            return False
        if ends[-1] < self.size // 2:
            return False
        filler = table.specials.filler_id
        del self.committed[ends[-1] :]
        for i in range(ends[-1], self.size):
            state.host_ids[i] = state.host_guess[i] = filler
            state.host_masked[i] = False
        state.ids[ends[-1] :] = filler
        state.masked[ends[-1] :] = False
        self.committed += [filler] * (self.size - ends[-1])
        return True

    def _show(self, guesses: list[int], before: int) -> None:
        """Mirror the round on the host: committed tokens settle; the guesses the verifier did
        not get to stay on show where they were guessed (the overlay draws them provisional)."""
        state, done = self.state, len(self.committed)
        for i in range(before, done):
            state.host_ids[i] = state.host_guess[i] = self.committed[i]
            state.host_masked[i] = False
            state.host_confidence[i] = 1.0
        for j in range(done - before, len(guesses)):
            state.host_guess[before + j] = guesses[j]
        self.shown = before + len(guesses)
        state.ids[before:done] = self._tensor(self.committed[before:])
        state.masked[before:done] = False

    def _result(self) -> StepResult:
        state = self.state
        in_block = [i < self.shown for i in range(self.size)]
        return result(state, in_block, self.max_steps)

    def _empty_cache(self) -> Any:
        from transformers import DynamicCache

        return DynamicCache(config=self.model.config)

    def _tensor(self, values: list[int]) -> torch.Tensor:
        return torch.tensor(values, dtype=torch.long, device=self.models.device)


def sentence_ends(texts: list[str]) -> list[int]:
    """Lengths at which the token texts so far end a sentence or a line."""
    return [i + 1 for i, text in enumerate(texts) if ends_sentence(text)]


def ends_sentence(text: str) -> bool:
    """Whether a token closes a sentence or a line: "." "!" "?" (a closing quote or bracket
    after them too) or a line break; a list number ("5.") does not."""
    core = text.strip()
    if core[:-1].isdigit() and core.endswith("."):
        return False
    return "\n" in text or core.rstrip("\"')]”’").endswith((".", "!", "?"))


def cut_cache(cache: Any, length: int) -> None:
    """Drop the rows of ``cache`` beyond its first ``length`` (the cache takes a count to drop)."""
    extra = cache.get_seq_length() - length
    if extra > 0:
        cache.crop(-extra)


def accept(rows: list[Any], guesses: list[int], ratio: float) -> tuple[int, int]:
    """How many of ``guesses`` a verifier keeps, and its own token after them.

    ``rows[j]()`` gives the verifier's logits for guess ``j``'s position (built lazily: each
    depends on the guesses kept before it, and rows after the first rejection are never needed);
    ``rows[len(guesses)]`` is the position after them all. A guess is kept while its probability
    is at least ``ratio`` times the verifier's likeliest token's.
    """
    for j, row in enumerate(rows):
        probs = row().softmax(-1)
        best = int(probs.argmax())
        if j == len(guesses) or float(probs[guesses[j]]) < ratio * float(probs[best]):
            return j, best
    raise ValueError("a verifier needs one row more than there are guesses")


def propose_mask(cached: int, causal: int, width: int) -> torch.Tensor:
    """``(1, 1, width, cached + width)`` bool: every row sees the cache; the first ``causal``
    new rows see the new rows causally, the rest (the row before the canvas, the canvas) see
    every new row."""
    pos = torch.arange(width)
    new = (pos[None, :] <= pos[:, None]) | (pos[:, None] >= causal)
    return torch.cat([torch.ones(width, cached, dtype=torch.bool), new], dim=1)[None, None]
