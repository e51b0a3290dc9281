"""JFLEG dev through a rewrite, scored with JFLEG's own GLEU beside the unedited source.

Each source sentence of one half is detokenized (a person types "don't", not "do n't"),
handed to ``rewrite`` (any function of a sentence: the engine's "proofread" in the suite, a
fake in the tests), and its output tokenized back the way JFLEG's files are. ``gleu.py``
(which ships with the data) scores it as a separate process, never imported or copied, on
that half's sources and four references; the source itself is scored the same way, as typed
and after the tokenization round trip, so the report shows what doing nothing earns.
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tools.eval.public import (
    DATA_DIR,
    JFLEG_DIR,
    JFLEG_LINES,
    detokenize,
    missing,
    read_lines,
    tokenize,
)

REFERENCES = tuple(f"dev.ref{i}" for i in range(4))
SCORER = "gleu.py"
GLEU_TIMEOUT_S = 600


class ScorerError(RuntimeError):
    """JFLEG's scorer failed or printed something this runner cannot read."""


def read_half(half: str, data_dir: Path = DATA_DIR) -> tuple[list[str], list[list[str]]]:
    """One half's tokenized sources and, per reference file, its tokenized references."""
    folder = data_dir / JFLEG_DIR
    sources = read_lines(folder / "dev.src", half, JFLEG_LINES)
    references = [read_lines(folder / name, half, JFLEG_LINES) for name in REFERENCES]
    return sources, references


def gleu(
    sources: list[str], references: list[list[str]], hypotheses: list[str], data_dir: Path
) -> float:
    """GLEU (0-100) of tokenized ``hypotheses``, by ``gleu.py`` in its own process."""
    with tempfile.TemporaryDirectory(prefix="settle-jfleg-") as tmp:
        folder = Path(tmp)
        src = _write(folder / "src", sources)
        refs = [str(_write(folder / f"ref{i}", lines)) for i, lines in enumerate(references)]
        hyp = _write(folder / "hyp", hypotheses)
        command = [sys.executable, str(data_dir / JFLEG_DIR / SCORER), "-s", str(src)]
        command += ["-r", *refs, "--hyp", str(hyp)]
        done = subprocess.run(
            command, capture_output=True, text=True, timeout=GLEU_TIMEOUT_S, check=False
        )
    if done.returncode != 0:
        raise ScorerError(f"gleu.py exited {done.returncode}: {done.stderr.strip()[-500:]}")
    return parse_gleu(done.stdout)


def _write(path: Path, lines: list[str]) -> Path:
    path.write_text("".join(line.strip() + "\n" for line in lines), encoding="utf-8")
    return path


def parse_gleu(stdout: str) -> float:
    """The mean of gleu.py's last line, ``[['0.523', '0.004', '(0.516,0.530)']]``, as 0-100."""
    lines = [line for line in stdout.splitlines() if line.strip()]
    try:
        rows = ast.literal_eval(lines[-1])
        return 100 * float(rows[0][0])
    except (IndexError, ValueError, SyntaxError, TypeError) as error:
        raise ScorerError(f"Cannot read gleu.py's output {stdout[-200:]!r}") from error


def run_jfleg(
    rewrite: Callable[[str], str],
    half: str,
    limit: int = 0,
    data_dir: Path = DATA_DIR,
    say: Callable[[str], None] = lambda _line: None,
) -> dict[str, Any]:
    """Scores only (never a sentence: the data is not ours to copy into a report)."""
    why = missing(data_dir, f"{JFLEG_DIR}/dev.src", f"{JFLEG_DIR}/{SCORER}")
    if why:
        return {"half": half, "skipped": why}
    sources, references = read_half(half, data_dir)
    if limit:
        sources, references = sources[:limit], [r[:limit] for r in references]
    typed = [detokenize(line) for line in sources]
    outputs, seconds = [], []
    for i, sentence in enumerate(typed):
        say(f"jfleg {i + 1}/{len(typed)}")
        started = time.perf_counter()
        outputs.append(rewrite(sentence))
        seconds.append(time.perf_counter() - started)
    hypotheses = [tokenize(text) for text in outputs]
    return {
        "half": half,
        "sentences": len(sources),
        "gleu": gleu(sources, references, hypotheses, data_dir),
        "source_gleu": gleu(sources, references, sources, data_dir),
        "source_round_trip_gleu": gleu(sources, references, [tokenize(t) for t in typed], data_dir),
        "changed": sum(o.strip() != t.strip() for o, t in zip(outputs, typed, strict=True)),
        "median_seconds": sorted(seconds)[len(seconds) // 2] if seconds else None,
    }
