"""No list item in a prose draft: a bullet or an item number never opens one of its lines.

A draft's first positions already take no list opener when it continues prose
(:func:`engine.decode.allowed.opens_prose`), but the adapter's training text is full of lists,
and a draft asked for "what we did the next morning" went on with a line break and "2. We
walked …" further in. Where its lines start is only known while it is being written, so these
bans are read from the canvas as committed at each step, in both orders a line start can be
written in:

- a position right after a committed line break (or at the draft's start, when it starts a
  line or a sentence) takes no bullet ("-", "*", "+", "•"), and one after a line's opening
  digits no "." or ")" (the byte-level tokenizers here write "1." as "1" then ".");
- a position right before a committed bullet, or before a line's digits and their "."/")",
  takes no line break, and one between a line's start and a committed "." takes no digit.

Digits that open a line stay allowed ("2024 was a quiet year"); only the mark that would make
them an item number is banned. Inside a list (the line before the draft is an item) no ban
applies: a new item is what the user wants there.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from engine.core.canvas import Canvas, Kind
from engine.core.tokens import TokenTable
from engine.language.en.meaning import SENTENCE_CLOSERS

BULLET = re.compile(r"\s*[-*+\u2022]\s*")
ITEM_NUMBER_CLOSER = re.compile(r"[.)]\s*")
DIGITS = re.compile(r"\d{1,9}")
LINE_OR_SENTENCE_ENDS = ("\n", ".", "!", "?", ":")
SENTENCE_ENDS = (".", "!", "?", ":")
ITEM_NUMBER_DIGITS = 9  # CommonMark's longest ordered-list number ("2023. The agenda" is one)


@dataclass(frozen=True)
class MarkTokens:
    """A vocabulary's tokens that write a list item's mark, and its line breaks."""

    bullets: frozenset[int]
    digits: frozenset[int]
    closers: frozenset[int]
    breaks: frozenset[int]
    blanks: frozenset[int]  # spaces only: a line's indent, which a list item may have


@cache
def mark_tokens(table: TokenTable) -> MarkTokens:
    """:class:`MarkTokens` of ``table``'s vocabulary, found once per table."""
    count = min(table.specials.vocab_size, len(table.tokenizer))
    texts = [(i, table.text(i)) for i in range(count)]
    return MarkTokens(
        frozenset(i for i, t in texts if t and BULLET.fullmatch(t)),
        frozenset(i for i, t in texts if t and DIGITS.fullmatch(t)),
        frozenset(i for i, t in texts if t and ITEM_NUMBER_CLOSER.fullmatch(t)),
        table.breaking_ids(),
        frozenset(i for i, _ in texts if table.is_blank(i)),
    )


def starts_line(canvas: Canvas) -> bool:
    """Whether a draft's first position opens a line or a sentence: nothing but spaces since a
    line break, a sentence's end or the document's start before it. An item number cannot
    open a sentence either ("… on 12 March. 2023. The agenda …" reads as a list's debris),
    nor one whose end is closed by a quote, a bracket or emphasis ('… "We leave at noon."').
    """
    before = canvas.plan.before.rstrip(" \t")
    closed = before.rstrip(SENTENCE_CLOSERS)
    return (
        not before.strip()
        or before.endswith(LINE_OR_SENTENCE_ENDS)
        or closed.endswith(SENTENCE_ENDS)
    )


class ListMarkBans:
    """The bans of one prose draft; see the module docstring."""

    def __init__(self, canvas: Canvas, marks: MarkTokens) -> None:
        self.marks = marks
        self.bullets, self.closers = sorted(marks.bullets), sorted(marks.closers)
        self.digits = sorted(marks.digits)
        self.breaks = sorted(marks.breaks)
        self.blanks = sorted(marks.blanks)
        self.free = [k is Kind.FREE for k in canvas.kinds]
        self.starts_line = starts_line(canvas)

    def bans(
        self, checked: Sequence[int], values: Sequence[int], committed: Sequence[bool]
    ) -> list[tuple[int, int]]:
        """(row, token) bans for the rows at canvas positions ``checked``."""
        out: list[tuple[int, int]] = []
        for row, p in enumerate(checked):
            if not self.free[p]:
                continue
            before = self._digits_before(p, values, committed)
            after, closed = self._digits_after(p, values, committed)
            if before == 0:
                out += [(row, t) for t in self.bullets]
            if before is not None and closed and before + after < ITEM_NUMBER_DIGITS:
                out += [(row, t) for t in self.digits]  # it would make "\n1." of "\n" and "."
            if before and before <= ITEM_NUMBER_DIGITS and not after:
                out += [(row, t) for t in self.closers]
            if self._item_after(p, values, committed):
                out += [(row, t) for t in self.breaks]
                if before == 0:  # an indent here would open the item
                    out += [(row, t) for t in self.blanks]
        return out

    def _digits_before(
        self, p: int, values: Sequence[int], committed: Sequence[bool]
    ) -> int | None:
        """How many committed digit tokens stand between the start of ``p``'s line (after its
        indent) and ``p`` (0: ``p`` opens a line), or ``None`` when anything else stands there
        or the line's start is not yet written."""
        count, q = 0, p - 1
        while q >= 0 and self.free[q] and committed[q] and values[q] in self.marks.digits:
            count, q = count + 1, q - 1
        while q >= 0 and self.free[q] and committed[q] and values[q] in self.marks.blanks:
            q -= 1  # the line's indent
        if q < 0 or not self.free[q]:
            return count if self.starts_line and q < 0 else None
        if committed[q] and values[q] in self.marks.breaks:
            return count
        return None

    def _digits_after(
        self, p: int, values: Sequence[int], committed: Sequence[bool]
    ) -> tuple[int, bool]:
        """How many committed digits follow ``p``, and whether a committed "." or ")" closes
        them (an item number's end, written before its start)."""
        q = p + 1
        while q < len(values) and self.free[q] and committed[q] and values[q] in self.marks.digits:
            q += 1
        closed = q < len(values) and committed[q] and values[q] in self.marks.closers
        return q - (p + 1), closed

    def _item_after(self, p: int, values: Sequence[int], committed: Sequence[bool]) -> bool:
        """Whether the committed tokens after ``p`` open a list item: a bullet, or digits and
        their closing mark."""
        q = p + 1
        while q < len(values) and committed[q] and values[q] in self.marks.blanks:
            q += 1  # an indent between
        if q < len(values) and committed[q] and values[q] in self.marks.bullets:
            return True
        run, closed = self._digits_after(q - 1, values, committed)
        return 0 < run <= ITEM_NUMBER_DIGITS and closed
