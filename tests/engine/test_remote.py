"""The remote engine end to end: a real ``settle serve`` process on loopback, a tiny model.

One server serves most tests (its message limit is lowered to 1 MB); TLS and the server killed
mid-draft get their own. Requests with seed ``GATE_SEED`` pause before step 2 until the test
releases them (:mod:`tests.helpers.remote_server`), so "mid-draft" is a known point, not a
timing. Remote results are compared with the same request run locally on the same weights.
"""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from engine.core.config import SamplerSettings
from engine.core.protocol import (
    MAX_RANK_CONTEXT_CHARS,
    MAX_RANKED_SUGGESTIONS,
    Cancel,
    Cancelled,
    DraftView,
    Edit,
    Event,
    Failed,
    Fill,
    FillKind,
    Frame,
    LoadModel,
    ModelReady,
    Proposal,
    Queued,
    RankSuggestions,
    Span,
    SuggestionsRanked,
)
from engine.remote.client import RemoteWorker
from engine.remote.wire import EVENTS, decode, encode
from tests.helpers.remote import ROOT, ServerProcess, self_signed, start_server
from tests.helpers.remote_server import GATE_SEED
from tests.helpers.worker_models import load_folder, save_tiny_llama

WAIT = 120.0
TEXT = "The quick brown fox jumps over the lazy dog."
LOCK = Span(TEXT.index("brown fox"), TEXT.index("brown fox") + len("brown fox"))
SCHEMA = json.dumps(
    {
        "type": "object",
        "properties": {"name": {"type": "string", "maxLength": 8}, "age": {"type": "integer"}},
        "required": ["name", "age"],
    }
)


def edit(request_id: int, seed: int = 1, text: str = TEXT) -> Edit:
    locks = (LOCK,) if text == TEXT else ()
    settings = SamplerSettings(steps=6, block_length=0, seed=seed)
    return Edit(request_id, text, Span(0, len(text)), locks=locks, settings=settings)


def until(worker: RemoteWorker, done: Callable[[Event], bool]) -> list[Event]:
    events: list[Event] = []
    deadline = time.monotonic() + WAIT  # pings keep events coming: bound the wait itself
    while time.monotonic() < deadline:
        event = worker.poll(1.0)
        if event is None:
            continue
        events.append(event)
        if done(event):
            return events
    raise AssertionError(f"no matching event: {events}")


def ends(request_id: int) -> Callable[[Event], bool]:
    return lambda e: isinstance(e, Proposal | Cancelled | Failed) and e.request_id == request_id


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return save_tiny_llama(tmp_path_factory.mktemp("models") / "tiny-llama")


@pytest.fixture(scope="module")
def local(tiny: Path):  # the same weights in this process: what the local worker proposes
    from engine.process.runtime import configure_threads

    configure_threads()
    return load_folder(LoadModel(str(tiny), "cpu"), lambda _p: None).backend


def local_proposal(backend, request: Edit | Fill) -> Proposal:
    from engine.run.edit_run import run_edit
    from engine.structured.fill import run_fill

    runner = run_fill if isinstance(request, Fill) else run_edit
    return [e for e in runner(backend, request) if isinstance(e, Proposal)][-1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory, tiny: Path) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("server")
    process = start_server(folder, tiny, "--max-message-mb", "1")
    yield process
    process.stop()


@pytest.fixture
def client(server: ServerProcess) -> Iterator[RemoteWorker]:
    server.hold()
    worker = RemoteWorker(server.url, server.token)
    worker.start()
    yield worker
    server.release()  # never leave the engine parked for the next test
    worker.stop()


def raw(server: ServerProcess) -> ClientConnection:
    headers = {"Authorization": f"Bearer {server.token}"}
    return connect(server.url, additional_headers=headers, proxy=None, legacy=True)


def raw_event(ws: ClientConnection) -> Event:
    while True:
        event = decode(ws.recv(timeout=WAIT), EVENTS)
        if not isinstance(event, Queued):
            return event


