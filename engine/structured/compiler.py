"""JSON Schema → a frozen structure whose leaves are slots, with a valid default instance.

The compiler decides everything structural before any generation: which optional properties
appear (the template's, the required ones, the ones the user ticked), how many items an array
has (the template's count, ``minItems``, or a small default), which ``anyOf``/``oneOf`` branch
and which of several ``type`` s a location takes (the template's, else the first that builds).
Every choice is checked by validating the default of what it built against the location's
schemas, so a branch that would break ``oneOf`` exclusivity, say, is skipped, and the default
instance of the whole tree is validated before compilation returns: the filler can always fall
back on it, and an unsatisfiable or unsupported schema is refused up front.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from engine.core.errors import BadRequest
from engine.core.protocol import Fill
from engine.structured import columns
from engine.structured.event_days import EventDays, lone_date_span, told_window
from engine.structured.json_values import (
    day_text,
    in_era,
    item_era,
    schema_births,
    the_written_day,
    vocab_leaf,
    year_node,
)
from engine.structured.periods import Span
from engine.structured.schema import (
    Conjunct,
    Context,
    NoValue,
    Refusal,
    Schemas,
    Unsatisfiable,
    flatten,
    load_context,
    pointer,
)
from engine.structured.tree import (
    Arr,
    Fixed,
    Node,
    Obj,
    Path,
    Value,
    instance_of,
    json_type,
    lookup,
    walk_values,
)
from engine.structured.values import NOTHING, Leaf, choice_leaf, number_leaf, string_leaf
from engine.structured.words import key_words

TYPES = ("string", "integer", "number", "boolean", "null", "object", "array")
HINTS = {
    "object": ("properties", "required", "additionalProperties"),
    "array": ("items", "prefixItems", "minItems", "maxItems", "uniqueItems"),
    "string": ("minLength", "maxLength", "pattern", "format"),
    "number": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"),
}
DEFAULT_ITEMS = 2
MAX_NODES = 2000  # a schema whose instance needs more values than this is refused
MAX_PATH = 32  # nesting deeper than this is unbounded recursion through $ref


@dataclass(frozen=True)
class Compiled:
    """A compiled schema: the tree, its validated default instance, the validation context."""

    context: Context
    tree: Node
    default: Any

    def leaves(self) -> list[Value]:
        return list(walk_values(self.tree))


def compile_json(
    schema: Any,
    template: Any = NOTHING,
    locks: tuple[str, ...] = (),
    include: tuple[str, ...] = (),
    era: tuple[float, float] | None = None,
    births: tuple[float, float] | None = None,
    written: tuple[float, ...] = (),
    age_on: float | None = None,
    names: tuple[str, ...] = (),
    event: EventDays | None = None,
) -> Compiled:
    """Compile, or raise :class:`~engine.core.errors.BadRequest` (``Refusal``/``Unsatisfiable``).

    ``era`` (day ordinals, :func:`engine.structured.json_values.document_era`) is the span a
    generated date is shaped to, ``births`` (:func:`engine.structured.json_values.document_births`)
    the span of a birth date, ``written`` (:func:`engine.structured.json_values.written_days`)
    the days a document that states no period writes, ``age_on`` the day an age is counted at
    (:func:`engine.structured.json_values.age_day`: a bounded age then bounds its object's
    birth date), ``names`` what the document calls the thing it dates
    (:func:`engine.structured.subjects.subject_names`: a top-level name or title offers them),
    ``event`` the days of the event it writes, which the object's lone dates fall in
    (:func:`engine.structured.event_days.event_days`)."""
    context, root = load_context(schema)
    for lock in locks:
        if lookup(template, lock) is NOTHING:
            raise BadRequest(f"Nothing to lock at {lock}: the template has no value there.")
    compiler = Compiler(
        context, frozenset(locks), frozenset(include), era, births, written, age_on, names, event
    )
    tree = compiler.node([root], (), template, frozenset())
    default = instance_of(tree, {})
    errors = list(context.root_validator().iter_errors(default))
    if errors:
        raise NoValue({str(e.validator) for e in errors}, pointer(tuple(errors[0].absolute_path)))
    return Compiled(context, tree, default)


@dataclass
class Compiler:
    context: Context
    locks: frozenset[str]
    include: frozenset[str]
    era: tuple[float, float] | None = None
    births: tuple[float, float] | None = None
    written: tuple[float, ...] = ()
    age_on: float | None = None
    names: tuple[str, ...] = ()
    event: EventDays | None = None
    nodes: int = field(default=0)
    counts: dict[Path, int] = field(default_factory=dict)  # each array's item count
    object_births: dict[Path, Span] = field(default_factory=dict)  # from an age's bounds
    # each object's date members, in the schema's order (one may take a day by elimination)
    dates: dict[Path, tuple[str, ...]] = field(default_factory=dict)

    def node(self, raw: list[Conjunct], path: Path, template: Any, done: frozenset[int]) -> Node:
        where = pointer(path)
        if len(path) > MAX_PATH:
            raise Refusal({"$ref"}, f"{where}: nesting deeper than {MAX_PATH}")
        self.nodes += 1
        if self.nodes > MAX_NODES:
            raise Refusal({"minItems", "required"}, f"{where}: over {MAX_NODES} values")
        schemas = flatten(raw, where)
        if where in self.locks:
            if not schemas.valid(self.context, template):
                raise BadRequest(f"The locked value at {where} does not satisfy the schema.")
            return Fixed(template)
        if schemas.impossible():
            raise Unsatisfiable("the schema there is false", ("false",), where)
        for conjunct in schemas.items:
            if not isinstance(conjunct.schema, dict):
                continue
            for key in ("anyOf", "oneOf"):
                branches = conjunct.schema.get(key)
                if branches is not None and id(branches) not in done:
                    options = [Conjunct(b, conjunct.resolver) for b in branches]
                    return self.branch(raw, schemas, path, template, done | {id(branches)}, options)
        return self.plain(schemas, path, template)

    def branch(
        self,
        raw: list[Conjunct],
        schemas: Schemas,
        path: Path,
        template: Any,
        done: frozenset[int],
        options: list[Conjunct],
    ) -> Node:
        """The template's branch first, else the first one whose default satisfies them all."""
        if template is not NOTHING:
            matching = [o for o in options if self.context.validator(o).is_valid(template)]
            options = matching + [o for o in options if o not in matching]
        errors: list[Refusal | Unsatisfiable] = []
        for option in options:
            try:
                built = self.node([*raw, option], path, template, done)
            except (Refusal, Unsatisfiable) as error:  # a bad lock or template propagates
                errors.append(error)
                continue
            if schemas.valid(self.context, instance_of(built, {})):
                return built
            errors.append(NoValue({"oneOf"}, schemas.where))
        raise combined(errors, schemas.where, "anyOf/oneOf")

    def plain(self, schemas: Schemas, path: Path, template: Any) -> Node:
        literals = schemas.values("const")[:1] or (
            list(schemas.values("enum")[0]) if schemas.has("enum") else []
        )
        if literals or schemas.has("const") or schemas.has("enum"):
            return self.literal_choice(literals, schemas, path, template)
        errors: list[Refusal | Unsatisfiable] = []
        for kind in type_order(schemas, template):
            try:
                built = self.typed(kind, schemas, path, template)
            except (Refusal, Unsatisfiable) as error:  # a bad lock or template propagates
                errors.append(error)
                continue
            if schemas.valid(self.context, instance_of(built, {})):
                return built
            errors.append(NoValue(keywords_of(schemas) or {"type"}, schemas.where))
        raise combined(errors, schemas.where, "type")

    def literal_choice(
        self, values: list[Any], schemas: Schemas, path: Path, template: Any
    ) -> Node:
        valid = [v for v in values if schemas.valid(self.context, v)]
        if not valid:
            raise Unsatisfiable("no value of its enum/const fits", ("enum", "const"), schemas.where)
        if len(valid) == 1:
            return Fixed(valid[0])
        return Value(path, choice_leaf(valid, schemas, template))

    def typed(self, kind: str, schemas: Schemas, path: Path, template: Any) -> Node:
        fits = template is not NOTHING and json_type(template) in (kind, *_wider(kind))
        seed = template if fits else NOTHING
        if kind == "null":
            return Fixed(None)
        if kind == "boolean":
            return self.literal_choice(
                [True, False] if seed is not False else [False, True], schemas, path, seed
            )
        if kind in ("integer", "number"):
            key = next((str(p) for p in reversed(path) if isinstance(p, str)), "")
            leaf = number_leaf(kind, schemas, self.context, seed, key)
            year = year_node(leaf, key, self.era, self.context) if seed is NOTHING else leaf
            return Fixed(year) if isinstance(year, int) else Value(path, year)
        if kind == "string":
            return self.string(schemas, path, seed)
        if kind == "object":
            return self.obj(schemas, path, seed if isinstance(seed, dict) else NOTHING)
        return self.arr(schemas, path, seed if isinstance(seed, list) else NOTHING)

    def string(self, schemas: Schemas, path: Path, seed: Any) -> Node:
        """A string slot: a vocabulary's choice, a date of the document's era (or the day it
        writes), else free text in its format or pattern."""
        key = next((str(p) for p in reversed(path) if isinstance(p, str)), "")
        named = self.document_name(key, schemas, path, seed)
        if named is not None:
            return named
        chosen = vocab_leaf(key, schemas, self.context, path, seed)
        span = self.date_span(key, path)
        leaf = in_era(
            chosen or string_leaf(schemas, self.context, seed, key),
            key, span, self.context, self.object_births.get(path[:-1], self.births),
        )  # fmt: skip
        if seed is not NOTHING:  # the template's own value stays the model's to keep
            return Value(path, leaf)
        told = self.told_text(leaf, key, span)
        if told is not None:
            return Fixed(told)
        # Of the days the document writes, only those in the date's own span: an act done
        # ahead of the event takes none of them, the event's second day only its second.
        written = tuple(d for d in self.written if span is None or span[0] <= d <= span[1])
        dated = the_written_day(leaf, key, path, written, self.context)
        return Fixed(dated) if isinstance(dated, str) else Value(path, dated)

    def date_span(self, key: str, path: Path) -> Span | None:
        """The days a date at ``path`` falls in: a top-level date the document tells a day
        for, that day (:mod:`.told_days`); a lone date of the object, in a document that
        writes an event's days, the event's days (the one it counts, or the lead-up to the
        day its act is done by); an array item's, its share of the era; any other, the era."""
        siblings = self.dates.get(path[:-1], ())
        lone = lone_date_span(self.event, key, len(path), siblings)
        return lone or item_era(self.era, path, self.counts)

    def told_text(self, leaf: Leaf, key: str, span: Span | None) -> str | None:
        """The one day the document tells for a top-level date named ``key``, or the one
        meeting of its series the name counts (the span :meth:`date_span` gave it is that
        day, :mod:`.told_days`, :mod:`.series`), as the schema writes it: fixed, as a day
        the document writes is, so no rule moves it."""
        if self.event is None or span is None or span[0] != span[1] or leaf.fmt != "date":
            return None
        told = self.event.own_day(key, self.dates.get((), ()))
        known = told_window(told, key) if told is not None else self.event.meeting(key)
        return day_text(leaf, key, span[0], self.context) if span == known else None

    def document_name(self, key: str, schemas: Schemas, path: Path, seed: Any) -> Node | None:
        """The top-level ``name`` or ``title`` of a template with none of its own: what the
        document calls the thing it dates (one name fixed, several the model's choice), when
        the schema allows it and it has no format of its own."""
        words = key_words(key)
        if seed is not NOTHING or len(path) != 1 or not words:
            return None
        if not words <= columns.field_words()["title_name"]:
            return None
        if schemas.has("format") or schemas.has("enum") or schemas.has("const"):
            return None
        valid = [n for n in self.names if schemas.valid(self.context, n)]
        if len(valid) == 1:
            return Fixed(valid[0])
        return Value(path, choice_leaf(valid, schemas, seed)) if valid else None

    def obj(self, schemas: Schemas, path: Path, template: Any) -> Obj:
        required = {key for keys in schemas.values("required") for key in keys}
        keys = ordered_keys(schemas, template, required)
        given = set(template) if template is not NOTHING else set()
        chosen = {k for k in keys if k in required or k in given}
        chosen |= {k for k in keys if pointer((*path, k)) in self.include}
        chosen = with_dependencies(schemas, chosen)
        chosen = self.enough_properties(schemas, keys, chosen, path)
        self.note_births(schemas, chosen, path)
        self.dates[path] = tuple(k for k in keys if k in chosen and is_date(schemas, k))
        members: list[tuple[str, Node]] = []
        for key in [*keys, *sorted(chosen - set(keys))]:
            if key not in chosen:
                continue
            value = template[key] if key in given else NOTHING
            raw = property_schemas(schemas, key)
            members.append((key, self.node(raw, (*path, key), value, frozenset())))
        return Obj(tuple(members))

    def note_births(self, schemas: Schemas, chosen: set[str], path: Path) -> None:
        """The births an object's bounded age allows, for its birth date (a date of birth
        the document's stated age does not already bound)."""
        ages = [k for k in sorted(chosen) if columns.names(k, "age")]
        if self.births is not None or self.age_on is None or not ages:
            return
        age = flatten(property_schemas(schemas, ages[0]), pointer((*path, ages[0])))
        found = schema_births(age, self.age_on)
        if found is not None:
            self.object_births[path] = found

    def enough_properties(
        self, schemas: Schemas, keys: list[str], chosen: set[str], path: Path
    ) -> set[str]:
        """Add declared (then generated) properties up to ``minProperties``; check the max."""
        low = max(schemas.values("minProperties"), default=0)
        high = min(schemas.values("maxProperties"), default=None)
        for key in keys + [f"field{n}" for n in range(1, int(low) + 1)]:
            if len(chosen) >= low:
                break
            if not any(c.schema is False for c in property_schemas(schemas, key)):
                chosen = with_dependencies(schemas, chosen | {key})
        if len(chosen) < low or (high is not None and len(chosen) > high):
            raise Unsatisfiable(
                f"it needs {len(chosen)} properties",
                ("minProperties", "maxProperties"),
                pointer(path),
            )
        return chosen

    def arr(self, schemas: Schemas, path: Path, template: Any) -> Arr:
        count = item_count(schemas, template)
        self.counts[path] = count
        items = []
        for index in range(count):
            given = (
                template[index] if template is not NOTHING and index < len(template) else NOTHING
            )
            raw = item_schemas(schemas, index)
            items.append(self.node(raw, (*path, index), given, frozenset()))
        return Arr(tuple(items))


