"""The remote engine's wire format: protocol dataclasses as JSON text, validated on arrival.

Every message is one JSON object with a ``"type"`` naming a class of :mod:`engine.core.protocol`
(or one of the link messages :data:`PING`/:data:`PONG`) and that class's fields. Decoding is
type-directed: each field is checked against the dataclass's annotations (ints are ints, spans
are pairs of ints, enums take only their values, nested dataclasses recurse), unknown or missing
fields are refused, and the class's own validation (``SamplerSettings.__post_init__``) runs.
Anything that does not fit raises :class:`WireError` with a message that says what was wrong.

What the wire itself refuses, before any class sees the message: numbers that are not finite
(``1e400`` reads as infinity) and integers beyond 64 bits (:data:`MAX_INT`), strings holding a
lone UTF-16 surrogate (``"\\ud800"``: no UTF-8 text can carry it, so nothing could echo it back),
and an instruction longer than :data:`MAX_INSTRUCTION_CHARS`. Whatever a refusal quotes from the
message is shortened to :data:`MAX_ECHO_CHARS`, so an error costs little however large its cause.
A proposal's alternatives are held to what the engine sends (:data:`MAX_ALTERNATIVES`, each text
distinct from the proposal's and the others'): a reply cannot offer more versions, or one twice.

Nothing is ever unpickled: this module only builds the classes it names in :data:`REQUESTS`
and :data:`EVENTS`. It imports no torch, so the window and the CLI can use it.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import types
import typing
from collections.abc import Callable
from enum import Enum
from typing import Any

from engine.core import protocol
from engine.core.config import BOUNDS, SamplerSettings

PING = "ping"
PONG = "pong"
MAX_DEPTH = 8  # nesting of dataclasses and tuples; the protocol needs 3
MAX_MESSAGE_BYTES = (
    16 * 1024 * 1024
)  # the default limit of both ends (settle serve --max-message-mb)

REQUESTS: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        protocol.LoadModel,
        protocol.Edit,
        protocol.Fill,
        protocol.RankSuggestions,
        protocol.Cancel,
    )
}
EVENTS: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        protocol.LoadProgress,
        protocol.ModelReady,
        protocol.Frame,
        protocol.Proposal,
        protocol.SuggestionsRanked,
        protocol.Failed,
        protocol.Cancelled,
        protocol.Queued,
    )
}
_NAMESPACE = {**vars(protocol), "SamplerSettings": SamplerSettings}

MAX_INT = 2**63 - 1  # integers on the wire are signed 64-bit (ids, spans, seeds, counts)
_MAX_INT_DIGITS = len(str(MAX_INT)) + 1  # a sign and 19 digits: longer ones are never read
# An instruction is a direction ("make it formal"), not a document: it becomes a header the
# model reads at every step, so a long one costs every forward (100,000 characters ran >120 s).
MAX_INSTRUCTION_CHARS = 1000
MAX_ECHO_CHARS = 40  # the most of a client's own string a refusal quotes back
MAX_REFUSAL_CHARS = 400  # the longest refusal message
MAX_UNKNOWN_NAMED = 3  # unknown fields a refusal names
TEXT_LIMITS: dict[tuple[type, str], int] = {
    (protocol.Edit, "instruction"): MAX_INSTRUCTION_CHARS,
    (protocol.RankSuggestions, "before"): protocol.MAX_RANK_CONTEXT_CHARS,
    (protocol.RankSuggestions, "after"): protocol.MAX_RANK_CONTEXT_CHARS,
    (protocol.RankSuggestions, "word"): protocol.MAX_KNOWN_WORD_CHARS,
}
# Versions 2..N of a rewrite a proposal carries: the alternatives setting's bound, less the first.
MAX_ALTERNATIVES = int(BOUNDS["alternatives"].high) - 1
# Lists of words, bounded in count and per word: the user's dictionary words an edit carries.
WORD_LIST_LIMITS: dict[tuple[type, str], tuple[int, int]] = {
    (protocol.Edit, "known_words"): (protocol.MAX_KNOWN_WORDS, protocol.MAX_KNOWN_WORD_CHARS)
}


class WireError(ValueError):
    """A message that cannot be accepted; ``request_id`` is set when it could be read."""

    def __init__(self, message: str, request_id: int | None = None) -> None:
        super().__init__(message)
        self.request_id = request_id


@dataclasses.dataclass(frozen=True)
class Link:
    """A link-level message: a ping (client → server) or its pong, carrying the client's stamp."""

    kind: str  # PING | PONG
    stamp: float


