"""The remote engine's defences, part by part (issue 27): what the wire refuses, what a failure
tells a client, the fair queue's turns, token guessers, and clients that do not read.

No model and no socket: the end-to-end probes of the same rules against a real ``settle serve``
are in ``test_remote_hostile.py``.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
import math
import threading
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.config import SamplerSettings
from engine.core.protocol import (
    MAX_KNOWN_WORD_CHARS,
    MAX_KNOWN_WORDS,
    Cancel,
    Edit,
    Failed,
    Frame,
    Queued,
    Span,
)
from engine.remote import guard
from engine.remote.clients import Client, for_client, internal_failure
from engine.remote.fairqueue import FairQueue, Job
from engine.remote.guard import Gatekeeper, TokenBackoff
from engine.remote.wire import (
    EVENTS,
    MAX_INSTRUCTION_CHARS,
    MAX_INT,
    MAX_REFUSAL_CHARS,
    REQUESTS,
    WireError,
    decode,
    encode,
    encode_utf8,
)
from tests.helpers.remote import HandshakeStub, StuckConnection

T = TypeVar("T")
NUMBER_FIELDS = [
    f.name
    for f in dataclasses.fields(SamplerSettings)
    if f.type in ("int", "float", "float | None")
]


def edit_json(**changes: object) -> dict:
    data = json.loads(encode(Edit(5, "text", Span(0, 4))))
    data.update(changes)
    return data


def refusal(text: str) -> WireError:
    with pytest.raises(WireError) as refused:
        decode(text, REQUESTS)
    return refused.value


# --- numbers at the wire ---------------------------------------------------------------------


@pytest.mark.parametrize("name", NUMBER_FIELDS)
def test_an_infinite_number_is_refused_in_every_numeric_setting(name: str) -> None:
    text = json.dumps(edit_json(settings={name: 1}))
    refused = refusal(text.replace(f'"{name}": 1', f'"{name}": 1e400'))
    assert "reads as infinity" in str(refused)


@pytest.mark.parametrize("digits", [20, 5_001, 100_000])
def test_an_integer_beyond_64_bits_is_a_bad_request_not_a_crash(digits: int) -> None:
    text = json.dumps(edit_json()).replace('"request_id": 5', f'"request_id": {"9" * digits}')
    refused = refusal(text)
    assert "fit in 64 bits" in str(refused) and len(str(refused)) < MAX_REFUSAL_CHARS


def test_a_seed_of_2_to_the_70_is_refused_and_64_bit_seeds_pass() -> None:
    assert "fit in 64 bits" in str(refusal(json.dumps(edit_json(settings={"seed": 2**70}))))
    for seed in (MAX_INT, -MAX_INT):
        edit = decode(json.dumps(edit_json(settings={"seed": seed})), REQUESTS)
        assert edit.settings.seed == seed


def test_a_value_the_settings_refuse_is_a_bad_request_saying_why() -> None:
    refused = refusal(json.dumps(edit_json(settings={"temperature": -1.0})))
    assert "Edit.settings: temperature must be >= 0" in str(refused)
    assert refused.request_id == 5


# --- strings at the wire ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "message",
    [
        '{"type": "Cancel", "request_id": 1, "\\ud800": 2}',  # a field's name
        '{"type": "\\udfff"}',  # the type
        json.dumps(edit_json(text="The quick \ud800 fox", locks=[{"start": 4, "end": 12}])),
        json.dumps(edit_json(instruction="tighter \udc80")),
    ],
)
def test_a_lone_surrogate_anywhere_is_refused_without_being_echoed(message: str) -> None:
    refused = refusal(message)
    assert "lone UTF-16 surrogate" in str(refused)
    str(refused).encode("utf-8")  # the refusal itself is sendable text


def test_paired_surrogates_are_ordinary_text() -> None:
    edit = decode(json.dumps(edit_json(text="a \U0001f600 b")), REQUESTS)  # \ud83d\ude00
    assert edit.text == "a \U0001f600 b"


def test_the_instruction_is_capped_naming_the_cap() -> None:
    at_cap = decode(json.dumps(edit_json(instruction="x" * MAX_INSTRUCTION_CHARS)), REQUESTS)
    assert len(at_cap.instruction) == MAX_INSTRUCTION_CHARS
    refused = refusal(json.dumps(edit_json(instruction="x" * 100_000)))
    assert f"Edit.instruction: 100,000 characters; the engine accepts at most {1000:,}" in str(
        refused
    )


def test_the_users_known_words_travel_as_a_bounded_list_of_words() -> None:
    words = ["Settle", "recieved"]
    assert decode(json.dumps(edit_json(known_words=words)), REQUESTS).known_words == tuple(words)
    at_cap = decode(json.dumps(edit_json(known_words=["w"] * MAX_KNOWN_WORDS)), REQUESTS)
    assert len(at_cap.known_words) == MAX_KNOWN_WORDS


@pytest.mark.parametrize(
    ("known_words", "says"),
    [
        ("recieved", "Edit.known_words: expected a list"),
        ([1, 2], "Edit.known_words[0]: expected str, got int"),
        ([["nested"]], "Edit.known_words[0]: expected str, got list"),
        (["w"] * (MAX_KNOWN_WORDS + 1), f"{MAX_KNOWN_WORDS + 1:,} words; the engine accepts"),
        (["ok", "x" * (MAX_KNOWN_WORD_CHARS + 1)], "Edit.known_words[1]: 'xxxx"),
        (["ok", "two words"], "Edit.known_words[1]: 'two words' is not one word"),
        ([""], "Edit.known_words[0]: '' is not one word"),
    ],
)
def test_a_bad_known_words_list_is_refused_saying_what_and_where(
    known_words: object, says: str
) -> None:
    assert says in str(refusal(json.dumps(edit_json(known_words=known_words))))


@pytest.mark.parametrize(
    "message",
    [
        json.dumps({"type": "x" * 800_000}),
        json.dumps({"type": "Cancel", "request_id": 1, **{f"f{i}" * 50: i for i in range(500)}}),
        json.dumps(edit_json(mode="y" * 800_000)),
    ],
)
def test_a_refusal_quotes_little_of_a_large_message(message: str) -> None:
    assert len(str(refusal(message))) <= MAX_REFUSAL_CHARS + 1


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=12,
)


@given(st.dictionaries(st.sampled_from(["type", "request_id", "text", "stamp", "settings"]),
                       JSON_VALUES), st.sampled_from([*sorted(REQUESTS), "ping"]))  # fmt: skip
def test_any_message_is_decoded_or_refused_with_a_short_sendable_reason(
    data: dict, kind: str
) -> None:
    data.setdefault("type", kind)
    text = json.dumps(data, allow_nan=True)
    try:
        decode(text, REQUESTS)
    except WireError as refused:
        assert len(str(refused)) <= MAX_REFUSAL_CHARS + 1
        str(refused).encode("utf-8")


def test_an_event_holding_a_lone_surrogate_is_sent_escaped() -> None:
    data = encode_utf8(Failed(1, "bad-request", "odd \ud800 text"))
    assert b"\\ud800" in data
    with pytest.raises(WireError):  # and the client refuses it as the server would
        decode(data.decode("utf-8"), EVENTS)


# --- what a failure tells a remote client ------------------------------------------------------


def test_an_internal_failure_reaches_the_client_as_a_message_and_an_id(
    caplog: pytest.LogCaptureFixture,
) -> None:
    trace = (
        'Traceback (most recent call last):\n  File "/srv/engine/canvas.py", line 9\nOverflowError'
    )
    inner = Failed(3, "internal", "Internal error (OverflowError: big).", detail=trace)
    with caplog.at_level(logging.ERROR, logger="settle.serve"):
        told = for_client(inner)
    assert (told.request_id, told.kind, told.detail) == (3, "internal", "")
    assert "Traceback" not in told.message and "OverflowError" not in told.message
    error_id = told.message.split("error id ")[1].split(")")[0]
    assert len(error_id) == 8
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert error_id in logged and "/srv/engine/canvas.py" in logged


def test_each_internal_failure_gets_its_own_id() -> None:
    assert internal_failure(1).message != internal_failure(1).message


def test_other_failures_keep_their_wording_and_lose_their_detail() -> None:
    oom = Failed(2, "out-of-memory", "The model ran out of memory.", detail="CUDA: 3 GiB free")
    assert for_client(oom) == Failed(2, "out-of-memory", "The model ran out of memory.")
    plain = Failed(2, "bad-request", "steps must lie between 1 and 4096")
    assert for_client(plain) is plain


# --- the fair queue -------------------------------------------------------------------------


def job(client: int, local_id: int) -> Job:
    return Job(client, local_id, client * 100 + local_id, Cancel(local_id))  # type: ignore[arg-type]


def test_a_client_arriving_while_another_runs_goes_before_its_next_request() -> None:
    queue = FairQueue()
    queue.add(job(1, 1))
    queue.take()  # A1 runs at once
    queue.add(job(1, 2))
    queue.add(job(1, 3))
    queue.add(job(2, 1))  # then B1
    assert [(j.client, j.local_id) for j in queue.order()] == [(2, 1), (1, 2), (1, 3)]
    assert queue.positions()[(2, 1)] == 1
    ran = []
    while queue.running is not None:
        done = queue.finish()
        assert done is not None
        ran.append((done.client, done.local_id))
        queue.take()
    assert ran == [(1, 1), (2, 1), (1, 2), (1, 3)]


def test_newcomers_keep_their_arrival_order_ahead_of_the_running_client() -> None:
    queue = FairQueue()
    queue.add(job(1, 1))
    queue.take()
    for item in (job(1, 2), job(3, 1), job(2, 1)):
        queue.add(item)
    assert [j.client for j in queue.order()] == [3, 2, 1]


def test_the_servers_own_work_can_go_before_everything_waiting() -> None:
    queue = FairQueue()
    for item in (job(1, 1), job(2, 1)):
        queue.add(item)
    queue.add(Job(0, None, 99, Cancel(0)), first=True)  # type: ignore[arg-type]
    first = queue.take()
    assert first is not None and first.client == 0
    assert [j.client for j in queue.order()] == [1, 2]


# --- token guessers -------------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_an_address_backs_off_after_a_few_wrong_tokens_doubling_to_a_cap() -> None:
    clock = Clock()
    backoff = TokenBackoff(clock)
    for _ in range(guard.FAILURES_BEFORE_BACKOFF - 1):
        backoff.failed("10.0.0.1")
    assert backoff.wait_s("10.0.0.1") == 0.0
    waits = []
    for _ in range(12):
        backoff.failed("10.0.0.1")
        waits.append(backoff.wait_s("10.0.0.1"))
    assert waits[:3] == [
        guard.FIRST_BACKOFF_S,
        2 * guard.FIRST_BACKOFF_S,
        4 * guard.FIRST_BACKOFF_S,
    ]
    assert max(waits) == guard.MAX_BACKOFF_S
    assert backoff.wait_s("10.0.0.2") == 0.0  # per address
    clock.now += guard.MAX_BACKOFF_S
    assert backoff.wait_s("10.0.0.1") == 0.0
    backoff.succeeded("10.0.0.1")
    backoff.failed("10.0.0.1")
    assert backoff.wait_s("10.0.0.1") == 0.0  # a right token forgot the failures


def test_refusals_are_logged_at_most_once_per_interval_and_counted() -> None:
    clock = Clock()
    backoff = TokenBackoff(clock)
    counts = [backoff.refusals_to_log("10.0.0.1") for _ in range(200)]
    assert counts[0] == 1 and sum(1 for c in counts if c) == 1
    clock.now += guard.LOG_INTERVAL_S
    assert backoff.refusals_to_log("10.0.0.1") == 200  # the 199 unprinted, and this one


def test_the_addresses_remembered_are_bounded() -> None:
    backoff = TokenBackoff(Clock())
    for n in range(guard.MAX_ADDRESSES + 10):
        backoff.failed(f"2001:db8::{n:x}")
    assert len(backoff.records) == guard.MAX_ADDRESSES
    assert math.isfinite(backoff.wait_s("2001:db8::0"))


# --- clients that do not read ---------------------------------------------------------------


def run_apart(main: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """``asyncio.run(main())`` on a thread of its own: this thread may be running a loop already
    (the window's tests leave Qt's)."""
    results: list[T] = []
    thread = threading.Thread(target=lambda: results.append(asyncio.run(main())))
    thread.start()
    thread.join()
    return results[0]


def test_a_client_that_does_not_read_is_dropped_once_its_backlog_passes_the_cap() -> None:
    async def flood() -> tuple[StuckConnection, Client, int]:
        ws = StuckConnection()
        client = Client(1, ws, max_outgoing_bytes=4096)  # type: ignore[arg-type]
        writer = asyncio.create_task(client.write())
        frame = Frame(1, 1, 8, 1, (), 1, 0.0)
        sent = 0
        while not client.dropped and sent < 10_000:
            client.send(frame)
            sent += 1
            await asyncio.sleep(0)
        writer.cancel()
        return ws, client, sent

    ws, client, sent = run_apart(flood)
    assert client.dropped and ws.aborted
    assert client.waiting_bytes <= 4096 and sent < 10_000
    client.send(Queued(1, 1))  # nothing more is queued for a dropped client
    assert client.outgoing.qsize() * len(encode_utf8(Queued(1, 1))) <= 4096


def test_one_message_larger_than_the_cap_is_still_sent_alone() -> None:
    async def one_large() -> Client:
        client = Client(1, StuckConnection(), max_outgoing_bytes=64)  # type: ignore[arg-type]
        client.send(Failed(1, "bad-request", "x" * 1000))
        return client

    client = run_apart(one_large)
    assert not client.dropped and client.outgoing.qsize() == 1


def knock(gate: Gatekeeper, address: str, *headers: tuple[str, str]) -> int | None:
    stub = HandshakeStub(address, list(headers))
    response = gate(stub, stub)  # type: ignore[arg-type]
    return None if response is None else response.status_code


def test_the_gatekeeper_backs_off_before_it_reads_the_token() -> None:
    clock = Clock()
    gate = Gatekeeper("right-token-0123456789", lambda: True, 4, clock)
    wrong, right = (
        ("Authorization", "Bearer wrong"),
        ("Authorization", "Bearer right-token-0123456789"),
    )
    statuses = [knock(gate, "10.0.0.1", wrong) for _ in range(guard.FAILURES_BEFORE_BACKOFF + 3)]
    assert statuses == [401] * guard.FAILURES_BEFORE_BACKOFF + [429] * 3
    assert knock(gate, "10.0.0.1", right) == 429  # the right token waits too
    assert knock(gate, "10.0.0.2", right) is None  # another address does not
    clock.now += guard.FIRST_BACKOFF_S
    assert knock(gate, "10.0.0.1", right) is None


def test_the_gatekeeper_answers_every_malformed_header_without_raising() -> None:
    gate = Gatekeeper("right-token-0123456789", lambda: False, 4, Clock())
    token = ("Authorization", "Bearer right-token-0123456789")
    assert knock(gate, "10.0.0.3", token, token) == 400
    assert knock(gate, "10.0.0.3") == 401
    assert knock(gate, "10.0.0.3", ("Authorization", "Basic Zm9vOmJhcg==")) == 401
    assert knock(gate, "10.0.0.3", ("Authorization", "Bearer \xe9\xff")) == 401
    assert knock(gate, "10.0.0.3", token) == 503  # no room left


@pytest.mark.parametrize("value", ["0", "-1", "inf", "nan"])
def test_the_outgoing_cap_flag_must_be_a_positive_size(value: str) -> None:
    from app.cli import build_parser
    from app.serve_cli import build_config
    from engine.core.errors import BadRequest

    args = build_parser().parse_args(["serve", "--max-outgoing-mb", value])
    with pytest.raises(BadRequest, match="--max-outgoing-mb"):
        build_config(args)