# --- results -----------------------------------------------------------------------------


def test_a_rewrite_with_locks_is_the_local_workers_proposal(client: RemoteWorker, local) -> None:
    client.send(LoadModel(""))
    ready = until(client, lambda e: isinstance(e, ModelReady))[-1]
    assert isinstance(ready, ModelReady) and ready.info.device == "cpu"
    client.send(edit(1, seed=3))
    events = until(client, ends(1))
    proposal = events[-1]
    assert isinstance(proposal, Proposal)
    expected = local_proposal(local, edit(1, seed=3))
    assert (proposal.text, proposal.segments, proposal.locks) == (
        expected.text,
        expected.segments,
        expected.locks,
    )
    assert proposal.locks == ("brown fox",) and "brown fox" in proposal.text
    view = DraftView()
    for frame in (e for e in events if isinstance(e, Frame)):
        view.apply(frame)
    assert view.request_id == 1 and view.tokens
    assert any(isinstance(e, Queued) and e.position == 0 for e in events)


def test_a_structured_fill_is_the_local_workers_proposal(client: RemoteWorker, local) -> None:
    fill = Fill(5, FillKind.JSON, "", Span(0, 0), schema=SCHEMA, settings=SamplerSettings(seed=2))
    client.send(fill)
    proposal = until(client, ends(5))[-1]
    assert isinstance(proposal, Proposal)
    instance = json.loads(proposal.text)
    assert set(instance) == {"name", "age"} and type(instance["age"]) is int
    assert proposal.text == local_proposal(local, fill).text


def test_the_server_refuses_to_switch_models_unless_allowed(client: RemoteWorker) -> None:
    client.send(LoadModel("some/other-model"))
    failed = until(client, lambda e: isinstance(e, Failed))[-1]
    assert isinstance(failed, Failed) and failed.kind == "bad-request"
    assert "--allow-model-switch" in failed.message
    client.send(edit(2))
    assert isinstance(until(client, ends(2))[-1], Proposal)  # the engine serves on


# --- cancel and the queue ----------------------------------------------------------------


def test_cancel_works_while_queued_and_while_running(server: ServerProcess, client) -> None:
    client.send(edit(1, seed=GATE_SEED))
    until(client, lambda e: isinstance(e, Frame))  # parked before step 2
    other = RemoteWorker(server.url, server.token)
    other.start()
    try:
        other.send(edit(7))
        queued = until(other, lambda e: isinstance(e, Queued))[-1]
        assert queued == Queued(7, 1)
        other.cancel(7)
        assert until(other, ends(7))[-1] == Cancelled(7)
        client.cancel(1)
        server.release()
        assert until(client, ends(1))[-1] == Cancelled(1)
        other.send(edit(8))
        assert isinstance(until(other, ends(8))[-1], Proposal)
    finally:
        other.stop()


def test_requests_in_flight_per_client_are_limited(server: ServerProcess) -> None:
    server.hold()
    ws = raw(server)
    try:
        for request_id in range(1, 6):  # the default limit is 4 in flight
            ws.send(encode(edit(request_id, seed=GATE_SEED)))
        refused = raw_event(ws)
        while not isinstance(refused, Failed):
            refused = raw_event(ws)
        assert refused.request_id == 5 and "Too many requests" in refused.message
        ws.send(encode(edit(2, seed=GATE_SEED)))  # an id already queued
        again = raw_event(ws)
        while not isinstance(again, Failed):
            again = raw_event(ws)
        assert again.request_id == 2 and "already queued" in again.message
        for request_id in range(1, 5):
            ws.send(encode(Cancel(request_id)))
        server.release()
        while raw_event(ws) != Cancelled(1):
            pass  # the parked request has ended: the engine is free for the next test
    finally:
        ws.close()


