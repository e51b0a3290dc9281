"""Leaf values: what one JSON slot may hold, how its text is read back, and its valid default.

A :class:`Leaf` carries the slot's per-position constraint (digits and signs for numbers, a
format's characters, string-safe tokens for free strings, the literal alternatives of an enum
or boolean) and token budget, plus a default that the compiler has already checked against
every conjunct at that location: the deterministic repair when the model's text fails.
Defaults are *picked by validation* (candidates filtered through the same validators that
judge the result), so a format checker that differs between installs cannot surprise us.
"""

from __future__ import annotations

import json
import math
import re
import string
from dataclasses import dataclass
from typing import Any

from engine.core.plan import Constraint, ExcludingConstraint, LiteralConstraint
from engine.core.tokens import charset
from engine.structured import patterns, shapes
from engine.structured.formats import EXAMPLES, format_shape, strict
from engine.structured.schema import FORMATS, Context, NoValue, Refusal, Schemas, Unsatisfiable
from engine.structured.shapes import Shape
from engine.structured.words import key_defaults, suggestions, word_shape

DIGITS = string.digits
# Characters a raw JSON string slot can never hold; escapes are never generated.
# U+FFFD: a token holding part of a multi-byte character decodes to it, and two such halves
# from unrelated characters would leave it in the value.
STRING_BANNED = frozenset('"\\\ufffd')
STRING_SAFE = ExcludingConstraint("json-string", STRING_BANNED, single_spaces=True)
FORMAT_CHARS = {
    "date": DIGITS + "-",
    "time": DIGITS + ":.+-Z",
    "date-time": DIGITS + "-:.+TZ",
    "email": string.ascii_letters + DIGITS + "@.-_+",
    "uuid": DIGITS + "abcdef-",
    "uri": string.ascii_letters + DIGITS + ":/.-_~?#=&%+",
    "ipv4": DIGITS + ".",
    "hostname": string.ascii_lowercase + DIGITS + "-.",
}
# Token budgets: enough for a realistic value, small enough to keep canvases short.
FORMAT_BUDGET = {"date": 10, "time": 9, "date-time": 20, "uuid": 36, "ipv4": 15}
STRING_BUDGET = 12
NUMBER_BUDGET = 6
MONEY_DIGITS = 4  # an amount with no maximum: at most thousands
CENTS = 2
HIGH_LOW = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum")
# Leading zeros are read leniently ("007" is 7): the offered text is re-serialised anyway.
NUMBER_TEXT = re.compile(r"-?[0-9]+(\.[0-9]+)?")
NOTHING = object()  # a slot whose text is not a value
SPARES = 4  # valid defaults kept beyond the first, for repairs that must not repeat each other


@dataclass(frozen=True)
class Leaf:
    """One generated value: its slot's constraint and budget, how to read it, its default."""

    kind: str  # "string" | "integer" | "number" | "choice"
    constraint: Constraint
    budget: int
    default: Any
    schemas: Schemas
    alternatives: tuple[Any, ...] = ()
    shape: Shape = ()  # locked characters and open runs inside the value (:mod:`.shapes`)
    fmt: str = ""  # a format whose stricter check (:func:`.formats.strict`) the value passes
    spares: tuple[Any, ...] = ()  # more valid defaults, so repairs need not repeat each other

    @property
    def quoted(self) -> bool:
        """Strings and all-string choices sit between locked quotes in the canvas."""
        if self.kind == "choice":
            return all(isinstance(a, str) for a in self.alternatives)
        return self.kind == "string"

    def texts(self) -> tuple[str, ...]:
        """What each alternative of a choice looks like inside the slot."""
        return tuple(literal(a)[1:-1] if self.quoted else literal(a) for a in self.alternatives)

    def read(self, text: str, context: Context) -> Any:
        """The value the slot's text spells, or ``NOTHING`` when it is not a valid one."""
        value = self._parse(text)
        if value is NOTHING or not self.schemas.valid(context, value):
            return NOTHING
        if self.fmt and not strict(self.fmt, value):
            return NOTHING
        return value

    def _parse(self, text: str) -> Any:
        text = text.strip()
        if self.kind == "string":
            return text
        if self.kind == "choice":
            return snap(text, self.texts(), self.alternatives)
        if not NUMBER_TEXT.fullmatch(text):
            return NOTHING
        value = float(text) if "." in text else int(text)
        if isinstance(value, float) and value.is_integer() and self.kind == "integer":
            return int(value)
        return value


def literal(value: Any) -> str:
    """A value's JSON text as it stands in the canvas (compact, non-ASCII kept)."""
    return json.dumps(value, ensure_ascii=False)


