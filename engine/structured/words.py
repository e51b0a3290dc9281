"""What a plain string slot should look like, from its property's name and the schema's hints.

A string with no ``format`` or ``pattern`` is still rarely arbitrary: a ``name`` has letters, a
``phone`` digits, a ``description`` starts with a word. :func:`word_shape` gives such a slot a
shape (:mod:`.shapes`) whose first run must be a word, so it can never come out empty, as
``"2202"`` or as ``"@"``. :func:`suggestions` reads the values a schema itself proposes
(``default``, then ``examples``), which the compiler tries before any generic value.
"""

from __future__ import annotations

import re
import string
from dataclasses import replace
from functools import cache
from typing import Any

from lemminflect import getLemma

from engine.core.plan import ExcludingConstraint
from engine.language.en.forms import readings
from engine.structured.schema import Schemas
from engine.structured.shapes import Run, Shape, tokens, upto

LETTERS = string.ascii_letters
NAME_CHARS = LETTERS + " -'."
# Key words (split at case changes, underscores, hyphens) that say what a string holds.
NAMES = frozenset(
    [
        "name",
        "names",
        "author",
        "owner",
        "city",
        "country",
        "company",
        "organisation",
        "organization",
        "firstname",
        "lastname",
        "surname",
        "nickname",
        "state",
        "region",
        "maintainer",
        "vendor",
    ]
)
PROSE = frozenset(
    {"description", "summary", "title", "notes", "note", "message", "detail", "comment", "bio"}
)
PHONES = frozenset({"phone", "telephone", "tel", "mobile", "fax"})


def key_parts(key: str) -> list[str]:
    """``firstName`` / ``first_name`` / ``first-name`` → ``["first", "name"]``."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", key)
    return [w.lower() for w in re.split(r"[\s_\-.]+", spaced) if w]


def key_words(key: str) -> set[str]:
    """``firstName`` / ``first_name`` / ``first-name`` → ``{"first", "name", "firstname"}``."""
    words = key_parts(key)
    return set(words) | {"".join(words)}


# Inflections whose lemma a name is read by as well: a plural or third person ("renews",
# "tickets") and a participle ("charged", "purchased"), not a stem change that is another
# word ("left" is a remainder, not a leaving).
INFLECTED = ("s", "ed")
# Two words are one act's when they share this many first letters ("submitted", "submission"):
# a noun of the act and its verb's participle differ after their stem.
STEM_LETTERS = 5
MIN_REST = 3  # "take" of "stocktake" is a word; "al" of "renewal" a suffix


@cache
def name_words(key: str) -> frozenset[str]:
    """:func:`key_words` with each word's lemmas (lemminflect's lexicon), so a list of
    field words names ``renews_on`` by "renew" and ``tickets`` by "ticket"."""
    found = key_words(key)
    for word in list(found):
        if word.endswith(INFLECTED):
            found |= set(getLemma(word, upos="NOUN")) | set(getLemma(word, upos="VERB"))
    return frozenset(found)


@cache
def noun_words(key: str) -> frozenset[str]:
    """:func:`key_words` with each plural's singular ("surcharges" → "surcharge") but no
    verb's lemma ("charged" stays: an amount charged is not a charge added)."""
    found = key_words(key)
    return frozenset(found | {lemma(word) for word in found})


@cache
def core_words(key: str) -> frozenset[str]:
    """The lemma of each of a name's words (``total_hours`` → ``{"total", "hour"}``): what
    two names share when one counts what the other holds."""
    return frozenset(lemma(word) for word in key_parts(key))


def lemma(word: str) -> str:
    return getLemma(word, upos="NOUN")[0] if word.endswith(INFLECTED) else word


