"""Document context around the target, windowed to a token budget.

Long documents are windowed around the target (DESIGN §4): the model sees at most
``context_tokens`` before it and ``suffix_tokens`` after it. Text is cut by characters first
(a generous 8 characters per token) so a megabyte document is never tokenized whole.
"""

from __future__ import annotations

from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, Free, plan_text
from engine.core.protocol import EditMode
from engine.core.tokens import TokenTable

CHARS_PER_TOKEN_BOUND = 8


def before_ids(plan: EditPlan, table: TokenTable, settings: SamplerSettings) -> list[int]:
    """Token ids of the text just before the target, at most ``settings.context_tokens``."""
    budget = settings.context_tokens
    if budget == 0 or not plan.before:
        return []
    ids = table.encode(plan.before[-budget * CHARS_PER_TOKEN_BOUND :])
    return ids[-budget:]


def after_ids(plan: EditPlan, table: TokenTable, settings: SamplerSettings) -> list[int]:
    """Token ids of the text just after the target, at most ``settings.suffix_tokens``."""
    budget = settings.suffix_tokens
    if budget == 0 or not plan.after:
        return []
    ids = table.encode(plan.after[: budget * CHARS_PER_TOKEN_BOUND])
    return ids[:budget]


def passage_ids(plan: EditPlan, table: TokenTable, settings: SamplerSettings) -> list[int]:
    """A rewrite's original passage as a labelled note, or nothing (drafts, fills, turned off).

    At strength 1 every generated position starts masked, so without this note the model never
    sees the text it is asked to rewrite, and a rewrite loses its topic (the quality suite
    measured 0% of the original's content words kept).
    """
    rewrites = plan.mode is EditMode.REWRITE and any(
        isinstance(s, Free) and s.seed for s in plan.segments
    )
    if not (settings.show_passage and rewrites):
        return []
    passage = plan_text(plan.segments)
    return table.encode(f"Passage: {passage}\n\n")


def instruction_ids(plan: EditPlan, table: TokenTable) -> list[int]:
    """A short plain-text header carrying the user's instruction, or nothing without one.

    A draft's prompt goes as the user wrote it, not as the adapter's instruction examples were
    worded ("Instruction: Write <what>."): those examples were all synthetic JSON and tables
    (tools/adapt/examples.py), and on the dev split's prompted drafts that wording took the
    drafts off their topic (on topic 6 of 8 as written, 2 of 8 as "Write ...")."""
    if not plan.instruction:
        return []
    return table.encode(f"Instruction: {plan.instruction}\n\n")
