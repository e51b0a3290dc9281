"""A stand-in for the window's worker client as the spelling ranker uses it: the signals it
listens to, and the requests and cancels it sends, recorded (no engine)."""

from __future__ import annotations

import itertools

from PySide6.QtCore import QObject, Signal

from engine.core.protocol import Cancelled, Failed, ModelReady, RankSuggestions, SuggestionsRanked


class RankingClient(QObject):
    modelReady = Signal(ModelReady)
    ranked = Signal(SuggestionsRanked)
    failed = Signal(Failed)
    cancelled = Signal(Cancelled)

    def __init__(self) -> None:
        super().__init__()
        self._ids = itertools.count(1)
        self.sent: list[RankSuggestions] = []
        self.cancels: list[int] = []

    def next_request_id(self) -> int:
        return next(self._ids)

    def rank(self, request: RankSuggestions) -> None:
        self.sent.append(request)

    def cancel(self, request_id: int) -> None:
        self.cancels.append(request_id)

    def answer(
        self,
        order: tuple[str, ...],
        nats: tuple[float, ...] | None = None,
        request: RankSuggestions | None = None,
    ) -> None:
        """The engine's answer to ``request`` (the last one sent), in ``order``."""
        request = request or self.sent[-1]
        given = tuple(float(-i) for i in range(len(order))) if nats is None else nats
        self.ranked.emit(SuggestionsRanked(request.request_id, request.word, order, given))