def queue_clients(server: ServerProcess, texts: list[str]) -> tuple[list[RemoteWorker], list[int]]:
    """One client per text, each sending one edit (seed = its number); their queue positions."""
    workers = [RemoteWorker(server.url, server.token) for _ in texts]
    positions: list[int] = []
    for n, worker in enumerate(workers):
        worker.start()
        worker.send(edit(1, seed=n, text=texts[n]))
        queued = until(worker, lambda e: isinstance(e, Queued))[-1]
        assert isinstance(queued, Queued)
        positions.append(queued.position)
    return workers, positions


def test_ten_clients_at_once_each_get_their_own_result(server: ServerProcess, local) -> None:
    server.hold()
    blocker = RemoteWorker(server.url, server.token)
    blocker.start()
    blocker.send(edit(1, seed=GATE_SEED))
    until(blocker, lambda e: isinstance(e, Frame))
    texts = [f"Paris is the capital of France, client {n}." for n in range(10)]
    workers, positions = queue_clients(server, texts)
    assert positions == list(range(1, 11))  # one engine, a fair queue, everyone told
    results: dict[int, Event] = {}
    threads = [
        threading.Thread(target=lambda n=n: results.update({n: until(workers[n], ends(1))[-1]}))
        for n in range(10)
    ]
    for thread in threads:
        thread.start()
    blocker.cancel(1)
    server.release()
    for thread in threads:
        thread.join(WAIT)
    for worker in (blocker, *workers):
        worker.stop()
    assert sorted(results) == list(range(10))
    for n, proposal in results.items():
        assert isinstance(proposal, Proposal)
        assert proposal.text == local_proposal(local, edit(1, seed=n, text=texts[n])).text


# --- bad clients ---------------------------------------------------------------------------


def test_no_token_and_a_wrong_token_are_refused(server: ServerProcess) -> None:
    with pytest.raises(InvalidStatus) as refused:
        connect(server.url, proxy=None, legacy=True)
    assert refused.value.response.status_code == 401
    assert b"needs a token" in refused.value.response.body
    wrong = RemoteWorker(server.url, "not-the-token-at-all")
    wrong.start()
    failed = wrong.poll(WAIT)
    assert isinstance(failed, Failed) and failed.kind == "worker-died"
    assert "token is not right" in failed.message
    assert wrong.poll(0.0) is None  # reported once


def test_garbage_frames_are_refused_and_the_connection_stays_usable(server) -> None:
    ws = raw(server)
    try:
        bad_edit = json.loads(encode(edit(3)))
        bad_edit["target"] = {"start": "zero", "end": 4}
        garbage = ["not json", b"\x00\x01binary", '{"type": "Shutdown"}', json.dumps(bad_edit)]
        for frame in garbage:
            ws.send(frame)
            failed = raw_event(ws)
            assert isinstance(failed, Failed) and failed.kind == "bad-request", frame
        assert failed.request_id == 3 and "Edit.target.start" in failed.message
        ws.send(encode(edit(4)))
        while not isinstance(event := raw_event(ws), Proposal):
            assert isinstance(event, Frame)
        assert event.request_id == 4
    finally:
        ws.close()


def test_a_hunks_retry_and_a_rewrites_versions_are_the_local_workers(
    client: RemoteWorker, local
) -> None:
    """A retry is an ordinary Edit and alternatives an ordinary Proposal field: both cross
    the wire as the local worker makes them."""
    from engine.run.retry import HunkRetry, retry_edit

    settings = SamplerSettings(steps=6, block_length=0, seed=5, alternatives=3, passes=())
    rewrite = Edit(11, TEXT, Span(0, len(TEXT)), (LOCK,), settings=settings)
    client.send(rewrite)
    remote = until(client, ends(11))[-1]
    expected = local_proposal(local, rewrite)
    assert isinstance(remote, Proposal) and remote.alternatives == expected.alternatives
    assert remote.text == expected.text
    at = TEXT.index("lazy dog")
    hunk = HunkRetry(
        TEXT, Span(0, len(TEXT)), TEXT.replace("lazy dog", "idle dog"),
        Span(at, at + 8), Span(at, at + 8), "", "keep 'dog'", 2,
    )  # fmt: skip
    retry = retry_edit(12, hunk, settings)
    client.send(retry)
    again = until(client, ends(12))[-1]
    assert isinstance(again, Proposal) and again.target == retry.target
    assert (again.text, again.segments) == (
        local_proposal(local, retry).text,
        local_proposal(local, retry).segments,
    )
    assert [s.text for s in again.segments if s.locked] == ["dog"]  # the note's quoted word


