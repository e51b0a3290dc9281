"""The review loop's costs (issue 29): a hunk's re-roll against its rewrite, and alternatives.

``reroll``: every rewrite case of the quality suite's tuning split (``resources/eval/dev``; the
test split is never read here) is rewritten at the shipped settings, then its first hunk (as
the review numbers them, :func:`engine.core.worddiff.word_diff`) is settled again through the same
:func:`~engine.run.edit_run.run_edit` (:func:`engine.run.retry.retry_edit`, try 1). Every model
read of each is counted (``Metrics.forwards``: the denoising steps and the passes' reads), the
median of their ratio is the headline (the goal: at most 0.3), and the judge (the base causal
model, as :mod:`tools.eval` judges) reads the paragraph as the rewrite proposed it and as it
stands after the re-roll (mean nats per token; the goal: no worse).

``alternatives``: the same cases rewritten with one version and with three, the three settled
both ways in the same run (versions 2 and 3 as one batch, and one after another:
``SamplerSettings.batch_versions``, the order alternating per case): the time and the model
reads of three against one (the goal: at most 2x the time), the model's forward calls (a
batched forward is one call for its canvases, one read for each), how many distinct versions
came back, how many of them differ from every other in at least one word-level hunk (each
record keeps the notes that say what became of a version not offered), and in how many cases
both ways gave the same versions. The faster way is the shipped default. Then the model's
forward over 3 sequences at once against 3 forwards one after another, at the cases' median
input length, for a whole-window forward and for a cached step (a few open rows against the
stored keys and values, as a step inside a block runs).

``python -m tools.bench.review`` runs it alone (``--limit N``: N cases spread over the split).
"""

from __future__ import annotations

import argparse
import copy
import json
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, Proposal, SegmentText, Span
from engine.core.worddiff import Hunk, word_diff
from engine.run.edit_run import run_edit
from engine.run.retry import HunkRetry, retried_text, retry_edit
from tools.bench.common import median
from tools.eval.cases import Rewrite, load_split

SPLIT = "dev"  # tuned on; the test split is the engineer's to report
VERSIONS = 3
OPEN_ROWS = 8  # rows a cached step runs: about a block's open positions
REPEATS = 5  # timed forwards per measurement (after one warm-up)


def rewrite_edit(case: Rewrite, settings: SamplerSettings) -> Edit:
    start = len(case.before)
    target = Span(start, start + len(case.paragraph))
    locks = tuple(Span(a, b) for a, b in case.lock_spans())
    return Edit(1, case.document, target, locks, case.instruction, settings=settings)


def proposal_of(backend: Any, edit: Edit) -> tuple[Proposal, float]:
    """The proposal of ``edit`` and its wall time."""
    started = time.perf_counter()
    proposal = next(e for e in run_edit(backend, edit) if isinstance(e, Proposal))
    return proposal, time.perf_counter() - started


def hunks_of(edit: Edit, proposal: Proposal) -> tuple[Hunk, ...]:
    target = edit.text[edit.target.start : edit.target.end]
    at = edit.target.start
    locks = [(lock.start - at, lock.end - at) for lock in edit.locks]
    return word_diff(target, proposal.segments, locks).hunks


def hunk_retry(edit: Edit, proposal: Proposal, hunk: Hunk) -> HunkRetry:
    return HunkRetry(
        edit.text, edit.target, proposal.text, Span(hunk.start, hunk.end),
        Span(hunk.new_start, hunk.new_end), edit.instruction,
    )  # fmt: skip


def reroll_case(backend: Any, judge: Any, case: Rewrite, settings: SamplerSettings) -> Any:
    """One case: the rewrite, the re-roll of its first hunk, their reads and judge NLLs."""
    edit = rewrite_edit(case, settings)
    proposal, _ = proposal_of(backend, edit)
    hunks = [h for h in hunks_of(edit, proposal) if (h.old + h.new).strip()]
    if not hunks:
        return {"instruction": case.instruction, "hunks": 0}
    retry = hunk_retry(edit, proposal, hunks[0])
    retry_request = retry_edit(1, retry, settings)
    again, _ = proposal_of(backend, retry_request)
    rerolled = retried_text(retry, retry_request, again.text)
    return {
        "instruction": case.instruction,
        "hunks": len(hunks),
        "rewrite_reads": proposal.metrics.forwards,
        "reroll_reads": again.metrics.forwards,
        "ratio": again.metrics.forwards / max(proposal.metrics.forwards, 1),
        "rewrite_nll": judge.nll(case.before, proposal.text),
        "reroll_nll": judge.nll(case.before, rerolled),
        "hunk": [hunks[0].old, hunks[0].new, again.text],
        "unchanged": rerolled == proposal.text,
    }


