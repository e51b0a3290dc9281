"""The review-loop bench (tools.bench.review) on the tiny model: its shape, not its numbers."""

from __future__ import annotations

import math

from tests.helpers.backends import llama_backend, tiny_table
from tools.bench.review import review_loop
from tools.bench.review_report import review_section
from tools.eval.tasks import Judge


def test_the_review_bench_counts_reads_times_versions_and_batches() -> None:
    backend = llama_backend()
    table = tiny_table()
    judge = Judge(backend.model, table.encode, min(table.specials.eos_ids))
    results = review_loop(backend, judge, limit=2)
    reroll, alternatives = results["reroll"], results["alternatives"]
    assert reroll["split"] == "dev" and reroll["cases"] == 2
    for record in reroll["records"]:
        if record["hunks"]:
            assert record["reroll_reads"] >= 1 and record["rewrite_reads"] >= 1
            assert record["ratio"] == record["reroll_reads"] / record["rewrite_reads"]
    assert alternatives["cases"] == 2
    for record in alternatives["records"]:  # three versions each way, in the same run
        for mode in ("batched", "one_after_another"):
            assert 1 <= record[mode]["versions"] <= 3 and record[mode]["model_calls"] >= 1
    assert alternatives["faster"] in alternatives["modes"]
    assert alternatives["default"] == "one_after_another"  # the shipped setting
    batch = alternatives["batch"]
    assert all(math.isfinite(batch[k]) and batch[k] > 0 for k in batch if k.endswith("_ms"))
    text = "\n".join(review_section(results))
    assert "re-roll of one hunk" in text and "one after another" in text and "Faster:" in text
    assert review_section({"error": "RuntimeError: boom"})[-2].endswith("boom_")
