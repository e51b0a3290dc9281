"""The remote engine's wire format: protocol dataclasses as JSON text, validated on arrival.

Every message is one JSON object with a ``"type"`` naming a class of :mod:`engine.protocol`
(or one of the link messages :data:`PING`/:data:`PONG`) and that class's fields. Decoding is
type-directed: each field is checked against the dataclass's annotations (ints are ints, spans
are pairs of ints, enums take only their values, nested dataclasses recurse), unknown or missing
fields are refused, and the class's own validation (``SamplerSettings.__post_init__``) runs.
Anything that does not fit raises :class:`WireError` with a message that says what was wrong.

Nothing is ever unpickled: this module only builds the classes it names in :data:`REQUESTS`
and :data:`EVENTS`. It imports no torch, so the window and the CLI can use it.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from enum import Enum
from typing import Any

from engine import protocol
from engine.config import SamplerSettings

PING = "ping"
PONG = "pong"
MAX_DEPTH = 8  # nesting of dataclasses and tuples; the protocol needs 3

REQUESTS: dict[str, type] = {
    cls.__name__: cls for cls in (protocol.LoadModel, protocol.Edit, protocol.Fill, protocol.Cancel)
}
EVENTS: dict[str, type] = {
    cls.__name__: cls
    for cls in (
        protocol.LoadProgress,
        protocol.ModelReady,
        protocol.Frame,
        protocol.Proposal,
        protocol.Failed,
        protocol.Cancelled,
        protocol.Queued,
    )
}
_NAMESPACE = {**vars(protocol), "SamplerSettings": SamplerSettings}


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


def _plain(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value)}
    if isinstance(value, Enum):
        return value.value
    if isinstance(value, tuple | list):
        return [_plain(item) for item in value]
    return value


# --- decoding ------------------------------------------------------------------------------


def decode(text: str | bytes, allowed: dict[str, type]) -> Any:
    """The message in ``text`` if its type is in ``allowed`` (or a :class:`Link`)."""
    if isinstance(text, bytes):
        raise WireError("Binary frames are not accepted: send JSON text.")
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except (json.JSONDecodeError, RecursionError, WireError) as exc:
        raise WireError(f"The message is not JSON ({exc}).") from None
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
        raise WireError(f"Unknown message type {kind!r}.", request_id)
    try:
        return _build(cls, data, kind, 0)
    except WireError as exc:
        raise WireError(str(exc), request_id) from None


def _refuse_constant(name: str) -> Any:
    raise WireError(f"{name} is not a number the wire accepts")


def _build(cls: type, data: Any, where: str, depth: int) -> Any:
    if depth > MAX_DEPTH:
        raise WireError(f"{where}: nested too deeply.")
    if not isinstance(data, dict):
        raise WireError(f"{where}: expected an object for {cls.__name__}.")
    hints = typing.get_type_hints(cls, globalns=_NAMESPACE)
    fields = {f.name: f for f in dataclasses.fields(cls)}
    unknown = sorted(set(data) - set(fields))
    if unknown:
        raise WireError(f"{where}: unknown field(s) {', '.join(unknown)}.")
    values = {}
    for name, f in fields.items():
        if name in data:
            values[name] = _value(hints[name], data[name], f"{where}.{name}", depth + 1)
        elif f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
            raise WireError(f"{where}: missing field {name!r}.")
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:
        raise WireError(f"{where}: {exc}") from None


def _value(hint: Any, value: Any, where: str, depth: int) -> Any:
    origin = typing.get_origin(hint)
    if origin in (types.UnionType, typing.Union):
        return _union(typing.get_args(hint), value, where, depth)
    if origin is tuple:
        item_hint = typing.get_args(hint)[0]
        if not isinstance(value, list):
            raise WireError(f"{where}: expected a list.")
        return tuple(
            _value(item_hint, item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)
        )
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _build(hint, value, where, depth)
    if isinstance(hint, type) and issubclass(hint, Enum):
        try:
            return hint(value)
        except ValueError:
            choices = ", ".join(repr(m.value) for m in hint)
            raise WireError(f"{where}: {value!r} is not one of {choices}.") from None
    return _scalar(hint, value, where)


def _union(options: tuple[Any, ...], value: Any, where: str, depth: int) -> Any:
    if value is None and type(None) in options:
        return None
    errors = []
    for option in options:
        if option is type(None):
            continue
        try:
            return _value(option, value, where, depth)
        except WireError as exc:
            errors.append(str(exc))
    raise WireError(errors[0] if len(errors) == 1 else f"{where}: no accepted form fits.")


def _scalar(hint: Any, value: Any, where: str) -> Any:
    if hint is bool:
        ok = type(value) is bool
    elif hint is int:
        ok = type(value) is int
    elif hint is float:
        ok = type(value) in (int, float)
        value = float(value) if ok else value
    elif hint is str:
        ok = isinstance(value, str)
    else:
        raise WireError(f"{where}: the wire does not carry {hint!r}.")
    if not ok:
        raise WireError(f"{where}: expected {hint.__name__}, got {type(value).__name__}.")
    return value
