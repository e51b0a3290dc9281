"""The model reading a passage causally to price a shorter rewrite's cuts (passage_reader)."""

from __future__ import annotations

import math

import pytest
import torch

from engine.backends.masked import reader as passage_reader
from engine.backends.masked.backend import MaskedBackend
from engine.backends.masked.reader import PassageReader, cut_mask
from engine.core.config import SamplerSettings, settings_from_values
from engine.core.plan import find_locks
from engine.core.protocol import Edit, EditMode, Proposal, Span
from engine.run.edit_run import run_edit
from tests.helpers.backends import tiny_table
from tests.helpers.tiny import tiny_llama

CONTEXT = [5, 9, 12, 7]
PASSAGE = [20, 31, 22, 40, 18, 25, 33, 21, 29, 35]


def read_whole(model, rows: list[list[int]]) -> list[list[float]]:
    """Each row read on its own, from the start: what the batched read must reproduce."""
    answers = []
    for row in rows:
        seq = torch.tensor([[1, *CONTEXT, *(PASSAGE[i] for i in row)]])
        with torch.inference_mode():
            logp = model(input_ids=seq).logits[0, :-1].float().log_softmax(-1)
        answers.append([-float(logp[len(CONTEXT) + k, PASSAGE[i]]) for k, i in enumerate(row)])
    return answers


def one_shorter() -> list[list[int]]:
    whole = list(range(len(PASSAGE)))
    return [whole] + [[i for i in whole if i != cut] for cut in range(len(PASSAGE) - 1)]


def test_reading_only_after_each_cut_gives_what_reading_it_whole_does(monkeypatch) -> None:
    model = tiny_llama()
    monkeypatch.setattr(passage_reader, "LOOKAHEAD", len(PASSAGE))
    monkeypatch.setattr(passage_reader, "PACK_TOKENS", 12)  # the passage, then cuts in chunks
    rows = one_shorter()
    fast = PassageReader(model, 1).read_cuts(CONTEXT, PASSAGE, rows)
    for got, want in zip(fast, read_whole(model, rows), strict=True):
        assert got == pytest.approx(want, abs=1e-4)


def test_the_text_after_the_passage_is_charged_to_each_rows_last_token(monkeypatch) -> None:
    model = tiny_llama()
    monkeypatch.setattr(passage_reader, "LOOKAHEAD", len(PASSAGE))
    passage, following = PASSAGE[:7], PASSAGE[7:]
    whole = list(range(len(passage)))
    rows = [whole] + [[i for i in whole if i != cut] for cut in range(len(passage) - 1)]
    got = PassageReader(model, 1).read_cuts(CONTEXT, passage, rows, following)
    tail = list(range(len(passage), len(PASSAGE)))
    wants = read_whole(model, [[*r, *tail] for r in rows])
    for row, nlls, want in zip(rows, got, wants, strict=True):
        assert len(nlls) == len(row)
        assert nlls[:-1] == pytest.approx(want[: len(row) - 1], abs=1e-4)
        assert nlls[-1] == pytest.approx(sum(want[len(row) - 1 :]), abs=1e-4)


def test_a_swap_longer_than_the_lookahead_is_read_whole(monkeypatch) -> None:
    model = tiny_llama()
    monkeypatch.setattr(passage_reader, "LOOKAHEAD", 2)
    own = PASSAGE[:6]
    extended = [*own, 41, 42, 43]  # a concise form of three new tokens, past the passage
    rows = [list(range(6)), [0, 6, 7, 8, 4, 5]]  # tokens 1-3 swapped for 6-8
    got = PassageReader(model, 1).read_cuts(CONTEXT, extended, rows)
    seq = torch.tensor([[1, *CONTEXT, *(extended[i] for i in rows[1])]])
    with torch.inference_mode():
        logp = model(input_ids=seq).logits[0, :-1].float().log_softmax(-1)
    want = [-float(logp[len(CONTEXT) + k, extended[i]]) for k, i in enumerate(rows[1])]
    assert got[1] == pytest.approx(want, abs=1e-4)  # the swap and the two tokens after it