def snap(text: str, texts: tuple[str, ...], alternatives: tuple[Any, ...]) -> Any:
    """The alternative the text spells: exact, else the longest one it starts with.

    The slot only holds tokens of the alternatives, so "truefalse" (two choices in one slot)
    reads as its first choice rather than as nothing.
    """
    if text in texts:
        return alternatives[texts.index(text)]
    prefixes = [i for i, t in enumerate(texts) if text.startswith(t)]
    if prefixes:
        return alternatives[max(prefixes, key=lambda i: len(texts[i]))]
    # A budget too short to spell a long literal still picks it unambiguously.
    started = [i for i, t in enumerate(texts) if text and t.startswith(text)]
    return alternatives[started[0]] if len(started) == 1 else NOTHING


def choice_leaf(valid: list[Any], schemas: Schemas, preferred: Any) -> Leaf:
    """A slot choosing among literal values already checked valid (at least two)."""
    wanted = [preferred, *suggestions(schemas)]
    default = next((w for w in wanted if any(_same(w, v) for v in valid)), valid[0])
    texts = tuple(literal(v) for v in valid)
    budget = max(len(t) for t in texts)  # a token never spells less than one character
    constraint = LiteralConstraint("choice", texts)  # the renderer tokenizes the real one
    return Leaf("choice", constraint, min(budget, 16), default, schemas, tuple(valid))


def _same(a: Any, b: Any) -> bool:
    return a is not NOTHING and type(a) is type(b) and literal(a) == literal(b)


def number_leaf(
    kind: str, schemas: Schemas, context: Context, preferred: Any, key: str = ""
) -> Leaf:
    """An integer or number slot whose default satisfies every bound and ``multipleOf``;
    ``key`` (the property's name) says when it is money."""
    wanted = [preferred, *suggestions(schemas)]
    candidates = [w for w in wanted if isinstance(w, int | float) and not isinstance(w, bool)]
    candidates += number_candidates(schemas, kind == "integer")
    valid = _all_valid(candidates, schemas, context)
    default = valid[0] if valid else NOTHING
    if default is NOTHING:
        raise Unsatisfiable(
            "no number fits its bounds", ("minimum", "maximum", "multipleOf"), schemas.where
        )
    chars = DIGITS + ("" if kind == "integer" else ".") + ("" if _non_negative(schemas) else "-")
    budget = number_budget(kind, schemas)
    shape = small_count_shape(kind, schemas) or money_shape(kind, schemas, key)
    spares = tuple(valid[1:])
    return Leaf(kind, charset(kind, chars), budget, default, schemas, shape=shape, spares=spares)


def small_count_shape(kind: str, schemas: Schemas) -> Shape:
    """One digit, for integers bounded below 100 from a minimum under 10 (servings, ratings,
    a month): every digit it allows is in range, so the value is valid by construction."""
    lows = schemas.values("minimum") + [v + 1 for v in schemas.values("exclusiveMinimum")]
    highs = schemas.values("maximum") + [v - 1 for v in schemas.values("exclusiveMaximum")]
    if kind != "integer" or not lows or not highs or schemas.has("multipleOf"):
        return ()
    low, high = math.ceil(max(lows)), math.floor(min(highs))
    if not 0 <= low <= 9 or high > 99 or high < low:
        return ()
    return (shapes.one(DIGITS[low : min(high, 9) + 1]),)


def money_shape(kind: str, schemas: Schemas, key: str) -> Shape:
    """An amount of money with no maximum of its own: up to ``MONEY_DIGITS`` digits, and cents
    when it may have them (a price, not "100000" from a model left to itself)."""
    from engine.structured.columns import names

    if not key or not names(key, "money") or schemas.has("multipleOf"):
        return ()
    if schemas.has("maximum") or schemas.has("exclusiveMaximum"):
        return ()
    whole = shapes.upto(DIGITS, 1, MONEY_DIGITS)
    return (whole,) if kind == "integer" else (whole, ".", shapes.upto(DIGITS, CENTS, CENTS))


def number_budget(kind: str, schemas: Schemas) -> int:
    """Room for the widest allowed integer part (digits tokenize one by one in most
    vocabularies), plus a sign and two decimals where those are allowed."""
    bounds = [abs(float(v)) for k in HIGH_LOW for v in schemas.values(k)]
    if len(bounds) < 2 or not all(math.isfinite(b) for b in bounds):
        return NUMBER_BUDGET
    width = len(str(int(max(bounds)))) + (0 if _non_negative(schemas) else 1)
    return max(1, min(NUMBER_BUDGET, width + (0 if kind == "integer" else 3)))


def _non_negative(schemas: Schemas) -> bool:
    lows = schemas.values("minimum") + schemas.values("exclusiveMinimum")
    return any(low >= 0 for low in lows)


