"""The remote engine's parts without a network: the wire codec, the fair queue, the security rules.

Every refusal is checked to say what was wrong; nothing here needs a model or a socket.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.core.config import SamplerSettings
from engine.core.protocol import (
    Cancel,
    Cancelled,
    Edit,
    EditMode,
    Failed,
    Fill,
    FillKind,
    Frame,
    Metrics,
    ModelInfo,
    ModelReady,
    Proposal,
    Queued,
    SegmentText,
    Span,
    TokenState,
    TokenView,
)
from engine.remote.auth import (
    Listen,
    SecurityError,
    check_listen,
    is_loopback,
    parse_listen,
    read_token_file,
    server_tls,
    server_token,
    write_private,
)
from engine.remote.client import engine_host
from engine.remote.fairqueue import FairQueue, Job
from engine.remote.wire import EVENTS, PING, REQUESTS, Link, WireError, decode, encode

ROOT = Path(__file__).resolve().parents[2]

# --- the wire --------------------------------------------------------------------------------

EVENT_SAMPLES = [
    Frame(3, 2, 8, 4, (TokenView(1, "fox", TokenState.SETTLED, 0.75),), 5, 0.25),
    Proposal(
        3,
        Span(0, 9),
        "brown fox",
        (SegmentText("brown ", False), SegmentText("fox", True)),
        ("fox",),
        Metrics(0.01, 0.5, 8, 8, 9, 1.125, 0.1, 18.0),
    ),
    ModelReady(ModelInfo("m", "M", "masked", "cuda", 135, "all layers on cuda:0")),
    Failed(None, "model-load", "nope", "trace"),
    Cancelled(4),
    Queued(4, 2),
]


@pytest.mark.parametrize("event", EVENT_SAMPLES, ids=lambda e: type(e).__name__)
def test_every_event_survives_the_wire(event: object) -> None:
    assert decode(encode(event), EVENTS) == event


@given(
    text=st.text(max_size=40),
    instruction=st.text(max_size=10),
    seed=st.integers(0, 2**31),
    strength=st.floats(0.01, 1.0),
    threshold=st.none() | st.floats(0.01, 1.0),
)
def test_any_edit_survives_the_wire(
    text: str, instruction: str, seed: int, strength: float, threshold: float | None
) -> None:
    settings = SamplerSettings(seed=seed, strength=strength, threshold=threshold)
    edit = Edit(7, text, Span(0, len(text)), (), instruction, EditMode.DRAFT, settings)
    assert decode(encode(edit), REQUESTS) == edit


def test_a_fill_and_a_ping_survive_the_wire() -> None:
    fill = Fill(2, FillKind.TABLE, "| a |", Span(0, 5), cells="1,1", add_rows=2)
    assert decode(encode(fill), REQUESTS) == fill
    assert decode(encode(Link(PING, 12.5)), REQUESTS) == Link(PING, 12.5)


def edit_json(**changes: object) -> str:
    data = json.loads(encode(Edit(5, "text", Span(0, 4))))
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize(
    ("message", "says"),
    [
        ("not json", "not JSON"),
        (b"\x00binary", "Binary frames"),
        ("[1, 2]", 'object with a "type"'),
        ('{"type": "Shutdown"}', "Unknown message type 'Shutdown'"),
        ('{"type": "Proposal", "request_id": 1}', "Unknown message type 'Proposal'"),
        ('{"type": "Cancel"}', "missing field 'request_id'"),
        ('{"type": "Cancel", "request_id": true}', "expected int, got bool"),
        ('{"type": "Cancel", "request_id": 1, "x": 2}', "unknown field(s) x"),
        (edit_json(target=[0, 4]), "expected an object for Span"),
        (edit_json(mode="shout"), "'shout' is not one of 'rewrite', 'draft'"),
        (edit_json(locks={"start": 0}), "Edit.locks: expected a list"),
        (edit_json(settings={"steps": 0}), "steps must lie between 1 and 4096"),
        (edit_json(settings={"threshold": "high"}), "Edit.settings.threshold"),
        ('{"type": "ping", "stamp": NaN}', "NaN is no number"),
        ('{"type": "ping"}', 'carries one number, "stamp"'),
        ("[" * 100_000 + "]" * 100_000, "not JSON"),
    ],
)
def test_bad_messages_are_refused_saying_why(message: str | bytes, says: str) -> None:
    with pytest.raises(WireError) as refused:
        decode(message, REQUESTS)
    assert says in str(refused.value)


def test_a_refusal_names_the_request_it_could_read() -> None:
    with pytest.raises(WireError) as refused:
        decode(edit_json(target={"start": "zero", "end": 4}), REQUESTS)
    assert refused.value.request_id == 5


def test_the_wire_modules_import_no_torch() -> None:
    code = "import sys, engine.remote.client; assert 'torch' not in sys.modules, 'torch imported'"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT)


# --- the fair queue ------------------------------------------------------------------------


def job(client: int, local_id: int) -> Job:
    return Job(client, local_id, client * 100 + local_id, Cancel(local_id))  # type: ignore[arg-type]


def test_clients_take_turns_and_positions_follow_the_turns() -> None:
    queue = FairQueue()
    for item in (job(1, 1), job(1, 2), job(1, 3), job(2, 1), job(3, 1)):
        queue.add(item)
    assert [(j.client, j.local_id) for j in queue.order()] == [
        (1, 1),
        (2, 1),
        (3, 1),
        (1, 2),
        (1, 3),
    ]
    first = queue.take()
    assert first is not None and (first.client, first.local_id) == (1, 1)
    assert queue.take() is None  # one at a time
    assert queue.positions() == {(2, 1): 1, (3, 1): 2, (1, 2): 3, (1, 3): 4}
    queue.finish()
    ran = [queue.take(), queue.finish(), queue.take(), queue.finish(), queue.take()]
    assert [(j.client, j.local_id) for j in ran[::2] if j] == [(2, 1), (3, 1), (1, 2)]


def test_removing_and_dropping_change_only_that_clients_work() -> None:
    queue = FairQueue()
    for item in (job(1, 1), job(2, 1), job(2, 2), job(3, 1)):
        queue.add(item)
    queue.take()
    assert queue.remove(2, 9) is None
    removed = queue.remove(2, 1)
    assert removed is not None and removed.local_id == 1
    assert queue.in_flight(2) == 1 and queue.holds(2, 2) and not queue.holds(2, 1)
    assert [j.local_id for j in queue.drop_client(2)] == [2]
    assert queue.in_flight(2) == 0 and queue.in_flight(1) == 1  # the running one stays
    assert queue.positions() == {(3, 1): 1}


# --- the security rules --------------------------------------------------------------------


def test_listen_addresses_parse_and_bad_ones_are_refused() -> None:
    assert parse_listen("0.0.0.0:8765") == Listen("0.0.0.0", 8765)
    assert parse_listen("[::1]:9") == Listen("::1", 9)
    assert parse_listen("9000") == Listen("127.0.0.1", 9000)
    for bad in ("host:port", "127.0.0.1:70000", "127.0.0.1:"):
        with pytest.raises(SecurityError, match="HOST:PORT"):
            parse_listen(bad)


def test_a_network_address_needs_tls_or_an_explicit_insecure() -> None:
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.5")
    check_listen(Listen("127.0.0.1", 1), tls=False, insecure=False)
    check_listen(Listen("0.0.0.0", 1), tls=True, insecure=False)
    check_listen(Listen("0.0.0.0", 1), tls=False, insecure=True)
    with pytest.raises(SecurityError, match="--insecure"):
        check_listen(Listen("0.0.0.0", 1), tls=False, insecure=False)


def test_the_first_start_makes_a_private_token_and_later_starts_reuse_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SETTLE_CONFIG_DIR", str(tmp_path / "config"))
    token, path, created = server_token(None)
    assert created and len(token) >= 32 and path.read_text().strip() == token
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert server_token(None) == (token, path, False)


@pytest.mark.parametrize(
    ("content", "mode", "says"),
    [
        ("a-good-long-token-value", 0o644, "chmod 600"),
        ("short", 0o600, "at least 16"),
        ("two words but long enough", 0o600, "one word"),
    ],
)
def test_bad_token_files_are_refused(tmp_path: Path, content: str, mode: int, says: str) -> None:
    path = tmp_path / "token"
    path.write_text(content)
    path.chmod(mode)
    with pytest.raises(SecurityError, match=says):
        read_token_file(path)
    with pytest.raises(SecurityError, match="Cannot read"):
        read_token_file(tmp_path / "missing")
    assert path.read_text() == content  # refused, not rewritten


def test_tls_needs_a_matching_certificate_and_key(tmp_path: Path) -> None:
    from tests.helpers.remote import self_signed

    assert server_tls(None, None) is None
    cert, key = self_signed(tmp_path)
    assert server_tls(cert, key) is not None
    with pytest.raises(SecurityError, match="both --tls-cert and --tls-key"):
        server_tls(cert, None)
    with pytest.raises(SecurityError, match="Cannot use the TLS certificate"):
        server_tls(cert, cert)


def test_write_private_never_overwrites(tmp_path: Path) -> None:
    write_private(tmp_path / "secret", "one")
    with pytest.raises(FileExistsError):
        write_private(tmp_path / "secret", "two")
    assert (tmp_path / "secret").read_text() == "one\n"
    assert os.stat(tmp_path / "secret").st_mode & 0o077 == 0


def test_engine_urls_must_be_websocket_urls() -> None:
    assert engine_host("wss://gpu.lan:8765") == "gpu.lan:8765"
    for bad in ("http://gpu.lan:8765", "gpu.lan:8765", "ws://"):
        with pytest.raises(SecurityError, match="ws://HOST:PORT"):
            engine_host(bad)
