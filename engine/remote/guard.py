"""The door of ``settle serve``: the HTTP checks before a WebSocket opens, and token guessers.

:class:`Gatekeeper` is websockets' ``process_request``. It refuses, in this order: an address
that is backing off (429 with ``Retry-After``, the token not even compared), a request with
more than one ``Authorization`` header (400: which one would count?), a missing or wrong token
(401), and one client more than the limit (503). Nothing here can raise into websockets, whose
answer to an exception is a 500 and a traceback in the log.

:class:`TokenBackoff` remembers failed tokens per address: after
:data:`FAILURES_BEFORE_BACKOFF` in a row, that address waits before its next try, twice as long
after each further failure (up to :data:`MAX_BACKOFF_S`); a right token forgets it. So a guesser
gets a handful of tries a minute instead of a thousand a second, and the log gets at most one
line per address per :data:`LOG_INTERVAL_S`, counting what it did not print.
"""

from __future__ import annotations

import http
import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

from websockets.asyncio.server import ServerConnection
from websockets.http11 import Request as HttpRequest
from websockets.http11 import Response as HttpResponse

from engine.remote.auth import token_matches

log = logging.getLogger("settle.serve")

FAILURES_BEFORE_BACKOFF = 5
FIRST_BACKOFF_S = 1.0
MAX_BACKOFF_S = 60.0
LOG_INTERVAL_S = 10.0
MAX_ADDRESSES = 4096  # addresses remembered; the longest-quiet ones are forgotten first
BEARER = "Bearer "


@dataclass
class _Record:
    failures: int = 0
    blocked_until: float = 0.0
    logged_at: float = -math.inf
    unlogged: int = 0  # refusals since the last log line


class TokenBackoff:
    """Failed tokens per address, and when each address may try again."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self.clock = clock
        self.records: OrderedDict[str, _Record] = OrderedDict()

    def wait_s(self, address: str) -> float:
        """Seconds before ``address`` may offer a token again (0: now)."""
        record = self.records.get(address)
        return max(0.0, record.blocked_until - self.clock()) if record else 0.0

    def failed(self, address: str) -> None:
        record = self._record(address)
        record.failures += 1
        beyond = record.failures - FAILURES_BEFORE_BACKOFF
        if beyond >= 0:
            wait = min(MAX_BACKOFF_S, FIRST_BACKOFF_S * 2.0**beyond)
            record.blocked_until = self.clock() + wait

    def succeeded(self, address: str) -> None:
        self.records.pop(address, None)

    def refusals_to_log(self, address: str) -> int:
        """How many refusals the next log line counts, or 0 when this one stays unprinted."""
        record = self._record(address)
        record.unlogged += 1
        now = self.clock()
        if now - record.logged_at < LOG_INTERVAL_S:
            return 0
        count, record.unlogged, record.logged_at = record.unlogged, 0, now
        return count

    def _record(self, address: str) -> _Record:
        record = self.records.pop(address, None) or _Record()
        self.records[address] = record  # most recently seen last
        while len(self.records) > MAX_ADDRESSES:
            self.records.popitem(last=False)
        return record


class Gatekeeper:
    """websockets' ``process_request`` for one server: None lets the handshake go on."""

    def __init__(
        self,
        token: str,
        room_left: Callable[[], bool],
        max_clients: int,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.token = token
        self.room_left = room_left
        self.max_clients = max_clients
        self.backoff = TokenBackoff(clock)

    def __call__(self, connection: ServerConnection, request: HttpRequest) -> HttpResponse | None:
        address = _host(connection.remote_address)
        wait = self.backoff.wait_s(address)
        if wait > 0:
            self._log_refusal(address, "while it backs off after wrong tokens")
            return _too_many(connection, wait)
        headers = request.headers.get_all("Authorization")
        if len(headers) > 1:
            return connection.respond(
                http.HTTPStatus.BAD_REQUEST, "Send one Authorization header, not several.\n"
            )
        header = headers[0] if headers else ""
        if not header.startswith(BEARER):
            return connection.respond(
                http.HTTPStatus.UNAUTHORIZED,
                "This Settle engine needs a token (Authorization: Bearer ...).\n",
            )
        if not token_matches(self.token, header[len(BEARER) :]):
            self.backoff.failed(address)
            self._log_refusal(address, "with a wrong token")
            return connection.respond(http.HTTPStatus.UNAUTHORIZED, "The token is not right.\n")
        self.backoff.succeeded(address)
        if not self.room_left():
            return connection.respond(
                http.HTTPStatus.SERVICE_UNAVAILABLE,
                f"This engine already serves {self.max_clients} clients; try later.\n",
            )
        return None

    def _log_refusal(self, address: str, why: str) -> None:
        count = self.backoff.refusals_to_log(address)
        if count:
            log.warning(
                "refused %d connection(s) from %s %s (at most one such line per %.0f s)",
                count,
                address,
                why,
                LOG_INTERVAL_S,
            )


def _too_many(connection: ServerConnection, wait_s: float) -> HttpResponse:
    seconds = math.ceil(wait_s)
    response = connection.respond(
        http.HTTPStatus.TOO_MANY_REQUESTS,
        f"Too many wrong tokens from this address: try again in {seconds} s.\n",
    )
    response.headers["Retry-After"] = str(seconds)
    return response


def _host(address: object) -> str:
    """The host part of a peer address (IPv4 and IPv6 tuples alike), never raising."""
    if isinstance(address, tuple) and address:
        return str(address[0])
    return str(address)
