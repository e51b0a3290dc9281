"""Wordy phrases and their concise forms, which a "tighter" rewrite may swap.

Dropping words shortens a passage but cannot turn "a lot of people" into "many people" or "are
going to be away" into "will be away"; a 135M model asked to make the passage four fifths as
long then drops "be" and "away" instead ("are going to on Friday afternoon"). The plain-English
rules every style guide lists are a better first cut: :func:`rewordings` finds them in a
passage's words, and :mod:`engine.passes.shorten` offers each as one more candidate, priced by the
model's reading like a dropped word (a swap that does not fit its sentence, "many water",
shows its damage in the words after it).

Pure functions over word texts: no tokenizer, no model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from engine.language.en.data import pairs

# Lower-case word sequences (punctuation ignored) and what each says in fewer words.
CONCISE = pairs("concise.json", "concise")
# Marks a phrase may hold inside it ("In my opinion, I think"): a comma, never a sentence end.
INNER_MARKS = frozenset(",")


@dataclass(frozen=True)
class Rewording:
    """Words ``first`` up to (not including) ``stop`` read as ``text``: the first word's leading
    whitespace, the concise form (capitalised when the phrase was), the last word's marks."""

    first: int
    stop: int
    text: str


# What finds a kind of cut in a passage's words (each with its leading whitespace).
Finder = Callable[[Sequence[str]], list[Rewording]]


def rewordings(
    words: Sequence[str],
    table: Sequence[tuple[str, str]] = CONCISE,
    keep_last: bool = True,
    first_only: bool = True,
) -> list[Rewording]:
    """Every phrase of ``table`` in ``words`` (each with its leading whitespace) and its other
    text. With ``first_only``, only the table's first phrase (its longest) starting at a word.
    With ``keep_last`` (a shorter rewrite) the passage's last word is never part of one: its
    end stays as written."""
    cores = [_core(word) for word in words]
    end = len(words) - 1 if keep_last else len(words)
    found: list[Rewording] = []
    for first in range(len(words)):
        for phrase, other in table:
            stop = first + len(phrase.split())
            if stop > end or " ".join(cores[first:stop]) != phrase:
                continue
            if any(not _inner_ok(word) for word in words[first : stop - 1]):
                continue
            found.append(Rewording(first, stop, spelled(words[first], words[stop - 1], other)))
            if first_only:
                break
    return found


def _core(word: str) -> str:
    return re.sub(r"[^a-z']", "", word.lower().replace("\u2019", "'"))


def _inner_ok(word: str) -> bool:
    """A word inside a phrase holds letters and at most a comma after them."""
    marks = {ch for ch in word.strip() if not (ch.isalpha() or ch in "'\u2019")}
    return marks <= INNER_MARKS


def spelled(first_word: str, last_word: str, concise: str) -> str:
    """``concise`` standing for the words from ``first_word`` to ``last_word``: with the first
    one's leading whitespace and capital, and the marks after the last one's last letter."""
    lead = first_word[: len(first_word) - len(first_word.lstrip())]
    if first_word.strip()[:1].isupper():
        concise = concise[0].upper() + concise[1:]
    tail = re.sub(r"^.*[A-Za-z']", "", last_word.strip())  # marks after the last letter
    return lead + concise + tail


def lead(word: str) -> str:
    """The whitespace before a word."""
    return word[: len(word) - len(word.lstrip())]
