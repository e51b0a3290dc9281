"""The benchmarks on tiny models and short settings: each piece runs and reports the right shape.

No wall-clock numbers are checked (they depend on the machine); what is checked is that every
metric is present, finite where it must be, and consistent (accuracies in [0, 1], medians of
the right runs, the autoregressive side never revising its output).
"""

from __future__ import annotations

import math

import pytest

from tests.helpers.backends import llama_backend, tiny_table
from tests.helpers.tiny import tiny_llama
from tools.bench import compare
from tools.bench.common import cut_spans, heldout_text, token_accuracy
from tools.bench.runs import Run


def test_token_accuracy_counts_missing_positions_as_wrong() -> None:
    assert token_accuracy([1, 2, 3], [1, 2, 3]) == 1.0
    assert token_accuracy([1, 9], [1, 2, 3, 4]) == 0.25
    assert token_accuracy([], [1]) == 0.0


def test_cuts_hold_their_span_and_context() -> None:
    table = tiny_table()
    cuts = cut_spans(heldout_text(), table, 3, 16, 20, 10)
    assert len(cuts) == 3
    assert len({c.span for c in cuts}) == 3
    for cut in cuts:
        assert cut.span and cut.before and cut.after
        assert list(cut.reference) == table.encode(cut.span)


def test_cut_refuses_a_text_too_short() -> None:
    with pytest.raises(ValueError, match="needs"):
        cut_spans("tiny", tiny_table(), 1, 16, 20, 10)


def test_accuracy_at_reads_what_was_final_by_then() -> None:
    run = Run(0.1, 0.2, 0.3, 3, 3, 0.0, 0.3, 1.0, [(0.1, 0.2), (0.2, 0.5), (0.3, 1.0)])
    assert run.accuracy_at(0.05) == 0.0
    assert run.accuracy_at(0.25) == 0.5
    assert run.accuracy_at(5.0) == 1.0


def tiny_tasks() -> tuple[compare.Task, compare.Task]:
    return compare.default_tasks(span=8, draft=8, samples=2)


@pytest.mark.parametrize("index", [0, 1], ids=["rewrite", "draft"])
def test_compare_task_reports_both_systems(index: int) -> None:
    task = tiny_tasks()[index]
    task = compare.Task(task.name, task.span_tokens, 24, task.after_tokens and 12, task.sweep, 2)
    result = compare.compare_task(llama_backend(), tiny_llama(), task)
    ar, default = result["autoregressive"], result["diffusion"][result["diffusion_default"]]
    assert set(result["diffusion"]) == {compare.label(c) for c in task.sweep}
    assert ar["churn"] == 0.0 and ar["tokens_per_forward"] == 1.0
    for summary in (ar, default):
        assert 0.0 <= summary["accuracy"] <= 1.0
        assert summary["first_frame_s"] <= summary["settle_s"]
        assert all(math.isfinite(v) for v in summary.values())
    assert default["tokens_per_forward"] > 0.0
    six = result["six_metrics"]["diffusion"]
    assert set(six["quality_at_budget"]) == {"0.1s", "0.5s", "2s"}
    assert 0.0 <= six["revision_churn"] <= 1.0
    assert len(result["autoregressive_curve"]) == 12


def test_edit_cost_reports_both_windows_and_ratios() -> None:
    from tools.bench.edit_cost import edit_cost

    result = edit_cost(llama_backend(), (128, 512), steps=2)
    for window in ("windowed", "open"):
        rows = result[window]
        assert rows["ratio_last_to_first"] > 0
        assert rows["512"]["model_sees_tokens"] > 0
    assert result["windowed"]["again_ratio"] > 0 and result["windowed"]["128"]["again_s"] > 0
    # As shipped the window caps the context, opened it reaches the whole document.
    assert result["open"]["512"]["model_sees_tokens"] > result["open"]["128"]["model_sees_tokens"]
    assert (
        result["open"]["512"]["model_sees_tokens"] >= result["windowed"]["512"]["model_sees_tokens"]
    )