RANK = RankSuggestions(21, "The ", "cleark", " at the desk gave me the key.", ("clear", "clerk"))


def test_a_spelling_menus_ranking_is_the_local_workers(client: RemoteWorker, local) -> None:
    from engine.run.suggestions import rank_suggestions

    client.send(RANK)
    answer = until(client, lambda e: isinstance(e, SuggestionsRanked | Failed))[-1]
    assert answer == rank_suggestions(local, RANK)


@pytest.mark.parametrize(
    ("field", "value", "says"),
    [
        (
            "suggestions",
            [f"w{i}" for i in range(MAX_RANKED_SUGGESTIONS + 1)],
            "suggestions can be ranked at once",
        ),
        ("suggestions", ["clear", "two\nlines"], "one line"),
        ("suggestions", ["clear", "clear"], "listed twice"),
        ("suggestions", "clear", "RankSuggestions.suggestions"),
        ("before", "x" * (MAX_RANK_CONTEXT_CHARS + 1), "RankSuggestions.before"),
        ("word", "", "The word to rank"),
    ],
)
def test_a_bad_ranking_is_refused_and_the_connection_goes_on(server, field, value, says) -> None:
    ws = raw(server)
    try:
        bad = json.loads(encode(RANK))
        bad[field] = value
        ws.send(json.dumps(bad))
        failed = raw_event(ws)
        assert isinstance(failed, Failed) and failed.kind == "bad-request"
        assert failed.request_id == RANK.request_id and says in failed.message
        assert "Traceback" not in failed.message and not failed.detail
        ws.send(encode(RANK))
        assert isinstance(raw_event(ws), SuggestionsRanked)
    finally:
        ws.close()


@pytest.mark.parametrize("value", [0, 9, "x", 1.5, True])
def test_a_bad_number_of_versions_is_refused_and_the_connection_goes_on(server, value) -> None:
    ws = raw(server)
    try:
        bad = json.loads(encode(edit(13)))
        bad["settings"]["alternatives"] = value
        ws.send(json.dumps(bad))
        failed = raw_event(ws)
        assert isinstance(failed, Failed) and failed.kind == "bad-request"
        assert failed.request_id == 13 and "alternatives" in failed.message
        ws.send(encode(edit(14)))
        while not isinstance(event := raw_event(ws), Proposal):
            assert isinstance(event, Frame)
        assert event.request_id == 14 and event.alternatives == ()
    finally:
        ws.close()


def test_an_oversized_frame_closes_cleanly_and_others_are_served(server) -> None:
    ws = raw(server)
    ws.send(json.dumps({"type": "Cancel", "request_id": 1, "pad": "x" * (2 * 1024 * 1024)}))
    with pytest.raises(ConnectionClosed) as closed:
        ws.recv(timeout=WAIT)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    huge = edit(9, text="word " * 300_000)  # refused by the client before it is sent
    small = RemoteWorker(server.url, server.token, max_message_bytes=1024 * 1024)
    small.start()
    small.send(huge)
    failed = until(small, ends(9))[-1]
    assert isinstance(failed, Failed) and "too large" in failed.message
    small.send(edit(10))
    assert isinstance(until(small, ends(10))[-1], Proposal)
    small.stop()


