"""The two systems under test, each turning a case into an :class:`Output`.

*Diffusion* is Settle's own loop (:func:`engine.run.edit_run.run_edit`) on the loaded backend,
exactly
what the window runs. *Autoregressive* is the same-size causal model with greedy ``generate``:
it continues text from the left side only, and rewrites through its chat template (the form
SmolLM2-Instruct was trained on), told which phrases to keep. Its locks are not enforced (it
cannot enforce them), so the suite measures whether it kept them.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import torch

from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, EditMode, Proposal, Span
from engine.run.edit_run import run_edit
from tools.eval.cases import Cloze, Draft, Rewrite

DRAFT_TOKENS = 48
CLOZE_SLACK = 2  # tokens a gap gets beyond its longest accepted answer
# How each instruction is worded for the chat model (what "tighter" means to a reader).
CHAT_WORDING = {
    "tighter": "Rewrite this paragraph to be shorter and tighter",
    "formal": "Rewrite this paragraph in a more formal tone",
    "clearer": "Rewrite this paragraph to be clearer",
    "fix grammar": "Fix the grammar of this paragraph",
    "casual": "Rewrite this paragraph in a casual, friendly tone",
    "fix spelling": "Fix the spelling of this paragraph",
}


@dataclass(frozen=True)
class Output:
    text: str
    seconds: float
    tokens: int  # tokens the system generated (filler not counted)
    forwards: int
    first_frame: float | None = None  # seconds to the first frame on screen (diffusion only)


class Diffusion:
    """Settle's diffusion loop with one :class:`SamplerSettings` for every case."""

    def __init__(self, backend: Any, settings: SamplerSettings) -> None:
        self.backend = backend
        self.settings = settings

    def run(self, edit: Edit) -> Output:
        proposal = next(e for e in run_edit(self.backend, edit) if isinstance(e, Proposal))
        m = proposal.metrics
        return Output(
            proposal.text, m.time_to_settle_s, m.tokens_generated, m.forwards,
            m.time_to_first_frame_s,
        )  # fmt: skip

    def cloze(self, case: Cloze, budget: int) -> Output:
        settings = self.settings.with_changes(draft_tokens=budget)
        at = len(case.before)
        text = case.before + case.after
        return self.run(Edit(1, text, Span(at, at), mode=EditMode.DRAFT, settings=settings))

    def draft(self, case: Draft) -> Output:
        settings = self.settings.with_changes(draft_tokens=DRAFT_TOKENS)
        at = len(case.text)
        span = Span(at, at)
        return self.run(Edit(1, case.text, span, (), case.prompt, EditMode.DRAFT, settings))

    def rewrite(self, case: Rewrite) -> Output:
        start = len(case.before)
        target = Span(start, start + len(case.paragraph))
        locks = tuple(Span(a, b) for a, b in case.lock_spans())
        return self.run(
            Edit(1, case.document, target, locks, case.instruction, settings=self.settings)
        )


class Autoregressive:
    """Greedy decoding with the KV cache: the same-size causal model as a writer."""

    def __init__(self, model: Any, tokenizer: Any, start_id: int) -> None:
        self.model = model
        self.tokenizer = tokenizer
        self.start_id = start_id

    def encode(self, text: str) -> list[int]:
        return list(self.tokenizer.encode(text, add_special_tokens=False))

    @torch.inference_mode()
    def generate(self, prompt: list[int], tokens: int, *, fixed: bool) -> Output:
        ids = torch.tensor([prompt], dtype=torch.long)
        started = time.perf_counter()
        out = self.model.generate(
            ids,
            attention_mask=torch.ones_like(ids),
            max_new_tokens=tokens,
            min_new_tokens=tokens if fixed else 0,
            do_sample=False,
            pad_token_id=self.model.config.pad_token_id or 0,
        )
        seconds = time.perf_counter() - started
        new = out[0, len(prompt) :].tolist()
        text = self.tokenizer.decode(new, skip_special_tokens=True)
        return Output(text, seconds, len(new), len(new))

    def cloze(self, case: Cloze, budget: int) -> Output:
        return self.generate([self.start_id, *self.encode(case.before)], budget, fixed=True)

    def draft(self, case: Draft) -> Output:
        if case.prompt:  # asked for something: through the chat template, as a user would
            return self.chat(
                f"Continue this text with a few sentences about {case.prompt}. Reply with the "
                f"continuation only.\n\n{case.text}",
                DRAFT_TOKENS,
            )
        return self.generate([self.start_id, *self.encode(case.text)], DRAFT_TOKENS, fixed=True)

    def rewrite(self, case: Rewrite) -> Output:
        keep = ", ".join(f'"{phrase}"' for phrase in case.locks)
        wording = CHAT_WORDING.get(case.instruction, f"Rewrite this paragraph: {case.instruction}")
        ask = f"{wording}. "
        if keep:
            ask += f"Keep these phrases exactly as written: {keep}. "
        ask += f"Reply with the paragraph only.\n\n{case.paragraph}"
        return self.chat(ask, len(self.encode(case.paragraph)) * 3 // 2 + 8)

    def chat(self, ask: str, budget: int) -> Output:
        messages = [{"role": "user", "content": ask}]
        prompt = self.tokenizer.apply_chat_template(
            messages, add_generation_prompt=True, tokenize=True, return_dict=False
        )
        out = self.generate(list(prompt), budget, fixed=False)
        return Output(out.text.strip(), out.seconds, out.tokens, out.forwards)


def cloze_budget(case: Cloze, encode: Any) -> int:
    """Room for the longest accepted answer (with its leading space) plus a little slack."""
    return max(len(encode(" " + answer)) for answer in case.answers) + CLOZE_SLACK
