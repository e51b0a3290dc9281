"""The DiffusionGemma backend on the stock ``generate``, with the tiny random model (canvas 32).

Random weights say nothing about quality, so these tests check what the backend guarantees
whatever the weights: locks, allowed sets, the canvas layout over several canvases, cancel,
error propagation, reproducibility, and that every setting reaches ``generate``.
"""

from __future__ import annotations

import copy
import dataclasses
import string
import threading
from collections.abc import Callable, Iterator

import pytest
import torch
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from transformers.models.diffusion_gemma.generation_diffusion_gemma import (
    DiffusionGemmaGenerationConfig,
    EntropyBoundSampler,
    EntropyBoundSamplerConfig,
)

from engine.backends.base import StepResult
from engine.backends.gemma.backend import GemmaBackend
from engine.backends.gemma.hooks import (
    SeededSampler,
    SharedProcessors,
    entropy_bound_accept,
    plan_allowed,
)
from engine.backends.gemma.prompt import prompt_ids
from engine.core.canvas import Canvas, Kind, build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import EditPlan, Free, Locked, Segment, Slot
from engine.core.protocol import Cancelled, Edit, EditMode, Proposal, Span, TokenState
from engine.core.tokens import TokenTable, charset
from engine.decode.processors import decode_processors
from engine.run.edit_run import run_edit
from tests.helpers.gemma import RecordingBackend, gemma_backend, gemma_table

FAST = SamplerSettings(steps=3, adaptive_stop=False, context_tokens=32, suffix_tokens=32)
DIGITS = charset("digits", "0123456789")


@pytest.fixture(scope="module")
def backend() -> GemmaBackend:
    torch.set_num_threads(1)
    return gemma_backend()


@pytest.fixture
def forwards(backend: GemmaBackend) -> Iterator[list[int]]:
    """Counts decoder forward passes (one per denoising step)."""
    calls: list[int] = []
    handle = backend.model.model.decoder.register_forward_hook(lambda *_: calls.append(1))
    yield calls
    handle.remove()


def hand_plan(*segments: Segment, after: str = "", instruction: str = "") -> EditPlan:
    return EditPlan(Span(0, 0), tuple(segments), "", after, instruction, EditMode.REWRITE)


def canvas_for(backend: GemmaBackend, plan: EditPlan, s: SamplerSettings = FAST) -> Canvas:
    return build_canvas(plan, backend.table, s, backend.max_canvas_tokens)


def run(backend: GemmaBackend, canvas: Canvas, s: SamplerSettings = FAST) -> list[StepResult]:
    return list(backend.denoise(canvas, s))


def locked_positions(canvas: Canvas) -> list[int]:
    return [i for i, k in enumerate(canvas.kinds) if k is Kind.LOCKED]


def gemma_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "gemma-generate"]


def assert_model_untouched(backend: GemmaBackend) -> None:
    hooks = ("_prepare_sampler", "_prepare_diffusion_stopping_criteria")
    assert not any(name in backend.model.__dict__ for name in hooks)
    assert not gemma_threads()


# --- locks and the invariants, property-based ----------------------------------------------

TEXT = string.ascii_letters + string.digits + " .,;:!?'-\n" + "éü—"


@st.composite
def edits(draw: st.DrawFn) -> Edit:
    before = draw(st.text(TEXT, max_size=20))
    low, high = draw(st.sampled_from([(2, 12), (10, 30), (40, 70)]))  # 70: several canvases
    target = draw(st.text(TEXT, min_size=low, max_size=high))
    assume(len(gemma_table().encode(target)) <= 80)  # with slack, within the 4 canvases allowed
    after = draw(st.text(TEXT, max_size=20))
    pairs = draw(st.integers(0, 3))
    cuts = sorted(
        draw(st.lists(st.integers(0, len(target)), min_size=2 * pairs, max_size=2 * pairs))
    )
    spans = [(a, b) for a, b in zip(cuts[::2], cuts[1::2], strict=False) if a < b]
    while (
        spans
        and not "".join(
            c for i, c in enumerate(target) if not any(a <= i < b for a, b in spans)
        ).strip()
    ):
        spans = spans[:-1]  # something but spaces stays free (else refused: test_plan)
    base = len(before)
    s = FAST.with_changes(
        steps=draw(st.integers(2, 4)),
        seed=draw(st.integers(0, 2**16)),
        strength=draw(st.sampled_from([0.3, 1.0])),
        temperature=draw(st.sampled_from([0.0, 0.7])),
        adaptive_stop=draw(st.booleans()),
    )
    locks = tuple(Span(base + a, base + b) for a, b in spans)
    target_span = Span(base, base + len(target))
    instruction = draw(st.sampled_from(["", "tighter"]))
    return Edit(1, before + target + after, target_span, locks, instruction, settings=s)


