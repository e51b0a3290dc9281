"""One client of ``settle serve`` as the server sees it: its outgoing queue, bounded in bytes,
and what a failure may tell it.

A client's events are written by its own task, so they keep their order. The queue counts its
bytes; a client that lets them pass ``max_outgoing_bytes`` is not reading, and its connection is
dropped at once (it could not read a close frame either). A failure reaches a client as a plain
message: an internal one names an error id, and its traceback goes to the server's log under it.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import secrets

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from engine.core.protocol import Event, Failed
from engine.remote.wire import Link, encode_utf8

log = logging.getLogger("settle.serve")

# Unsent bytes a client may have waiting: frames, a proposal or two. A message larger than this
# is still sent when nothing else waits, so no result is ever too large to deliver.
MAX_OUTGOING_BYTES = 8 * 1024 * 1024
NOT_READING = "not reading its messages"


ERROR_ID_BYTES = 4  # 8 hex digits: enough to find one failure in a day's log


class Client:
    """One connection: an outgoing queue written by its own task, so events keep their order.

    The queue counts its bytes; a message that would take it past ``max_outgoing_bytes`` means
    the client is not reading, and the connection is dropped at once: it could not read a
    close frame either, and waiting would keep its backlog in memory.
    """

    def __init__(self, number: int, ws: ServerConnection, max_outgoing_bytes: int) -> None:
        self.number = number
        self.ws = ws
        self.outgoing: asyncio.Queue[bytes] = asyncio.Queue()
        self.waiting_bytes = 0
        self.max_outgoing_bytes = max_outgoing_bytes
        self.dropped = False
        self.positions: dict[int, int] = {}  # last queue position told, per request id

    def send(self, message: Event | Link) -> None:
        if self.dropped:
            return
        data = encode_utf8(message)
        if self.waiting_bytes and self.waiting_bytes + len(data) > self.max_outgoing_bytes:
            self.drop_unread()
            return
        self.waiting_bytes += len(data)
        self.outgoing.put_nowait(data)

    def drop_unread(self) -> None:
        log.warning(
            "client %d is %s (%d bytes unsent): dropping its connection",
            self.number,
            NOT_READING,
            self.waiting_bytes,
        )
        self.dropped = True
        self.ws.transport.abort()

    async def write(self) -> None:
        with contextlib.suppress(ConnectionClosed):
            while True:
                data = await self.outgoing.get()
                await self.ws.send(data, text=True)
                self.waiting_bytes -= len(data)


def for_client(event: Failed) -> Failed:
    """``event`` as a remote client may see it: no traceback, no exception text of ours."""
    if event.kind == "internal":
        return internal_failure(event.request_id, detail=event.detail or event.message)
    if event.detail:  # e.g. the allocator's report of an out-of-memory: the operator's to read
        log.info("request %s: %s (%s)", event.request_id, event.message, event.detail)
        return dataclasses.replace(event, detail="")
    return event


def internal_failure(
    request_id: int | None, detail: str = "", exc: BaseException | None = None
) -> Failed:
    """A plain ``internal`` failure naming a fresh error id; the log gets the id and the why."""
    error_id = secrets.token_hex(ERROR_ID_BYTES)
    log.error("request %s failed [error %s]\n%s", request_id, error_id, detail, exc_info=exc)
    message = (
        f"The engine failed on this request (error id {error_id}); it goes on serving. "
        "Its operator can find the details under that id in the server's log."
    )
    return Failed(request_id, "internal", message)
