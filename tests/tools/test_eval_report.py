"""The quality report's per-family tables and public scores, and the runner that fills them."""

from __future__ import annotations

import copy

import pytest

from engine.core.config import SamplerSettings
from tests.helpers.backends import llama_backend
from tests.helpers.tiny import tiny_llama, tiny_tokenizer
from tools.eval.cases import Draft, Rewrite
from tools.eval.families import draft_row, family_rows, rewrite_checks
from tools.eval.report import markdown
from tools.eval.systems import Autoregressive, Diffusion
from tools.eval.tasks import Judge, draft_task, rewrite_task

FORMAL = Rewrite("more formal", "", "We can't come, ok?", "", (), family="formal")
GRAMMAR = Rewrite(
    "fix grammar", "", "She go home.", "", (), family="fix grammar",
    corrections=(("She go", ("She goes",)),),
)  # fmt: skip


def record(case: Rewrite, text: str, **timing) -> dict:
    base = {"judge_nll": 2.0, "seconds": 1.0, "first_frame": 0.004, "locks_kept": True}
    return {**base, **timing, **rewrite_checks(case, text)}


def test_family_rows_count_what_each_case_did():
    records = [
        record(FORMAL, "We cannot come."),
        record(FORMAL, "We can't come, ok?"),  # unchanged: not followed
        record(GRAMMAR, "She goes home now."),  # fixed, one word added
    ]
    grammar, formal = family_rows(records)  # in the report's order
    assert formal["family"] == "formal" and formal["cases"] == 2
    assert (formal["changed"], formal["followed"], formal["measured"]) == (1, 1, 2)
    assert formal["meaning_kept"] == 2 and formal["markdown_kept"] == 2
    assert (grammar["fixed"], grammar["expected"], grammar["damaged"]) == (1, 1, 1)
    assert grammar["followed"] == 0
    assert formal["median_first_frame"] == 0.004


def test_a_meaning_change_is_named_in_the_record():
    case = Rewrite("tighter", "", "Ada can't come on Friday.", "", (), family="shorter")
    checks = rewrite_checks(case, "Ada can come Friday.")
    assert checks["meaning"] == ["negations 1 became 0"]
    # short enough and grammatical: followed; the meaning column is what catches it
    assert checks["followed"] and checks["changed"]


def fake_results() -> dict:
    rows = family_rows([record(FORMAL, "We cannot come."), record(GRAMMAR, "She goes home.")])
    draft = draft_row(
        [{"prompted": True, "empty": False, "followed": True, "on_topic": True,
          "register_kept": True, "list_mark": False, "judge_nll": 1.5, "seconds": 2.0,
          "first_frame": None}]
    )  # fmt: skip
    return {
        "meta": {"model": "m", "settings": {}, "machine": "x", "wall_s": 3.0, "split": "test",
                 "contamination": "0 of dev, 0 of test", "limit": 0},
        "tasks": {
            "rewrite": {"summary": {"diffusion": {"families": rows}}, "cases": {"diffusion": []}},
            "draft": {"summary": {"diffusion": {"prompted": draft}}},
            "jfleg": {"summary": {"diffusion": {"half": "report", "sentences": 377, "changed": 90,
                      "gleu": 41.5, "source_gleu": 38.0, "source_round_trip_gleu": 38.1,
                      "median_seconds": 2.0}}},
            "spelling": {"summary": {"diffusion": {"half": "report",
                                                   "skipped": "skipped: absent"}}},
        },
    }  # fmt: skip


def test_the_report_has_a_table_per_system_and_the_public_scores():
    report = markdown(fake_results())
    assert "**test** split (`resources/eval/test/`)" in report
    assert "## Per family: diffusion" in report
    assert (
        "| formal | 1 | 1/1 (100%) | 1/1 (100%) | 1/1 (100%) | 1/1 (100%) |  | 2.00 | 1/1 (100%)"
        " | 1.00 | 4 |"
    ) in report
    assert "| fix grammar | 1 | 1/1 (100%) | 1/1 (100%) |" in report
    assert "| 1/1 (0) |" in report
    assert "| draft (with a prompt) | 1 | 1/1 (100%) | 1/1 (100%) |" in report
    assert "- GLEU 41.50; the unedited source 38.00 (38.10 after" in report
    assert "## Misspellings in context: diffusion, report half\n\nskipped: absent" in report
    # one system only: no comparison table, no crash
    assert "| measure | diffusion | autoregressive | goal |" not in report


