"""The DiffusionGemma prompt: instruction plus the document on both sides of the target.

DiffusionGemma's decoder attends to the prompt and the canvas only, so everything the model
should know about the document (the text after the target too) goes into the prompt. Real
checkpoints are instruction-tuned and ship a chat template: the request becomes one user turn and
the canvas is the reply. A tokenizer without a template (the test models) gets a plain layout
whose last part is the text just before the target, so the canvas reads as its continuation.
"""

from __future__ import annotations

import json

from engine.core.config import SamplerSettings
from engine.core.context import after_ids, before_ids, instruction_ids
from engine.core.plan import EditPlan, plan_text
from engine.core.protocol import EditMode
from engine.core.tokens import TokenTable
from engine.language.en.prompts import draft_request

DEFAULT_TASK = {
    EditMode.REWRITE: "Rewrite the passage so it fits between the text before and after it.",
    EditMode.DRAFT: "Write the text that belongs between the text before and after the cursor.",
    EditMode.FILL: "Fill in the template's values.",
}


def prompt_ids(plan: EditPlan, table: TokenTable, settings: SamplerSettings) -> list[int]:
    """Token ids of the prompt, starting with the tokenizer's bos token when it has one."""
    if getattr(table.tokenizer, "chat_template", None):
        ids = table.encode(chat_prompt(plan, table, settings))
    else:
        ids = plain_prompt_ids(plan, table, settings)
    bos = table.specials.bos_id
    if bos is not None and ids[:1] != [bos]:
        ids = [bos, *ids]
    # The encoder needs at least one token to build the cache the canvas attends to.
    return ids or table.encode("\n")


# A rewrite's original passage and a fill's template are shown to the model.
SHOWS_PASSAGE = (EditMode.REWRITE, EditMode.FILL)


def target_text(plan: EditPlan) -> str:
    """The original text of the target, rebuilt from the plan's segments."""
    return plan_text(plan.segments)


def chat_prompt(plan: EditPlan, table: TokenTable, settings: SamplerSettings) -> str:
    """One user turn describing the edit, rendered with the tokenizer's chat template."""
    before = table.decode(before_ids(plan, table, settings))
    after = table.decode(after_ids(plan, table, settings))
    parts = [request_of(plan)]
    if plan.mode in SHOWS_PASSAGE:
        parts.append(f"Passage:\n{target_text(plan)}")
    if plan.locked_texts:
        keep = ", ".join(json.dumps(text, ensure_ascii=False) for text in plan.locked_texts)
        parts.append(f"Keep these exactly, in this order: {keep}")
    if before:
        parts.append(f"Text before:\n{before}")
    if after:
        parts.append(f"Text after:\n{after}")
    parts.append("Reply with the rewritten passage alone.")
    messages = [{"role": "user", "content": "\n\n".join(parts)}]
    text = table.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
    return str(text)


def request_of(plan: EditPlan) -> str:
    """The turn's request: a draft's prompt as a request to write it, after the task it
    belongs to; any other instruction as the user wrote it; without one the mode's task."""
    if not plan.instruction:
        return DEFAULT_TASK[plan.mode]
    if plan.mode is EditMode.DRAFT:
        return f"{DEFAULT_TASK[plan.mode]} {draft_request(plan.instruction)}"
    return plan.instruction


def plain_prompt_ids(plan: EditPlan, table: TokenTable, settings: SamplerSettings) -> list[int]:
    """Instruction, original passage and following text as labelled notes, then the text before."""
    ids = instruction_ids(plan, table)
    if plan.mode in SHOWS_PASSAGE:
        ids += table.encode(f"Passage: {target_text(plan)}\n\n")
    after = after_ids(plan, table, settings)
    if after:
        ids += table.encode("Text after: ") + after + table.encode("\n\n")
    return ids + before_ids(plan, table, settings)