@settings(max_examples=200)
@given(edit=edits())
def test_locks_hold_and_nothing_outside_the_target_changes(backend: GemmaBackend, edit: Edit):
    spy = RecordingBackend(backend)
    events = list(run_edit(spy, edit))
    proposal = events[-1]
    assert isinstance(proposal, Proposal)
    document = edit.text[: edit.target.start] + proposal.text + edit.text[edit.target.end :]
    assert document.startswith(edit.text[: edit.target.start])
    assert document.endswith(edit.text[edit.target.end :])
    at = 0
    for lock in sorted(edit.locks):  # every lock, byte-exact, in order
        at = proposal.text.index(edit.text[lock.start : lock.end], at) + len(lock)
    assert "<fill>" not in proposal.text
    canvas = spy.canvases[-1]
    for result in spy.results:  # token-level: the locked ids never move, at any step
        assert all(result.draft_ids[i] == canvas.seed_ids[i] for i in locked_positions(canvas))
    assert spy.results[-1].done and not any(r.done for r in spy.results[:-1])
    assert_model_untouched(backend)


# --- allowed-token sets, several canvases, EOS ---------------------------------------------


def test_slots_only_ever_hold_allowed_tokens(backend: GemmaBackend, monkeypatch) -> None:
    table = backend.table
    plan = hand_plan(Locked("Total: "), Slot(DIGITS, 6), Locked(" of "), Slot(DIGITS, 4))
    canvas = canvas_for(backend, plan)
    slots = [i for i, k in enumerate(canvas.kinds) if k is Kind.SLOT]
    allowed = table.allowed_ids(DIGITS)
    sampled: list[tuple[list[int], list[bool]]] = []
    original = SeededSampler.accept_canvas

    def spy(self, current, denoiser, logits, cur_step):
        accepted = original(self, current, denoiser, logits, cur_step)
        sampled.append((denoiser[0].tolist(), self.accepted[0].tolist()))
        return accepted

    monkeypatch.setattr(SeededSampler, "accept_canvas", spy)
    results = run(backend, canvas, FAST.with_changes(steps=5, temperature=1.5))
    assert len(sampled) == len(results) == 5
    for denoised, accepted in sampled:  # what the sampler drew and accepted at each step
        assert all(denoised[i] in allowed for i in slots)
        assert any(accepted[i] for i in slots)
    for result in results:  # what the overlay shows and what assembly uses
        assert all(result.draft_ids[i] in allowed for i in slots)
        assert all(result.ids[i] in allowed for i in slots)


def test_a_plan_longer_than_one_canvas_spans_several(backend: GemmaBackend) -> None:
    plan = hand_plan(Free(budget=40), Locked(" Paris "), Free(budget=20), Locked("Bob"))
    canvas = canvas_for(backend, plan)
    assert len(canvas) > 2 * backend.canvas_length  # three canvases
    results = run(backend, canvas)
    assert [r.step for r in results] == list(range(1, 10))  # 3 steps per canvas
    assert results[-1].done and results[-1].forwards == 9
    assert {r.max_steps for r in results} == {9}
    for result in results:
        assert all(result.ids[i] == canvas.seed_ids[i] for i in locked_positions(canvas))
    c = backend.canvas_length
    during_first = results[0].states
    assert {during_first[i] for i in range(c, len(canvas))} <= {TokenState.NOISE, TokenState.LOCKED}
    during_second = results[3].states
    assert (
        TokenState.NOISE not in during_second[:c]
        and TokenState.PROVISIONAL not in during_second[:c]
    )


def test_each_canvas_starts_from_its_own_part_of_the_original(
    backend: GemmaBackend, monkeypatch
) -> None:
    words = "Alice met Bob in Paris and they talked about engines and the weather. " * 2
    canvas = canvas_for(backend, hand_plan(Free(seed=words), Locked("!")))
    starts: dict[int, tuple[torch.Tensor, torch.Tensor]] = {}
    original = SeededSampler.initialize_canvas

    def spy(self, batch_size, device):
        start = original(self, batch_size, device)
        starts.setdefault(id(start), (start[0].clone(), self.renoised[0].clone()))
        return start

    monkeypatch.setattr(SeededSampler, "initialize_canvas", spy)
    run(backend, canvas, FAST.with_changes(strength=0.3))
    c = backend.canvas_length
    filler = backend.table.specials.filler_id
    seeds = list(canvas.seed_ids) + [filler] * (-len(canvas) % c)
    assert len(starts) == len(seeds) // c >= 2
    for k, (start, renoised) in enumerate(starts.values()):
        expected = torch.tensor(seeds[k * c : (k + 1) * c])
        assert torch.equal(start[~renoised], expected[~renoised])
        assert renoised.any() and not renoised.all()


