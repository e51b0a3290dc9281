"""Lays a compiled JSON tree out as text: locked keys and punctuation around value slots.

The layout is exactly ``json.dumps(instance, indent=2, ensure_ascii=False)``, so the filled
canvas and the offered text agree byte for byte wherever a slot's text was accepted as is.
A string slot sits between locked quotes and its tokens can hold no quote, backslash or
control character, so its text never needs escaping.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from engine.core.plan import LiteralConstraint, Locked, Segment, Slot
from engine.core.tokens import TokenTable
from engine.structured.shapes import Run, Shape
from engine.structured.tree import Arr, Fixed, Node, Obj, Path, Value
from engine.structured.values import Leaf, literal

INDENT = "  "
ShapeOf = Callable[[Value], Shape]


@dataclass(frozen=True)
class Piece:
    """Rendered text: locked (``path is None``) or one value's slot (``text`` is its seed)."""

    text: str
    path: Path | None = None
    kind: str = ""  # "" locked, "slot" open, "literal" locked text inside a value, "value"
    part: int = -1  # which part of the value's shape a slot or literal is (-1: the whole value)


def pieces(
    node: Node,
    values: Mapping[Path, Any],
    shape_of: ShapeOf = lambda v: v.leaf.shape,
    depth: int = 0,
) -> list[Piece]:
    """The tree as pieces; slots whose path is in ``values`` are written in as that value.

    An open value with a shape is laid out part by part: its locked characters as ``literal``
    pieces, each open run as a ``slot`` piece.
    """
    pad = INDENT * depth
    if isinstance(node, Fixed):
        return [Piece(fixed_text(node.value, depth))]
    if isinstance(node, Value):
        if node.path in values:
            return [Piece(literal(values[node.path]), node.path, "value")]
        body = value_pieces(node, shape_of(node))
        return [Piece('"'), *body, Piece('"')] if node.leaf.quoted else body
    entries: list[tuple[str, Node]]
    if isinstance(node, Obj):
        entries = [(literal(key) + ": ", child) for key, child in node.members]
        brackets = "{}"
    else:
        assert isinstance(node, Arr)
        entries = [("", child) for child in node.items]
        brackets = "[]"
    if not entries:
        return [Piece(brackets)]
    out = [Piece(brackets[0])]
    for index, (label, child) in enumerate(entries):
        out.append(Piece(("," if index else "") + "\n" + pad + INDENT + label))
        out += pieces(child, values, shape_of, depth + 1)
    out.append(Piece("\n" + pad + brackets[1]))
    return out


def value_pieces(node: Value, shape: Shape) -> list[Piece]:
    if not shape:
        return [Piece("", node.path, "slot")]
    return [
        Piece(part, node.path, "literal", i) if isinstance(part, str) else
        Piece("", node.path, "slot", i)
        for i, part in enumerate(shape)
    ]  # fmt: skip


def fixed_text(value: Any, depth: int) -> str:
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return text.replace("\n", "\n" + INDENT * depth)


def segments(
    node: Node,
    values: Mapping[Path, Any],
    slot_of: Callable[[Path, int], Slot],
    shape_of: ShapeOf = lambda v: v.leaf.shape,
) -> tuple[tuple[Segment, ...], tuple[Path | None, ...]]:
    """Plan segments and, for each, the open value it belongs to (``None``: structure).

    Adjacent structural text is merged into one locked segment; a value's own pieces (its
    slots and the locked characters of its shape) stay separate, so it can be read back.
    """
    out: list[Segment] = []
    owners: list[Path | None] = []
    for piece in pieces(node, values, shape_of):
        owner = piece.path if piece.kind in ("slot", "literal") else None
        if piece.kind == "slot" and piece.path is not None:
            out.append(slot_of(piece.path, piece.part))
        elif owner is None and owners and owners[-1] is None and isinstance(out[-1], Locked):
            out[-1] = Locked(out[-1].text + piece.text)
            continue
        else:
            out.append(Locked(piece.text))
        owners.append(owner)
    return tuple(out), tuple(owners)


def choice_slot(leaf: Leaf, table: TokenTable) -> tuple[Slot, tuple[str, ...] | None]:
    """An enum or boolean: one of its literals, never nothing."""
    slot, firsts = literal_slot(leaf.texts(), table)
    return replace(slot, min_tokens=1), firsts


def literal_slot(texts: tuple[str, ...], table: TokenTable) -> tuple[Slot, tuple[str, ...] | None]:
    """A slot choosing one of ``texts``: one token when their first tokens differ.

    Then validity holds by construction (the slot can only spell a first token, and each first
    token names one alternative); otherwise the slot may use every token of every alternative
    and its text is snapped to the one it spells. Returns the first-token texts when used.
    """
    encoded = [table.encode(t) for t in texts]
    firsts = tuple(table.decode(e[:1]) for e in encoded)
    if all(firsts) and len(set(firsts)) == len(firsts):
        return Slot(LiteralConstraint("choice-first", firsts), 1), firsts
    constraint = LiteralConstraint("choice", texts)
    return Slot(constraint, max(len(e) for e in encoded)), None


def plain_slot(leaf: Leaf) -> Slot:
    """The whole value as one slot; a number always has at least one digit."""
    return Slot(leaf.constraint, leaf.budget, min_tokens=int(leaf.kind in ("integer", "number")))


def run_slot(run: Run, table: TokenTable) -> tuple[Slot, tuple[str, ...] | None]:
    """One open run of a shape; a run of literal alternatives is a (never empty) choice."""
    if isinstance(run.constraint, LiteralConstraint):
        slot, firsts = literal_slot(run.constraint.alternatives, table)
        return replace(slot, min_tokens=1), firsts
    return Slot(run.constraint, run.budget, min_tokens=run.least, soft_min=run.soft), None
