"""What the language tests share: a passage split as the passes split it, and the tiny table."""

from __future__ import annotations

from collections.abc import Callable

from engine.core.tokens import TokenTable, special_tokens
from engine.core.worddiff import split_words
from engine.language.en.rewordings import Rewording
from tests.helpers.tiny import tiny_tokenizer


def words_of(text: str) -> list[str]:
    """``text``'s words, each after the first with its leading space (as the passes hold them)."""
    words = text.split(" ")
    return [words[0]] + [" " + w for w in words[1:]]


def filler_table() -> TokenTable:
    """The tiny tokenizer's table with a filler and no mask token (the cut and proofread tests)."""
    tok = tiny_tokenizer()
    return TokenTable(tok, special_tokens(tok, len(tok), filler_candidates=("<fill>",)))


def read(text: str, found: list[Rewording]) -> list[str]:
    """``text`` with each rewording applied alone."""
    words = words_of(text)
    return ["".join(words[: r.first]) + r.text + "".join(words[r.stop :]) for r in found]


def cut(finder: Callable[[list[str]], list[Rewording]], text: str) -> list[str]:
    """What each of ``finder``'s rewordings of ``text`` makes of it."""
    return read(text, finder(words_of(text)))


def at_each_word(finder: Callable[[list[str], int], list[Rewording]], text: str) -> list[str]:
    """What each rewording ``finder`` offers at any word of ``text`` makes of it, whole."""
    words, trail = split_words(text)
    return [
        "".join([*words[: r.first], r.text, *words[r.stop :]]) + trail
        for index in range(len(words))
        for r in finder(words, index)
    ]
