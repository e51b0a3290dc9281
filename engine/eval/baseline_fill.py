"""Fill tables with another checkout's engine: ``python baseline_fill.py ROOT CASES OUT``.

Run by :func:`engine.eval.values.baseline_tables` as a subprocess whose ``sys.path`` starts at
``ROOT`` (say a worktree of ``main``), so the engine before a change fills the same tables on
the same machine in the same run; only what every version has is used (``run_table``,
``Fill``, the embedded model's loader), and each fill's seconds and text are written to OUT.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path


def main(root: str, cases: str, out: str) -> None:
    sys.path.insert(0, str(Path(root).resolve()))
    from engine.config import SamplerSettings
    from engine.loading import load
    from engine.protocol import Fill, FillKind, LoadModel
    from engine.runtime import configure_threads
    from engine.structured.markdown import find_tables
    from engine.structured.slots import Filled
    from engine.structured.tables import run_table

    configure_threads()
    backend = load(LoadModel("embedded", device="cpu"), lambda _: None).backend
    found = []
    for case in json.loads(Path(cases).read_text("utf-8")):
        doc = case["document"]
        fill = Fill(1, FillKind.TABLE, doc, find_tables(doc)[0].span, add_rows=case["add_rows"],
                    cell_tokens=12, settings=SamplerSettings())  # fmt: skip
        started = time.perf_counter()
        done = [e for e in run_table(backend, fill) if isinstance(e, Filled)]
        seconds = time.perf_counter() - started
        found.append({"name": case["name"], "seconds": seconds, "text": done[0].value})
        print(f"[baseline] {case['name']} {seconds:.2f} s", file=sys.stderr, flush=True)
    Path(out).write_text(json.dumps(found, indent=1, ensure_ascii=False), "utf-8")


if __name__ == "__main__":
    main(*sys.argv[1:4])
