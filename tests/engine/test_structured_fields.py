"""The template panel's pointers: escaped like the compiler reads them, allOf and $ref followed."""

from __future__ import annotations

from engine.structured.compiler import compile_json
from engine.structured.fields import leaves, optional_fields

SLASHED = {
    "type": "object",
    "properties": {"a/b": {"type": "string"}, "c~d": {"type": "object", "required": ["x"]}},
    "required": ["c~d"],
    "allOf": [
        {"properties": {"e": {"type": "integer"}}},
        {"properties": {"c~d": {"$ref": "#/$defs/inner"}}},
    ],
    "$defs": {"inner": {"properties": {"x": {"type": "string"}, "y/z": {"type": "string"}}}},
}


def test_optional_fields_escape_keys_and_follow_allof_and_refs() -> None:
    assert optional_fields(SLASHED) == ["/a~1b", "/c~0d/y~1z", "/e"]


def test_the_compiler_reads_the_panels_pointers() -> None:
    template = {"a/b": "kept", "c~d": {"x": "also kept", "y/z": "free"}}
    for pointer in optional_fields(SLASHED):
        assert compile_json(SLASHED, include=(pointer,)).default is not None
    locks = tuple(p for p, _ in leaves(template) if p != "/c~0d/y~1z")
    assert locks == ("/a~1b", "/c~0d/x")
    compiled = compile_json(SLASHED, template, locks)
    assert compiled.default["a/b"] == "kept" and compiled.default["c~d"]["x"] == "also kept"


def test_a_refused_schema_lists_nothing_and_values_are_cut() -> None:
    assert optional_fields({"not": {}}) == []
    assert leaves({"k/1": [1, {"b": "x" * 60}]}) == [
        ("/k~11/0", "1"),
        ("/k~11/1/b", '"' + "x" * 38 + "…"),
    ]
