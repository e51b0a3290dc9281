"""How many trials a fault test runs, and where its counts go.

``make test`` runs a small sample (``SETTLE_FAULT_TRIALS``, default 3; hypothesis examples
``SETTLE_LOCK_EXAMPLES``, default 60); ``make faults`` runs the full counts and collects each
test's (trials, passed) in the JSON file named by ``SETTLE_FAULT_REPORT``, which the README's
reliability section quotes.
"""

from __future__ import annotations

import json
import os
from pathlib import Path


def trials(default: int = 3) -> int:
    return int(os.environ.get("SETTLE_FAULT_TRIALS", default))


def lock_examples(default: int = 60) -> int:
    return int(os.environ.get("SETTLE_LOCK_EXAMPLES", default))


def record(name: str, trials: int, passed: int, **details: object) -> None:
    """Print the counts, and add them to the report file when one is named."""
    print(f"\n[faults] {name}: {passed}/{trials} passed {details or ''}".rstrip())
    report = os.environ.get("SETTLE_FAULT_REPORT")
    if not report:
        return
    path = Path(report)
    counts = json.loads(path.read_text(encoding="utf-8")) if path.is_file() else {}
    counts[name] = {"trials": trials, "passed": passed, **details}
    path.write_text(json.dumps(counts, indent=2) + "\n", encoding="utf-8")
