"""Shapes: a value laid out as locked characters and runs of open positions.

A string slot used to be one run of tokens checked only at the end. A *shape* splits it where
the schema says what goes where: a date's dashes, an email's ``@`` and dot, the literal
``INV-`` of a pattern are locked text inside the value, and each open run gets its own
per-position constraint (one digit here, letters there, one of a few literals). Whatever the
model writes into a shape then already has the value's form while it denoises, instead of
failing at the end and costing another round.

:func:`pattern_shape` turns a practical subset of regular expressions into a shape (walking
Python's own parse, ``re._parser``, as :mod:`.patterns` does): literals become locked text,
small character classes become runs of one-character positions (``{m,n}``: ``m`` required,
``n - m`` optional), unbounded repeats a run of tokens made of the class's characters, groups
their body, optional groups nothing, alternations of literals a choice and other alternations
the branch that gives the richest shape. Any path through a regex matches it, so a value
spelled by the shape matches the pattern; what falls outside the subset gives ``None``.
"""

from __future__ import annotations

import re
import re._constants as C
import re._parser as P
import string
from dataclasses import dataclass
from typing import Any

from engine.core.plan import CharsetConstraint, Constraint, LiteralConstraint
from engine.core.tokens import charset

UNSAFE = frozenset('"\\')  # a raw JSON string never holds these
MAX_CLASS = 128  # a class allowing more characters than this is too loose to be worth a shape
MAX_FIXED = 16  # a bounded repeat up to this long becomes one-character positions
OPEN_TOKENS = 3  # tokens an unbounded repeat gets (more when its minimum needs them)
MAX_POSITIONS = 48  # a shape needing more open positions than this is not used
SAFE_ANY = string.ascii_letters + string.digits  # what "any character" is spelled with


@dataclass(frozen=True)
class Run:
    """Open positions: their constraint, at most ``budget`` tokens, at least ``least``.

    ``soft``: the minimum is a hint for the parallel canvas, not the schema's (a name's second
    token, so a 135M model does not stop at "Al"); a left-to-right verifier may end before it.
    """

    constraint: Constraint
    budget: int
    least: int = 0
    soft: bool = False


Part = str | Run  # a str is locked text inside the value
Shape = tuple[Part, ...]


def one(chars: str, name: str = "") -> Run:
    """Exactly one character from ``chars``."""
    return Run(charset(name or f"one:{chars}", chars, single=True), 1, 1)


def upto(chars: str, low: int, high: int) -> Run:
    """Between ``low`` and ``high`` characters from ``chars``, one per position."""
    return Run(charset(f"one:{chars}", chars, single=True), high, low)


def tokens(chars: str, budget: int, least: int = 1, min_chars: int = 1, lead: str = "") -> Run:
    """Up to ``budget`` tokens made only of ``chars`` (at least ``least`` of them; each of at
    least ``min_chars`` characters, after ``lead`` when one is given)."""
    name = f"chars:{lead}:{chars}:{min_chars}"
    return Run(charset(name, chars, min_chars=min_chars, lead=lead), budget, least)


def choice(name: str, texts: tuple[str, ...]) -> Run:
    """One of a few literal texts (rendered as a choice slot)."""
    return Run(LiteralConstraint(name, texts), max(len(t) for t in texts), 1)


def positions(shape: Shape) -> int:
    """How many canvas positions a shape's open runs take."""
    return sum(p.budget for p in shape if isinstance(p, Run))


def lengths(shape: Shape) -> tuple[int, int | None]:
    """The fewest and the most characters a shape can spell (``None``: no upper bound)."""
    low, high = 0, 0
    unbounded = False
    for part in shape:
        if isinstance(part, str):
            low, high = low + len(part), high + len(part)
            continue
        low += part.least
        most = _most_chars(part)
        unbounded = unbounded or most is None
        high += most or 0
    return low, None if unbounded else high


def _most_chars(run: Run) -> int | None:
    constraint = run.constraint
    if isinstance(constraint, CharsetConstraint) and constraint.single:
        return run.budget
    if isinstance(constraint, LiteralConstraint):
        return max(len(t) for t in constraint.alternatives)
    return None


