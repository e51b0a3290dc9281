"""A JSON Schema location seen as a conjunction of subschemas, with the keywords Settle honours.

``$ref`` (local, resolved through ``referencing`` so ``$id``/anchors work) and ``allOf`` are
flattened into one list of conjuncts; ``anyOf``/``oneOf`` stay choice points for the compiler.
Keywords whose meaning the compiler does not construct are refused *before* any generation,
by name (:class:`Refusal`). Every conjunct keeps its own resolver, so a validator for it
(:meth:`Schemas.validator`) resolves references exactly as the whole-schema validator does.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator, FormatChecker
from jsonschema.exceptions import SchemaError
from referencing import Registry
from referencing.exceptions import Unresolvable
from referencing.jsonschema import DRAFT202012

from engine.core.errors import BadRequest

ROOT_URI = "urn:settle:schema"
# $ref chains deeper than this are recursion the compiler cannot bottom out.
MAX_DEPTH = 24
# Validation keywords the compiler cannot construct values for: refused, by name.
UNSUPPORTED = frozenset(
    {
        "not",
        "if",
        "then",
        "else",
        "contains",
        "minContains",
        "maxContains",
        "dependentSchemas",
        "patternProperties",
        "propertyNames",
        "unevaluatedItems",
        "unevaluatedProperties",
        "$dynamicRef",
        "$recursiveRef",
    }
)
FORMATS = frozenset({"date", "time", "date-time", "email", "uuid", "uri", "ipv4", "hostname"})
FORMAT_CHECKER = FormatChecker()


class Refusal(BadRequest):
    """The schema needs keywords Settle cannot honour; raised before any generation.
    ``reason`` replaces the generic sentence where there is a more precise one."""

    def __init__(
        self, keywords: set[str] | frozenset[str], where: str = "", reason: str = ""
    ) -> None:
        self.keywords = tuple(sorted(keywords))
        place = f" (at {where})" if where else ""
        detail = reason or f"uses keywords Settle cannot honour: {', '.join(self.keywords)}"
        super().__init__(f"This schema {detail}{place}.")


class NoValue(Refusal):
    """Keywords Settle supports, but no value it can build meets them all at once."""

    def __init__(self, keywords: set[str] | frozenset[str], where: str = "") -> None:
        names = ", ".join(sorted(keywords))
        super().__init__(keywords, where, f"asks for a value Settle could not build ({names})")


class Unsatisfiable(BadRequest):
    """No instance can satisfy this part of the schema (e.g. ``minimum > maximum``)."""

    def __init__(self, reason: str, keywords: tuple[str, ...], where: str = "") -> None:
        self.keywords = keywords
        place = f" at {where}" if where else ""
        super().__init__(f"The schema is unsatisfiable{place}: {reason}; no value can meet it.")


@dataclass(frozen=True)
class Conjunct:
    """One subschema and the resolver its references are relative to."""

    schema: dict[str, Any] | bool
    resolver: Any  # referencing's Resolver (not exported by the package)


@dataclass
class Context:
    """What the whole compilation shares: the registry and validators built so far."""

    root: dict[str, Any] | bool
    registry: Registry[Any]
    validators: dict[int, Draft202012Validator] = field(default_factory=dict)

    def validator(self, conjunct: Conjunct) -> Draft202012Validator:
        key = id(conjunct.schema)
        found = self.validators.get(key)
        if found is None:
            found = Draft202012Validator(
                conjunct.schema,
                registry=self.registry,
                format_checker=FORMAT_CHECKER,
                _resolver=conjunct.resolver,
            )
            self.validators[key] = found
        return found

    def root_validator(self) -> Draft202012Validator:
        return Draft202012Validator(
            self.root, registry=self.registry, format_checker=FORMAT_CHECKER
        )


def load_context(schema: Any) -> tuple[Context, Conjunct]:
    """Check that ``schema`` is a draft 2020-12 schema and index its local resources."""
    if not isinstance(schema, dict | bool):
        raise BadRequest(f"A JSON Schema is an object or a boolean, not {type(schema).__name__}.")
    try:
        Draft202012Validator.check_schema(schema)
    except SchemaError as error:
        where = "/" + "/".join(str(p) for p in error.path)
        raise BadRequest(f"This JSON Schema is invalid (at {where}): {error.message}.") from error
    resource = DRAFT202012.create_resource(schema)
    base = ROOT_URI
    if isinstance(schema, dict) and isinstance(schema.get("$id"), str):
        base = schema["$id"].rstrip("#")
    registry: Registry[Any] = Registry().with_resources([(ROOT_URI, resource), (base, resource)])
    registry = registry.crawl()
    return Context(schema, registry), Conjunct(schema, registry.resolver(base_uri=base))


@dataclass(frozen=True)
class Schemas:
    """The conjuncts that hold at one location (``$ref`` and ``allOf`` already flattened)."""

    items: tuple[Conjunct, ...]
    where: str

    def dicts(self) -> Iterator[dict[str, Any]]:
        return (c.schema for c in self.items if isinstance(c.schema, dict))

    def has(self, keyword: str) -> bool:
        return any(keyword in d for d in self.dicts())

    def values(self, keyword: str) -> list[Any]:
        return [d[keyword] for d in self.dicts() if keyword in d]

    def impossible(self) -> bool:
        return any(c.schema is False for c in self.items)

    def valid(self, context: Context, value: Any) -> bool:
        return all(context.validator(c).is_valid(value) for c in self.items)


def flatten(conjuncts: list[Conjunct], where: str, depth: int = 0) -> Schemas:
    """Expand ``$ref`` and ``allOf`` into plain conjuncts; refuse unsupported keywords."""
    if depth > MAX_DEPTH:
        raise Refusal({"$ref"}, f"{where}: recursion deeper than {MAX_DEPTH}")
    out: list[Conjunct] = []
    for conjunct in conjuncts:
        schema = conjunct.schema
        out.append(conjunct)
        if not isinstance(schema, dict):
            continue
        refused = UNSUPPORTED & schema.keys()
        if refused:
            raise Refusal(refused, where)
        nested = [Conjunct(s, conjunct.resolver) for s in schema.get("allOf", [])]
        if "$ref" in schema:
            nested.append(resolve(conjunct, schema["$ref"], where))
        if nested:
            out.extend(flatten(nested, where, depth + 1).items)
    return Schemas(tuple(out), where)


def resolve(conjunct: Conjunct, ref: str, where: str) -> Conjunct:
    """Look a reference up among the schema's own resources; anything else is remote."""
    try:
        found = conjunct.resolver.lookup(ref)
    except Unresolvable as error:
        if is_remote(conjunct, ref):
            reason = f"refers to a remote schema ($ref {ref!r}); Settle reads no other document"
        else:
            reason = f"has an unresolved $ref, {ref!r}: nothing in this schema is there"
        raise Refusal({"$ref"}, where, reason) from error
    return Conjunct(found.contents, found.resolver)


def is_remote(conjunct: Conjunct, ref: str) -> bool:
    """Whether ``ref`` names another document (rather than a missing place in this one)."""
    document = ref.partition("#")[0]
    if not document:
        return False
    try:
        conjunct.resolver.lookup(document)
    except Unresolvable:
        return True
    return False


def child(schemas: Schemas, conjuncts: list[Conjunct], segment: str | int) -> Schemas:
    """Flatten the conjuncts that apply to one property or item of this location."""
    return flatten(conjuncts, f"{schemas.where}/{pointer_token(segment)}")


def pointer_token(segment: str | int) -> str:
    return str(segment).replace("~", "~0").replace("/", "~1")


def pointer(path: tuple[str | int, ...]) -> str:
    return "".join("/" + pointer_token(segment) for segment in path)
