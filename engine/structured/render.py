"""Lays a compiled JSON tree out as text: locked keys and punctuation around value slots.

The layout is exactly ``json.dumps(instance, indent=2, ensure_ascii=False)``, so the filled
canvas and the offered text agree byte for byte wherever a slot's text was accepted as is.
A string slot sits between locked quotes and its tokens can hold no quote, backslash or
control character, so its text never needs escaping.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from engine.plan import LiteralConstraint, Locked, Segment, Slot
from engine.structured.tree import Arr, Fixed, Node, Obj, Path, Value
from engine.structured.values import Leaf, literal
from engine.tokens import TokenTable

INDENT = "  "


@dataclass(frozen=True)
class Piece:
    """Rendered text: locked (``path is None``) or one value's slot (``text`` is its seed)."""

    text: str
    path: Path | None = None
    kind: str = ""


def pieces(node: Node, values: Mapping[Path, Any], depth: int = 0) -> list[Piece]:
    """The tree as pieces; slots whose path is in ``values`` are written in as that value."""
    pad = INDENT * depth
    if isinstance(node, Fixed):
        return [Piece(fixed_text(node.value, depth))]
    if isinstance(node, Value):
        if node.path in values:
            return [Piece(literal(values[node.path]), node.path, "value")]
        if node.leaf.quoted:
            return [Piece('"'), Piece("", node.path, "slot"), Piece('"')]
        return [Piece("", node.path, "slot")]
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
        out += pieces(child, values, depth + 1)
    out.append(Piece("\n" + pad + brackets[1]))
    return out


def fixed_text(value: Any, depth: int) -> str:
    text = json.dumps(value, indent=2, ensure_ascii=False)
    return text.replace("\n", "\n" + INDENT * depth)


def segments(
    node: Node, values: Mapping[Path, Any], slot_of: Callable[[Path], Slot]
) -> tuple[tuple[Segment, ...], tuple[Path, ...]]:
    """Plan segments (adjacent locked text merged) and the path of each slot, in order."""
    out: list[Segment] = []
    slots: list[Path] = []
    for piece in pieces(node, values):
        if piece.kind == "slot" and piece.path is not None:
            out.append(slot_of(piece.path))
            slots.append(piece.path)
        elif out and isinstance(out[-1], Locked):
            out[-1] = Locked(out[-1].text + piece.text)
        else:
            out.append(Locked(piece.text))
    return tuple(out), tuple(slots)


def choice_slot(leaf: Leaf, table: TokenTable) -> tuple[Slot, tuple[str, ...] | None]:
    return literal_slot(leaf.texts(), table)


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
    return Slot(leaf.constraint, leaf.budget)