def number_candidates(schemas: Schemas, integer: bool) -> list[Any]:
    """Values worth trying: 0 and 1, the bounds, values just inside them, multiples near them."""
    lows = [float(v) for v in schemas.values("minimum") + schemas.values("exclusiveMinimum")]
    highs = [float(v) for v in schemas.values("maximum") + schemas.values("exclusiveMaximum")]
    low, high = max(lows, default=-math.inf), min(highs, default=math.inf)
    points = [1.0, 0.0, 10.0]
    points += [p for p in (low, low + 1, high, high - 1) if math.isfinite(p)]
    if math.isfinite(low) and math.isfinite(high):
        points.append((low + high) / 2)
    for step in (float(m) for m in schemas.values("multipleOf")):
        base = low if math.isfinite(low) else (high if math.isfinite(high) else 0.0)
        k = math.ceil(base / step) if math.isfinite(base / step) else 0
        points += [step * j for j in (k, k + 1, k - 1, 1, 0)]
    return [_as_number(p, integer) for p in points if math.isfinite(p)]


def _as_number(point: float, integer: bool) -> int | float:
    if integer or point.is_integer():
        return math.ceil(point) if abs(point) < 2**53 else point
    return point


def string_leaf(schemas: Schemas, context: Context, preferred: Any, key: str = "") -> Leaf:
    """A string slot: a format's or pattern's shape, else a word first; a checked default.

    ``key`` is the property's name: it says what kind of word a plain string holds.
    """
    formats = set(schemas.values("format"))
    unknown = formats - FORMATS
    if unknown:
        raise Refusal({f"format: {f}" for f in unknown}, schemas.where)
    if len(formats) > 1:
        raise Refusal({"format (several at once)"}, schemas.where)
    fmt = next(iter(formats), None)
    low, high = schemas.values("minLength"), schemas.values("maxLength")
    if max(low, default=0) > min(high, default=math.inf):
        reason = "minLength is greater than maxLength"
        raise Unsatisfiable(reason, ("minLength", "maxLength"), schemas.where)
    wanted = [preferred, *suggestions(schemas), *key_defaults(key)]
    candidates = [w for w in wanted if isinstance(w, str)] + string_candidates(schemas, fmt)
    valid = [v for v in _all_valid(candidates, schemas, context) if strict(fmt or "", v)]
    default = valid[0] if valid else NOTHING
    if default is NOTHING:
        keywords = {"pattern", "minLength", "maxLength"} & _keywords(schemas)
        raise NoValue(keywords or {"format"}, schemas.where)
    constraint = string_constraint(schemas, fmt)
    budget = FORMAT_BUDGET.get(fmt or "", STRING_BUDGET)
    limits = schemas.values("maxLength")
    if limits and not fmt:
        budget = max(1, min(budget, math.floor(min(limits))))
    shape = string_shape(schemas, fmt, key, budget)
    spares = tuple(valid[1:])
    return Leaf("string", constraint, budget, default, schemas, (), shape, fmt or "", spares)


def string_shape(schemas: Schemas, fmt: str | None, key: str, budget: int) -> Shape:
    """The format's shape, else the first pattern's, else a word shape; none that cannot fit
    the length limits (the plain slot and the check at the end still hold then)."""
    found: Shape | None
    if fmt:
        found = format_shape(fmt)
    elif schemas.has("pattern"):
        found = patterns_shape(schemas.values("pattern"))
    else:
        found = word_shape(
            key, budget, STRING_SAFE, math.ceil(max(schemas.values("minLength"), default=0))
        )
    if not found:
        return ()
    low, high = shapes.lengths(found)
    floor = max(schemas.values("minLength"), default=0)
    ceiling = min(schemas.values("maxLength"), default=math.inf)
    return found if low <= ceiling and (high is None or high >= floor) else ()


def patterns_shape(found: list[str]) -> Shape | None:
    """A shape when there is exactly one pattern (several would each need to hold)."""
    return shapes.pattern_shape(found[0]) if len(found) == 1 else None


def string_constraint(schemas: Schemas, fmt: str | None) -> Constraint:
    """A format's characters, else an anchored pattern's, else any string-safe token."""
    if fmt:
        return charset(fmt, FORMAT_CHARS[fmt])
    for pattern in schemas.values("pattern"):
        chars = patterns.alphabet(pattern)
        if chars and not STRING_BANNED & set(chars):
            return charset(f"pattern:{chars}", chars)
    return STRING_SAFE


def string_candidates(schemas: Schemas, fmt: str | None) -> list[str]:
    low = math.ceil(max(schemas.values("minLength"), default=0))
    limits = schemas.values("maxLength")
    high = math.floor(min(limits)) if limits else None
    found: list[str] = list(EXAMPLES[fmt]) if fmt else []
    for pattern in schemas.values("pattern"):
        found += patterns.examples(pattern, low, high)
    word = "example"[: high if high is not None else None]
    found += [word + "x" * max(0, low - len(word)), "a" * low]
    return found


def _all_valid(candidates: list[Any], schemas: Schemas, context: Context) -> list[Any]:
    """The valid candidates, each once, in order (at most ``SPARES + 1``)."""
    found: list[Any] = []
    for candidate in candidates:
        if len(found) > SPARES:
            break
        if schemas.valid(context, candidate) and not any(_same(candidate, f) for f in found):
            found.append(candidate)
    return found


def _keywords(schemas: Schemas) -> set[str]:
    return {key for d in schemas.dicts() for key in d}
