"""What the template panel lists: a schema's optional properties and an instance's values, as
JSON pointers built the way the compiler reads them.

The schema side goes through :mod:`engine.structured.schema` (local ``$ref`` with ``$id`` and
anchors, ``allOf`` flattened) and the compiler's own ``property_schemas``, so the panel offers
exactly the properties a fill can include; pointers escape ``~`` and ``/`` (RFC 6901) with
:func:`engine.structured.schema.pointer`. Torch-free: the window's process imports it.
"""

from __future__ import annotations

import json
from typing import Any

from engine.core.errors import BadRequest
from engine.structured.compiler import property_schemas
from engine.structured.schema import Schemas, flatten, load_context, pointer

MAX_DEPTH = 4  # how deep the panel lists optional fields and lockable values
VALUE_PREVIEW = 40


def optional_fields(schema: Any) -> list[str]:
    """Pointers of the optional properties, inside required objects too (a schema the compiler
    refuses lists nothing: the fill says why)."""
    try:
        _, root = load_context(schema)
        return _optional(flatten([root], ""), (), 0)
    except BadRequest:
        return []


def _optional(schemas: Schemas, path: tuple[str, ...], depth: int) -> list[str]:
    if depth > MAX_DEPTH:
        return []
    required = {key for d in schemas.dicts() for key in d.get("required", [])}
    keys = dict.fromkeys(key for d in schemas.dicts() for key in d.get("properties", {}))
    found: list[str] = []
    for key in keys:
        where = (*path, key)
        if key not in required:
            found.append(pointer(where))
            continue
        try:
            inner = flatten(property_schemas(schemas, key), pointer(where))
        except BadRequest:
            continue
        found += _optional(inner, where, depth + 1)
    return found


def leaves(value: Any, path: tuple[str | int, ...] = ()) -> list[tuple[str, str]]:
    """(pointer, short value text) of every scalar in a template instance."""
    if isinstance(value, dict) and len(path) <= MAX_DEPTH:
        return [leaf for k, v in value.items() for leaf in leaves(v, (*path, k))]
    if isinstance(value, list) and len(path) <= MAX_DEPTH:
        return [leaf for i, v in enumerate(value) for leaf in leaves(v, (*path, i))]
    shown = json.dumps(value, ensure_ascii=False)
    cut = shown if len(shown) <= VALUE_PREVIEW else shown[: VALUE_PREVIEW - 1] + "…"
    return [(pointer(path), cut)]