def test_the_runners_fill_the_family_rows_on_tiny_models():
    backend = llama_backend()
    tok = copy.deepcopy(tiny_tokenizer())
    tok.chat_template = "{% for m in messages %}{{ m['content'] }}\n{% endfor %}"
    settings = SamplerSettings(steps=4, context_tokens=32, suffix_tokens=16, draft_tokens=8)
    ar = Autoregressive(tiny_llama(), tok, tok.bos_token_id)
    systems = {"diffusion": Diffusion(backend, settings), "autoregressive": ar}
    judge = Judge(ar.model, ar.encode, ar.start_id)
    rewrites = rewrite_task([FORMAL, GRAMMAR], systems, judge)
    for system in systems:
        rows = rewrites["summary"][system]["families"]
        assert [r["family"] for r in rows] == ["fix grammar", "formal"]
        assert all(r["cases"] == 1 for r in rows)
    prompt = Draft("email", "Dear Ms. Brennan,\n\n", "the delivery date", "formal")
    drafts = draft_task([prompt], systems, judge)
    assert drafts["summary"]["diffusion"]["prompted"]["cases"] == 1
    assert drafts["cases"]["diffusion"][0]["first_frame"] is not None


def test_stored_outputs_are_measured_again_and_runs_join(tmp_path):
    import json

    from tools.eval import rescore
    from tools.eval.cases import Cases, load_split

    cases = Cases((), (), (FORMAL, GRAMMAR))
    stored = {"text": "We cannot come.", "instruction": "more formal", "judge_nll": 2.0,
              "seconds": 1.0, "locks_kept": True, "followed": "stale"}  # fmt: skip
    meta = {"model": "m", "settings": {}, "machine": "x", "contamination": "none"}
    run = {
        "meta": {**meta, "split": "test", "wall_s": 2.0},
        "tasks": {"rewrite": {"cases": {"diffusion": [stored]}, "summary": {"diffusion": {}}}},
    }
    drafts = {"meta": {"split": "test", "wall_s": 3.0}, "tasks": {"draft": {"cases": {}}}}
    joined = rescore.join([drafts, run], note="two runs")
    assert joined["meta"] == {**meta, "split": "test", "wall_s": 5.0, "note": "two runs"}
    again = rescore.rescore(joined, cases)
    assert again["tasks"]["rewrite"]["cases"]["diffusion"][0]["followed"] is True
    assert again["tasks"]["rewrite"]["summary"]["diffusion"]["families"][0]["family"] == "formal"
    with pytest.raises(SystemExit, match="different splits"):
        rescore.join([run, {**drafts, "meta": {"split": "dev"}}])
    path = tmp_path / "run.json"
    path.write_text(json.dumps(run))
    assert rescore.main([str(path), "--out", str(tmp_path), "--name", "again"]) == 0
    # the command reads the split's own cases: the first test case is a grammar case
    assert "| fix grammar | 1 |" in (tmp_path / "again.md").read_text()
    assert load_split("test").rewrites[0].row == "fix grammar"


def test_the_command_reports_the_test_split_and_checks_both(tmp_path, monkeypatch):
    import json

    import tools.eval.__main__ as command
    import tools.eval.run as run

    seen = {}

    def fake_suite(cases, tasks, *_args, **_kwargs):
        seen.update(cases=cases, tasks=tasks)
        meta = {"model": "m", "settings": {}, "machine": "x", "split": "test"}
        return {"meta": meta, "tasks": {}}

    monkeypatch.setattr(run, "run_suite", fake_suite)
    assert command.main(["--out", str(tmp_path), "--name", "q", "--systems", "diffusion"]) == 0
    assert seen["tasks"] == ["draft", "rewrite", "structured", "values"]  # no cloze in test
    meta = json.loads((tmp_path / "q.json").read_text())["meta"]
    assert "0 of dev, 0 of test" in meta["contamination"]
    assert "shared_3grams" in meta["engine_leaks"]
    with pytest.raises(SystemExit, match="Unknown or no systems"):
        command.main(["--systems", "gpt"])
