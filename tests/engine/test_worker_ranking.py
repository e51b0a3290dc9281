"""A spelling menu's ranking through the worker loop (on a thread): answered when a model is
loaded, refused clearly when it is not or when the request is bad, never cancelling a running
edit, and an older ranking still waiting behind an edit dropped for the newer one."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine.core.config import SamplerSettings
from engine.core.protocol import (
    Cancelled,
    Edit,
    Event,
    Failed,
    LoadModel,
    ModelReady,
    Proposal,
    RankSuggestions,
    Span,
    SuggestionsRanked,
)
from engine.process.client import ThreadWorker
from engine.process.worker import NO_MODEL
from tests.helpers.worker_models import StepGate, gated_loader

WAIT = 60.0
TEXT = "The cleark at the desk gave me the key."
ENDING = (SuggestionsRanked, Proposal, Cancelled, Failed)


def rank(
    request_id: int, suggestions: tuple[str, ...] = ("clear", "clerk", "clean")
) -> RankSuggestions:
    return RankSuggestions(
        request_id, "The ", "cleark", " at the desk gave me the key.", suggestions
    )


def answers(client: ThreadWorker, ids: set[int]) -> dict[int, Event]:
    """The event that ends each of ``ids``."""
    found: dict[int, Event] = {}
    for event in client.events(timeout=WAIT):
        if isinstance(event, ENDING) and event.request_id in ids:
            found[event.request_id] = event
            if found.keys() == ids:
                return found
    raise AssertionError(f"not all of {ids} ended: {found}")


@pytest.fixture
def gate() -> Iterator[StepGate]:
    gate = StepGate(at=2)
    yield gate
    gate.release.set()


@pytest.fixture
def worker(gate: StepGate) -> Iterator[ThreadWorker]:
    client = ThreadWorker(loader=gated_loader(gate))
    client.start()
    yield client
    client.stop()


def loaded(worker: ThreadWorker) -> ThreadWorker:
    worker.send(LoadModel("tiny"))
    assert any(isinstance(e, ModelReady) for e in worker.events(timeout=WAIT))
    return worker


def test_a_ranking_is_answered_with_the_same_suggestions_best_first(worker: ThreadWorker) -> None:
    loaded(worker).send(rank(1))
    answer = answers(worker, {1})[1]
    assert isinstance(answer, SuggestionsRanked) and answer.word == "cleark"
    assert sorted(answer.suggestions) == ["clean", "clear", "clerk"]
    assert list(answer.nats) == sorted(answer.nats, reverse=True)


def test_with_no_model_loaded_a_ranking_fails_saying_so(worker: ThreadWorker) -> None:
    worker.send(rank(1))
    assert answers(worker, {1})[1] == Failed(1, "bad-request", NO_MODEL)


def test_a_bad_ranking_fails_clearly_and_the_worker_serves_on(worker: ThreadWorker) -> None:
    loaded(worker).send(rank(1, ("clear", "clear")))
    failed = answers(worker, {1})[1]
    assert isinstance(failed, Failed) and failed.kind == "bad-request"
    assert "listed twice" in failed.message and not failed.detail  # no traceback
    worker.send(rank(2))
    assert isinstance(answers(worker, {2})[2], SuggestionsRanked)


def test_a_ranking_waits_for_a_running_edit_and_cancels_nothing(
    worker: ThreadWorker, gate: StepGate
) -> None:
    loaded(worker).send(Edit(1, TEXT, Span(0, len(TEXT)), settings=SamplerSettings(steps=4)))
    assert gate.reached.wait(WAIT)
    worker.send(rank(2))  # a menu opened on an older word: dropped for the next one
    worker.send(rank(3))
    gate.release.set()
    ended = answers(worker, {1, 2, 3})
    assert isinstance(ended[1], Proposal)
    assert ended[2] == Cancelled(2)
    assert isinstance(ended[3], SuggestionsRanked)
