"""A compiled JSON schema as a slot problem: slots per value (or per shape run), read-back, repair.

Every open value is keyed by its JSON path. A value with a shape (:mod:`.shapes`) owns several
plan segments: a slot per open run and the locked characters between them; its text is their
texts joined. Choices (enums, booleans, a shape's alternatives) take one token when their
first tokens differ, and that token is mapped back to the literal it starts.

The repair (:meth:`JsonProblem.default`) takes the first of the value's validated defaults
that no other value already holds, so two repaired descriptions never read the same by
accident; when the schema allows it, a numbered variant of the default is the last resort.
"""

from __future__ import annotations

from typing import Any

from engine.core.plan import Segment, Slot
from engine.core.tokens import TokenTable
from engine.structured.compiler import Compiled
from engine.structured.render import choice_slot, plain_slot, run_slot, segments
from engine.structured.shapes import Run, Shape, choice
from engine.structured.tree import Path, Value
from engine.structured.values import NOTHING, Leaf, literal

SlotKey = tuple[Path, int]  # a value's path and the shape part (-1: the whole value)
VARIANTS = 9  # numbered variants tried when every default is taken


class JsonProblem:
    """A compiled schema as a slot problem: values are keyed by their JSON path."""

    def __init__(self, compiled: Compiled, table: TokenTable) -> None:
        self.compiled = compiled
        self.table = table
        self.leaves = {v.path: v.leaf for v in compiled.leaves()}
        self.slots: dict[SlotKey, Slot] = {}
        self.firsts: dict[SlotKey, tuple[tuple[str, ...], tuple[str, ...]]] = {}
        self.shapes: dict[Path, Shape] = {}
        for path, leaf in self.leaves.items():
            self.shapes[path] = leaf.shape if self.spellable(leaf.shape) else ()
            if self.shapes[path]:
                for index, part in enumerate(self.shapes[path]):
                    if isinstance(part, Run):
                        self._add((path, index), *run_slot(part, table), part_texts(part))
            elif leaf.kind == "choice":
                self._choice(path, leaf)
            else:
                self.slots[(path, -1)] = plain_slot(leaf)

    def _choice(self, path: Path, leaf: Leaf) -> None:
        """One token when the literals' first tokens differ; else, when they share a start
        (``net15``/``net30``), that start locked and one token for the rest."""
        slot, firsts = choice_slot(leaf, self.table)
        shape = prefix_shape(leaf.texts())
        if firsts is None and shape and self.spellable(shape):
            self.shapes[path] = shape
            run = shape[1]
            assert isinstance(run, Run)
            self._add((path, 1), *run_slot(run, self.table), part_texts(run))
            if (path, 1) in self.firsts:
                return
            self.shapes[path] = ()
            del self.slots[(path, 1)]
        self._add((path, -1), slot, firsts, leaf.texts())

    def _add(
        self, key: SlotKey, slot: Slot, firsts: tuple[str, ...] | None, texts: tuple[str, ...]
    ) -> None:
        self.slots[key] = slot
        if firsts is not None:
            self.firsts[key] = (firsts, texts)

    def spellable(self, shape: Shape) -> bool:
        """Whether this tokenizer has a token for every run that must hold one."""
        filler = self.table.specials.filler_id
        return all(
            isinstance(part, str) or bool(self.table.allowed_ids(part.constraint) - {filler})
            for part in shape
        )

    def shape_of(self, value: Value) -> Shape:
        return self.shapes[value.path]

    def slot_of(self, path: Path, part: int) -> Slot:
        return self.slots[(path, part)]

    def layout(self, accepted: dict[Any, Any]) -> tuple[tuple[Segment, ...], tuple[Any, ...]]:
        return segments(self.compiled.tree, accepted, self.slot_of, self.shape_of)

    def read(self, key: Any, texts: list[str]) -> Any:
        """The value the texts of its segments spell, or ``NOTHING``."""
        shape = self.shapes[key]
        parts = [self._text((key, i if shape else -1), t) for i, t in enumerate(texts)]
        if any(p is None for p in parts):
            return NOTHING
        text = "".join(p for p in parts if p is not None)
        leaf = self.leaves[key]
        if leaf.kind == "choice" and (key, -1) in self.firsts:
            return leaf.alternatives[leaf.texts().index(text)]
        return leaf.read(text, self.compiled.context)

    def _text(self, key: SlotKey, text: str) -> str | None:
        """A segment's text; a one-token choice's token becomes the literal it starts."""
        found = self.firsts.get(key)
        if found is None:
            return text
        firsts, texts = found
        return texts[firsts.index(text)] if text in firsts else None

    def default(self, key: Any, taken: list[Any]) -> Any:
        """The first valid default no other value holds (strings), else the first default."""
        leaf = self.leaves[key]
        options = [leaf.default, *leaf.spares]
        if leaf.kind != "string":
            return options[0]
        used = {literal(t) for t in taken}
        fresh = [o for o in options if literal(o) not in used]
        if fresh:
            return fresh[0]
        return numbered(leaf, options[0], used, self.compiled)


def numbered(leaf: Leaf, base: str, used: set[str], compiled: Compiled) -> str:
    """``base 2``, ``base 3``…: the first the schema accepts and no value holds, else ``base``."""
    for n in range(2, VARIANTS + 2):
        for variant in (f"{base} {n}", f"{base}{n}"):
            if literal(variant) not in used and leaf.read(variant, compiled.context) is not NOTHING:
                return variant
    return base


def prefix_shape(texts: tuple[str, ...]) -> Shape:
    """The literals' common start locked, then a choice of what follows it in each."""
    start = texts[0]
    for text in texts[1:]:
        while not text.startswith(start):
            start = start[:-1]
    rest = tuple(t[len(start) :] for t in texts)
    if not start or not all(rest):
        return ()
    return (start, choice("choice-rest", rest))


def part_texts(run: Run) -> tuple[str, ...]:
    alternatives = getattr(run.constraint, "alternatives", ())
    return tuple(alternatives)
