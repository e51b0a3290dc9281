"""``python -m tools.bench``: run every CPU benchmark, write the JSON and the Markdown report.

``make bench`` runs :mod:`tools.bench.gui` first (the window's smoothness needs Qt, which the
engine never imports; its results are merged from ``benchmarks-gui.json``) and
:mod:`tools.bench.files` (edit cost by file size, merged from ``benchmarks-files.json``), then this,
then :mod:`tools.bench.chart` for the PNG. ``--quick`` shrinks every size for a smoke run.
"""

from __future__ import annotations

import argparse
import json
import time
import traceback
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from tools.bench.common import machine, peak_rss_mb
from tools.bench.report import write_report

GUI_RESULTS = "benchmarks-gui.json"
FILE_RESULTS = "benchmarks-files.json"  # tools.bench.files: edit cost by file size


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench", description=__doc__)
    parser.add_argument("--out", type=Path, default=Path("docs"), help="folder for the results")
    parser.add_argument("--quick", action="store_true", help="tiny sizes: a smoke run")
    args = parser.parse_args(argv)
    from engine.process.runtime import configure_threads

    configure_threads()
    started = time.perf_counter()
    results: dict[str, Any] = {"machine": machine(), "quick": args.quick}
    run_all(results, args.quick)
    results["bench_process_peak_rss_mb"] = peak_rss_mb()
    results["bench_wall_s"] = time.perf_counter() - started
    for key, name in (("gui", GUI_RESULTS), ("files", FILE_RESULTS)):
        merged = args.out / name
        if merged.is_file():
            results[key] = json.loads(merged.read_text(encoding="utf-8"))
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "benchmarks.json").write_text(json.dumps(results, indent=2) + "\n", "utf-8")
    write_report(results, args.out / "benchmarks.md")
    print(f"wrote {args.out / 'benchmarks.json'} and {args.out / 'benchmarks.md'}")
    return 0


def section(results: dict[str, Any], name: str, run: Callable[[], Any]) -> None:
    """Run one benchmark; a failure is recorded as such (never as a number) and the rest go on."""
    print(f"[bench] {name} …", flush=True)
    started = time.perf_counter()
    try:
        results[name] = run()
    except Exception as exc:  # a broken section must not lose the others' numbers
        results[name] = {"error": f"{type(exc).__name__}: {exc}", "trace": traceback.format_exc()}
    results.setdefault("section_s", {})[name] = time.perf_counter() - started
    print(f"[bench] {name}: {results['section_s'][name]:.0f} s", flush=True)


def run_all(results: dict[str, Any], quick: bool) -> None:
    import torch
    from transformers import LlamaForCausalLM

    from engine.core.config import PRESETS, SamplerSettings
    from engine.core.protocol import LoadModel
    from engine.models import embedded
    from engine.models.loading import load
    from tools.bench import compare, edit_cost, gemma_arch, remote, review, structured, templates
    from tools.eval.tasks import Judge

    loaded = load(LoadModel("embedded", device="cpu"), lambda _: None)
    backend = loaded.backend
    dtype = next(backend.model.parameters()).dtype
    ar = LlamaForCausalLM.from_pretrained(embedded.converted_folder(), dtype=dtype).eval()
    results["model"] = {
        "diffusion": loaded.info.display_name,
        "dtype": str(dtype),
        "parameters": loaded.info.parameters,
    }
    tasks = compare.default_tasks(*((16, 16, 2) if quick else (64, 128, 3)))
    for task in tasks:
        section(results, f"compare_{task.name}", partial(compare.compare_task, backend, ar, task))
    balanced = SamplerSettings(**{k: PRESETS["balanced"][k] for k in ("steps", "threshold")})
    fill_settings = balanced.with_changes(steps=8) if quick else balanced
    section(results, "structured", lambda: structured.structured_tasks(backend, ar, fill_settings))
    section(results, "constraints", lambda: structured.constraint_overhead(backend))
    section(results, "templates", lambda: templates.template_fills(backend, quick))
    section(results, "coverage", lambda: templates.coverage(backend, quick))
    engine = remote.Loaded(backend, loaded.info)
    section(results, "remote", lambda: remote.remote_overhead(engine, "embedded", quick))
    specials = backend.table.specials
    start = specials.bos_id if specials.bos_id is not None else min(specials.eos_ids)
    judge = Judge(ar, backend.table.encode, start)
    limit = 2 if quick else 0  # the review loop on the dev split's rewrites: all of them
    section(results, "review", lambda: review.review_loop(backend, judge, limit))
    lengths = (512, 1024) if quick else (1024, 4096, 16384, 32768)
    section(results, "edit_cost", lambda: edit_cost.edit_cost(backend, lengths))
    torch.manual_seed(0)
    size = gemma_arch.GemmaSize(hidden=64, layers=2) if quick else gemma_arch.GemmaSize()
    canvases = (32, 64) if quick else (32, 64, 128, 256)
    prompts = (64, 256) if quick else (64, 256, 1024)
    section(
        results,
        "gemma_arch",
        lambda: gemma_arch.sweep(backend.table, size, canvases, prompts, repeats=1 if quick else 3),
    )


if __name__ == "__main__":
    raise SystemExit(main())
