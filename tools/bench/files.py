"""Edit cost against file size, end to end: a 200-character rewrite in a 4 KB … 20 MB file.

What ``settle rewrite --write`` does after the model is loaded, timed as a whole: read and decode
the file (its BOM and line endings split off), plan and run the edit on the embedded model,
diff the result and save it atomically with every byte outside the range as it was. The target
is the same 200 characters of prose in the middle of each file. The engine's own table
(:mod:`tools.bench.edit_cost`) covers token lengths up to 32k; this one covers what a user
opens. Run by ``make bench`` before ``python -m tools.bench``, which merges the JSON it writes.
"""

from __future__ import annotations

import argparse
import json
import tempfile
import time
from pathlib import Path
from typing import Any

from app.files import read_text_file, write_text_file
from app.newlines import restore
from app.textdiff import unified_diff
from engine.backends.base import Backend
from engine.backends.masked.backend import MaskedBackend
from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, Proposal, Span
from engine.run.edit_run import run_edit
from tools.bench.common import heldout_text, median
from tools.bench.edit_cost import seen_tokens

SIZES = (4_000, 1_000_000, 20_000_000)
TARGET_CHARS = 200


def make_file(folder: Path, size: int) -> tuple[Path, Span]:
    """A Markdown file of ``size`` bytes of held-out prose; the target starts mid-file."""
    source = "".join(f"{paragraph.strip()}\n\n" for paragraph in heldout_text().split("\n\n"))
    text = (source * (size // len(source) + 1))[:size]
    start = text.index("\n\n", len(text) // 2 - TARGET_CHARS) + 2
    path = folder / f"doc-{size}.md"
    path.write_text(text, encoding="utf-8")
    return path, Span(start, start + TARGET_CHARS)


def file_edit(
    backend: Backend, path: Path, target: Span, settings: SamplerSettings
) -> tuple[float, float]:
    """(wall, CPU) seconds for one rewrite of ``target`` in ``path``, reading to saving. CPU
    time is what a shared, busy machine distorts least."""
    started, cpu = time.perf_counter(), time.process_time()
    text, layout = read_text_file(path)
    edit = Edit(1, text, target, settings=settings)
    proposal = next(e for e in run_edit(backend, edit) if isinstance(e, Proposal))
    updated = text[: target.start] + proposal.text + text[target.end :]
    unified_diff(restore(layout, text), restore(layout, updated), path.name)
    write_text_file(path, layout, updated)
    return time.perf_counter() - started, time.process_time() - cpu


def sees(backend: Backend, path: Path, target: Span, settings: SamplerSettings) -> int | None:
    """Positions the model's input holds for this edit (masked models): the context window is
    what a small file cannot fill."""
    if not isinstance(backend, MaskedBackend):
        return None
    return seen_tokens(backend, Edit(1, read_text_file(path)[0], target, settings=settings))


def file_cost(
    backend: Backend, sizes: tuple[int, ...] = SIZES, steps: int = 8, repeats: int = 3
) -> dict[str, Any]:
    """Median wall and CPU seconds per edit at each file size, and largest-to-smallest ratios."""
    settings = SamplerSettings(steps=steps, seed=0)
    rows: dict[str, Any] = {}
    with tempfile.TemporaryDirectory(prefix="settle-bench-") as folder:
        files = {size: make_file(Path(folder), size) for size in sizes}
        seen = {size: sees(backend, *files[size], settings) for size in sizes}
        file_edit(backend, *files[sizes[0]], settings)  # warm-up
        runs: dict[int, list[tuple[float, float]]] = {size: [] for size in sizes}
        for _ in range(repeats):  # sizes interleaved, so a noisy neighbour hits them all alike
            for size in sizes:
                runs[size].append(file_edit(backend, *files[size], settings))
    for size in sizes:
        wall, cpu = [r[0] for r in runs[size]], [r[1] for r in runs[size]]
        rows[str(size)] = {"edit_s": median(wall), "cpu_s": median(cpu), "runs_s": wall,
                           "model_sees_tokens": seen[size]}  # fmt: skip
    first, last = rows[str(sizes[0])], rows[str(sizes[-1])]
    return {"steps": steps, "target_chars": TARGET_CHARS, "sizes": list(sizes), "rows": rows,
            "ratio_last_to_first": last["edit_s"] / first["edit_s"],
            "cpu_ratio_last_to_first": last["cpu_s"] / first["cpu_s"]}  # fmt: skip


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.files", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs/benchmarks-files.json"))
    parser.add_argument("--quick", action="store_true", help="small files, one run: a smoke run")
    args = parser.parse_args(argv)
    from engine.core.protocol import LoadModel
    from engine.models.loading import load
    from engine.process.runtime import configure_threads

    configure_threads()
    backend = load(LoadModel("embedded", device="cpu"), lambda _: None).backend
    sizes = (4_000, 100_000) if args.quick else SIZES
    result = file_cost(backend, sizes, steps=2 if args.quick else 8, repeats=1 if args.quick else 3)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in result.items() if k != "rows"}))
    for size in sizes:
        row = result["rows"][str(size)]
        print(f"{size:>12,} bytes: {row['edit_s']:.2f} s wall, {row['cpu_s']:.2f} s CPU")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