def ordered_keys(schemas: Schemas, template: Any, required: set[str]) -> list[str]:
    """Template keys in the template's order, then declared properties, then other required."""
    keys: list[str] = list(template) if template is not NOTHING else []
    for props in schemas.values("properties"):
        keys += [k for k in props if k not in keys]
    keys += sorted(k for k in required if k not in keys)
    return keys


def with_dependencies(schemas: Schemas, chosen: set[str]) -> set[str]:
    """Close ``chosen`` under ``dependentRequired``."""
    grown = set(chosen)
    while True:
        extra = {
            needed
            for rules in schemas.values("dependentRequired")
            for key, needs in rules.items()
            if key in grown
            for needed in needs
        }
        if extra <= grown:
            return grown
        grown |= extra


def is_date(schemas: Schemas, key: str) -> bool:
    """Whether property ``key`` is a date (``"format": "date"``)."""
    found = property_schemas(schemas, key)
    return any(isinstance(c.schema, dict) and c.schema.get("format") == "date" for c in found)


def property_schemas(schemas: Schemas, key: str) -> list[Conjunct]:
    """What each conjunct says about property ``key``: its ``properties`` entry, else
    its ``additionalProperties`` (which applies only to keys that conjunct does not list)."""
    found = []
    for conjunct in schemas.items:
        schema = conjunct.schema
        if not isinstance(schema, dict):
            continue
        if key in schema.get("properties", {}):
            found.append(Conjunct(schema["properties"][key], conjunct.resolver))
        elif "additionalProperties" in schema:
            found.append(Conjunct(schema["additionalProperties"], conjunct.resolver))
    return found


