"""Has the engine been written for the suite's cases? Word 3-grams and misspellings, counted.

A rule or table entry that quotes an eval case is a hard-coded answer: the suite would then
measure the table, not the rewriting. This reads every string literal of the engine's Python
(docstrings aside: prose about the code, not a rule) and every entry of its data files, and
finds the word 3-grams they share with any case of either split, and any misspelling of the
spelling set's report half that the engine names. The suite itself (``engine/eval``) and the
training tools (``engine/adapt``, ``engine/bench``) are not the engine and are not read.
"""

from __future__ import annotations

import ast
import json
import re
from collections.abc import Iterable, Iterator
from pathlib import Path

from tools.eval.cases import Cases, case_texts

ENGINE_DIR = Path(__file__).resolve().parents[2] / "engine"
NOT_ENGINE = ("eval", "adapt", "bench")  # the suite and the tools, not the rewriting engine
DATA_SUFFIXES = (".json", ".txt", ".tsv")
GRAM = 3


def grams(text: str, size: int = GRAM) -> set[tuple[str, ...]]:
    found = re.findall(r"[a-z0-9']+", text.lower())
    return {tuple(found[i : i + size]) for i in range(len(found) - size + 1)}


def _docstring_ids(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef):
            body = node.body
            if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
                ids.add(id(body[0].value))
    return ids


def literals(source: str) -> Iterator[str]:
    """Every string constant of a Python module that is not a docstring."""
    tree = ast.parse(source)
    skip = _docstring_ids(tree)
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in skip:
            yield node.value


def entries(data: object) -> Iterator[str]:
    """Every string in a JSON document, keys and values."""
    if isinstance(data, str):
        yield data
    elif isinstance(data, dict):
        for key, value in data.items():
            yield str(key)
            yield from entries(value)
    elif isinstance(data, list):
        for item in data:
            yield from entries(item)


def engine_strings(root: Path = ENGINE_DIR) -> Iterator[tuple[str, str]]:
    """(file, string) for each literal and data entry of the engine."""
    for path in sorted(root.rglob("*")):
        parts = path.relative_to(root).parts
        if not path.is_file() or (parts and parts[0] in NOT_ENGINE):
            continue
        name = str(path.relative_to(root.parent))
        if path.suffix == ".py":
            yield from ((name, s) for s in literals(path.read_text(encoding="utf-8")))
        elif path.suffix == ".json":
            yield from ((name, s) for s in entries(json.loads(path.read_text(encoding="utf-8"))))
        elif path.suffix in DATA_SUFFIXES:
            yield from ((name, line) for line in path.read_text(encoding="utf-8").splitlines())


def shared_grams(splits: Iterable[Cases], strings: Iterable[tuple[str, str]]) -> list[str]:
    """ "file: 'string'" for every engine string sharing a word 3-gram with a case."""
    wanted: set[tuple[str, ...]] = set()
    for cases in splits:
        for text in case_texts(cases):
            wanted |= grams(text)
    return sorted({f"{name}: {s!r}" for name, s in strings if grams(s) & wanted})


def named_misspellings(wrongs: Iterable[str], strings: Iterable[tuple[str, str]]) -> list[str]:
    """ "file: word" for every misspelling the engine has as a whole word in a string."""
    wanted = {w.lower() for w in wrongs}
    found = set()
    for name, s in strings:
        for word in set(re.findall(r"[a-z']+", s.lower())) & wanted:
            found.add(f"{name}: {word}")
    return sorted(found)
