"""Example strings for a practical subset of regular expressions (``pattern`` keywords).

A string slot with a ``pattern`` needs a valid default to fall back on, so the compiler can
promise an instance before any generation. This walks Python's own parse of the pattern
(``re._parser``: the same engine ``jsonschema`` checks ``pattern`` with) and builds strings
from literals, classes, repeats, groups and alternations; look-arounds and back-references are
outside the subset and give ``None`` (the compiler then refuses the keyword).
"""

from __future__ import annotations

import re
import re._constants as C
import re._parser as P
from typing import Any

# Characters tried, in order, for classes and "any character": plain, JSON- and table-safe.
CANDIDATES = "a0b1c2xyzAB _-.,:/@Zz9"
# How many extra repetitions a repeat may take when a minimum length must be reached.
MAX_EXTRA = 40
MAX_ALPHABET = 128  # a pattern allowing more characters than this gets no per-step charset


class Unsupported(Exception):
    """The pattern uses a construct outside the subset."""


def examples(pattern: str, min_length: int, max_length: int | None) -> list[str]:
    """Candidate strings that ``re.search(pattern)`` accepts, shortest first, within lengths."""
    try:
        parsed = P.parse(pattern)
    except (re.error, RecursionError):
        return []
    found: list[str] = []
    for extra in (0, 1, 2, 4, 8, 16, MAX_EXTRA):
        try:
            base = _build(parsed, extra)
        except Unsupported:
            return []
        for text in (base, base + "a" * max(0, min_length - len(base))):
            if _fits(pattern, text, min_length, max_length) and text not in found:
                found.append(text)
    return found


def alphabet(pattern: str) -> str | None:
    """Every character a fully anchored pattern can match, when it is a small, plain set.

    ``^INV-[0-9]{4}$`` gives ``"INV-0123456789"``: a per-position charset that enforces the
    pattern's characters at every step (its order and counts are checked at the end). ``None``
    for unanchored patterns, negated classes, categories or large sets.
    """
    try:
        parsed = list(P.parse(pattern))
    except (re.error, RecursionError):
        return None
    if len(parsed) < 2 or parsed[0] != (C.AT, C.AT_BEGINNING) or parsed[-1][0] is not C.AT:
        return None
    if parsed[-1][1] not in (C.AT_END, C.AT_END_STRING):
        return None
    chars: set[str] = set()
    try:
        _collect(parsed[1:-1], chars)
    except Unsupported:
        return None
    return "".join(sorted(chars)) if 0 < len(chars) <= MAX_ALPHABET else None


def _collect(parsed: Any, chars: set[str]) -> None:
    for op, arg in parsed:
        if op is C.LITERAL:
            chars.add(chr(arg))
        elif op is C.IN:
            for item, value in arg:
                if item is C.LITERAL:
                    chars.add(chr(value))
                elif item is C.RANGE and value[1] - value[0] < MAX_ALPHABET:
                    chars.update(chr(c) for c in range(value[0], value[1] + 1))
                elif item is C.CATEGORY and value is C.CATEGORY_DIGIT:
                    chars.update("0123456789")
                else:
                    raise Unsupported(str(item))
        elif op is C.SUBPATTERN:
            _collect(arg[-1], chars)
        elif op is C.BRANCH:
            for branch in arg[1]:
                _collect(branch, chars)
        elif op in (C.MAX_REPEAT, C.MIN_REPEAT):
            _collect(arg[2], chars)
        else:
            raise Unsupported(str(op))


def _fits(pattern: str, text: str, min_length: int, max_length: int | None) -> bool:
    if len(text) < min_length or (max_length is not None and len(text) > max_length):
        return False
    return re.search(pattern, text) is not None


def _build(parsed: Any, extra: int) -> str:
    return "".join(_item(op, arg, extra) for op, arg in parsed)


def _item(op: Any, arg: Any, extra: int) -> str:
    if op is C.LITERAL:
        return chr(arg)
    if op is C.NOT_LITERAL:
        return next(ch for ch in CANDIDATES if ord(ch) != arg)
    if op is C.ANY:
        return CANDIDATES[0]
    if op is C.IN:
        return _class(arg)
    if op is C.AT:
        return ""
    if op is C.SUBPATTERN:
        return _build(arg[-1], extra)
    if op is C.BRANCH:
        return _build(arg[1][0], extra)
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", None)):
        low, high, body = arg
        count = low + extra if high is C.MAXREPEAT else min(low + extra, high)
        return _build(body, 0) * count
    raise Unsupported(str(op))


def _class(items: Any) -> str:
    negate = any(op is C.NEGATE for op, _ in items)
    for ch in CANDIDATES:
        if _in_class(ch, items) != negate:
            return ch
    if not negate:
        op, arg = next((op, arg) for op, arg in items if op is not C.NEGATE)
        if op is C.LITERAL:
            return chr(arg)
        if op is C.RANGE:
            return chr(arg[0])
    raise Unsupported("class")


def _in_class(ch: str, items: Any) -> bool:
    code = ord(ch)
    for op, arg in items:
        if op is C.LITERAL and arg == code:
            return True
        if op is C.RANGE and arg[0] <= code <= arg[1]:
            return True
        if op is C.CATEGORY and re.fullmatch(_CATEGORIES.get(arg, "(?!)"), ch):
            return True
    return False


_CATEGORIES = {
    C.CATEGORY_DIGIT: r"\d",
    C.CATEGORY_NOT_DIGIT: r"\D",
    C.CATEGORY_SPACE: r"\s",
    C.CATEGORY_NOT_SPACE: r"\S",
    C.CATEGORY_WORD: r"\w",
    C.CATEGORY_NOT_WORD: r"\W",
}
