"""The structured-templates benchmark: every template's numbers, the targets, the collection."""

from __future__ import annotations

from pathlib import Path

from tests.helpers.backends import llama_backend
from tools.bench import templates
from tools.bench.report import write_report


def test_each_template_reports_forwards_time_and_repairs_and_the_targets() -> None:
    result = templates.template_fills(llama_backend(), quick=True)
    row = result["rows"][templates.INVOICE]
    assert row["forwards"] >= 1 and row["slots"] >= 1
    assert row["forwards_per_slot"] == row["forwards"] / row["slots"]
    assert row["repaired"] == len(row["repaired_slots"]) and isinstance(row["target_met"], bool)
    assert isinstance(result["invoice_instance"], dict) and result["first_fill_s"] > 0
    kinds = {part.split(" ")[0] for part in row["settled_by"].split(" · ")}
    assert {"choice", "date", "email", "string"} <= kinds


def test_the_eight_templates_and_the_large_schema_are_all_in_the_full_run() -> None:
    names = [p.name for p in templates.template_paths(quick=False)]
    assert len(names) == 9 and names[-1] == "crm-account-40.schema.json"
    assert sum(n.endswith(".md") for n in names) == 2


def test_the_collection_counts_and_the_report_shows_them(tmp_path: Path) -> None:
    collection = templates.coverage(llama_backend(), quick=True)
    assert collection["invalid"] == 0
    assert collection["valid"] + collection["refused"] == collection["schemas"] == 4
    row = {"forwards": 6, "forwards_per_slot": 0.5, "settle_s": 3.2, "slots": 12, "rounds": 1}
    section = {"first_fill_s": 4.0, "rows": {"invoice.schema.json": row | {"repaired": 0}}}
    path = tmp_path / "bench.md"
    write_report({"templates": section, "coverage": collection}, path)
    text = path.read_text()
    assert "## Structured templates" in text and "invoice.schema.json" in text
    assert f"{collection['valid']} valid" in text and "0 invalid" in text
    write_report({"templates": {"error": "RuntimeError: boom"}}, path)
    assert "templates failed: RuntimeError: boom" in path.read_text()
