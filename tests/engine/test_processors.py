"""The decode processors are one list for every backend family: the same bans hold in both."""

from __future__ import annotations

import torch
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.backends.gemma.hooks import SeededSampler, SharedProcessors, plan_allowed
from engine.core.canvas import Canvas, Kind, build_canvas
from engine.core.config import SamplerSettings
from engine.core.plan import plan_edit
from engine.core.protocol import Edit, EditMode, Span
from engine.decode.allowed import allowed_mask
from engine.decode.processors import (
    AllowedSet,
    GuardBans,
    StepView,
    decode_processors,
    prose_guards,
)
from engine.run.edit_run import run_edit
from tests.helpers.backends import llama_backend
from tests.helpers.gemma import RecordingBackend, gemma_backend, gemma_table

TEXT = "Paris is the capital of France. The quick brown fox jumps over the lazy dog."
SETTINGS = SamplerSettings(steps=12, passes=())


def rewrite_canvas(text: str = TEXT, lock: str = "France") -> Canvas:
    start = text.index(lock)
    edit = Edit(1, text, Span(0, len(text)), (Span(start, start + len(lock)),))
    return build_canvas(plan_edit(edit), gemma_table(), SETTINGS, 512)


def test_both_families_build_the_same_list() -> None:
    canvas = rewrite_canvas()
    table = gemma_table()
    vocab = len(table.tokenizer)
    masked = decode_processors(canvas, table, allowed_mask(canvas, table, vocab))
    eos = set(table.specials.eos_ids)
    gemma = decode_processors(canvas, table, plan_allowed(canvas, table, vocab, 128, eos))
    assert [type(p) for p in masked] == [type(p) for p in gemma] == [AllowedSet, GuardBans]


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_the_gemma_hook_bans_what_the_masked_step_bans(data: st.DataObject) -> None:
    """The same committed canvas and logits through the masked family's call and through
    DiffusionGemma's logits processor: the same logits on every row of the plan."""
    canvas = rewrite_canvas()
    table, n = gemma_table(), len(canvas)
    vocab, length = len(table.tokenizer), 64  # one canvas of 64 covers the plan
    allowed = plan_allowed(canvas, table, vocab, length, set(table.specials.eos_ids))
    processors = decode_processors(canvas, table, allowed)
    taken = [k is Kind.LOCKED or data.draw(st.booleans()) for k in canvas.kinds]
    tokens = [
        t if k is Kind.LOCKED else data.draw(st.integers(0, vocab - 1))
        for t, k in zip(canvas.seed_ids, canvas.kinds, strict=True)
    ]
    logits = torch.randn(length, vocab, generator=torch.Generator().manual_seed(len(tokens)))
    open_ = [not t for t in taken]
    seeds = canvas.seed_ids
    values = [tok if t else seed for tok, t, seed in zip(tokens, taken, seeds, strict=True)]
    rows = list(range(n))
    host = (rows, values, open_)
    view = StepView(torch.tensor(rows), torch.tensor(values), torch.tensor(open_), host)
    masked = processors(view, logits[:n].clone())
    sampler = SeededSampler(length, vocab)
    sampler.accepted_canvas = (0, tokens + [0] * (length - n), taken + [False] * (length - n))
    hook = SharedProcessors(processors, canvas, sampler, prompt_length=3, canvas_length=length)
    out = hook(torch.zeros(1, 3, dtype=torch.long), logits[None].clone(), torch.tensor(0))
    assert torch.equal(out[0, :n], masked)
    filler = table.specials.filler_id
    assert out[0, n:].argmax(-1).eq(filler).all()  # the tail past the plan: filler only


def echo_held(canvas: Canvas, ids: list[int]) -> bool:
    """No free position beside a lock holds a token that repeats the lock's name."""
    guards = prose_guards(canvas, gemma_table())
    assert guards is not None and guards.echoes, "the case must have echo bans to test"
    return all(ids[p] not in banned for p, banned in guards.echoes.items())


def test_a_locks_name_is_not_echoed_beside_it_by_either_family() -> None:
    text = "We met Dr. Elena Ruiz at the station and then we walked to the old harbour."
    lock = "Elena Ruiz"
    start = text.index(lock)
    locks = (Span(start, start + len(lock)),)
    rewrite = SamplerSettings(steps=8, strength=1.0, passes=())
    edit = Edit(1, text, Span(0, len(text)), locks, "", EditMode.REWRITE, rewrite)
    for inner in (gemma_backend(), llama_backend()):
        backend = RecordingBackend(inner)  # type: ignore[arg-type]
        list(run_edit(backend, edit))
        [canvas] = backend.canvases
        assert echo_held(canvas, backend.results[-1].ids)
