"""A spelling menu's suggestions ranked by the model reading each in the word's place
(engine.run.suggestions): the reading decides, the slip's price weighs in, ties keep the
dictionary's order, a backend that cannot read keeps it too, and a request no menu would
send is refused with a clear error before anything is read."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.core.errors import BadRequest
from engine.core.protocol import (
    MAX_RANK_CONTEXT_CHARS,
    MAX_RANKED_SUGGESTIONS,
    MAX_SUGGESTION_CHARS,
    RankSuggestions,
)
from engine.core.tokens import TokenTable
from engine.passes.offers import suggestion_margin
from engine.run.suggestions import rank_suggestions
from tests.helpers.backends import llama_backend, modernbert_backend, tiny_table
from tests.helpers.readers import WordEndPriceReader

ROUNDING = 1.5e-3  # the answer rounds nats to 3 places


@dataclass
class PricedBackend:
    """A backend whose reader prices words from a table (no model)."""

    table: TokenTable
    prices: dict[str, float]

    def reader(self) -> Any:
        self.read = WordEndPriceReader(self.table, self.prices)
        return self.read


def ask(
    word: str, suggestions: tuple[str, ...], before: str = "The ", after: str = " is here."
) -> RankSuggestions:
    return RankSuggestions(7, before, word, after, suggestions)


def test_the_reading_decides_between_suggestions_the_dictionary_put_otherwise() -> None:
    backend = PricedBackend(tiny_table(), {"clerk": 1.0, "clear": 9.0, "cleark": 12.0})
    answer = rank_suggestions(backend, ask("cleark", ("clear", "clerk")))  # type: ignore[arg-type]
    assert answer.request_id == 7 and answer.word == "cleark"
    assert answer.suggestions == ("clerk", "clear")
    assert answer.nats[0] > answer.nats[1]
    assert len(backend.read.calls) == 1  # one read for every suggestion


def test_the_price_of_the_slip_counts_where_the_reading_is_even() -> None:
    # "clerk" undoes a one-letter slip; "cloak" two letters: read alike, the nearer wins.
    backend = PricedBackend(tiny_table(), {"cleark": 12.0})
    answer = rank_suggestions(backend, ask("cleark", ("cloak", "clerk")))  # type: ignore[arg-type]
    assert answer.suggestions == ("clerk", "cloak")
    margins = [suggestion_margin("cleark", s) for s in answer.suggestions]
    assert answer.nats[0] - answer.nats[1] == pytest.approx(margins[1] - margins[0], abs=1e-2)


def test_ties_keep_the_dictionarys_order(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("engine.run.suggestions.suggestion_margin", lambda _w, _s: 0.0)
    backend = PricedBackend(tiny_table(), {"hate": 3.0})
    answer = rank_suggestions(backend, ask("hte", ("the", "hate", "he", "hue")))  # type: ignore[arg-type]
    assert answer.suggestions == ("the", "he", "hue", "hate")  # read alike: as they came


def test_a_backend_that_cannot_read_answers_the_suggestions_as_they_came() -> None:
    answer = rank_suggestions(modernbert_backend(), ask("cleark", ("clear", "clerk")))
    assert answer.suggestions == ("clear", "clerk") and answer.nats == ()


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.sampled_from(["clear", "clerk", "clean", "cloak", "clark", "in order", "don't"]),
        min_size=1,
        max_size=5,
        unique=True,
    ),
    st.text(alphabet="abc .,\n", max_size=60),
    st.text(alphabet="abc .,\n", max_size=60),
)
@example(["clear", "clerk", "clean", "cloak"], "\n,c\n", "\n,c\n")  # 4.531 once, 4.53 again
def test_the_tiny_model_answers_a_reordering_best_first(
    suggestions: list[str], before: str, after: str
) -> None:
    request = RankSuggestions(3, before, "cleark", after, tuple(suggestions))
    answer = rank_suggestions(llama_backend(), request)
    assert sorted(answer.suggestions) == sorted(suggestions)
    assert list(answer.nats) == sorted(answer.nats, reverse=True)
    # the same reading each time: the same order, and nats equal up to their rounding (a sum
    # that lands on a rounding boundary, 4.5305, may round either way across two readings)
    again = rank_suggestions(llama_backend(), request)
    assert again.suggestions == answer.suggestions
    assert again.nats == pytest.approx(answer.nats, abs=ROUNDING)


@pytest.mark.parametrize(
    ("request_", "says"),
    [
        (ask("", ("clear",)), "The word to rank"),
        (ask("x" * 65, ("clear",)), "The word to rank"),
        (ask("cleark", ()), "suggestions can be ranked at once"),
        (
            ask("cleark", tuple(f"w{i}" for i in range(MAX_RANKED_SUGGESTIONS + 1))),
            "suggestions can be ranked at once",
        ),
        (ask("cleark", ("clear", "two\nlines")), "one line"),
        (ask("cleark", ("clear", "x" * (MAX_SUGGESTION_CHARS + 1))), "one line"),
        (ask("cleark", ("clear", " ")), "one line"),
        (ask("cleark", ("clear", "clear")), "listed twice"),
        (ask("cleark", ("cleark",)), "the word itself"),
        (ask("cleark", ("clear",), before="x" * (MAX_RANK_CONTEXT_CHARS + 1)), "before and after"),
        (ask("cleark", ("clear",), after="x" * (MAX_RANK_CONTEXT_CHARS + 1)), "before and after"),
    ],
)
def test_a_request_no_menu_would_send_is_refused_before_any_read(
    request_: RankSuggestions, says: str
) -> None:
    backend = PricedBackend(tiny_table(), {})
    with pytest.raises(BadRequest, match=says):
        rank_suggestions(backend, request_)  # type: ignore[arg-type]
    assert not hasattr(backend, "read")  # refused before the reader was even asked for
