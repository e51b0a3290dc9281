"""``python -m tools.eval.rescore``: measure stored outputs again, and join runs into one report.

The suite's family checks read only text, so a run's outputs (kept in its JSON) can be
checked again with the checks as they are now, without loading a model: each rewrite and
draft record gets its checks recomputed against its case, and the per-family rows with them.
Several runs of one split (say the drafts of one and the rewrites of another) join into one
report; a later file's task replaces an earlier one's, and their times add up.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from tools.eval.cases import Cases, load_split
from tools.eval.families import draft_checks, draft_row, family_rows, rewrite_checks


def rescore(results: dict[str, Any], cases: Cases) -> dict[str, Any]:
    """``results`` with every family check and row recomputed from the stored texts."""
    rewrite = results["tasks"].get("rewrite")
    if rewrite:
        for system, records in rewrite["cases"].items():
            for case, record in zip(cases.rewrites, records, strict=False):
                record.update(rewrite_checks(case, record["text"]))
            rewrite["summary"][system]["families"] = family_rows(records)
    draft = results["tasks"].get("draft")
    if draft:
        for system, records in draft["cases"].items():
            for draft_case, record in zip(cases.drafts, records, strict=False):
                record.update(draft_checks(draft_case, record["text"]))
            draft["summary"][system]["prompted"] = draft_row(records)
    return results


def join(runs: list[dict[str, Any]], note: str = "") -> dict[str, Any]:
    splits = {run["meta"].get("split") for run in runs}
    if len(splits) != 1:
        raise SystemExit(f"These runs are of different splits: {sorted(map(str, splits))}")
    joined: dict[str, Any] = {"meta": dict(runs[-1]["meta"]), "tasks": {}}
    for run in runs:
        joined["tasks"].update(run["tasks"])
    joined["meta"]["wall_s"] = sum(run["meta"].get("wall_s", 0.0) for run in runs)
    if note:
        joined["meta"]["note"] = note
    return joined


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m tools.eval.rescore", description=__doc__)
    parser.add_argument("runs", nargs="+", type=Path, help="result JSON files of one split")
    parser.add_argument("--out", type=Path, default=Path("docs"))
    parser.add_argument("--name", required=True, help="file stem of the joined report")
    parser.add_argument("--note", default="", help="a line the report quotes")
    args = parser.parse_args(argv)
    from tools.eval.__main__ import write

    runs = [json.loads(path.read_text(encoding="utf-8")) for path in args.runs]
    joined = join(runs, args.note)
    write(rescore(joined, load_split(joined["meta"].get("split", "test"))), args.out, args.name)
    return 0


if __name__ == "__main__":
    sys.exit(main())
