"""Public data the suite reads in place from ``../shared/eval-data/``: where it is, its halves.

Other people's data sets, never copied into the project (nor anything derived from them: the
reports keep scores, not sentences). Each is split in two by its README: the first half is
tuned on, the second only reported. The suite's ``dev`` split reads the tuning half and its
``test`` split the report half, so tuning on dev never reads a reported sentence. When the
folder is absent (a user's machine) every public task is skipped with a line saying so.
"""

from __future__ import annotations

import re
from pathlib import Path

from tools.eval.cases import SPLITS

DATA_DIR = Path(__file__).resolve().parents[3] / "shared" / "eval-data"
JFLEG_DIR = "jfleg-dev"
JFLEG_LINES = 754
SPELLING_FILE = "spelling/spell-testset2.txt"
SPELLING_LINES = 348
HALF_OF_SPLIT = {"dev": "tune", "test": "report"}


def half_of(split: str) -> str:
    if split not in SPLITS:
        raise ValueError(f"Unknown split {split!r}; splits: {', '.join(SPLITS)}")
    return HALF_OF_SPLIT[split]


def half_range(total: int, half: str) -> range:
    """Line indices (from 0) of one half: the first ``total // 2 + total % 2`` lines are
    tuned on, the rest reported (JFLEG: 1-377 and 378-754; spelling: 1-174 and 175-348)."""
    middle = (total + 1) // 2
    if half == "tune":
        return range(middle)
    if half == "report":
        return range(middle, total)
    raise ValueError(f"Unknown half {half!r}: 'tune' or 'report'.")


def read_lines(path: Path, half: str, total: int) -> list[str]:
    lines = path.read_text(encoding="utf-8").splitlines()
    if len(lines) != total:
        raise ValueError(f"{path} has {len(lines)} lines, not the {total} its README gives.")
    return [lines[i] for i in half_range(total, half)]


def missing(data_dir: Path, *paths: str) -> str:
    """Why a public task cannot run here ("" when it can)."""
    absent = [p for p in paths if not (data_dir / p).exists()]
    return f"skipped: {', '.join(absent)} not found under {data_dir}" if absent else ""


# --- JFLEG's tokenization, undone for the rewrite and redone for the scorer ----------------

NEGATION_SPLIT = re.compile(r"(\w)n 't\b")  # Moses writes "don 't"; JFLEG (PTB) "do n't"


def detokenize(line: str) -> str:
    """What a person would have typed: JFLEG's "do n't" and "it 's", joined back."""
    from sacremoses import MosesDetokenizer

    joined = re.sub(r" (n't)\b", r"\1", line.strip())
    return str(MosesDetokenizer(lang="en").detokenize(joined.split()))


def tokenize(text: str) -> str:
    """Text split the way JFLEG's files are, so GLEU compares like with like."""
    from sacremoses import MosesTokenizer

    moses = MosesTokenizer(lang="en").tokenize(" ".join(text.split()), escape=False)
    return NEGATION_SPLIT.sub(r"\1 n't", " ".join(moses))