def test_tokens_past_the_lookahead_keep_the_passages_own_cost(monkeypatch) -> None:
    model = tiny_llama()
    monkeypatch.setattr(passage_reader, "LOOKAHEAD", 2)
    rows = one_shorter()
    reader = PassageReader(model, 1)
    base, *cuts = reader.read_cuts(CONTEXT, PASSAGE, rows)
    whole = read_whole(model, rows)
    assert reader.forwards == 1  # the context, the passage and every cut: one packed forward
    encoded = reader.context_cache.encoded_tokens
    reader.read_cuts(CONTEXT, PASSAGE, rows)
    assert reader.forwards == 2
    assert reader.context_cache.encoded_tokens == encoded  # the context was kept
    for cut, (got, want) in enumerate(zip(cuts, whole[1:], strict=True)):
        assert got[:cut] == pytest.approx(base[:cut], abs=1e-4)  # nothing changed before it
        assert got[cut : cut + 2] == pytest.approx(want[cut : cut + 2], abs=1e-4)
        assert got[cut + 2 :] == pytest.approx(base[cut + 3 :], abs=1e-4)


def test_a_packed_read_gives_what_the_passage_then_its_tails_give(monkeypatch) -> None:
    """One forward over the passage and every tail, or the passage first and the tails in
    chunks after it: the same NLLs, and the second costs more forwards."""
    model = tiny_llama()
    variants = [(at, [40 + at, *PASSAGE[at + 1 : at + 4]]) for at in range(len(PASSAGE) - 1)]
    packed = PassageReader(model, 1)
    together = packed.read(CONTEXT, PASSAGE, variants)
    monkeypatch.setattr(passage_reader, "PACK_TOKENS", 16)
    apart = PassageReader(model, 1)
    split = apart.read(CONTEXT, PASSAGE, variants)
    assert packed.forwards == 1 and apart.forwards > 2
    assert together[0] == pytest.approx(split[0], abs=1e-4)
    for got, want in zip(together[1], split[1], strict=True):
        assert got == pytest.approx(want, abs=1e-4)


def test_a_changed_context_is_encoded_from_its_first_change_only() -> None:
    model = tiny_llama()
    reader = PassageReader(model, 1)
    reader.read(CONTEXT, PASSAGE, [])
    changed = [*CONTEXT[:2], 44, 45]
    encoded = reader.context_cache.encoded_tokens
    base, _ = reader.read(changed, PASSAGE, [])
    # kept from the first changed token on (the context's last token is read with the passage)
    assert reader.context_cache.encoded_tokens - encoded == 1
    assert reader.forwards == 2  # each read one forward, its new context in it
    seq = torch.tensor([[1, *changed, *PASSAGE]])
    with torch.inference_mode():
        logp = model(input_ids=seq).logits[0, len(changed) :].float().log_softmax(-1)
    assert base == pytest.approx([-float(logp[k, t]) for k, t in enumerate(PASSAGE)], abs=1e-4)


def test_a_cut_row_sees_the_text_before_its_cut_and_its_own_earlier_tokens() -> None:
    mask = cut_mask([2, 4], cached=5, width=3)
    assert mask.shape == (2, 1, 3, 8)
    assert mask[0, 0, 0].tolist() == [True, True, False, False, False, True, False, False]
    assert mask[1, 0, 2].tolist() == [True] * 4 + [False, True, True, True]


def test_an_adapted_causal_model_prices_a_tighter_rewrite_and_its_locks_hold() -> None:
    backend = MaskedBackend(
        tiny_llama(), tiny_table(), shifted=True, force_bidirectional=True, causal_prefix=True
    )
    assert backend.passage_reader is not None
    text = "Intro. The fox really jumps over the lazy dog in Paris, and then it naps at home."
    target = Span(7, len(text))
    locks = find_locks(text, target, ["Paris"])
    edit = Edit(1, text, target, locks, "tighter", EditMode.REWRITE, SamplerSettings(steps=4))
    proposal = next(e for e in run_edit(backend, edit) if isinstance(e, Proposal))
    assert backend.passage_reader.forwards >= 2
    assert "Paris" in proposal.text  # the proposal replaces only the target