def item_schemas(schemas: Schemas, index: int) -> list[Conjunct]:
    found = []
    for conjunct in schemas.items:
        schema = conjunct.schema
        if not isinstance(schema, dict):
            continue
        prefix = schema.get("prefixItems", [])
        if index < len(prefix):
            found.append(Conjunct(prefix[index], conjunct.resolver))
        elif "items" in schema:
            found.append(Conjunct(schema["items"], conjunct.resolver))
    return found


def item_count(schemas: Schemas, template: Any) -> int:
    """The template's length, else ``minItems`` or a small default, within every limit."""
    low = max(schemas.values("minItems"), default=0)
    high = min(schemas.values("maxItems"), default=None)
    for schema in schemas.dicts():
        if schema.get("items") is False:
            closed = len(schema.get("prefixItems", []))
            high = closed if high is None else min(high, closed)
    prefix = max((len(p) for p in schemas.values("prefixItems")), default=0)
    # Unique items: one by default, since defaults (the repair) of equal items are equal.
    default = 1 if True in schemas.values("uniqueItems") else DEFAULT_ITEMS
    count = len(template) if template is not NOTHING else max(low, prefix or default)
    count = max(count, low)
    count = min(count, high) if high is not None else count
    if count < low:
        raise Unsatisfiable(
            f"it needs {low} items but allows {high}",
            ("minItems", "maxItems", "items"),
            schemas.where,
        )
    return count