def test_the_tail_past_the_plan_is_forced_to_filler(backend: GemmaBackend) -> None:
    canvas = canvas_for(backend, hand_plan(Free(budget=5), Locked("Bob")))
    eos = set(backend.table.specials.eos_ids)
    mask = plan_allowed(canvas, backend.table, backend.vocab_size, backend.canvas_length, eos)
    assert mask.shape == (backend.canvas_length, backend.vocab_size)
    filler = backend.table.specials.filler_id
    tail = mask[len(canvas) :]
    assert tail[:, filler].all() and tail.sum() == len(tail)
    assert not mask[: len(canvas), sorted(eos)].any()
    processors = decode_processors(canvas, backend.table, mask)
    sampler = SeededSampler(backend.canvas_length, backend.vocab_size)
    processor = SharedProcessors(processors, canvas, sampler, 7, backend.canvas_length)
    assert processor.canvas_index(torch.zeros(1, 7 + 2 * backend.canvas_length)) == 2


def test_a_locked_eos_does_not_cut_the_canvas(backend: GemmaBackend, monkeypatch) -> None:
    tok = backend.table.tokenizer
    # As a real checkpoint's generation config has them: EOS ends a sequence, pad fills after it.
    monkeypatch.setattr(backend.model.generation_config, "eos_token_id", tok.eos_token_id)
    monkeypatch.setattr(backend.model.generation_config, "pad_token_id", tok.pad_token_id)
    plan = hand_plan(Free(budget=6), Locked("<eos>"), Free(budget=40))
    canvas = canvas_for(backend, plan)
    # A tokenizer that reads "<eos>" in text as the special token would seed this:
    at = locked_positions(canvas)[0]
    seeds = list(canvas.seed_ids)
    seeds[at] = tok.eos_token_id
    canvas = dataclasses.replace(canvas, seed_ids=tuple(seeds))
    results = run(backend, canvas)
    final = results[-1].ids
    assert len(final) == len(canvas) > backend.canvas_length
    assert final[at] == tok.eos_token_id
    assert tok.pad_token_id not in final  # the stock loop pads all after an EOS, then stops
    assert results[-1].step == 6  # both canvases were denoised


# --- states, reproducibility, settings ------------------------------------------------------


def test_states_say_locked_settled_provisional(backend: GemmaBackend) -> None:
    canvas = canvas_for(backend, hand_plan(Free(budget=12), Locked("Bob"), Free(budget=12)))
    results = run(backend, canvas, FAST.with_changes(steps=4, entropy_bound=0.5))
    locked = set(locked_positions(canvas))
    first = results[0].states
    assert {first[i] for i in locked} == {TokenState.LOCKED}
    free_states = {first[i] for i in range(len(canvas)) if i not in locked}
    assert free_states == {TokenState.SETTLED, TokenState.PROVISIONAL}  # a tight bound: some wait
    assert [r.forwards for r in results] == [1, 2, 3, 4]
    last = results[-1].states
    assert {last[i] for i in range(len(canvas)) if i not in locked} == {TokenState.SETTLED}
    assert all(results[0].confidence[i] == pytest.approx(1.0) for i in locked)


def test_the_same_seed_gives_the_same_output(backend: GemmaBackend) -> None:
    canvas = canvas_for(backend, hand_plan(Free(seed="Alice met Bob in Paris."), Locked("!")))
    s = FAST.with_changes(seed=7, strength=0.5, temperature=1.0)
    first = [(r.ids, r.states) for r in run(backend, canvas, s)]
    assert first == [(r.ids, r.states) for r in run(backend, canvas, s)]
    other = [(r.ids, r.states) for r in run(backend, canvas, s.with_changes(seed=8))]
    assert other != first


