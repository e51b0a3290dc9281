"""The pure sampling functions: Gumbel-max sampling, schedules, commit selection, logit shift."""

from __future__ import annotations

import itertools
import math

import torch
from hypothesis import given
from hypothesis import strategies as st

from engine.backends.masked.schedule import (
    add_gumbel_noise,
    most_confident_first,
    pick_tokens,
    prefer_left,
    select_fixed,
    select_threshold,
    shift_logits,
    transfer_schedule,
)


def _generator(seed: int = 0) -> torch.Generator:
    return torch.Generator().manual_seed(seed)


def test_zero_temperature_is_greedy_and_leaves_logits_alone() -> None:
    logits = torch.tensor([[0.1, 2.0, -1.0], [3.0, 0.0, 2.9]])
    assert add_gumbel_noise(logits, 0.0, _generator()) is logits
    ids, confidence = pick_tokens(logits, 0.0, _generator())
    assert ids.tolist() == [1, 0]
    expected = torch.softmax(logits, dim=-1).max(dim=-1).values
    assert torch.allclose(confidence, expected)


def test_gumbel_noise_is_float64_and_seeded() -> None:
    logits = torch.randn(4, 50, dtype=torch.bfloat16)
    first = add_gumbel_noise(logits, 1.0, _generator(7))
    again = add_gumbel_noise(logits, 1.0, _generator(7))
    other = add_gumbel_noise(logits, 1.0, _generator(8))
    assert first.dtype == torch.float64
    assert torch.equal(first, again)
    assert not torch.equal(first, other)


def test_gumbel_max_samples_from_the_tempered_softmax() -> None:
    # Gumbel-max with temperature T must draw index j with probability softmax(logits / T)_j.
    logits = torch.tensor([0.0, math.log(3.0), -1.0])
    rows = logits.expand(20000, 3)
    for temperature in (1.0, 2.0):
        ids, _ = pick_tokens(rows, temperature, _generator(1))
        freq = torch.bincount(ids, minlength=3).double() / len(ids)
        expected = torch.softmax(logits.double() / temperature, dim=-1)
        assert torch.allclose(freq, expected, atol=0.015), (temperature, freq, expected)


def test_confidence_is_the_noise_free_probability_of_the_chosen_token() -> None:
    logits = torch.randn(64, 30, generator=_generator(3))
    ids, confidence = pick_tokens(logits, 1.5, _generator(4))
    probs = torch.softmax(logits, dim=-1)
    assert torch.allclose(confidence, probs[torch.arange(64), ids])


def test_a_banned_token_is_never_sampled_even_when_hot() -> None:
    logits = torch.zeros(500, 4)
    logits[:, 2] = -1.0e4  # the constraint bias of engine.backends.base
    ids, _ = pick_tokens(logits, 5.0, _generator(5))
    assert 2 not in ids.tolist()


def test_transfer_schedule_examples() -> None:
    assert transfer_schedule(10, 4) == [3, 3, 2, 2]
    assert transfer_schedule(8, 4) == [2, 2, 2, 2]
    assert transfer_schedule(3, 8) == [1, 1, 1]  # no step that commits nothing
    assert transfer_schedule(0, 5) == []


@given(st.integers(0, 300), st.integers(1, 64))
def test_transfer_schedule_spreads_evenly(masked: int, steps: int) -> None:
    schedule = transfer_schedule(masked, steps)
    assert sum(schedule) == masked
    assert len(schedule) == min(masked, steps)
    assert all(count >= 1 for count in schedule)
    assert schedule == sorted(schedule, reverse=True)
    assert not schedule or max(schedule) - min(schedule) <= 1


def test_select_fixed_takes_the_most_confident_eligible() -> None:
    confidence = torch.tensor([0.9, 0.1, 0.5, 0.8, 0.3])
    eligible = torch.tensor([False, True, True, True, True])
    assert select_fixed(confidence, eligible, 2).tolist() == [False, False, True, True, False]
    assert select_fixed(confidence, eligible, 9).tolist() == eligible.tolist()
    assert not select_fixed(confidence, eligible, 0).any()
    assert not select_fixed(confidence, torch.zeros(5, dtype=torch.bool), 3).any()


def test_scores_equal_but_for_their_last_bits_rank_left_first_as_on_every_cpu() -> None:
    """A CPU's matrix kernels move a float32 score by its last bits; the rank must not move."""
    base = 0.0072853
    noisy = torch.tensor([base, base * (1 + 2e-7), 0.5, base * (1 + 4e-7), base * (1 - 1e-7)])
    assert most_confident_first(noisy).tolist() == [2, 0, 1, 3, 4]
    assert select_fixed(noisy, torch.ones(5, dtype=torch.bool), 2).tolist() == [
        True,
        False,
        True,
        False,
        False,
    ]


@given(st.lists(st.floats(-1e6, 1e6, allow_nan=False, width=32), min_size=1, max_size=40))
def test_ranking_keeps_every_clear_preference(scores: list[float]) -> None:
    """Only scores within a few parts in 30,000 (or a float's smallest) may swap; no clear lead."""
    order = most_confident_first(torch.tensor(scores)).tolist()
    assert sorted(order) == list(range(len(scores)))
    for earlier, later in itertools.pairwise(order):
        assert scores[earlier] >= scores[later] - abs(scores[later]) * 1e-4 - 1e-37


def test_select_threshold_commits_all_confident_and_at_least_one() -> None:
    confidence = torch.tensor([0.95, 0.2, 0.91, 0.4, 0.99])
    eligible = torch.tensor([True, True, True, True, False])
    assert select_threshold(confidence, eligible, 0.9).tolist() == [True, False, True, False, False]
    # Nothing above the threshold: the single most confident eligible one still goes.
    only_best = select_threshold(confidence, eligible, 0.999)
    assert only_best.tolist() == [True, False, False, False, False]
    assert not select_threshold(confidence, torch.zeros(5, dtype=torch.bool), 0.1).any()


@given(st.lists(st.floats(0, 1), min_size=1, max_size=40), st.floats(0.01, 1), st.data())
def test_select_threshold_properties(
    values: list[float], threshold: float, data: st.DataObject
) -> None:
    confidence = torch.tensor(values)
    eligible = torch.tensor(
        data.draw(st.lists(st.booleans(), min_size=len(values), max_size=len(values)))
    )
    chosen = select_threshold(confidence, eligible, threshold)
    assert not (chosen & ~eligible).any()
    assert int(chosen.sum()) >= min(1, int(eligible.sum()))
    assert ((confidence > threshold) & eligible).le(chosen).all()


def test_shift_logits_moves_each_row_one_position_on() -> None:
    logits = torch.arange(12.0).reshape(4, 3)
    shifted = shift_logits(logits)
    assert torch.equal(shifted[1:], logits[:-1])
    assert torch.equal(shifted[0], logits[0])


def test_prefer_left_settles_a_flat_block_from_its_left_end() -> None:
    confidence = torch.tensor([1.0, 0.20, 0.22, 0.25, 0.21])  # position 0 is already settled
    eligible = torch.tensor([False, True, True, True, True])
    assert select_fixed(confidence, eligible, 1)[3]  # without the prior: a word ahead first
    ranked = prefer_left(confidence, 1, 0.1)
    assert select_fixed(ranked, eligible, 1)[1]  # with it: the next word in reading order
    sure = torch.tensor([1.0, 0.20, 0.22, 0.9, 0.21])
    assert select_fixed(prefer_left(sure, 1, 0.1), eligible, 1)[3]  # a clearly surer one wins
    assert torch.equal(prefer_left(confidence, 1, 0.0), confidence)
