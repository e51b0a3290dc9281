"""Verified values: the base model reads a settled fill left to right and keeps what it agrees with.

A template's slots settle in parallel, in a handful of forwards, and the 135M canvas fills a
text value by guessing every position at once: the quality suite's bug report came back with
the title "Laversion0001000000", because nothing in a parallel step says where a value ends.
A left-to-right reader does know: it has read the key, the other values, and it can tell when
the closing quote should come. So once a fill's canvas has settled, every text value is
verified as a continuation is (:mod:`.verified`), by the base model (the adapter switched off):

* the base reads the template causally up to the value, then the value as the canvas wrote it
  and the locked token after it, in one forward;
* each token is kept while the base gives it at least ``verify_values`` of its likeliest
  choice's probability, under the position's own constraint; "the value ends here" competes
  as the probability of the locked token after the value (where the slot may end);
* at the first token it rejects, the base writes on, one token per forward, until it ends the
  value or the value's budget runs out; the rest of the slot becomes filler.

Only text values are verified: a run of slot positions that may hold a word after a space
(names, titles, descriptions, table text cells). Formats, patterns, numbers and literals
keep the canvas's value (their shapes say what they hold). The slot loop reads and validates
the result as before, so nothing invalid is ever offered.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import torch

from engine.backends.base import StepResult
from engine.backends.masked.forward import VerifyModels
from engine.backends.masked.state import Denoising, result
from engine.backends.masked.verified_draft import cut_cache
from engine.core.canvas import Canvas, Kind
from engine.core.config import SamplerSettings
from engine.core.plan import LiteralConstraint, Slot
from engine.decode.allowed import BANNED
from engine.decode.guards import GUARD_BAN

# What a text value can hold and a code cannot: a word after a space.
TEXT_PROBE = " and"


def text_runs(canvas: Canvas) -> list[range]:
    """The canvas's runs of slot positions that hold text values, left to right."""
    runs: list[range] = []
    start = None
    for i, kind in enumerate([*canvas.kinds, Kind.LOCKED]):
        if kind is Kind.SLOT and start is None:
            start = i
        elif kind is not Kind.SLOT and start is not None:
            if _holds_text(canvas, range(start, i)):
                runs.append(range(start, i))
            start = None
    return runs


def _holds_text(canvas: Canvas, run: range) -> bool:
    segments = {canvas.segment_of[i] for i in run}
    constraints = [
        s.constraint for s in (canvas.plan.segments[k] for k in segments) if isinstance(s, Slot)
    ]
    texts = [c for c in constraints if not isinstance(c, LiteralConstraint)]
    return len(texts) == len(constraints) and any(c.allows(TEXT_PROBE) for c in texts)


def soft_ends(canvas: Canvas, runs: list[range], bias: torch.Tensor, filler: int) -> set[int]:
    """Positions where a value may end although the canvas could not end it there: every
    position from there to the run's end may hold the filler, or sits in a slot whose
    minimum only guided the canvas (``Slot.soft_min``: a name's second token)."""
    found: set[int] = set()
    for run in runs:
        for position in reversed(run):
            segment = canvas.plan.segments[canvas.segment_of[position]]
            free = float(bias[position, filler]) > BANNED / 2
            if not (free or (isinstance(segment, Slot) and segment.soft_min)):
                break
            if not free:
                found.add(position)
    return found