def test_every_length_rewrites_the_same_last_paragraph() -> None:
    from tools.bench.edit_cost import document

    table = tiny_table()
    targets = {}
    for length in (256, 1024, 4096):
        text, span = document(table, length)
        assert span.end == len(text)
        targets[length] = text[span.start : span.end]
    assert len(set(targets.values())) == 1


def test_constraint_overhead_measures_both_steps() -> None:
    from tools.bench.structured import constraint_overhead

    result = constraint_overhead(llama_backend(), length=16, repeats=3)
    assert result["canvas_tokens"] > 16  # slots plus the locked keys and punctuation
    for key in ("allowed_sets_build_ms", "pick_with_bias_ms", "step_free_ms", "step_slots_ms"):
        assert result[key] > 0


def test_structured_tasks_validate_or_say_why() -> None:
    from engine.core.config import SamplerSettings
    from tools.bench.structured import structured_tasks

    result = structured_tasks(llama_backend(), tiny_llama(), SamplerSettings(steps=4))
    if "skipped" in result:
        pytest.skip(result["skipped"])
    for name in ("json", "table"):
        assert result[name]["valid"] is True
        assert 0.0 <= result[name]["slots_valid_first_round"] <= 1.0
    assert isinstance(result["json_autoregressive"]["valid"], bool)


def test_gemma_sweep_reports_per_step_times_and_loop_overhead() -> None:
    from tests.helpers.gemma import gemma_table
    from tools.bench.gemma_arch import GemmaSize, sweep

    size = GemmaSize(hidden=32, layers=2, heads=2, experts=2)
    result = sweep(gemma_table(), size, (16, 32), (8, 24), steps=(1, 2), repeats=1)
    assert set(result["per_step_ms_by_canvas"]) == {16, 32}
    assert set(result["per_step_ms_by_prompt"]["ms"]) == {8, 24}
    assert result["stock_vs_settle"]["stock_s"] > 0 and result["stock_vs_settle"]["settle_s"] > 0
    assert result["parameters"] > 0


def test_report_has_every_section_and_says_what_failed(tmp_path) -> None:
    from tools.bench.report import write_report

    task = tiny_tasks()[0]
    task = compare.Task(task.name, 8, 24, 12, task.sweep[:2], 2)
    results = {
        "machine": {"cpu": "test"},
        "compare_rewrite": compare.compare_task(llama_backend(), tiny_llama(), task),
        "edit_cost": {"error": "RuntimeError: boom"},
        "structured": {"skipped": "not here"},
    }
    path = tmp_path / "bench.md"
    write_report(results, path)
    text = path.read_text()
    assert "## Task: rewrite" in text and "The seed's six metrics" in text
    assert "edit_cost failed: RuntimeError: boom" in text
    assert "structured skipped: not here" in text
    assert "compare_draft: not run" in text
    assert "benchmarks.png" in text


def test_report_shows_the_file_size_table_and_its_ratio(tmp_path) -> None:
    from tools.bench.report import write_report

    rows = {
        "4000": {"edit_s": 2.0, "cpu_s": 1.0, "model_sees_tokens": 700},
        "20000000": {"edit_s": 2.2, "cpu_s": 1.05, "model_sees_tokens": 1080},
    }
    files = {"steps": 8, "target_chars": 200, "sizes": [4000, 20000000], "rows": rows,
             "ratio_last_to_first": 1.1, "cpu_ratio_last_to_first": 1.05}  # fmt: skip
    path = tmp_path / "bench.md"
    write_report({"machine": {"cpu": "test"}, "files": files}, path)
    text = path.read_text()
    assert "## Edit cost against file size" in text
    assert "| 20,000,000 bytes | 2.2 | 1.05 | 1080 |" in text
    assert "(read, rewrite 200 characters, diff, save): 1.10× wall, 1.05× CPU" in text