def test_settings_reach_the_generation_config(backend: GemmaBackend) -> None:
    s = SamplerSettings(steps=5, entropy_bound=0.5, temperature=0.6, adaptive_stop=True)
    kwargs = backend.generate_kwargs(s, prompt_length=7, canvases=2)
    config, model_kwargs = backend.model._prepare_generation_config(
        None, decoder_input_ids=torch.zeros(1, 32), **kwargs
    )
    assert set(model_kwargs) == {"decoder_input_ids"}  # every other name was a known setting
    defaults = DiffusionGemmaGenerationConfig._get_default_generation_params()
    assert config.max_denoising_steps == 5
    assert config.sampler_config.entropy_bound == 0.5
    assert config.t_max == 0.6
    assert config.t_min == pytest.approx(0.6 * defaults["t_min"] / defaults["t_max"])
    assert config.stability_threshold == defaults["stability_threshold"]
    assert config.confidence_threshold == defaults["confidence_threshold"]
    assert config.max_new_tokens == 64 and config.max_length == 71
    assert config.eos_token_id is None and config.disable_compile is True
    off = backend.generate_kwargs(s.with_changes(adaptive_stop=False, temperature=0.0), 7, 1)
    config, _ = backend.model._prepare_generation_config(None, **off)
    assert config.stability_threshold is None and config.confidence_threshold is None
    assert (config.t_min, config.t_max) == (defaults["t_min"], defaults["t_max"])


def test_steps_bound_the_drafts_and_adaptive_stop_ends_early(
    backend: GemmaBackend, forwards: list[int]
) -> None:
    # No token is a snowman, so every position is forced to the filler: certain and stable.
    canvas = canvas_for(backend, hand_plan(Slot(charset("snow", "☃"), 8)))
    assert len(run(backend, canvas, FAST.with_changes(steps=6))) == 6
    assert len(forwards) == 6
    stopped = run(backend, canvas, FAST.with_changes(steps=6, adaptive_stop=True))
    assert len(stopped) == 2 and stopped[-1].done  # stable needs one repeat of the argmax
    assert len(forwards) == 8


def test_the_entropy_bound_rule_matches_the_stock_sampler() -> None:
    torch.manual_seed(0)
    logits = torch.randn(2, 16, 50) * 3
    canvas = torch.zeros(2, 16, dtype=torch.long)
    for bound in (0.1, 1.0, 5.0):
        stock = EntropyBoundSampler(EntropyBoundSamplerConfig(entropy_bound=bound), 16, 50, 1)
        stock.accept_canvas(canvas, canvas, logits, 1)
        ours = entropy_bound_accept(torch.distributions.Categorical(logits=logits).entropy(), bound)
        assert torch.equal(ours, stock.accepted_token_mask)


# --- rewrite strength: the sampler itself ---------------------------------------------------


def make_sampler(strength: float) -> tuple[SeededSampler, torch.Tensor, torch.Tensor]:
    sampler = SeededSampler(canvas_length=16, vocab_size=400)
    seeds = torch.arange(100, 116).view(1, 16)
    renoisable = torch.tensor([i % 4 != 0 for i in range(16)]).view(1, 16)
    sampler.prepare(seeds, renoisable, strength)
    return sampler, seeds, renoisable


def test_the_seeded_start_keeps_exactly_the_positions_not_renoised() -> None:
    torch.manual_seed(0)
    sampler, seeds, renoisable = make_sampler(0.5)
    start = sampler.initialize_canvas(1, torch.device("cpu"))
    renoised = sampler.renoised
    assert renoised is not None
    assert torch.equal(start[~renoised], seeds[~renoised])
    assert not renoised[~renoisable].any()  # locks are never renoised
    assert 0 < int(renoised.sum()) < int(renoisable.sum())
    assert sampler.initialize_canvas(1, torch.device("cpu")) is start  # drawn once per canvas
    sampler, seeds, renoisable = make_sampler(1.0)
    sampler.initialize_canvas(1, torch.device("cpu"))
    assert torch.equal(sampler.renoised, renoisable)  # strength 1: all free positions are noise


def test_renoising_goes_back_toward_the_seed() -> None:
    torch.manual_seed(0)
    sampler, seeds, renoisable = make_sampler(1e-9)  # ~nothing drawn as noise
    accepted_canvas = torch.full((1, 16), 7)
    sampler.accepted = torch.tensor([i < 8 for i in range(16)]).view(1, 16)
    out = sampler.renoise_canvas(accepted_canvas, 1)
    assert torch.equal(out[:, :8], accepted_canvas[:, :8])  # accepted tokens stay
    assert torch.equal(out[:, 8:], seeds[:, 8:])  # the rest goes back to the original
    sampler, seeds, renoisable = make_sampler(1.0)
    sampler.accepted = torch.zeros(1, 16, dtype=torch.bool)
    out = sampler.renoise_canvas(accepted_canvas, 1)
    assert torch.equal(out[~renoisable], seeds[~renoisable])
    assert int((out[renoisable] != seeds[renoisable]).sum()) >= 10  # uniform noise, as stock


