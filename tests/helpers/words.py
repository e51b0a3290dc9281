"""What the language tests share: a passage split as the passes split it, and the tiny table."""

from __future__ import annotations

from engine.core.tokens import TokenTable, special_tokens
from tests.helpers.tiny import tiny_tokenizer


def words_of(text: str) -> list[str]:
    """``text``'s words, each after the first with its leading space (as the passes hold them)."""
    words = text.split(" ")
    return [words[0]] + [" " + w for w in words[1:]]


def filler_table() -> TokenTable:
    """The tiny tokenizer's table with a filler and no mask token (the cut and proofread tests)."""
    tok = tiny_tokenizer()
    return TokenTable(tok, special_tokens(tok, len(tok), filler_candidates=("<fill>",)))
