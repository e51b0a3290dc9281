"""Fill tables with another checkout's engine: ``python baseline_fill.py ROOT``.

Started by :class:`tools.eval.values.Baseline` as a subprocess whose ``sys.path`` starts at
``ROOT`` (say a worktree of ``main``). It loads the embedded model once, then reads one case
per line on standard input (``{"name", "document", "add_rows"}``) and answers each with one
line (``{"name", "seconds", "text"}``), so the suite can fill each table with the engine
before and after a change in turn, on the same machine under the same load. Only what every
version has is used: ``run_table``, ``Fill``, the embedded model's loader.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

CELL_TOKENS = 12


def main(root: str) -> None:
    sys.path.insert(0, str(Path(root).resolve()))
    from engine.core.config import SamplerSettings
    from engine.core.protocol import Fill, FillKind, LoadModel
    from engine.models.loading import load
    from engine.process.runtime import configure_threads
    from engine.structured.markdown import find_tables
    from engine.structured.slots import Filled
    from engine.structured.tables import run_table

    configure_threads()
    backend = load(LoadModel("embedded", device="cpu"), lambda _: None).backend
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        case = json.loads(line)
        doc = case["document"]
        fill = Fill(1, FillKind.TABLE, doc, find_tables(doc)[0].span, add_rows=case["add_rows"],
                    cell_tokens=CELL_TOKENS, settings=SamplerSettings())  # fmt: skip
        started = time.perf_counter()
        try:
            done = [e for e in run_table(backend, fill) if isinstance(e, Filled)]
        except Exception as error:  # an engine that refuses a table says why
            print(json.dumps({"name": case["name"], "error": str(error)}), flush=True)
            continue
        seconds = time.perf_counter() - started
        print(json.dumps({"name": case["name"], "seconds": seconds, "text": done[0].value}),
              flush=True)  # fmt: skip


if __name__ == "__main__":
    main(sys.argv[1])
