"""The suite's authored cases, and the check that none of them leaked into the training data.

Cases live as JSON in ``resources/eval/<split>/`` so they can be read and extended without
code. Two splits: ``dev`` is tuned on (the cases the defaults were chosen with, and a fresh set
in the same families), ``test`` is only reported: nobody changing the engine reads its cases.
The contamination check compares word 8-grams of every case of both splits with the training
corpus (when it is on this machine) and with the synthetic generator's documents: a case the
model was trained on would measure memory, not writing.

A rewrite case names its *family* (the row of the report), the *check* its output is held to
(:mod:`tools.eval.followed`; a Markdown case is held to its instruction's), the corrections
a grammar or spelling case expects, and what it *allows* (a translation changes every
function word; "numbered steps" changes the structure).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tools.eval.followed import CHECKED, Correction, locate
from tools.eval.meaning import ALLOW_WORDS

EVAL_DIR = Path(__file__).resolve().parents[2] / "resources" / "eval"
SPLITS = ("dev", "test")
REPORTED_SPLIT = "test"
CASES_DIR = EVAL_DIR / REPORTED_SPLIT
SHINGLE_WORDS = 8  # long enough that a shared 8-gram is not a common phrase
# Families with a "followed" check, then the rest: the report's rows, in this order.
FAMILIES = (*CHECKED, "markdown", "clearer", "beyond")
STYLES = ("email", "notes", "docs", "learner", "prose", "markdown")
ALLOWS = (ALLOW_WORDS, "structure")
REGISTERS = ("formal", "neutral", "casual")


@dataclass(frozen=True)
class Cloze:
    kind: str
    before: str
    after: str
    answers: tuple[str, ...]


@dataclass(frozen=True)
class Draft:
    kind: str
    text: str
    # What the user asked the draft to say, and the register the document is in: a draft is
    # held to its prompt's topic, the register, and no list mark outside a list.
    prompt: str = ""
    register: str = ""


@dataclass(frozen=True)
class Rewrite:
    instruction: str
    before: str
    paragraph: str
    after: str
    locks: tuple[str, ...]
    # A person's own version under the instruction ("tighter" cases): what the judge gives a
    # rewrite a reader would keep, so the suite shows how far its goals are from that.
    reference: str = ""
    family: str = ""  # the report's row; the instruction itself for the first cases
    check: str = ""  # the followed check; the family's own unless a Markdown case names one
    corrections: tuple[Correction, ...] = ()
    allow: tuple[str, ...] = ()
    style: str = ""

    @property
    def row(self) -> str:
        return self.family or LEGACY_FAMILIES.get(self.instruction, self.instruction)

    @property
    def checked_as(self) -> str:
        """The family whose followed check applies ("" for none)."""
        check = self.check or self.row
        return check if check in CHECKED else ""

    @property
    def document(self) -> str:
        return self.before + self.paragraph + self.after

    def lock_spans(self) -> tuple[tuple[int, int], ...]:
        """Absolute (start, end) of each lock phrase in :attr:`document`, in order."""
        base = len(self.before)
        spans = []
        for phrase in self.locks:
            at = self.paragraph.index(phrase)
            spans.append((base + at, base + at + len(phrase)))
        return tuple(sorted(spans))


@dataclass(frozen=True)
class Cases:
    cloze: tuple[Cloze, ...]
    drafts: tuple[Draft, ...]
    rewrites: tuple[Rewrite, ...]


LEGACY_FAMILIES = {"tighter": "shorter"}  # the first cases name no family: their instruction


def _read(name: str, folder: Path) -> list[dict[str, Any]]:
    path = folder / name
    if not path.is_file():  # a split need not have every task (the test split has no cloze)
        return []
    data = json.loads(path.read_text(encoding="utf-8"))
    return list(data["cases"])


def split_dir(split: str) -> Path:
    if split not in SPLITS:
        raise ValueError(f"Unknown split {split!r}; splits: {', '.join(SPLITS)}")
    return EVAL_DIR / split


def load_split(split: str) -> Cases:
    return load_cases(split_dir(split))


def load_cases(folder: Path = CASES_DIR) -> Cases:
    """Every authored case; raises ``ValueError`` on a case that could not be measured."""
    cloze = tuple(
        Cloze(str(c["kind"]), str(c["before"]), str(c["after"]), tuple(c["answers"]))
        for c in _read("cloze.json", folder)
    )
    drafts = tuple(
        Draft(str(c["kind"]), str(c["text"]), str(c.get("prompt", "")), str(c.get("register", "")))
        for c in _read("drafts.json", folder)
    )
    rewrites = tuple(_rewrite(c) for c in _read("rewrites.json", folder))
    for case in rewrites:
        check_rewrite(case)
    for draft in drafts:
        if draft.register and draft.register not in REGISTERS:
            raise ValueError(f"Unknown register {draft.register!r} in a draft case.")
    return Cases(cloze, drafts, rewrites)


def _rewrite(c: dict[str, Any]) -> Rewrite:
    fixes = tuple((str(wrong), _alternatives(right)) for wrong, right in c.get("corrections", []))
    return Rewrite(
        str(c["instruction"]),
        str(c["before"]),
        str(c["paragraph"]),
        str(c["after"]),
        tuple(c.get("locks", ())),
        str(c.get("reference", "")),
        family=str(c.get("family", "")),
        check=str(c.get("check", "")),
        corrections=fixes,
        allow=tuple(c.get("allow", ())),
        style=str(c.get("style", "")),
    )


def _alternatives(right: str | list[str]) -> tuple[str, ...]:
    return (right,) if isinstance(right, str) else tuple(right)


def check_rewrite(case: Rewrite) -> None:
    if not case.instruction.strip():
        raise ValueError("A rewrite case has no instruction.")
    if case.row not in FAMILIES:
        raise ValueError(f"Unknown family {case.row!r} in a rewrite case.")
    if case.check and case.check not in CHECKED:
        raise ValueError(f"Unknown check {case.check!r} in a rewrite case.")
    if case.style and case.style not in STYLES:
        raise ValueError(f"Unknown style {case.style!r} in a rewrite case.")
    if set(case.allow) - set(ALLOWS):
        raise ValueError(f"Unknown allowances {case.allow!r} in a rewrite case.")
    _check_corrections(case)
    for phrase in case.locks:
        if case.paragraph.count(phrase) != 1:
            raise ValueError(f"The lock {phrase!r} must occur exactly once in its paragraph.")
        if case.reference and case.reference.count(phrase) != 1:
            raise ValueError(f"The lock {phrase!r} must occur exactly once in its reference.")


def _check_corrections(case: Rewrite) -> None:
    """A grammar or spelling case lists what it expects fixed, each in the text, in order,
    each right form a word or more; and the paragraph as it stands does not pass."""
    if case.checked_as in ("fix grammar", "fix spelling") and not case.corrections:
        raise ValueError(f"The {case.checked_as!r} case {case.paragraph[:40]!r} expects no fix.")
    locate(case.paragraph, case.corrections)  # raises when one is missing or out of order
    for wrong, rights in case.corrections:
        if not rights or any(not re.search(r"\w", right) or right == wrong for right in rights):
            raise ValueError(f"The correction of {wrong!r} has an empty or unchanged right form.")


def case_texts(cases: Cases) -> list[str]:
    """The text of every case, as a model could have seen it in training."""
    texts = [c.before + " " + c.after for c in cases.cloze]
    texts += [d.text + " " + d.prompt for d in cases.drafts]
    texts += [r.paragraph for r in cases.rewrites]
    texts += [r.before + " " + r.after for r in cases.rewrites if (r.before + r.after).strip()]
    texts += [r.reference for r in cases.rewrites if r.reference]
    return texts


def shingles(text: str, size: int = SHINGLE_WORDS) -> set[tuple[str, ...]]:
    words = re.findall(r"[a-z0-9']+", text.lower())
    return {tuple(words[i : i + size]) for i in range(len(words) - size + 1)}


def overlaps(cases: Cases, corpus: Iterable[str]) -> list[str]:
    """Case texts sharing a word 8-gram with any corpus document (empty: no contamination)."""
    wanted = {s: text for text in case_texts(cases) for s in shingles(text)}
    found: set[str] = set()
    for document in corpus:
        for shingle in shingles(document) & wanted.keys():
            found.add(wanted[shingle])
    return sorted(found)
