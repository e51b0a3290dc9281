"""The spelling ranker's bookkeeping (app/suggestion_ranker.py) against a recording client:
it asks only once a model is loaded, keeps answers per word and text around it, takes only
the answer to the menu open now, forgets all when another model loads, and cancels the
request of a menu that is gone."""

from __future__ import annotations

from app.suggestion_ranker import KEPT_RANKINGS, SuggestionRanker
from engine.core.protocol import (
    MAX_RANK_CONTEXT_CHARS,
    Cancelled,
    Failed,
    ModelInfo,
    ModelReady,
)
from tests.helpers.ranking import RankingClient

READY = ModelReady(ModelInfo("tiny", "Tiny", "masked", "cpu", 1))
SHOWN = ["clear", "clerk", "clark"]


class Menu:
    """What a menu hears back."""

    def __init__(self) -> None:
        self.orders: list[list[str]] = []

    def __call__(self, order: list[str]) -> None:
        self.orders.append(order)


def ranker() -> tuple[SuggestionRanker, RankingClient]:
    client = RankingClient()
    found = SuggestionRanker(client)  # type: ignore[arg-type]
    client.modelReady.emit(READY)
    return found, client


def test_nothing_is_asked_before_a_model_is_loaded(qapp) -> None:
    client = RankingClient()
    found = SuggestionRanker(client)  # type: ignore[arg-type]
    assert found.rank("cleark", "The ", " sat.", SHOWN, Menu()) == SHOWN
    assert client.sent == []


def test_the_answer_reaches_the_menu_and_is_kept_for_the_next(qapp) -> None:
    found, client = ranker()
    menu = Menu()
    assert found.rank("cleark", "The ", " at the desk.", SHOWN, menu) == SHOWN
    (sent,) = client.sent
    assert (sent.word, sent.before, sent.after, sent.suggestions) == (
        "cleark", "The ", " at the desk.", tuple(SHOWN),
    )  # fmt: skip
    client.answer(("clerk", "clear", "clark"))
    assert menu.orders == [["clerk", "clear", "clark"]]
    again = Menu()
    assert found.rank("cleark", "The ", " at the desk.", SHOWN, again) == [
        "clerk",
        "clear",
        "clark",
    ]
    assert len(client.sent) == 1 and again.orders == []  # kept: no second read
    found.rank("cleark", "The sky was ", " today.", SHOWN, Menu())  # other text: asked again
    assert len(client.sent) == 2


def test_only_the_open_menus_answer_is_taken_and_the_older_request_is_cancelled(qapp) -> None:
    found, client = ranker()
    first, second = Menu(), Menu()
    found.rank("cleark", "A ", ".", SHOWN, first)
    found.rank("recieved", "It was ", ".", ["received", "relieved"], second)
    assert client.cancels == [client.sent[0].request_id]
    client.answer(("clerk", "clear", "clark"), request=client.sent[0])
    assert first.orders == [] and second.orders == []  # that menu is gone
    client.answer(("relieved", "received"))
    assert second.orders == [["relieved", "received"]]


def test_an_answer_without_a_reading_leaves_the_dictionarys_order(qapp) -> None:
    found, client = ranker()
    menu = Menu()
    found.rank("cleark", "The ", ".", SHOWN, menu)
    client.answer(tuple(SHOWN), nats=())  # a backend that cannot read
    assert menu.orders == []
    assert found.rank("cleark", "The ", ".", SHOWN, Menu()) == SHOWN and len(client.sent) == 2


def test_a_failure_or_a_cancel_ends_the_wait_and_a_dead_engine_is_not_asked(qapp) -> None:
    found, client = ranker()
    menu = Menu()
    found.rank("cleark", "The ", ".", SHOWN, menu)
    client.failed.emit(Failed(client.sent[-1].request_id, "bad-request", "No model is loaded."))
    client.answer(("clerk", "clear", "clark"))  # too late: nobody waits
    assert menu.orders == []
    found.rank("cleark", "A ", ".", SHOWN, menu)
    client.cancelled.emit(Cancelled(client.sent[-1].request_id))
    client.answer(("clerk", "clear", "clark"))
    assert menu.orders == []
    client.failed.emit(Failed(None, "worker-died", "The engine stopped."))
    asked = len(client.sent)
    found.rank("cleark", "B ", ".", SHOWN, menu)
    assert len(client.sent) == asked


def test_another_model_forgets_every_answer_and_the_kept_ones_are_bounded(qapp) -> None:
    found, client = ranker()
    for i in range(KEPT_RANKINGS + 5):
        found.rank("cleark", f"{i} ", ".", SHOWN, Menu())
        client.answer(("clerk", "clear", "clark"))
    assert len(found._kept) == KEPT_RANKINGS
    client.modelReady.emit(READY)
    assert found.rank("cleark", "0 ", ".", SHOWN, Menu()) == SHOWN  # asked again


def test_long_text_around_the_word_is_cut_to_what_the_engine_accepts(qapp) -> None:
    found, client = ranker()
    found.rank("cleark", "x" * 5000, "y" * 5000, SHOWN, Menu())
    (sent,) = client.sent
    assert len(sent.before) == len(sent.after) == MAX_RANK_CONTEXT_CHARS
    assert not sent.problem()