# --- cancel, errors, one request at a time --------------------------------------------------


def test_closing_after_the_first_step_stops_the_model(
    backend: GemmaBackend, forwards: list[int]
) -> None:
    canvas = canvas_for(backend, hand_plan(Free(budget=20), Locked("Bob")))
    steps = backend.denoise(canvas, FAST.with_changes(steps=8))
    assert next(steps).step == 1
    steps.close()
    assert len(forwards) == 1  # lock-step: the model waited for the consumer and never ran on
    assert_model_untouched(backend)
    assert run(backend, canvas)[-1].done  # the model serves the next call normally


def test_cancel_through_run_edit(backend: GemmaBackend, forwards: list[int]) -> None:
    text = "Alice met Bob in Paris."
    edit = Edit(1, text, Span(0, len(text)), (Span(10, 13),), settings=FAST.with_changes(steps=8))
    seen: list[object] = []
    for event in run_edit(backend, edit, cancelled=lambda: len(seen) >= 2):
        seen.append(event)
    assert isinstance(seen[-1], Cancelled) and len(forwards) == 1
    assert_model_untouched(backend)
    assert isinstance(list(run_edit(backend, edit))[-1], Proposal)


def raise_in_decoder(backend: GemmaBackend, monkeypatch) -> Callable[[], None]:
    calls: list[int] = []

    def hook(*_: object) -> None:
        calls.append(1)
        if len(calls) == 2:
            raise RuntimeError("boom inside generate")

    return backend.model.model.decoder.register_forward_hook(hook).remove


def raise_in_processor(backend: GemmaBackend, monkeypatch) -> Callable[[], None]:
    def processor(self, input_ids, scores, cur_step):
        raise RuntimeError("boom inside generate")

    monkeypatch.setattr(SharedProcessors, "__call__", processor)
    return monkeypatch.undo


@pytest.mark.parametrize("inject", [raise_in_decoder, raise_in_processor])
def test_an_error_inside_generate_reaches_the_consumer(
    backend: GemmaBackend, monkeypatch, inject
) -> None:
    canvas = canvas_for(backend, hand_plan(Free(budget=10)))
    remove = inject(backend, monkeypatch)
    try:
        with pytest.raises(RuntimeError, match="boom inside generate"):
            run(backend, canvas)
    finally:
        remove()
    assert_model_untouched(backend)
    assert run(backend, canvas)[-1].done


def test_a_second_request_waits_for_the_first_to_close(backend: GemmaBackend) -> None:
    canvas = canvas_for(backend, hand_plan(Free(budget=10)))
    first = backend.denoise(canvas, FAST)
    next(first)
    with pytest.raises(RuntimeError, match="already running"):
        next(backend.denoise(canvas, FAST))
    first.close()
    assert run(backend, canvas)[-1].done


# --- the prompt -----------------------------------------------------------------------------


def edit_plan() -> EditPlan:
    return hand_plan(
        Free(seed="Alice met "), Locked("Bob"), after=" They left.", instruction="tighter"
    )


def test_the_plain_prompt_ends_with_the_text_before(backend: GemmaBackend) -> None:
    table = backend.table
    plan = EditPlan(
        Span(6, 19), edit_plan().segments, "Intro.", " They left.", "tighter", EditMode.REWRITE
    )
    ids = prompt_ids(plan, table, FAST)
    assert ids[0] == table.specials.bos_id
    assert ids[-len(table.encode("Intro.")) :] == table.encode("Intro.")
    text = table.decode(ids)
    assert "tighter" in text and "They left." in text and "Alice met Bob" in text


def test_a_chat_template_carries_the_whole_request() -> None:
    tok = copy.deepcopy(gemma_table().tokenizer)
    tok.chat_template = (
        "{{ bos_token }}{% for m in messages %}[{{ m['role'] }}]{{ m['content'] }}\n{% endfor %}"
        "{% if add_generation_prompt %}[model]{% endif %}"
    )
    table = TokenTable(tok, gemma_table().specials)
    ids = prompt_ids(edit_plan(), table, FAST)
    assert ids[0] == table.specials.bos_id and ids[1] != table.specials.bos_id
    text = tok.decode(ids)
    for part in ("[user]tighter", "Alice met Bob", '"Bob"', "They left.", "[model]"):
        assert part in text
    assert text.endswith("[model]")
