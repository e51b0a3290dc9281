"""The masked-diffusion backend on tiny random models: locks, constraints, schedules, cancel."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.backends.base import StepResult
from engine.backends.masked.backend import MaskedBackend
from engine.backends.masked.blocks import choose_masked, plan_blocks
from engine.backends.masked.schedule import transfer_schedule
from engine.backends.masked.sizing import fit_context, max_canvas
from engine.core.canvas import Canvas, Kind, build_canvas
from engine.core.config import SamplerSettings
from engine.core.errors import BadRequest
from engine.core.plan import EditPlan, Free, Locked, Segment, Slot
from engine.core.protocol import (
    Cancelled,
    DraftView,
    Edit,
    EditMode,
    Frame,
    Proposal,
    Span,
    TokenState,
)
from engine.core.tokens import charset
from engine.run.edit_run import run_edit
from tests.helpers.backends import (
    BACKENDS,
    RowEcho,
    RowEchoKeeping,
    counting_forwards,
    llama_backend,
    tiny_table,
)
from tests.helpers.tiny import tiny_llama

DIGITS = charset("digits", "0123456789")
FAMILIES = sorted(BACKENDS)


def plan_of(
    *segments: Segment, before: str = "", after: str = "", instruction: str = ""
) -> EditPlan:
    at = len(before)
    return EditPlan(Span(at, at), tuple(segments), before, after, instruction, EditMode.REWRITE)


def denoise(
    backend: MaskedBackend, plan: EditPlan, **changes: object
) -> tuple[Canvas, list[StepResult]]:
    sampler = SamplerSettings().with_changes(**changes)
    canvas = build_canvas(plan, backend.table, sampler, backend.max_canvas_tokens)
    return canvas, list(backend.denoise(canvas, sampler))


def newly_settled(results: list[StepResult]) -> list[set[int]]:
    """Per step, the positions that became SETTLED in it (everything starts unsettled)."""
    before: set[int] = set()
    out = []
    for result in results:
        now = {i for i, s in enumerate(result.states) if s is TokenState.SETTLED}
        out.append(now - before)
        before = now
    return out


# --- the edit invariants, as properties --------------------------------------------------------


@st.composite
def edits(draw: st.DrawFn) -> Edit:
    text = draw(st.text(max_size=24))
    start = draw(st.integers(0, len(text)))
    end = draw(st.integers(start, len(text)))
    sampler = SamplerSettings(
        steps=4,
        draft_tokens=draw(st.integers(1, 6)),
        temperature=draw(st.sampled_from([0.0, 1.0])),
        strength=draw(st.sampled_from([0.4, 1.0])),
        threshold=draw(st.sampled_from([None, 0.3])),
        block_length=draw(st.sampled_from([0, 3])),
        seed=draw(st.integers(0, 2**16)),
        context_tokens=16,
        suffix_tokens=16,
        kv_cache=draw(st.booleans()),
    )
    if start == end:
        return Edit(1, text, Span(start, end), mode=EditMode.DRAFT, settings=sampler)
    cuts = sorted(draw(st.lists(st.integers(start, end), max_size=6, unique=True)))
    locks = [Span(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False) if a < b]
    while locks and not unlocked(text, start, end, locks).strip():
        locks = locks[:-1]  # a selection locked but for spaces is refused by design (test_plan)
    instruction = draw(st.sampled_from(["", "tighter"]))
    return Edit(1, text, Span(start, end), tuple(locks), instruction, EditMode.REWRITE, sampler)


def unlocked(text: str, start: int, end: int, locks: list[Span]) -> str:
    """The selection's text outside its locks."""
    inside = [i for lock in locks for i in range(lock.start, lock.end)]
    return "".join(c for i, c in enumerate(text[start:end], start) if i not in inside)


def run_to_proposal(backend: MaskedBackend, edit: Edit) -> tuple[Proposal, list[Frame]]:
    events = list(run_edit(backend, edit))
    frames = [e for e in events if isinstance(e, Frame)]
    assert isinstance(events[-1], Proposal)
    return events[-1], frames


def check_edit_invariants(backend: MaskedBackend, edit: Edit) -> None:
    proposal, frames = run_to_proposal(backend, edit)
    document, target = edit.text, edit.target
    locked = [s.text for s in proposal.segments if s.locked]
    assert locked == [document[lock.start : lock.end] for lock in sorted(edit.locks)]
    assert proposal.text == "".join(s.text for s in proposal.segments)
    at = proposal.text.find  # every locked span appears byte-exact, in order, in the text
    cursor = 0
    for text in locked:
        cursor = at(text, cursor)
        assert cursor >= 0
        cursor += len(text)
    updated = document[: target.start] + proposal.text + document[target.end :]
    assert updated[: target.start] == document[: target.start]
    assert updated[target.start + len(proposal.text) :] == document[target.end :]
    for special in ("<fill>", "<mask>"):
        if special not in document:
            assert special not in proposal.text
    view = DraftView()
    for frame in frames:
        view.apply(frame)
    assert all(t.state in (TokenState.SETTLED, TokenState.LOCKED) for t in view.tokens)


