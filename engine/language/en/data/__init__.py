"""English word lists as data files, read once: the one place the engine's English data lives.

Every list here is general English that no maintained package lists (closed word classes,
register phrases, plain-English rewordings, word tiers for cutting), never an entry written
for a test case; the contamination check in the test suite holds these files against every
evaluation case. Word forms come from lemminflect (:mod:`engine.language.en.forms`) and
contractions and slang from the ``contractions`` package (:mod:`engine.language.en.registers`).
"""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files
from typing import Any


@cache
def load_json(name: str) -> dict[str, Any]:
    """The data file ``name`` of this folder, parsed (each file is read once per process)."""
    data: dict[str, Any] = json.loads(files(__name__).joinpath(name).read_text(encoding="utf-8"))
    return data


def word_set(name: str, key: str) -> frozenset[str]:
    """The list ``key`` of data file ``name`` as a set of words."""
    return frozenset(load_json(name)[key])


def pairs(name: str, key: str) -> tuple[tuple[str, str], ...]:
    """The list of ``[from, to]`` pairs ``key`` of data file ``name``, in the file's order."""
    return tuple((a, b) for a, b in load_json(name)[key])
