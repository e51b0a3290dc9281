"""The suite's authored cases, and the check that none of them leaked into the training data.

Cases live as JSON in ``resources/eval/`` so they can be read and extended without code. The
contamination check compares word 8-grams of every case with the training corpus (when it is
on this machine) and with the synthetic generator's documents: a case the model was trained on
would measure memory, not writing.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

CASES_DIR = Path(__file__).resolve().parents[2] / "resources" / "eval"
SHINGLE_WORDS = 8  # long enough that a shared 8-gram is not a common phrase
INSTRUCTIONS = ("tighter", "formal", "clearer", "fix grammar", "casual")


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


def _read(name: str, folder: Path) -> list[dict[str, object]]:
    data = json.loads((folder / name).read_text(encoding="utf-8"))
    return list(data["cases"])


def load_cases(folder: Path = CASES_DIR) -> Cases:
    """Every authored case; raises ``ValueError`` on a case that could not be measured."""
    cloze = tuple(
        Cloze(str(c["kind"]), str(c["before"]), str(c["after"]), tuple(c["answers"]))  # type: ignore[arg-type]
        for c in _read("cloze.json", folder)
    )
    drafts = tuple(Draft(str(c["kind"]), str(c["text"])) for c in _read("drafts.json", folder))
    rewrites = tuple(
        Rewrite(
            str(c["instruction"]),
            str(c["before"]),
            str(c["paragraph"]),
            str(c["after"]),
            tuple(c["locks"]),  # type: ignore[arg-type]
            str(c.get("reference", "")),
        )
        for c in _read("rewrites.json", folder)
    )
    for case in rewrites:
        check_rewrite(case)
    return Cases(cloze, drafts, rewrites)


def check_rewrite(case: Rewrite) -> None:
    if case.instruction not in INSTRUCTIONS:
        raise ValueError(f"Unknown instruction {case.instruction!r} in a rewrite case.")
    for phrase in case.locks:
        if case.paragraph.count(phrase) != 1:
            raise ValueError(f"The lock {phrase!r} must occur exactly once in its paragraph.")
        if case.reference and case.reference.count(phrase) != 1:
            raise ValueError(f"The lock {phrase!r} must occur exactly once in its reference.")


def case_texts(cases: Cases) -> list[str]:
    """The text of every case, as a model could have seen it in training."""
    texts = [c.before + " " + c.after for c in cases.cloze]
    texts += [d.text for d in cases.drafts]
    texts += [r.paragraph for r in cases.rewrites]
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