@pytest.mark.parametrize("family", FAMILIES)
@settings(max_examples=200)
@given(edit=edits())
def test_locks_and_outside_text_survive_any_edit(family: str, edit: Edit) -> None:
    check_edit_invariants(BACKENDS[family](), edit)


# --- constraints ------------------------------------------------------------------------------


def digits_plan() -> EditPlan:
    return plan_of(
        Locked('{"age": '),
        Slot(DIGITS, 4),
        Locked(', "qty": '),
        Slot(DIGITS, 3, seed="x7"),  # a seed outside the set must never survive
        Locked("}"),
        before="Record: ",
        after="\n",
    )


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("strength", [1.0, 0.5])
def test_slots_stay_in_their_allowed_sets_at_every_step(family: str, strength: float) -> None:
    backend = BACKENDS[family]()
    allowed = tiny_table().allowed_ids(DIGITS)
    canvas, results = denoise(backend, digits_plan(), temperature=2.0, strength=strength, steps=4)
    slots = [i for i, kind in enumerate(canvas.kinds) if kind is Kind.SLOT]
    locked = [i for i, kind in enumerate(canvas.kinds) if kind is Kind.LOCKED]
    for result in results:
        assert [result.ids[i] for i in locked] == [canvas.seed_ids[i] for i in locked]
        for i in slots:
            if result.states[i] is TokenState.SETTLED:
                assert result.ids[i] in allowed
                assert result.draft_ids[i] == result.ids[i]
    assert results[-1].done
    assert all(results[-1].ids[i] in allowed for i in slots)


@pytest.mark.parametrize("family", FAMILIES)
def test_free_positions_never_get_the_mask_or_banned_specials(family: str) -> None:
    backend = BACKENDS[family]()
    banned = tiny_table().specials.banned
    assert tiny_table().specials.mask_id in banned
    plan = plan_of(Free(budget=24), Locked(" end"), Free(budget=8))
    canvas, results = denoise(backend, plan, temperature=5.0, steps=6)
    free = canvas.generated_positions()
    for result in results:
        settled = [i for i in free if result.states[i] is TokenState.SETTLED]
        assert not {result.ids[i] for i in settled} & banned
        shown = [i for i in free if result.states[i] is not TokenState.NOISE]
        assert not {result.draft_ids[i] for i in shown} & banned
    assert not {results[-1].ids[i] for i in free} & banned


# --- schedules --------------------------------------------------------------------------------


def free_plan(tokens: int) -> EditPlan:
    return plan_of(Free(budget=tokens), before="The quick brown fox")


@pytest.mark.parametrize("family", FAMILIES)
def test_fixed_mode_keeps_the_step_budget_and_llada_schedule(family: str) -> None:
    backend = BACKENDS[family]()
    for steps in (5, 7):
        _, results = denoise(backend, free_plan(20), steps=steps, block_length=0)
        assert [r.forwards for r in results] == list(range(1, steps + 1))
        assert [len(s) for s in newly_settled(results)] == transfer_schedule(20, steps)
        assert [r.done for r in results] == [False] * (steps - 1) + [True]
    # More steps than tokens: one token per forward, no idle forwards.
    _, results = denoise(backend, free_plan(6), steps=32, block_length=0)
    assert len(results) == 6


@pytest.mark.parametrize("family", FAMILIES)
def test_threshold_commits_at_least_one_per_step_and_several_when_confident(family: str) -> None:
    backend = BACKENDS[family]()
    # Nothing is that confident: exactly one token per forward.
    _, strict = denoise(backend, free_plan(12), steps=64, block_length=0, threshold=1.0)
    assert [len(s) for s in newly_settled(strict)] == [1] * 12
    # Everything passes a tiny threshold: far fewer forwards than tokens.
    _, loose = denoise(backend, free_plan(12), steps=64, block_length=0, threshold=0.0001)
    assert all(len(s) >= 1 for s in newly_settled(loose))
    assert loose[-1].forwards < 12
    assert loose[-1].done and TokenState.PROVISIONAL not in loose[-1].states