# --- encoding ------------------------------------------------------------------------------


def encode(message: Any) -> str:
    """One protocol dataclass (or a :class:`Link`) as JSON text."""
    if isinstance(message, Link):
        return json.dumps({"type": message.kind, "stamp": message.stamp})
    body = _plain(message)
    return json.dumps({"type": type(message).__name__, **body}, ensure_ascii=False)


def encode_utf8(message: Any) -> bytes:
    """:func:`encode` as the UTF-8 bytes of a text frame.

    A lone surrogate cannot be UTF-8; should one ever reach an event, it is sent as a JSON
    escape (``\\udXXX``) instead of breaking the send and, with it, the connection.
    """
    text = encode(message)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return json.dumps(json.loads(text), ensure_ascii=True).encode("ascii")


def shorten(value: Any, limit: int = MAX_ECHO_CHARS) -> str:
    """``repr(value)`` cut to ``limit`` characters, ASCII only: safe to quote in a refusal."""
    text = ascii(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


_PRIMITIVE = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    kind = type(value)
    if kind in _PRIMITIVE:
        return value
    if kind is tuple or kind is list:
        return [_plain(item) for item in value]
    if isinstance(value, Enum):
        return value.value
    return {name: _plain(getattr(value, name)) for name in _names(typing.cast(type, kind))}


@functools.cache
def _names(cls: type) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


# --- decoding ------------------------------------------------------------------------------

Convert = Callable[[Any, int], Any]  # (value, depth) → the typed value, or raises _Bad


class _Bad(Exception):
    """Why a value was refused; ``path`` grows as the error travels out of nested values."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason
        self.path: list[str] = []

    def located(self, kind: str) -> str:
        where = kind + "".join(p if p.startswith("[") else f".{p}" for p in self.path)
        return f"{where}: {self.reason}"


def decode(text: str | bytes, allowed: dict[str, type]) -> Any:
    """The message in ``text`` if its type is in ``allowed`` (or a :class:`Link`)."""
    if isinstance(text, bytes):
        raise WireError("Binary frames are not accepted: send JSON text.")
    data = _parse(text)
    if not isinstance(data, dict) or not isinstance(data.get("type"), str):
        raise WireError('A message must be a JSON object with a "type".')
    request_id = data.get("request_id")
    request_id = request_id if type(request_id) is int else None
    kind = data.pop("type")
    if kind in (PING, PONG):
        stamp = data.get("stamp")
        if set(data) != {"stamp"} or type(stamp) not in (int, float):
            raise WireError(f'A {kind} carries one number, "stamp".')
        return Link(kind, float(typing.cast(float, stamp)))
    cls = allowed.get(kind)
    if cls is None:
        raise WireError(f"Unknown message type {shorten(kind)}.", request_id)
    try:
        return _build(cls, data, 0)
    except _Bad as bad:
        raise WireError(_cut(bad.located(kind)), request_id) from None


def _parse(text: str) -> Any:
    """The JSON value of ``text``, its numbers and strings checked as the wire requires."""
    try:
        data = json.loads(
            text, parse_constant=_refuse_constant, parse_int=_bounded_int, parse_float=_finite
        )
    except _Bad as bad:
        raise WireError(f"The message was refused: {bad.reason}") from None
    except (ValueError, RecursionError) as exc:  # JSONDecodeError is a ValueError
        raise WireError(_cut(f"The message is not JSON ({exc}).")) from None
    surrogate = _lone_surrogate(data)
    if surrogate is not None:
        raise WireError(
            f"The message was refused: a string holds a lone UTF-16 surrogate ({surrogate}); "
            "text on the wire must be valid Unicode."
        )
    return data


def _refuse_constant(name: str) -> Any:
    raise _Bad(f"{name} is no number the wire accepts")


def _bounded_int(digits: str) -> int:
    value = int(digits) if len(digits) <= _MAX_INT_DIGITS else MAX_INT + 1
    if abs(value) > MAX_INT:
        raise _Bad(f"an integer of {len(digits)} digits; integers must fit in 64 bits (signed).")
    return value


def _finite(digits: str) -> float:
    value = float(digits)
    if not math.isfinite(value):
        raise _Bad(f"{shorten(digits)} is too large a number (it reads as infinity).")
    return value


def _lone_surrogate(data: Any) -> str | None:
    """The first lone surrogate in any key or string of ``data`` (escaped), else None."""
    pending = [data]
    while pending:
        value = pending.pop()
        if type(value) is dict:
            pending.extend(value.keys())
            pending.extend(value.values())
        elif type(value) is list:
            pending.extend(value)
        elif type(value) is str and not value.isascii():
            try:
                value.encode("utf-8")
            except UnicodeEncodeError as exc:
                return ascii(value[exc.start])
    return None


def _cut(message: str) -> str:
    return message if len(message) <= MAX_REFUSAL_CHARS else message[:MAX_REFUSAL_CHARS] + "…"


@functools.cache
def _shape(cls: type) -> tuple[frozenset[str], tuple[tuple[str, Convert, bool], ...]]:
    """A dataclass's field names, and per field: its converter, whether it must be present."""
    hints = typing.get_type_hints(cls, globalns=_NAMESPACE)
    fields = dataclasses.fields(cls)
    required = (dataclasses.MISSING, dataclasses.MISSING)
    return frozenset(f.name for f in fields), tuple(
        (f.name, _converter(hints[f.name]), (f.default, f.default_factory) == required)
        for f in fields
    )


def _build(cls: type, data: Any, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise _Bad("nested too deeply.")
    if type(data) is not dict:
        raise _Bad(f"expected an object for {cls.__name__}.")
    names, shape = _shape(cls)
    if not data.keys() <= names:
        unknown = sorted(set(data) - names)
        quoted = ", ".join(shorten(name).strip("'") for name in unknown[:MAX_UNKNOWN_NAMED])
        more = (
            f" and {len(unknown) - MAX_UNKNOWN_NAMED} more"
            if len(unknown) > MAX_UNKNOWN_NAMED
            else ""
        )
        raise _Bad(f"unknown field(s) {quoted}{more}.")
    values = {}
    for name, convert, required in shape:
        if name in data:
            try:
                values[name] = convert(data[name], depth + 1)
                _check_length(cls, name, values[name])
            except _Bad as bad:
                bad.path.insert(0, name)
                raise
        elif required:
            raise _Bad(f"missing field {name!r}.")
    try:
        built = cls(**values)
    except (TypeError, ValueError) as exc:
        raise _Bad(str(exc)) from None
    check = CHECKS.get(cls)
    if check is not None:
        check(built)
    return built


def _check_alternatives(proposal: protocol.Proposal) -> None:
    """A proposal's alternatives as the engine makes them: few, and no text offered twice."""
    count = len(proposal.alternatives)
    if count > MAX_ALTERNATIVES:
        raise _Bad(f"{count} alternatives; a proposal carries at most {MAX_ALTERNATIVES}.")
    texts = [proposal.text, *(version.text for version in proposal.alternatives)]
    if len(set(texts)) < len(texts):
        raise _Bad("an alternative repeats the proposal or another alternative.")


def _check_ranking(request: protocol.RankSuggestions) -> None:
    """A spelling menu's ranking as a menu sends it (its own rules: a few suggestions, each a
    word or two, none the word itself)."""
    problem = request.problem()
    if problem:
        raise _Bad(problem)


def _check_ranked(answer: protocol.SuggestionsRanked) -> None:
    """A ranking's answer as the engine makes it: a few suggestions, each with its nats or
    none at all."""
    count = len(answer.suggestions)
    if count > protocol.MAX_RANKED_SUGGESTIONS or len(answer.nats) not in (0, count):
        raise _Bad(f"{count} suggestions with {len(answer.nats)} nats; expected as many or none.")


# Checks a whole message must pass once built, beyond its fields' types.
CHECKS: dict[type, Callable[[Any], None]] = {
    protocol.Proposal: _check_alternatives,
    protocol.RankSuggestions: _check_ranking,
    protocol.SuggestionsRanked: _check_ranked,
}


def _check_length(cls: type, name: str, value: Any) -> None:
    limit = TEXT_LIMITS.get((cls, name))
    if limit is not None and len(value) > limit:
        raise _Bad(f"{len(value):,} characters; the engine accepts at most {limit:,}.")
    words = WORD_LIST_LIMITS.get((cls, name))
    if words is not None:
        _check_words(value, *words)


def _check_words(value: tuple[str, ...], most: int, longest: int) -> None:
    if len(value) > most:
        raise _Bad(f"{len(value):,} words; the engine accepts at most {most:,}.")
    for index, word in enumerate(value):
        if not word or len(word) > longest or any(ch.isspace() for ch in word):
            bad = _Bad(f"{shorten(word)} is not one word of 1 to {longest} characters.")
            bad.path.append(f"[{index}]")
            raise bad


@functools.cache
def _converter(hint: Any) -> Convert:
    """How to check and build a value of type ``hint``, worked out once per type."""
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        return _union(typing.get_args(hint))
    if origin is tuple:
        return _sequence(_converter(typing.get_args(hint)[0]))
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return functools.partial(_build, hint)
    if isinstance(hint, type) and issubclass(hint, Enum):
        return _enum(hint)
    if hint in (bool, int, float, str):
        return _scalar(hint)
    raise TypeError(f"the wire does not carry {hint!r}")


def _sequence(item: Convert) -> Convert:
    def convert(value: Any, depth: int) -> Any:
        if type(value) is not list:
            raise _Bad("expected a list.")
        out = []
        for index, entry in enumerate(value):
            try:
                out.append(item(entry, depth + 1))
            except _Bad as bad:
                bad.path.insert(0, f"[{index}]")
                raise
        return tuple(out)

    return convert


def _union(options: tuple[Any, ...]) -> Convert:
    nullable = type(None) in options
    converters = [_converter(option) for option in options if option is not type(None)]

    def convert(value: Any, depth: int) -> Any:
        if value is None and nullable:
            return None
        errors: list[_Bad] = []
        for attempt in converters:
            try:
                return attempt(value, depth)
            except _Bad as bad:
                errors.append(bad)
        raise errors[0] if len(errors) == 1 else _Bad("no accepted form fits.")

    return convert


def _enum(cls: type[Enum]) -> Convert:
    def convert(value: Any, depth: int) -> Any:
        try:
            return cls(value)
        except ValueError:
            choices = ", ".join(repr(m.value) for m in cls)
            raise _Bad(f"{shorten(value)} is not one of {choices}.") from None

    return convert


def _scalar(hint: type) -> Convert:
    accepted = (int, float) if hint is float else (hint,)

    def convert(value: Any, depth: int) -> Any:
        if type(value) not in accepted:
            raise _Bad(f"expected {hint.__name__}, got {type(value).__name__}.")
        return float(value) if hint is float else value

    return convert