def word_shape(
    key: str, budget: int, safe: ExcludingConstraint, min_length: int = 0, lead: str = ""
) -> Shape:
    """A word first (a token of two letters or more: a 135M model left to itself starts a name
    with one capital and stops), then up to ``budget - 1`` more tokens of the right kind, enough
    of them to reach ``min_length`` characters (every token holds one at least).

    A name goes on in lowercase ("Al" + "an": the model otherwise stops at "Al"); prose
    (``description``, ``title``…) has a second word ("Design" + " review", not "POS"). Both
    are soft minimums: the base model verifying the value may end it sooner ("Marco", which
    the rule would make "Marcoa").
    ``lead`` starts the first word (a table cell's space: " Marco", as the model read cells).
    """
    words = key_words(key)
    if words & PHONES:
        return (lead + "+", upto(string.digits, 7, 11))
    head = tokens(LETTERS, 1, 1, min_chars=2, lead=lead)
    rest = budget - 1
    if rest <= 0:
        return (head,)
    if words & NAMES:
        second, width = tokens(string.ascii_lowercase, 1, 1), 3
    elif words & PROSE:
        second, width = tokens(" " + LETTERS, 1, 1, min_chars=4), 6
    else:
        return (head, Run(safe, rest, min(rest, max(0, min_length - 2))))
    second = replace(second, soft=min_length <= len(lead) + 2)  # the schema asks no more
    # A name's marks are only those the slot's own set allows: a table column whose names have
    # no hyphen gets none ("betaace--" came from the separator row).
    name_chars = "".join(c for c in NAME_CHARS if c not in safe.banned)
    last = tokens(name_chars, rest - 1, 0) if words & NAMES else Run(safe, rest - 1, 0)
    last = replace(last, least=min(rest - 1, max(0, min_length - width)))
    return (head, second, last) if rest > 1 else (head, second)


def suggestions(schemas: Schemas) -> list[Any]:
    """The schema's own proposals for this location: ``default``, then every ``examples`` item."""
    found: list[Any] = list(schemas.values("default"))
    for examples in schemas.values("examples"):
        if isinstance(examples, list):
            found += examples
    return found


# Plausible values by property name, tried after the schema's own and before generic ones.
KEY_DEFAULTS: dict[str, tuple[str, ...]] = {
    "name": ("Ada Lovelace", "Grace Hopper", "Alan Turing"),
    "title": ("Quarterly report", "Release notes", "Project plan"),
    "description": ("A short description", "Consulting services", "Design review"),
    "city": ("London", "Lisbon", "Berlin"),
    "country": ("United Kingdom", "Portugal", "Germany"),
    "company": ("Example Ltd", "Acme Corp", "Northwind"),
    "street": ("1 Main Street", "22 Baker Street"),
    "summary": ("Release highlights", "Fixes and improvements"),
    "version": ("1.0.0", "0.1.0"),
    "language": ("en", "fr"),
}


def key_defaults(key: str) -> tuple[str, ...]:
    """Plausible values for a property called ``key`` (its last key word decides)."""
    words = key_words(key)
    for word, values in KEY_DEFAULTS.items():
        if word in words:
            return values
    return ()


# JSON's literals, which a model also copies from the template into a value ("Londonfalsetrue").
JSON_LITERALS = ("true", "false", "null")
TEMPLATE_WORD_LETTERS = 4  # shorter key words ("id") hide inside too many real words


def template_words(schema: Any) -> tuple[str, ...]:
    """The words of a schema's property names (``full_name`` → ``full``, ``name``) of
    :data:`TEMPLATE_WORD_LETTERS` letters or more, and the JSON literals, sorted.

    A 135M model fills a value by gluing the template's own words onto it ("Adaretnameemail",
    "Johnienameid"): the fill bans them inside a value, the quality suite counts them.
    """
    found = set(JSON_LITERALS)
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            properties = node.get("properties")
            for name in properties if isinstance(properties, dict) else ():
                parts = re.split(r"[^a-z]+", str(name).lower())
                found |= {w for w in parts if len(w) >= TEMPLATE_WORD_LETTERS}
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return tuple(sorted(found))


def shares_act(named: frozenset[str], words: frozenset[str]) -> bool:
    """Whether a member's words and a clause's name one act: a word or lemma in common, or a
    stem of :data:`STEM_LETTERS` letters ("submitted" and "submissions")."""
    if named & words:
        return True
    stems = {w[:STEM_LETTERS]: w for w in named if len(w) >= STEM_LETTERS}
    return any(
        w[:STEM_LETTERS] in stems and not other_compounds(w, stems[w[:STEM_LETTERS]])
        for w in words
        if len(w) >= STEM_LETTERS
    )


def other_compounds(word: str, other: str) -> bool:
    """Whether two words that start alike are two compounds of that start, each with a word
    of its own after it ("stocktake" and "stockroom"), not forms of one word ("submitted",
    "submissions")."""
    stem = word[:STEM_LETTERS]
    rests = (word[STEM_LETTERS:], other[STEM_LETTERS:])
    return bool(readings(stem)) and all(len(r) >= MIN_REST and readings(r) for r in rests)