@pytest.mark.parametrize("family", FAMILIES)
def test_a_later_block_never_commits_before_the_earlier_one_is_done(family: str) -> None:
    backend = BACKENDS[family]()
    _, results = denoise(
        backend, free_plan(16), steps=12, block_length=4, temperature=1.0, threshold=0.2
    )
    blocks = [set(range(b, b + 4)) for b in range(0, 16, 4)]
    for result, new in zip(results, newly_settled(results), strict=True):
        block = next(i for i, b in enumerate(blocks) if new & b)
        assert new <= blocks[block]
        settled = {i for i, s in enumerate(result.states) if s is TokenState.SETTLED}
        assert set().union(*blocks[:block]) <= settled
        mask_id = tiny_table().specials.mask_id
        for i in set().union(*blocks[block + 1 :]):
            assert result.states[i] is TokenState.NOISE
            assert result.draft_ids[i] == mask_id  # a later block has nothing to show yet
        for i in blocks[block] - settled:
            assert result.states[i] is TokenState.PROVISIONAL
    assert results[-1].forwards <= 12


def test_more_blocks_than_steps_are_merged_to_keep_the_budget() -> None:
    masked = torch.ones(16, dtype=torch.bool)
    blocks = plan_blocks(masked, block_length=2, steps=3)
    assert [share for _, share in blocks] == [1, 1, 1]
    assert [int(b.sum()) for b, _ in blocks] == [6, 6, 4]
    assert torch.equal(torch.stack([b for b, _ in blocks]).sum(0), torch.ones(16, dtype=torch.long))


def test_blocks_without_masked_positions_cost_no_steps() -> None:
    masked = torch.tensor([False] * 4 + [True] * 4 + [False] * 4)
    blocks = plan_blocks(masked, block_length=4, steps=9)
    assert len(blocks) == 1 and blocks[0][1] == 4


# --- rewrite strength and seeding ------------------------------------------------------------

SEED_TEXT = "Paris is the capital of France. Berlin is the capital of Germany."


def seeded_plan() -> EditPlan:
    tokens = len(tiny_table().encode(SEED_TEXT))
    return plan_of(Free(seed=SEED_TEXT, budget=tokens), before="Facts: ")


@pytest.mark.parametrize("family", FAMILIES)
def test_low_strength_renoises_only_its_share_and_keeps_the_rest(family: str) -> None:
    backend = BACKENDS[family]()
    canvas, results = denoise(backend, seeded_plan(), strength=0.3, steps=64, temperature=1.0)
    n = len(canvas)
    renoised = max(1, round(0.3 * n))
    assert results[-1].forwards == renoised  # one commit per forward: the renoised count
    kept = sum(a == b for a, b in zip(results[-1].ids, canvas.seed_ids, strict=True))
    assert kept >= n - renoised
    first_settled = {i for i, s in enumerate(results[0].states) if s is TokenState.SETTLED}
    assert len(first_settled) == n - renoised + 1
    assert all(
        results[0].ids[i] == canvas.seed_ids[i] for i in first_settled - newly_settled(results)[0]
    )


def test_choose_masked_takes_a_seeded_share_and_always_renoises_misfits() -> None:
    generated = torch.tensor([False] + [True] * 10)
    fits = torch.tensor([True] * 10 + [False])

    def pick(seed: int, strength: float) -> torch.Tensor:
        return choose_masked(generated, fits, strength, torch.Generator().manual_seed(seed))

    assert torch.equal(pick(0, 1.0), generated)
    assert torch.equal(pick(3, 0.4), pick(3, 0.4))
    for seed in range(5):
        masked = pick(seed, 0.4)
        assert not masked[0]  # a locked position
        assert masked[10]  # its seed does not fit
        assert 4 <= int(masked.sum()) <= 5
    assert int(pick(0, 0.01).sum()) >= 1


@pytest.mark.parametrize("family", FAMILIES)
def test_same_seed_same_output_other_seeds_differ(family: str) -> None:
    backend = BACKENDS[family]()

    def final(seed: int) -> tuple[list[int], list[list[int]]]:
        _, results = denoise(
            backend, seeded_plan(), strength=0.6, temperature=1.0, seed=seed, steps=6
        )
        return results[-1].ids, [r.draft_ids for r in results]

    assert final(0) == final(0)
    assert any(final(seed)[0] != final(0)[0] for seed in (1, 2, 3))


# --- cancel, limits, context ------------------------------------------------------------------


def cancel_after(frames: int) -> tuple[Callable[[], bool], list[object]]:
    seen: list[object] = []
    return (lambda: sum(isinstance(e, Frame) for e in seen) >= frames), seen