def type_order(schemas: Schemas, template: Any) -> list[str]:
    """The types this location allows, most plausible first (the template's, then hinted)."""
    allowed = set(TYPES)
    for declared in schemas.values("type"):
        names = {declared} if isinstance(declared, str) else set(declared)
        allowed &= names | ({"integer"} if "number" in names else set())
    if not allowed:
        raise Unsatisfiable("its types do not overlap", ("type",), schemas.where)
    first = [json_type(template)] if template is not NOTHING else []
    hinted = [kind for kind, keys in HINTS.items() if any(schemas.has(k) for k in keys)]
    if "number" in hinted:
        hinted.append("integer")
    order = [k for k in [*first, *hinted, *TYPES] if k in allowed]
    return list(dict.fromkeys(order))


def _wider(kind: str) -> tuple[str, ...]:
    return ("integer",) if kind == "number" else ()


def keywords_of(schemas: Schemas) -> set[str]:
    return {k for d in schemas.dicts() for k in d if not k.startswith("$")}


def combined(errors: list[Refusal | Unsatisfiable], where: str, what: str) -> BadRequest:
    """One error for a location where every option failed: the first keyword Settle does not
    support (by name, where it is), else the first unsatisfiable part, else what was tried."""
    for error in errors:
        if isinstance(error, Refusal) and not isinstance(error, NoValue):
            return error
    if errors and all(isinstance(e, Unsatisfiable) for e in errors):
        return errors[0]
    keywords = {what}
    for error in errors:
        keywords |= set(getattr(error, "keywords", ()))
    return NoValue(keywords, where)


def parse_json_fill(fill: Fill) -> tuple[Any, Any]:
    """The schema and the template instance of a JSON fill, or a clear ``BadRequest``."""
    try:
        schema = json.loads(fill.schema)
    except json.JSONDecodeError as error:
        raise BadRequest(f"The schema is not valid JSON: {error}.") from error
    raw = fill.text[fill.target.start : fill.target.end]
    if not raw.strip():
        return schema, NOTHING
    try:
        return schema, json.loads(raw)
    except json.JSONDecodeError as error:
        raise BadRequest(f"The template instance is not valid JSON: {error}.") from error