def reroll(backend: Any, judge: Any, cases: list[Rewrite], settings: SamplerSettings) -> Any:
    records = [reroll_case(backend, judge, case, settings) for case in cases]
    tried = [r for r in records if r["hunks"]]
    pairs = [r for r in tried if r["rewrite_nll"] is not None and r["reroll_nll"] is not None]
    return {
        "split": SPLIT,
        "cases": len(records),
        "with_a_hunk": len(tried),
        "median_ratio": median([r["ratio"] for r in tried]),
        "median_rewrite_reads": median([r["rewrite_reads"] for r in tried]),
        "median_reroll_reads": median([r["reroll_reads"] for r in tried]),
        "mean_rewrite_nll": sum(r["rewrite_nll"] for r in pairs) / max(len(pairs), 1),
        "mean_reroll_nll": sum(r["reroll_nll"] for r in pairs) / max(len(pairs), 1),
        "unchanged": sum(r["unchanged"] for r in tried),
        "records": records,
    }


# The two ways versions 2..N settle (``SamplerSettings.batch_versions``), measured in one run.
MODES: dict[str, bool] = {"batched": True, "one_after_another": False}


def alternatives_case(backend: Any, case: Rewrite, settings: SamplerSettings, turn: int) -> Any:
    """One case: one version, then three versions each way (the order alternating with
    ``turn``, so neither way always runs after the other has warmed the caches)."""
    edit = rewrite_edit(case, settings)
    one, one_s = proposal_of(backend, edit)
    record: dict[str, Any] = {
        "instruction": case.instruction,
        "one_s": one_s,
        "one_forwards": one.metrics.forwards,
    }
    modes = list(MODES) if turn % 2 == 0 else list(reversed(MODES))
    for mode in modes:
        asked = settings.with_changes(alternatives=VERSIONS, batch_versions=MODES[mode])
        with counting_calls(backend.model) as calls:
            three, three_s = proposal_of(backend, rewrite_edit(case, asked))
        texts = [three.text, *(v.text for v in three.alternatives)]
        record[mode] = {
            "three_s": three_s,
            "ratio": three_s / max(one_s, 1e-9),
            "three_forwards": three.metrics.forwards,
            "model_calls": calls.count,
            "versions": len(texts),
            "each_differs": each_differs(edit, texts),
            "texts": texts,
            "notes": list(three.notes),
        }
    record["same_versions"] = record["batched"]["texts"] == record["one_after_another"]["texts"]
    return record


class Calls:
    """Counts a model's forward calls (a batched forward is one call for every canvas in it)."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, *_: object) -> None:
        self.count += 1


@contextmanager
def counting_calls(model: Any) -> Iterator[Calls]:
    calls = Calls()
    handle = model.register_forward_hook(calls)
    try:
        yield calls
    finally:
        handle.remove()


def each_differs(edit: Edit, texts: list[str]) -> bool:
    """Whether there are three versions and each differs from every other in at least one
    word-level hunk (a version's hunks against the user's text are what the review offers)."""
    target = edit.text[edit.target.start : edit.target.end]
    seen = [
        frozenset((h.start, h.end, h.new) for h in word_diff(target, _plain(text)).hunks)
        for text in texts
    ]
    return len(texts) == VERSIONS and all(a != b for i, a in enumerate(seen) for b in seen[i + 1 :])


def _plain(text: str) -> list[SegmentText]:
    return [SegmentText(text, False)]


def alternatives(backend: Any, cases: list[Rewrite], settings: SamplerSettings) -> Any:
    records = [alternatives_case(backend, case, settings, n) for n, case in enumerate(cases)]
    modes = {mode: mode_summary([r[mode] for r in records]) for mode in MODES}
    return {
        "split": SPLIT,
        "cases": len(records),
        "median_one_s": median([r["one_s"] for r in records]),
        "median_one_forwards": median([r["one_forwards"] for r in records]),
        "modes": modes,
        "faster": min(MODES, key=lambda mode: modes[mode]["median_three_s"]),
        "default": "batched" if SamplerSettings().batch_versions else "one_after_another",
        "same_versions": sum(r["same_versions"] for r in records),
        "records": records,
        "batch": batch_forwards(backend, median_input_tokens(backend, cases, settings)),
    }


def mode_summary(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Three versions settled one way, over the cases: time, reads, calls, what came back."""
    return {
        "median_ratio": median([r["ratio"] for r in runs]),
        "median_three_s": median([r["three_s"] for r in runs]),
        "median_three_forwards": median([r["three_forwards"] for r in runs]),
        "median_model_calls": median([r["model_calls"] for r in runs]),
        "two_distinct": sum(r["versions"] == VERSIONS - 1 for r in runs),
        "three_distinct": sum(r["versions"] == VERSIONS for r in runs),
        "each_differs": sum(r["each_differs"] for r in runs),
    }


