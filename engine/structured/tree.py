"""The compiled shape of a JSON instance: fixed values, slot values, objects and arrays.

Built by :mod:`engine.structured.compiler`, laid out by :mod:`engine.structured.render`, and
turned back into an instance (:func:`instance_of`) with the slots' values, defaults elsewhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engine.core.errors import BadRequest
from engine.structured.values import NOTHING, Leaf

Path = tuple[str | int, ...]


@dataclass(frozen=True)
class Fixed:
    """A value copied verbatim: a ``const``, ``null``, a single-valued enum, a user lock."""

    value: Any


@dataclass(frozen=True)
class Value:
    """A generated value: one slot."""

    path: Path
    leaf: Leaf


@dataclass(frozen=True)
class Obj:
    members: tuple[tuple[str, Node], ...]


@dataclass(frozen=True)
class Arr:
    items: tuple[Node, ...]


Node = Fixed | Value | Obj | Arr


def in_item(path: Path) -> bool:
    """Whether ``path`` runs through an array item (an office of a list, not the object the
    document is about)."""
    return any(isinstance(part, int) for part in path)


def walk_values(node: Node) -> list[Value]:
    if isinstance(node, Value):
        return [node]
    if isinstance(node, Obj):
        return [v for _, child in node.members for v in walk_values(child)]
    if isinstance(node, Arr):
        return [v for child in node.items for v in walk_values(child)]
    return []


def instance_of(node: Node, values: dict[Path, Any]) -> Any:
    """The instance a tree spells, with ``values`` for slots and defaults for the rest."""
    if isinstance(node, Fixed):
        return node.value
    if isinstance(node, Value):
        return values.get(node.path, node.leaf.default)
    if isinstance(node, Obj):
        return {key: instance_of(child, values) for key, child in node.members}
    return [instance_of(child, values) for child in node.items]


def lookup(value: Any, path: str) -> Any:
    """The value at a JSON pointer, or ``NOTHING``."""
    if not path:
        return value
    if not path.startswith("/"):
        raise BadRequest(f"A lock path is a JSON pointer such as /total, not {path!r}.")
    for raw in path[1:].split("/"):
        token = raw.replace("~1", "/").replace("~0", "~")
        if isinstance(value, dict) and token in value:
            value = value[token]
        elif isinstance(value, list) and token.isdigit() and int(token) < len(value):
            value = value[int(token)]
        else:
            return NOTHING
    return value


def json_type(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "integer" if value.is_integer() else "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"