CLIENT_SCRIPT = """
import sys
from engine.core.config import SamplerSettings
from engine.core.protocol import Edit, Frame, Span
from engine.remote.client import RemoteWorker
worker = RemoteWorker(sys.argv[1], sys.argv[2])
worker.start()
text = "A client that will be killed while its draft settles."
worker.send(Edit(1, text, Span(0, len(text)), settings=SamplerSettings(seed=int(sys.argv[3]))))
for event in worker.events(timeout=120):
    if isinstance(event, Frame):
        print("drafting", flush=True)
        break
sys.stdin.read()  # until killed
"""


def test_a_client_killed_mid_draft_cancels_only_its_own_work(server, client, local) -> None:
    with subprocess.Popen(
        [sys.executable, "-c", CLIENT_SCRIPT, server.url, server.token, str(GATE_SEED)],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    ) as killed:  # fmt: skip
        assert killed.stdout is not None and killed.stdout.readline().strip() == "drafting"
        client.send(edit(1, seed=5))
        assert until(client, lambda e: isinstance(e, Queued))[-1] == Queued(1, 1)
        killed.kill()
    wait_for_log(server, "cancelled 1 request(s)")  # the server noticed, while it was parked
    server.release()
    until(client, lambda e: isinstance(e, Queued) and e.position == 0)  # it moved up
    proposal = until(client, ends(1))[-1]
    assert isinstance(proposal, Proposal)
    assert proposal.text == local_proposal(local, edit(1, seed=5)).text


def wait_for_log(server: ServerProcess, text: str) -> None:
    """Poll the server's log until ``text`` appears (a failure after WAIT, not a timing)."""
    deadline = time.monotonic() + WAIT
    while text not in server.stderr():
        assert time.monotonic() < deadline, f"{text!r} never logged:\n{server.stderr()}"
        time.sleep(0.05)


def test_a_cancel_for_an_unknown_request_changes_nothing(client: RemoteWorker) -> None:
    client.send(Cancel(99))
    client.send(edit(1))
    assert isinstance(until(client, ends(1))[-1], Proposal)


# --- TLS and a dying server -----------------------------------------------------------------


def test_tls_with_a_self_signed_certificate(tmp_path: Path, tiny: Path, local) -> None:
    cert, key = self_signed(tmp_path)
    tls = start_server(tmp_path / "tls", tiny, "--tls-cert", str(cert), "--tls-key", str(key))
    try:
        assert tls.url.startswith("wss://")
        untrusting = RemoteWorker(tls.url, tls.token)
        untrusting.start()
        failed = untrusting.poll(WAIT)
        assert isinstance(failed, Failed) and "CERTIFICATE_VERIFY_FAILED" in failed.message
        plain = RemoteWorker(tls.url.replace("wss://", "ws://"), tls.token)
        plain.start()
        assert isinstance(plain.poll(WAIT), Failed)
        # a loaded 2-core CI machine has taken over the 10 s default to answer this handshake
        trusting = RemoteWorker(tls.url, tls.token, ca_file=cert, open_timeout_s=WAIT)
        trusting.start()
        trusting.send(edit(1, seed=3))
        proposal = until(trusting, ends(1))[-1]
        assert isinstance(proposal, Proposal)
        assert proposal.text == local_proposal(local, edit(1, seed=3)).text
        trusting.stop()
    finally:
        tls.stop()


def test_the_server_killed_mid_draft_is_reported_once(tmp_path: Path, tiny: Path) -> None:
    doomed = start_server(tmp_path, tiny)
    worker = RemoteWorker(doomed.url, doomed.token)
    worker.start()
    try:
        worker.send(edit(1, seed=GATE_SEED))
        until(worker, lambda e: isinstance(e, Frame))
        doomed.kill()
        died = until(worker, lambda e: isinstance(e, Failed))[-1]
        assert isinstance(died, Failed) and died.kind == "worker-died" and died.request_id == 1
        assert worker.host in died.message and "text is safe" in died.message
        assert worker.poll(0.0) is None
        worker.restart()  # nobody listens any more: reported, not raised
        again = worker.poll(WAIT)
        assert isinstance(again, Failed) and "Could not reach" in again.message
    finally:
        worker.stop()
        doomed.kill()