def median_input_tokens(backend: Any, cases: list[Rewrite], settings: SamplerSettings) -> int:
    """The median number of positions the model reads for these rewrites (context + canvas)."""
    from engine.core.canvas import build_canvas
    from engine.core.plan import plan_edit

    sizes = []
    for case in cases:
        plan = plan_edit(rewrite_edit(case, settings))
        canvas = build_canvas(plan, backend.table, settings, backend.max_canvas_tokens)
        context = backend.context(plan, settings, len(canvas))
        sizes.append(sum(len(part) for part in context) + len(canvas))
    return int(median(sizes))


def batch_forwards(backend: Any, length: int) -> dict[str, Any]:
    """The model's forward over :data:`VERSIONS` sequences of ``length`` positions at once
    against one after another: the whole window, and a cached step of :data:`OPEN_ROWS`
    rows (the LM head on those rows only, as the sampler reads them)."""
    import torch

    generator = torch.Generator().manual_seed(0)
    ids = torch.randint(0, backend.vocab_size, (VERSIONS, length), generator=generator)
    prefix, rows = ids[:, : length - OPEN_ROWS], ids[:, length - OPEN_ROWS :]
    with torch.inference_mode():
        whole_batched = timed(lambda _: forward(backend.model, ids))
        whole_each = timed(lambda _: [forward(backend.model, ids[i : i + 1]) for i in range(3)])
        stored = forward(backend.model, prefix, cache=True)
        singles = [forward(backend.model, prefix[i : i + 1], cache=True) for i in range(3)]
        copies = [copy.deepcopy(stored) for _ in range(REPEATS + 1)]
        each = [[copy.deepcopy(c) for c in singles] for _ in range(REPEATS + 1)]
        step_batched = timed(lambda n: forward(backend.model, rows, copies[n]))
        step_each = timed(
            lambda n: [forward(backend.model, rows[i : i + 1], each[n][i]) for i in range(3)]
        )
    return {
        "length": length,
        "open_rows": OPEN_ROWS,
        "whole_batched_ms": whole_batched,
        "whole_one_after_another_ms": whole_each,
        "step_batched_ms": step_batched,
        "step_one_after_another_ms": step_each,
    }


def forward(model: Any, ids: Any, past: Any = None, *, cache: bool = False) -> Any:
    """The body over ``ids`` (after ``past``) and the LM head on the last open rows; with
    ``cache`` the keys and values it stored instead."""
    out = model.model(input_ids=ids, cache=past, use_cache=cache or past is not None)
    if cache:
        return out.cache
    return model.lm_head(out.last_hidden_state[:, -OPEN_ROWS:])


def timed(run: Any) -> float:
    """Median milliseconds of ``run(n)`` over :data:`REPEATS` runs after a warm-up (``n``
    counts the runs, so a run can take a fresh copy of what it consumes)."""
    run(REPEATS)
    times = []
    for n in range(REPEATS):
        started = time.perf_counter()
        run(n)
        times.append((time.perf_counter() - started) * 1000)
    return median(times)


MEASURES = ("reroll", "alternatives")


def review_loop(
    backend: Any, judge: Any, limit: int = 0, only: tuple[str, ...] = MEASURES
) -> dict[str, Any]:
    """The measurements in ``only`` on the dev split's rewrite cases (``limit`` of them, if
    set, spread evenly over the split so every family is among them)."""
    cases = list(load_split(SPLIT).rewrites)
    cases = cases[:: max(1, len(cases) // limit)][:limit] if limit else cases
    settings = SamplerSettings()
    results: dict[str, Any] = {}
    if "reroll" in only:
        results["reroll"] = reroll(backend, judge, cases, settings)
    if "alternatives" in only:
        results["alternatives"] = alternatives(backend, cases, settings)
    return results


def load_judged() -> tuple[Any, Any]:
    """The embedded model's backend and the judge (its base, read causally), as the quality
    suite loads them."""
    from tools.eval.run import load_systems
    from tools.eval.tasks import Judge

    diffusion, ar, _ = load_systems({}, None)
    return diffusion.backend, Judge(ar.model, ar.encode, ar.start_id)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.bench.review", description=__doc__)
    parser.add_argument("--limit", type=int, default=0, help="only N rewrite cases, spread out")
    parser.add_argument("--only", choices=MEASURES, action="append", help="one measurement")
    parser.add_argument("--out", type=Path, default=Path("docs/benchmarks-review.json"))
    args = parser.parse_args(argv)
    from engine.process.runtime import configure_threads
    from tools.bench.review_report import review_section

    configure_threads()
    backend, judge = load_judged()
    results = review_loop(backend, judge, args.limit, tuple(args.only or MEASURES))
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(results, indent=2, ensure_ascii=False) + "\n", "utf-8")
    print("\n".join(review_section(results)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
