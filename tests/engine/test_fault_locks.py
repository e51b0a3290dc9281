"""Faults at scale: locks under fuzzing, across both model families (tiny models). Every case
runs a real edit to its proposal; every lock comes back byte-exact and in order, every byte
outside the target is unchanged.

``make test`` runs a sample (``SETTLE_LOCK_EXAMPLES`` cases, default 60, shared out between the
families); ``make faults`` runs 10,000 cases in all and records the counts for the README.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
import torch
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.protocol import Edit
from tests.engine import test_gemma as gemma_cases
from tests.engine import test_masked as masked_cases
from tests.helpers.backends import llama_backend, modernbert_backend
from tests.helpers.faults import lock_examples, record
from tests.helpers.gemma import gemma_backend

# family → (backend builder, edit strategy); the cases are shared out evenly between them.
FAMILIES: dict[str, tuple[Callable[[], object], Callable[[], st.SearchStrategy[Edit]]]] = {
    "masked (tiny Llama, shifted)": (llama_backend, masked_cases.edits),
    "masked (tiny ModernBERT)": (modernbert_backend, masked_cases.edits),
    "DiffusionGemma (tiny)": (gemma_backend, gemma_cases.edits),
}


@pytest.mark.parametrize("family", list(FAMILIES))
def test_locks_hold_under_fuzzing(family: str) -> None:
    torch.set_num_threads(1)
    build, strategy = FAMILIES[family]
    backend = build()
    examples = -(-lock_examples() // len(FAMILIES))  # rounded up: never fewer in all
    ran: list[int] = []

    @settings(
        max_examples=examples,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
    @given(edit=strategy())
    def case(edit: Edit) -> None:
        ran.append(1)
        masked_cases.check_edit_invariants(backend, edit)  # type: ignore[arg-type]

    case()
    record(f"lock fuzzing: {family}", len(ran), len(ran))
