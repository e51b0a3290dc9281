"""Verified drafting: the canvas proposes, the base model (adapter switched off) verifies."""

from __future__ import annotations

from pathlib import Path

import pytest
import torch

from engine.backends.masked import backend as masked
from engine.backends.masked import verified_draft as verified
from engine.backends.masked.verified_draft import accept, propose_mask
from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, EditMode, Proposal, Span
from engine.decode.allowed import BANNED
from engine.decode.guards import GUARD_BAN, ProseGuards, repeat_bans
from engine.language.en import content
from engine.run.edit_run import run_edit
from tests.helpers.adapted import SEED, adapted_backend, recording, save_tiny_adapter
from tests.helpers.tiny import tiny_llama

TEXT = "The fox jumps over the lazy dog. Then it naps at home, and"
TOKENS = 12


@pytest.fixture(scope="module")
def adapter(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_tiny_adapter(tmp_path_factory.mktemp("adapter"))


Recording = recording(verified.VerifiedDraft)


def draft(backend, text: str, settings: SamplerSettings, at: int | None = None) -> Proposal:
    at = len(text) if at is None else at
    edit = Edit(1, text, Span(at, at), mode=EditMode.DRAFT, settings=settings)
    return next(e for e in run_edit(backend, edit) if isinstance(e, Proposal))


def base_greedy(state, filler_id: int, said=lambda _token: False) -> list[int]:
    """The base model's greedy continuation, one whole causal read per token, no cache, under
    the same constraint bias, repeat bans and penalty on content words said before (``said``
    tells them): what a verified draft at ratio 1 must equal."""
    base = tiny_llama(SEED)
    prefix = state.seq[: state.start].tolist()
    size = len(state.host_ids)
    out: list[int] = []
    guards = state.guards
    for position in range(size):
        with torch.inference_mode():
            row = base(input_ids=torch.tensor([prefix + out])).logits[0, -1].float()
        row = row + state.bias[position]
        row[filler_id] = BANNED
        values = out + [0] * (size - position)
        open_ = [False] * position + [True] * (size - position)
        bans = repeat_bans([position], values, open_, guards.free_list, filler_id, guards.is_word)
        for _, token in bans:
            row[token] += GUARD_BAN
        for token in {t for t in out if said(t)}:
            row[token] -= verified.SAID_PENALTY
        out.append(int(row.argmax()))
    return out


def test_the_switched_off_model_reads_as_the_base(adapter: Path) -> None:
    backend = adapted_backend(adapter)
    ids = torch.tensor([[1, 5, 9, 12, 7, 20, 31]])
    with torch.inference_mode():
        want = tiny_llama(SEED)(input_ids=ids).logits
        adapted = backend.model(input_ids=ids).logits
        assert backend.base is not None
        with backend.base.off():
            got = backend.model(input_ids=ids).logits
        again = backend.model(input_ids=ids).logits
    torch.testing.assert_close(got, want, atol=1e-4, rtol=1e-4)
    assert not torch.allclose(adapted, want, atol=1e-3)
    assert torch.equal(again, adapted)  # the switch turns back on when the block ends


@pytest.mark.parametrize(
    ("text", "at"),
    [(TEXT, len(TEXT)), (TEXT + "\n\n", len(TEXT)), ("", 0)],
    ids=["end of the text", "before the file's last newlines", "empty file"],
)
def test_a_continuation_at_ratio_one_is_the_bases_greedy_text(
    adapter, monkeypatch, text: str, at: int
) -> None:
    monkeypatch.setattr(masked, "VerifiedDraft", Recording)
    monkeypatch.setattr(verified, "sentence_ends", lambda _texts: [])  # the whole budget
    Recording.made.clear()
    backend = adapted_backend(adapter)
    settings = SamplerSettings(draft_tokens=TOKENS, verify_drafts=1.0)
    proposal = draft(backend, text, settings, at)
    [run] = Recording.made
    said = run._content_word
    assert run.committed == base_greedy(run.state, backend.table.specials.filler_id, said)
    assert proposal.metrics.tokens_generated == TOKENS
    assert proposal.metrics.forwards % verified.FORWARDS_PER_ROUND == 0


def test_a_content_word_said_before_is_less_likely_to_be_said_again(adapter, monkeypatch) -> None:
    monkeypatch.setattr(masked, "VerifiedDraft", Recording)
    monkeypatch.setattr(content, "CONTENT_LETTERS", 1)  # the test vocabulary's words are short
    Recording.made.clear()
    backend = adapted_backend(adapter)
    draft(backend, TEXT, SamplerSettings(draft_tokens=TOKENS, verify_drafts=1.0), len(TEXT))
    [run] = Recording.made
    word, other, third = [t for t in range(len(backend.table.tokenizer)) if run._content_word(t)][
        :3
    ]
    vocab = run.state.bias.shape[1]
    run.committed = [word, other]
    said = run._guarded(torch.zeros(vocab), 2, [])
    run.committed = [third, other]
    fresh = run._guarded(torch.zeros(vocab), 2, [])
    assert float(said[word] - fresh[word]) == pytest.approx(-verified.SAID_PENALTY)


def test_a_lenient_verifier_keeps_every_guess_and_one_more(adapter, monkeypatch) -> None:
    monkeypatch.setattr(masked, "VerifiedDraft", Recording)
    monkeypatch.setattr(ProseGuards, "repeat_bans", lambda *_args: [])  # a random model repeats
    monkeypatch.setattr(verified, "sentence_ends", lambda _texts: [])
    Recording.made.clear()
    backend = adapted_backend(adapter)
    settings = SamplerSettings(draft_tokens=TOKENS, verify_drafts=1e-12)
    draft(backend, TEXT, settings)
    [run] = Recording.made
    rounds = -(-TOKENS // (verified.PROPOSAL + 1))  # every guess and the verifier's own token
    assert run.state.forwards == verified.FORWARDS_PER_ROUND * rounds
    assert len(run.committed) == TOKENS


def test_both_caches_hold_only_the_text_before_after_a_draft_and_a_cancel(adapter) -> None:
    backend = adapted_backend(adapter)
    settings = SamplerSettings(draft_tokens=TOKENS)
    draft(backend, TEXT, settings)
    caches = (backend.path.prefix_cache, backend.base_cache)
    lengths = [len(c.ids) for c in caches]
    assert all(c.cache.get_seq_length() == n for c, n in zip(caches, lengths, strict=True))
    edit = Edit(2, TEXT, Span(len(TEXT), len(TEXT)), mode=EditMode.DRAFT, settings=settings)
    events = run_edit(backend, edit)
    next(events), next(events), next(events)
    events.close()  # the window cancelled mid-draft
    assert all(c.cache.get_seq_length() == len(c.ids) for c in caches)
    again = draft(backend, TEXT, settings)  # the kept caches give what fresh ones give
    assert again.text == draft(adapted_backend(adapter), TEXT, settings).text


def test_a_draft_with_text_after_it_keeps_the_bidirectional_sampler(adapter, monkeypatch) -> None:
    monkeypatch.setattr(masked, "VerifiedDraft", Recording)
    Recording.made.clear()
    backend = adapted_backend(adapter)
    proposal = draft(backend, TEXT + " then sleeps.", SamplerSettings(draft_tokens=6), len(TEXT))
    assert Recording.made == []
    assert proposal.metrics.tokens_generated > 0


def test_verify_drafts_zero_and_unadapted_models_keep_the_bidirectional_sampler(
    adapter, monkeypatch
) -> None:
    monkeypatch.setattr(masked, "VerifiedDraft", Recording)
    Recording.made.clear()
    backend = adapted_backend(adapter)
    draft(backend, TEXT, SamplerSettings(draft_tokens=6, verify_drafts=0.0))
    backend.base = None
    draft(backend, TEXT, SamplerSettings(draft_tokens=6))
    assert Recording.made == []


def test_the_verifier_keeps_guesses_while_they_are_likely_enough() -> None:
    rows = [torch.tensor(r) for r in ([0.0, 2.0, 1.9], [3.0, 0.0, 0.0], [0.0, 0.0, 5.0])]
    calls = []

    def lazy(j: int):
        def row() -> torch.Tensor:
            calls.append(j)
            return rows[j]

        return row

    makers = [lazy(j) for j in range(3)]
    assert accept(makers, [1, 0], 1.0) == (2, 2)  # both are its own choice; then its next
    assert accept(makers, [2, 0], 1.0) == (0, 1)  # 2 is close to 1, but not its choice
    calls.clear()
    assert accept(makers, [2, 0], 0.5) == (2, 2)  # close enough at half the best's odds
    assert accept(makers, [0, 0], 0.5) == (0, 1)
    assert calls == [0, 1, 2, 0]  # rows after the first rejection are never built
    with pytest.raises(ValueError):
        accept(makers[:2], [1, 0], 1.0)


def test_the_propose_mask_keeps_new_committed_rows_causal() -> None:
    mask = propose_mask(cached=2, causal=2, width=5)
    assert mask.shape == (1, 1, 5, 7)
    assert mask[0, 0, 0].tolist() == [True, True, True, False, False, False, False]
    assert mask[0, 0, 1].tolist() == [True, True, True, True, False, False, False]
    assert mask[0, 0, 2].tolist() == [True] * 7  # the row before the canvas sees the canvas
    assert mask[0, 0, 4].tolist() == [True] * 7


def test_verify_drafts_must_be_a_share() -> None:
    for bad in (-0.1, 1.5):
        with pytest.raises(ValueError, match="verify_drafts"):
            SamplerSettings(verify_drafts=bad)


@pytest.mark.parametrize(
    ("end", "tokens"),
    [(TOKENS - 3, TOKENS - 3), (TOKENS - 1, TOKENS - 1), (TOKENS // 2 - 2, TOKENS)],
    ids=["last quarter", "cut off at the budget", "too early to end there"],
)
def test_a_draft_ends_at_a_sentence_end_late_in_its_budget(
    adapter, monkeypatch, end: int, tokens: int
) -> None:
    monkeypatch.setattr(masked, "VerifiedDraft", Recording)
    monkeypatch.setattr(verified, "sentence_ends", lambda _texts: [])
    backend = adapted_backend(adapter)
    settings = SamplerSettings(draft_tokens=TOKENS)
    whole = draft(backend, TEXT, settings)
    # Pretend a sentence ends after ``end`` tokens, as soon as they are written.
    monkeypatch.setattr(verified, "sentence_ends", lambda texts: [end] if len(texts) >= end else [])
    cut = draft(backend, TEXT, settings)
    assert cut.metrics.tokens_generated == tokens
    assert whole.text.startswith(cut.text)


def test_sentence_ends() -> None:
    for text in (".", " end.", '."', "?)", "!", "\n", " word.\n"):
        assert verified.ends_sentence(text), text
    for text in (" the", ",", " e.g", ";", " 5.", "12."):
        assert not verified.ends_sentence(text), text


def test_the_verifier_opens_no_list_item_on_a_line_of_a_prose_draft(adapter, monkeypatch) -> None:
    monkeypatch.setattr(masked, "VerifiedDraft", Recording)
    Recording.made.clear()
    backend = adapted_backend(adapter)
    text = "The fox jumps over the lazy dog.\n\n"
    draft(backend, text, SamplerSettings(draft_tokens=TOKENS, verify_drafts=1.0), len(text))
    [run] = Recording.made
    table = backend.table
    [newline], [digit], [dot], [dash] = (table.encode(t) for t in ("\n", "2", ".", "-"))
    vocab = run.state.bias.shape[1]
    run.committed = [digit]  # the draft's line opened with "2": no "." may make it an item
    assert float(run._guarded(torch.zeros(vocab), 1, [])[dot]) <= GUARD_BAN
    run.committed = [table.encode("a")[0], newline]
    row = run._guarded(torch.zeros(vocab), 2, [])
    assert float(row[dash]) <= GUARD_BAN and float(row[digit]) == 0.0  # "2024 was" may
