"""Plausibility checks for structured values: valid is not the same as sensible.

A schema says an email is a string with format ``email``; jsonschema accepts ``"@"``. These
checks say what a reader would accept: an email has one ``@``, letters on both sides and a
dotted domain; a name has letters; an amount is in a believable range; a date is a real date
in a believable year; no value is a run of one repeated token, and free text reads as words
(no doubled hyphens, no word cut off by a hyphen, no letters and digits run together, no piece
of a word stuttered, no stray marks between runs of spaces, no marks run together but an
ellipsis). They
are pure functions of the value, its key and its schema, so the same checks judge the
diffusion and the AR model.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterator
from typing import Any

from engine.structured.words import template_words

EMAIL = re.compile(
    r"[A-Za-z0-9._%+-]*[A-Za-z][A-Za-z0-9._%+-]*@[A-Za-z][A-Za-z0-9-]*(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}"
)
URI = re.compile(r"https?://[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+(:\d+)?(/\S*)?")
REPEATED_MARK = re.compile(r"([^\d\s])\1{3,}")  # "@@@@", "----", "aaaa"
REPEATED_UNIT = re.compile(r"(.{1,12}?)\1{2,}")  # a unit three times or more, nothing else
NAME_KEYS = ("name", "title", "city", "street", "country", "author", "organisation", "role")
AMOUNT_KEYS = ("price", "amount", "total", "subtotal", "cost", "quantity", "qty")
YEARS = range(1900, 2101)
# Free text that no writer would produce: doubled hyphens, a word cut off by a hyphen, letters
# and digits run together ("EGER02--0", "kenest-", "no020"), but not an ordinal ("20th"). Codes
# and formatted values are judged by their own rules, never by this.
GARBLED = re.compile(
    r"--|\w-(?=\s|$)|(?:^|\s)-\w"
    r"|(?!\d+(?:st|nd|rd|th)\b)(?=\w*\d\w*\d)(?=\w*[A-Za-z]\w*[A-Za-z])\w+"
)
# A stutter inside free text: a piece said three times running ("truetruetrue", "alialiali",
# "0000" as "00" thrice), a word of four letters or more said twice with no gap ("namename",
# "versionversion"), a word too long to be one ("Johnalialialinamename"), or marks standing
# alone between runs of spaces ("no   .  .").
# Marks run together in free text ("beta.,,", "Shannon..org.", "..x..x.."): only an ellipsis
# before a space or the end is something a writer types.
MARK_RUN = re.compile(r"[.,;:!?$]{2,}")
STUTTERED_CODE = re.compile(r"(\w{2,12}?)\1{2,}")  # the first of STUTTER's rules, for codes
STUTTER = re.compile(
    r"(\w{2,12}?)\1{2,}|([A-Za-z]{4,})\2|[A-Za-z]{21,}|\s{3,}|(?:^|\s)[.,;:!?]+(?:\s|$)"
)


def repeated(text: str) -> bool:
    """A run of one repeated token: '@@@@', 'abcabcabc', 'the the the', '0000' in a code."""
    compact = text.strip()
    if REPEATED_MARK.search(compact) or REPEATED_UNIT.fullmatch(compact):
        return True
    words = compact.lower().split()
    return len(words) >= 2 and len(set(words)) == 1


def sensible_string(value: str, key: str, schema: dict[str, Any]) -> bool:
    if "enum" in schema or "const" in schema:
        return True
    text = value.strip()
    if not text or repeated(text) or not any(c.isalnum() for c in text):
        return False
    fmt = schema.get("format")
    if fmt == "email":
        return value.count("@") == 1 and bool(EMAIL.fullmatch(value))
    if fmt == "uri":
        return bool(URI.fullmatch(value))
    if fmt in ("date", "date-time"):
        return _real_date(value)
    digits = re.sub(r"\D", "", text)
    if "pattern" in schema and len(digits) >= 3 and len(set(digits)) == 1:
        return False  # "INV-0000", "+00000000": a code of one repeated digit
    if "pattern" in schema and STUTTERED_CODE.search(text):
        return False  # "kjk1111011111111", "+111111101110": a code that stutters
    if "pattern" not in schema and (
        GARBLED.search(text) or STUTTER.search(text) or stray_marks(text)
    ):
        return False
    if any(part in key.lower() for part in NAME_KEYS):
        return sum(c.isalpha() for c in text) >= 2
    return True


def stray_marks(text: str) -> bool:
    """Whether marks run together anywhere but in an ellipsis that ends a word group."""
    for run in MARK_RUN.finditer(text):
        ends = run.end() == len(text) or text[run.end()].isspace()
        if run.group() != "..." or not ends:
            return True
    return False


def _real_date(value: str) -> bool:
    try:
        parsed = dt.datetime.fromisoformat(value.replace("Z", "+00:00"))
    except ValueError:
        try:
            parsed = dt.datetime.combine(dt.date.fromisoformat(value), dt.time())
        except ValueError:
            return False
    return parsed.year in YEARS


def sensible_number(value: float, key: str) -> bool:
    if not math.isfinite(value):
        return False
    if any(part in key.lower() for part in AMOUNT_KEYS):
        return 0 <= value <= 1_000_000
    return abs(value) <= 1_000_000_000


def sensible(value: Any, key: str, schema: dict[str, Any]) -> bool:
    """Whether one leaf value would pass a reader's glance."""
    if isinstance(value, bool) or value is None:
        return True
    if isinstance(value, int | float):
        return sensible_number(float(value), key)
    if isinstance(value, str):
        return sensible_string(value, key, schema)
    return True