class VerifiedValues:
    """The verification pass over one settled fill canvas (see the module docstring)."""

    def __init__(
        self, models: VerifyModels, state: Denoising, canvas: Canvas, settings: SamplerSettings
    ) -> None:
        self.models = models
        self.model = models.model
        self.base = models.base
        self.state = state
        self.ratio = settings.verify_values
        self.filler = models.table.specials.filler_id
        self.runs = text_runs(canvas)
        self.soft_ends = soft_ends(canvas, self.runs, state.bias, self.filler)
        self.read_to = 0  # canvas positions before this are in the base's cache
        self.max_steps = 0
        self.spaced: set[int] | None = None
        self.end_odds: dict[int, float] = {}
        self.unread: list[int] = []  # read, not yet in the base's cache

    def rounds(self, max_steps: int) -> Iterator[StepResult]:
        """One :class:`StepResult` per verified value that changed; the cache is left holding
        only the text before the canvas."""
        models, state = self.models, self.state
        self.max_steps = max_steps
        cut = state.start - 1
        try:
            with torch.inference_mode(), self.base.off():
                cache = models.base_cache.holding(self.model, state.seq[:cut])
            if cache is None:  # nothing before the canvas but the start token
                from transformers import DynamicCache

                cache = DynamicCache(config=self.model.config)
            self.unread = [int(state.seq[cut])]
            for run in self.runs:
                # The adapter is off only while the base reads: never across a yield.
                with torch.inference_mode(), self.base.off():
                    changed = self._verify(cache, run)
                if changed:
                    yield result(state, [False] * len(state.host_ids), max_steps)
        finally:
            models.base_cache.forget_beyond_prefix()

    def _verify(self, cache: Any, run: range) -> bool:
        """Verify one value, leaving every token of it in the cache; whether it changed."""
        ids = self.state.host_ids
        self.unread += [t for t in ids[self.read_to : run.start] if t != self.filler]
        guesses = [t for t in ids[run.start : run.stop] if t != self.filler]
        after = self._token_after(run)
        start = cache.get_seq_length() + len(self.unread)  # where the value's rows will begin
        written: list[int] = []
        self.end_odds = {}  # value length -> how likely the base ends there
        while True:
            kept = cache.get_seq_length()
            logits = self._read(cache, [*self.unread, *guesses, *([after] if after else [])])
            rows = logits[len(self.unread) - 1 :]
            count, choice = self._walk(rows, run, written, guesses, after)
            cut_cache(cache, kept + len(self.unread) + count)
            written += guesses[:count]
            self.state.forwards += 1
            if choice is None:
                break  # the value ends here: as the canvas wrote it, or where the base ends it
            written.append(choice)
            # Past the first rejection the canvas's later guesses followed a token the base
            # did not keep: the base writes on alone, one token per forward.
            self.unread, guesses = [choice], []
        if len(written) == len(run) and self.end_odds:
            # Full without the base ending it: a value cut off mid-sentence ("...to improve
            # your health is") reads worse than one ended where the base most nearly ended it.
            written = written[: max(self.end_odds, key=self.end_odds.__getitem__)]
            cut_cache(cache, start + len(written))
        self.unread = []
        self.read_to = run.start + len(run)
        return self._store(run, written)

    def _walk(
        self,
        rows: torch.Tensor,
        run: range,
        written: list[int],
        guesses: list[int],
        after: int | None,
    ) -> tuple[int, int | None]:
        """How many guesses the base keeps after ``written``, then its own token (``None``:
        the value ends there); notes the odds of ending at each length it reads."""
        for j in range(len(guesses) + 1):
            position = run.start + len(written) + j
            if position >= run.stop:
                if after is not None:  # ending at full length, unconstrained
                    probs = rows[j].softmax(-1)
                    self.end_odds[len(run)] = float(probs[after] / probs.max())
                return j, None
            value = written + guesses[:j]
            probs = self._choices(rows[j], position, after, run, value).softmax(-1)
            best = int(probs.argmax())
            if float(probs[self.filler]) > 0:
                self.end_odds[len(value)] = float(probs[self.filler] / probs[best])
            proposed = guesses[j] if j < len(guesses) else self.filler
            if float(probs[proposed]) < self.ratio * float(probs[best]):
                return j, None if best == self.filler else best
            if proposed == self.filler:
                return j, None
        raise AssertionError("the last guess is always followed by an end or a full slot")

    def _choices(
        self, row: torch.Tensor, position: int, after: int | None, run: range, value: list[int]
    ) -> torch.Tensor:
        """The base's scores at ``position`` under its constraint and the repeat bans; the
        filler's place holds "the value ends here", scored as the token after the value, where
        the slot may end."""
        bias = self.state.bias[position]
        scores = row + bias
        banned = self._repeats(run, value)
        if value and self.models.table.text(value[-1]).endswith(" "):
            banned |= self._spaced()  # a value never holds a run of spaces ("Theme  -  Theme")
        if banned:
            scores[torch.tensor(sorted(banned), device=scores.device)] += GUARD_BAN
        may_end = float(bias[self.filler]) > BANNED / 2 or position in self.soft_ends
        ends = after is not None and may_end
        scores[self.filler] = row[after] if ends else BANNED
        return scores

    def _repeats(self, run: range, value: list[int]) -> set[int]:
        """Tokens the prose guards ban after ``value``, the run's text so far: a 3-gram said
        before anywhere in the fill (the base otherwise gave four values the same sentence),
        a word beside itself, a run of one token, a space beside a space. The value's own later
        positions and the values not yet verified are open: their canvas guesses ban nothing."""
        guards, state = self.state.guards, self.state
        if guards is None:
            return set()
        values = list(state.host_ids)
        position = run.start + len(value)
        values[run.start : position] = value
        open_ = [False] * len(values)
        for later in self.runs[self.runs.index(run) + 1 :]:
            for i in later:
                open_[i] = True
        for i in range(position, run.stop):
            open_[i] = True
        text = [i in run for i in range(len(values))]
        bans = guards.repeat_bans([position], values, open_, text)
        bans += guards.repeat_bans([position], values, open_, [False] * len(values))
        return {token for _, token in bans}

    def _spaced(self) -> set[int]:
        """Tokens that start with a space (the table indexes them once)."""
        if self.spaced is None:
            self.spaced = set(self.models.table.starting_with(" "))
        return self.spaced

    def _read(self, cache: Any, ids: list[int]) -> torch.Tensor:
        out = self.model(
            input_ids=torch.tensor([ids], device=self.models.device), cache=cache,
            use_cache=True, is_causal=True,
        )  # fmt: skip
        return out.logits[0].float()

    def _token_after(self, run: range) -> int | None:
        """The first token after the value: the canvas's next one, else the text after it."""
        state = self.state
        later = [t for t in state.host_ids[run.stop :] if t != self.filler]
        if later:
            return later[0]
        rest = state.seq[state.start + len(state.host_ids) :].tolist()
        return int(rest[0]) if rest else None

    def _store(self, run: range, written: list[int]) -> bool:
        """Write the value into the run, filler after it; whether anything changed."""
        state = self.state
        value = written + [self.filler] * (len(run) - len(written))
        if value == state.host_ids[run.start : run.stop]:
            return False
        for offset, token in enumerate(value):
            state.host_ids[run.start + offset] = state.host_guess[run.start + offset] = token
        state.ids[run.start : run.stop] = torch.tensor(value, device=self.models.device)
        return True
