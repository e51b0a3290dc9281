"""Several canvases settled as one batch (engine.backends.masked.batch): the same steps as one
after another on the tiny models, the same guarantees, one forward per kind of step."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.backends.base import Batching, Stepped, StepResult
from engine.backends.masked.backend import MaskedBackend
from engine.backends.masked.batch import rounds
from engine.core.canvas import Canvas, Kind, build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import plan_edit
from engine.core.protocol import Edit, EditMode, Span, TokenState
from engine.decode.allowed import allowed_mask
from tests.helpers.backends import counting_forwards, llama_backend, tiny_table
from tests.helpers.gemma import gemma_backend
from tests.helpers.tiny import tiny_llama

DOC = "Intro line here. The quick brown fox jumps over the lazy dog near the old river bank. Done."
# Three targets of different lengths: the batch pads them to the longest.
TARGETS = ("The quick brown fox jumps", "over the lazy dog near the old", "river bank.")
BASE = SamplerSettings(steps=12, block_length=4, passes=(), kv_cache=True)


def prefix_cached() -> MaskedBackend:
    """The embedded default's path: a prefix-causal model reading its prefix from a cache."""
    return MaskedBackend(
        tiny_llama(), tiny_table(), shifted=True, force_bidirectional=True, causal_prefix=True
    )


def causal_masked() -> MaskedBackend:
    """A prefix-causal model without a cache: fills run under the prefix-causal mask."""
    return MaskedBackend(
        tiny_llama(), tiny_table(), shifted=True, force_bidirectional=True, causal_prefix=True,
        cache_prefix=False,
    )  # fmt: skip


PATHS: dict[str, Callable[[], MaskedBackend]] = {
    "bidirectional": llama_backend,
    "prefix-cache": prefix_cached,
    "prefix-causal-mask": causal_masked,
}


def canvas_of(
    backend: MaskedBackend, target: str, own: SamplerSettings, locked: tuple[str, ...] = ()
) -> Canvas:
    start = DOC.index(target)
    locks = tuple(
        Span(start + target.index(word), start + target.index(word) + len(word)) for word in locked
    )
    edit = Edit(1, DOC, Span(start, start + len(target)), locks, "", EditMode.REWRITE, own)
    return build_canvas(plan_edit(edit), backend.table, own, backend.max_canvas_tokens)


def jobs_of(
    backend: MaskedBackend, base: SamplerSettings, locked: tuple[str, ...] = ()
) -> list[tuple[Canvas, SamplerSettings]]:
    jobs = []
    for seed, target in enumerate(TARGETS):
        own = base.with_changes(seed=seed)
        words = tuple(word for word in locked if word in target)
        jobs.append((canvas_of(backend, target, own, words), own))
    return jobs


def one_after_another(
    backend: MaskedBackend, jobs: list[tuple[Canvas, SamplerSettings]]
) -> list[list[StepResult]]:
    return [list(backend.denoise(canvas, own)) for canvas, own in jobs]


def batched(
    backend: MaskedBackend, jobs: list[tuple[Canvas, SamplerSettings]]
) -> tuple[list[list[StepResult]], list[list[Stepped]]]:
    """Each job's steps in the batch, and the rounds as they came."""
    rounds = backend.denoise_together(jobs)
    assert rounds is not None
    every = list(rounds)
    steps: list[list[StepResult]] = [[] for _ in jobs]
    for stepped in every:
        for step in stepped:
            steps[step.job].append(step.result)
    return steps, every


@pytest.mark.parametrize("path", sorted(PATHS))
@pytest.mark.parametrize(("temperature", "strength"), [(0.0, 1.0), (0.0, 0.5), (0.8, 0.5)])
def test_a_batch_settles_each_canvas_as_it_settles_alone(
    path: str, temperature: float, strength: float
) -> None:
    """Greedy and sampled, on every forward path the kept keys and values take: each canvas's
    steps in the batch are its steps alone (the tiny float32 model's padded, masked attention
    rounds too little to turn a choice; the embedded bf16 model may, see the module)."""
    backend = PATHS[path]()
    jobs = jobs_of(backend, BASE.with_changes(temperature=temperature, strength=strength))
    alone = one_after_another(backend, jobs)
    together, _ = batched(backend, jobs)
    for own, theirs in zip(together, alone, strict=True):
        assert [s.ids for s in own] == [s.ids for s in theirs]
        assert [s.draft_ids for s in own] == [s.draft_ids for s in theirs]
        assert [s.states for s in own] == [s.states for s in theirs]
        assert [s.forwards for s in own] == [s.forwards for s in theirs]