def resolve(schema: Any, root: dict[str, Any]) -> dict[str, Any]:
    """A subschema with local ``$ref`` followed and ``allOf`` merged (enough for leaf checks)."""
    if not isinstance(schema, dict):
        return {}
    while "$ref" in schema and str(schema["$ref"]).startswith("#/"):
        node: Any = root
        for part in str(schema["$ref"])[2:].split("/"):
            node = node.get(part.replace("~1", "/").replace("~0", "~"), {})
        schema = {**{k: v for k, v in schema.items() if k != "$ref"}, **node}
    merged = dict(schema)
    for part in schema.get("allOf", []):
        merged.update(resolve(part, root))
    branches = schema.get("anyOf") or schema.get("oneOf")
    if branches:
        merged.update(resolve(branches[0], root))
    return merged


def leaves(
    value: Any, schema: Any, root: dict[str, Any], key: str = ""
) -> Iterator[tuple[str, Any, dict[str, Any]]]:
    """(key, value, subschema) for every leaf of a JSON instance."""
    node = resolve(schema, root)
    if isinstance(value, dict):
        props = node.get("properties", {})
        for name, item in value.items():
            yield from leaves(item, props.get(name, node.get("additionalProperties")), root, name)
    elif isinstance(value, list):
        for item in value:
            yield from leaves(item, node.get("items", {}), root, key)
    else:
        yield key, value, node


def json_values(instance: Any, schema: dict[str, Any]) -> tuple[int, int]:
    """(sensible leaves, leaves) of a JSON instance under its schema."""
    words = frozenset(template_words(schema))
    results = [
        sensible(v, k, s) and not (isinstance(v, str) and leaks_template(v, s, words))
        for k, v, s in leaves(instance, schema, schema)
    ]
    return sum(results), len(results)


def leaks_template(value: str, schema: dict[str, Any], words: frozenset[str]) -> bool:
    """Free text with a template word glued into a longer run of letters: "Shannonemail",
    "Johnienameid", "Londonfalsetrue". Codes and formatted values are judged by their rules."""
    if "enum" in schema or "const" in schema or "format" in schema or "pattern" in schema:
        return False
    for run in re.findall(r"[A-Za-z]+", value):
        low = run.lower()
        if any(word in low and word != low for word in words):
            return True
    return False


def cell_sensible(text: str, header: str) -> bool:
    """A table cell: non-empty, not a repeated run, a real date under a date-like header."""
    if "date" in header.lower() or header.lower() in ("due", "when"):
        return _real_date(text.strip())
    return sensible_string(text, header, {})
