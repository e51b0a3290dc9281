"""The spelling menu's suggestions in the order the loaded model reads them in their sentence.

The dictionary offers a misspelt word's suggestions in one order wherever the word stands
("cleark": "clear" before "clerk", at a desk as in the sky). The engine can read each one in
the word's place (:func:`engine.run.suggestions.rank_suggestions`, one short read), so when
the menu opens :class:`SuggestionRanker` asks it, and the menu puts them in that order when
the answer comes (:func:`ui.spellcheck.spelling_actions`), unless the pointer is already on
one. Answers are kept per word and text around it, so the menu opens ranked the next time.

Nothing waits for the engine: without a loaded model, while the engine is busy or dead, or
when it cannot read (DiffusionGemma), the menu keeps the dictionary's order. A request
cancels no edit; a newer menu's request cancels the older one's (the local worker drops it
itself, a remote engine's queue on the cancel), so menus opened quickly one after another
never fill a remote engine's requests in flight.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Sequence

from PySide6.QtCore import QObject

from app.worker_client import AsyncWorkerClient
from engine.core.protocol import (
    MAX_RANK_CONTEXT_CHARS,
    MAX_RANKED_SUGGESTIONS,
    Cancelled,
    Failed,
    ModelReady,
    RankSuggestions,
    SuggestionsRanked,
)

# Answers kept (per word and the text around it), the least recently used dropped first.
KEPT_RANKINGS = 256

Ranked = Callable[[list[str]], None]
Key = tuple[str, str, str, tuple[str, ...]]


class SuggestionRanker(QObject):
    """Asks the engine behind ``client`` to rank a menu's suggestions and keeps its answers."""

    def __init__(self, client: AsyncWorkerClient) -> None:
        super().__init__(client)
        self.client = client
        self.ready = False  # a model is loaded: the engine can answer
        self._kept: OrderedDict[Key, list[str]] = OrderedDict()
        self._waiting: tuple[int, Key, Ranked] | None = None
        client.modelReady.connect(self.on_model_ready)
        client.ranked.connect(self.on_ranked)
        client.failed.connect(self.on_failed)
        client.cancelled.connect(self.on_cancelled)

    def rank(
        self, word: str, before: str, after: str, suggestions: Sequence[str], done: Ranked
    ) -> list[str]:
        """``suggestions`` in the best order known now: the model's when an answer is kept,
        else as given, and then ``done`` gets the model's order when the engine answers."""
        shown = list(dict.fromkeys(suggestions))[:MAX_RANKED_SUGGESTIONS]
        before, after = before[-MAX_RANK_CONTEXT_CHARS:], after[:MAX_RANK_CONTEXT_CHARS]
        key = (word, before, after, tuple(shown))
        kept = self._kept.get(key)
        if kept is not None:
            self._kept.move_to_end(key)
            return list(kept)
        request = RankSuggestions(self.client.next_request_id(), before, word, after, tuple(shown))
        if self.ready and shown and not request.problem():
            if self._waiting is not None:  # that menu is gone: a remote engine's queue drops it
                self.client.cancel(self._waiting[0])
            self._waiting = (request.request_id, key, done)
            self.client.rank(request)
        return shown

    def on_ranked(self, answer: SuggestionsRanked) -> None:
        if self._waiting is None or answer.request_id != self._waiting[0]:
            return
        _, key, done = self._waiting
        self._waiting = None
        if not answer.nats:  # the engine cannot read: the dictionary's order stands
            return
        order = list(answer.suggestions)
        self._kept[key] = order
        while len(self._kept) > KEPT_RANKINGS:
            self._kept.popitem(last=False)
        done(order)

    def on_model_ready(self, _ready: ModelReady) -> None:
        self.ready = True
        self._kept.clear()  # another model reads otherwise

    def on_failed(self, event: Failed) -> None:
        if event.kind == "worker-died":
            self.ready = False
        if self._waiting is not None and event.request_id in (None, self._waiting[0]):
            self._waiting = None

    def on_cancelled(self, event: Cancelled) -> None:
        if self._waiting is not None and event.request_id == self._waiting[0]:
            self._waiting = None