def test_each_round_runs_one_forward_per_kind_of_step_and_a_settled_canvas_drops_out() -> None:
    """Versions of one target share its prefix (read once from the cache); each round runs a
    forward for the canvases starting a block and one for those inside one."""
    backend = prefix_cached()
    target = "over the lazy dog near the old"
    jobs = []
    for seed in range(3):  # other seeds mask other positions: the canvases fall out of step
        own = BASE.with_changes(strength=0.5, seed=seed)
        jobs.append((canvas_of(backend, target, own), own))
    one_after_another(backend, jobs)  # the prefix is in the cache from here on
    alone = one_after_another(backend, jobs)
    alone = one_after_another(backend, jobs)
    with counting_forwards(backend.model) as counted:
        _, rounds = batched(backend, jobs)
    # A fill (a block starting) and a step inside a block run apart: at most two a round.
    assert len(rounds) <= counted.count <= 2 * len(rounds)
    assert counted.count < sum(len(steps) for steps in alone)
    assert len(rounds) == max(len(steps) for steps in alone)
    for stepped in rounds:  # a canvas's last step is its last round in the batch
        jobs_in = [step.job for step in stepped]
        assert jobs_in == sorted(set(jobs_in))
    finished = {step.job: n for n, stepped in enumerate(rounds) for step in stepped if step.last}
    for job, n in finished.items():
        assert all(step.job != job for stepped in rounds[n + 1 :] for step in stepped)
        assert len(alone[job]) == sum(step.job == job for stepped in rounds for step in stepped)


def guarantees(
    jobs: list[tuple[Canvas, SamplerSettings]], steps: list[list[StepResult]]
) -> list[bool]:
    """Per canvas: every locked position holds its seed token, every token is one its
    position allows, and the last step settles every position."""
    held = []
    table = tiny_table()
    for (canvas, _), own in zip(jobs, steps, strict=True):
        allowed = allowed_mask(canvas, table, len(table.tokenizer))
        last = own[-1].ids
        locked = all(
            last[i] == canvas.seed_ids[i] for i, k in enumerate(canvas.kinds) if k is Kind.LOCKED
        )
        fits = all(bool(allowed[i, token]) for i, token in enumerate(last))
        held.append(locked and fits and own[-1].done)
    return held


WORDS = ("quick", "fox", "lazy", "old", "bank")


@given(
    locked=st.lists(st.sampled_from(WORDS), unique=True, max_size=3),
    temperature=st.sampled_from([0.0, 0.7]),
    strength=st.sampled_from([0.5, 1.0]),
    seed=st.integers(0, 1000),
)
@settings(max_examples=12, deadline=None)
def test_batched_and_one_after_another_keep_the_same_guarantees(
    locked: list[str], temperature: float, strength: float, seed: int
) -> None:
    """Whatever is locked and however it samples: in a batch as alone, every lock holds,
    every token is allowed where it stands, and every canvas settles."""
    backend = prefix_cached()
    base = BASE.with_changes(temperature=temperature, strength=strength, seed=seed)
    jobs = [
        (c, o.with_changes(seed=seed + n))
        for n, (c, o) in enumerate(jobs_of(backend, base, tuple(locked)))
    ]
    together, _ = batched(backend, jobs)
    assert guarantees(jobs, together) == [True] * len(jobs)
    assert guarantees(jobs, one_after_another(backend, jobs)) == [True] * len(jobs)


def test_a_canvas_with_nothing_masked_reports_before_any_forward() -> None:
    """A canvas without a masked position (what :meth:`MaskedBackend.prepared` gives as its
    one result) reports it in a first round that runs no forward."""
    backend = llama_backend()
    jobs = jobs_of(backend, BASE.with_changes(strength=1.0))[:2]
    prepared = [backend.prepared(canvas, own) for canvas, own in jobs]
    ready = StepResult(4, [5], [5], [TokenState.LOCKED], [1.0], 0, True)
    steps = rounds(backend.path, [p for p in prepared if p is not None] + [ready])
    with counting_forwards(backend.model) as counted:
        first = next(steps)
        assert counted.count == 0
        assert [(s.job, s.last, s.result) for s in first] == [(2, True, ready)]
        assert {s.job for s in next(steps)} == {0, 1} and counted.count >= 1
    steps.close()


def test_nothing_runs_before_the_first_round_and_closing_stops_it() -> None:
    backend = llama_backend()
    with counting_forwards(backend.model) as counted:
        rounds = backend.denoise_together(jobs_of(backend, BASE))
        assert rounds is not None and counted.count == 0
        next(rounds)
        ran = counted.count
        rounds.close()
    assert ran >= 1 and counted.count == ran


def test_only_the_masked_family_batches() -> None:
    assert isinstance(llama_backend(), Batching)
    assert not isinstance(gemma_backend(), Batching)  # settles one canvas at a time