@pytest.mark.parametrize("family", FAMILIES)
@pytest.mark.parametrize("frames", [1, 2])
def test_cancel_stops_before_the_next_forward_and_the_backend_still_serves(
    family: str, frames: int
) -> None:
    backend = BACKENDS[family]()
    # One block: 8 forwards (no self-check after it: that reads the rewrite twice more).
    settings = SamplerSettings(steps=8, block_length=32, strength=1.0, passes=("shorten",))
    edit = Edit(5, SEED_TEXT, Span(0, 31), settings=settings)
    cancelled, seen = cancel_after(frames)
    with counting_forwards(backend.model) as counter:
        for event in run_edit(backend, edit, cancelled):
            seen.append(event)
    assert isinstance(seen[-1], Cancelled)
    assert counter.count == frames - 1  # frame 1 is the seed, every later one a forward
    proposal, _ = run_to_proposal(backend, edit)
    again, _ = run_to_proposal(backend, edit)
    assert proposal.text == again.text and proposal.metrics.forwards == 8


def test_an_edit_longer_than_the_canvas_is_a_bad_request() -> None:
    backend = llama_backend()
    text = "漢字" * 400
    with pytest.raises(BadRequest, match="too long"):
        next(run_edit(backend, Edit(1, text, Span(0, len(text)))))
    draft = SamplerSettings(draft_tokens=backend.max_canvas_tokens + 1)
    with pytest.raises(BadRequest):
        next(run_edit(backend, Edit(1, "x", Span(1, 1), mode=EditMode.DRAFT, settings=draft)))


def test_canvas_and_context_limits_follow_the_model() -> None:
    assert llama_backend().max_canvas_tokens == max_canvas(1024) == 768
    assert max_canvas(8192) == 1024 and max_canvas(256) == 128
    instruction, before, after = fit_context([1] * 5, list(range(100)), list(range(100)), 35)
    assert len(instruction) == 5 and len(before) + len(after) == 30
    assert before == list(range(80, 100)) and after == list(range(10))


@pytest.mark.parametrize("family", FAMILIES)
def test_long_context_is_windowed_to_the_model(family: str) -> None:
    backend = BACKENDS[family]()
    text = "word " * 3000
    edit = Edit(1, text, Span(7000, 7020), settings=SamplerSettings(steps=2, context_tokens=5000))
    lengths: list[int] = []
    hook = backend.model.register_forward_pre_hook(
        lambda _m, _a, kw: lengths.append(kw["input_ids"].shape[1]), with_kwargs=True
    )
    try:
        proposal, _ = run_to_proposal(backend, edit)
    finally:
        hook.remove()
    assert proposal.target == Span(7000, 7020)
    assert lengths and all(n <= backend.max_positions for n in lengths)
    assert lengths[0] > 700  # the window is used, not dropped


def test_forced_bidirectional_attention_lets_the_text_after_matter() -> None:
    plan = plan_of(Free(budget=6), before="The capital of France", after=" is Paris.")
    other = plan_of(Free(budget=6), before="The capital of France", after=" 12345 and pen.")
    for bidirectional in (True, False):
        backend = MaskedBackend(
            tiny_llama(), tiny_table(), shifted=True, force_bidirectional=bidirectional
        )
        # The first step's confidences: what the model predicts, before any guard or commit
        # order can make two different predictions settle to the same tokens.
        first = denoise(backend, plan, steps=3)[1][0].confidence
        second = denoise(backend, other, steps=3)[1][0].confidence
        differs = max(abs(a - b) for a, b in zip(first, second, strict=True)) > 1e-5
        assert differs is bidirectional  # causal rows differ only by float rounding


@pytest.mark.parametrize("model_type", [RowEcho, RowEchoKeeping])
@pytest.mark.parametrize("shifted", [False, True])
def test_shifted_models_read_the_row_before_each_position(model_type: type, shifted: bool) -> None:
    backend = MaskedBackend(model_type(), tiny_table(), shifted=shifted, force_bidirectional=False)
    before = "Facts: "
    canvas, results = denoise(backend, plan_of(Free(budget=5), before=before), steps=2)
    start = 1 + len(tiny_table().encode(before))  # the start token, then the text before
    expected = [RowEcho.FIRST + start + j - int(shifted) for j in range(len(canvas))]
    assert results[-1].ids == expected


def test_nothing_to_generate_yields_one_done_result_without_forwards() -> None:
    backend = llama_backend()
    with counting_forwards(backend.model) as counter:
        canvas, results = denoise(backend, plan_of(Locked("all of it")))
    assert counter.count == 0
    assert len(results) == 1 and results[0].done and results[0].forwards == 0
    assert results[0].ids == list(canvas.seed_ids)
    assert set(results[0].states) == {TokenState.LOCKED}