def pattern_shape(pattern: str) -> Shape | None:
    """A shape whose every spelling matches ``pattern``, or ``None`` outside the subset."""
    try:
        parsed = P.parse(pattern)
        shape = merged(_sequence(list(parsed)))
    except (re.error, RecursionError, Unsupported):
        return None
    if not any(isinstance(p, Run) for p in shape) or positions(shape) > MAX_POSITIONS:
        return None
    return shape


class Unsupported(Exception):
    """A construct outside the subset."""


def merged(shape: list[Part]) -> Shape:
    """Adjacent locked texts joined, so a value's literal pieces stay few."""
    out: list[Part] = []
    for part in shape:
        if isinstance(part, str) and out and isinstance(out[-1], str):
            out[-1] = out[-1] + part
        elif part != "":
            out.append(part)
    return tuple(out)


def _sequence(items: list[tuple[Any, Any]]) -> list[Part]:
    out: list[Part] = []
    for op, arg in items:
        out += _item(op, arg)
    return out


def _item(op: Any, arg: Any) -> list[Part]:
    if op is C.AT:
        return []
    if op is C.LITERAL:
        ch = chr(arg)
        if ch in UNSAFE or not ch.isprintable():
            raise Unsupported("literal")
        return [ch]
    if op is C.SUBPATTERN:
        return _sequence(list(arg[-1]))
    if op is C.BRANCH:
        return _branch(arg[1])
    if op in (C.MAX_REPEAT, C.MIN_REPEAT, getattr(C, "POSSESSIVE_REPEAT", None)):
        return _repeat(*arg)
    if op in (C.IN, C.ANY):
        return [one(_chars(op, arg))]
    raise Unsupported(str(op))


def _branch(branches: list[Any]) -> list[Part]:
    """Literal alternatives become a choice; otherwise the branch with the most open room."""
    shapes = [merged(_sequence(list(b))) for b in branches]
    if all(len(s) == 1 and isinstance(s[0], str) for s in shapes):
        texts = tuple(dict.fromkeys(str(s[0]) for s in shapes))
        return [texts[0]] if len(texts) == 1 else [choice(f"alt:{'|'.join(texts)}", texts)]
    richest = max(range(len(shapes)), key=lambda i: positions(shapes[i]))
    return list(shapes[richest])


def _repeat(low: int, high: Any, body: Any) -> list[Part]:
    items = list(body)
    single = len(items) == 1 and items[0][0] in (C.IN, C.ANY, C.LITERAL)
    if not single:
        return _sequence(items) * low  # the fewest repetitions: still a match
    op, arg = items[0]
    chars = chr(arg) if op is C.LITERAL else _chars(op, arg)
    if chars[0] in UNSAFE:
        raise Unsupported("literal")
    if low > MAX_FIXED:
        raise Unsupported("repeat")
    if high is not C.MAXREPEAT:
        most = min(high, MAX_FIXED)
        return [upto(chars, low, most)] if most else []
    return [tokens(chars, max(OPEN_TOKENS, low), low)]


def _chars(op: Any, arg: Any) -> str:
    """The characters a class (or ``.``) allows, minus the ones a JSON string cannot hold raw."""
    if op is C.ANY:
        return SAFE_ANY
    found: set[str] = set()
    for item, value in arg:
        if item is C.LITERAL:
            found.add(chr(value))
        elif item is C.RANGE and value[1] - value[0] < MAX_CLASS:
            found.update(chr(c) for c in range(value[0], value[1] + 1))
        elif item is C.CATEGORY and value in CATEGORIES:
            found.update(CATEGORIES[value])
        else:
            raise Unsupported(str(item))
    chars = "".join(sorted(ch for ch in found if ch not in UNSAFE and ch.isprintable()))
    if not chars or len(chars) > MAX_CLASS:
        raise Unsupported("class")
    return chars


CATEGORIES = {
    C.CATEGORY_DIGIT: string.digits,
    C.CATEGORY_WORD: string.ascii_letters + string.digits + "_",
    C.CATEGORY_SPACE: " ",
}