def test_a_bidirectional_only_model_has_no_reader() -> None:
    backend = MaskedBackend(tiny_llama(), tiny_table(), shifted=True, force_bidirectional=False)
    assert backend.passage_reader is None


def test_a_passage_without_context_is_read_from_the_start_token() -> None:
    model = tiny_llama()
    base, [tail] = PassageReader(model, 1).read([], PASSAGE[:4], [(2, [PASSAGE[3]])])
    seq = torch.tensor([[1, *PASSAGE[:4]]])
    with torch.inference_mode():
        logp = model(input_ids=seq).logits[0, :-1].float().log_softmax(-1)
    assert base == pytest.approx([-float(logp[k, t]) for k, t in enumerate(PASSAGE[:4])], abs=1e-4)
    skipped = torch.tensor([[1, *PASSAGE[:2], PASSAGE[3]]])
    with torch.inference_mode():
        want = -float(model(input_ids=skipped).logits[0, 2].float().log_softmax(-1)[PASSAGE[3]])
    assert tail == pytest.approx([want], abs=1e-4)


def test_a_variant_whose_first_token_reads_far_worse_is_pruned_unread(monkeypatch) -> None:
    monkeypatch.setattr(passage_reader, "PACK_TOKENS", 7)  # the passage, then a forward a tail
    model = tiny_llama()
    tokens = PASSAGE[:6]
    variants = [(2, [token, *tokens[3:]]) for token in (40, 41, 42, 43, 44, 45)]
    reader = PassageReader(model, 1)
    reader.read(CONTEXT, tokens, [])  # the context is encoded and kept
    forwards = reader.forwards
    base, whole = reader.read(CONTEXT, tokens, variants)
    unpruned = reader.forwards - forwards
    extra = [nlls[0] - base[2] for nlls in whole]  # how much worse each first token reads
    prune = sorted(extra)[len(extra) // 2] - 1e-3
    _, pruned = reader.read(CONTEXT, tokens, variants, prune=prune)
    worse = [e > prune for e in extra]
    assert any(worse) and not all(worse)  # the check below sees both kinds
    for far, full, got in zip(worse, whole, pruned, strict=True):
        assert got == ([math.inf] if far else pytest.approx(full, abs=1e-5))
    assert reader.forwards - forwards - unpruned == 1 + sum(not w for w in worse)


@pytest.mark.parametrize("proofread", [True, False])
def test_a_grammar_rewrite_is_proofread_before_it_settles_unless_turned_off(
    proofread: bool,
) -> None:
    backend = MaskedBackend(
        tiny_llama(), tiny_table(), shifted=True, force_bidirectional=True, causal_prefix=True
    )
    text = "Intro. Yesterday we goes home and she explain it."
    settings = settings_from_values({"steps": 4, "self_check": False, "proofread": proofread})
    edit = Edit(1, text, Span(7, len(text)), (), "fix grammar", EditMode.REWRITE, settings)
    proposal = next(e for e in run_edit(backend, edit) if isinstance(e, Proposal))
    reads = backend.passage_reader.forwards
    assert (reads > 0) is proofread
    assert proposal.metrics.forwards > reads  # the reads count in the request's cost


@pytest.mark.parametrize(("strength", "keeps_words"), [(0.5, True), (1.0, False)])
def test_only_a_partial_rewrite_keeps_the_users_content_words(
    monkeypatch, strength: float, keeps_words: bool
) -> None:
    from engine.passes import reread as reread_module

    seen = []

    def recording(*args):
        seen.append(args[6])  # the decoder: given only where the user's words are kept
        return original_reread(*args)

    original_reread = reread_module.reread
    monkeypatch.setattr(reread_module, "reread", recording)
    backend = MaskedBackend(
        tiny_llama(), tiny_table(), shifted=True, force_bidirectional=True, causal_prefix=True
    )
    text = "Intro. The fox jumps over the lazy dog in Paris."
    settings = SamplerSettings(steps=4, strength=strength)
    edit = Edit(1, text, Span(7, len(text)), (), "", EditMode.REWRITE, settings)
    next(e for e in run_edit(backend, edit) if isinstance(e, Proposal))
    assert len(seen) == 1 and (seen[0] is not None) is keeps_words
