"""A real ``settle serve`` process on loopback for tests, and what tests need around it.

:func:`start_server` runs :mod:`tests.helpers.remote_server` (the real CLI flags, server and
worker loop, with a seed-gated loader) on port 0, reads the address it announces, and returns a
:class:`ServerProcess`: its URL, token, gate file and process. Self-signed TLS material is made
with ``cryptography`` (:func:`self_signed`). :class:`InProcessServer` runs the same server on a
thread of the test process, for rules that need no model process of their own.
"""

from __future__ import annotations

import datetime
import ipaddress
import os
import queue
import re
import signal
import subprocess
import sys
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from engine.remote.auth import write_private

ROOT = Path(__file__).resolve().parents[2]
START_WAIT = 180.0  # seconds for torch + transformers to import on a busy 2-core machine
TOKEN = "test-token-0123456789abcdef"


@dataclass
class ServerProcess:
    process: subprocess.Popen[str]
    url: str
    token: str
    gate: Path
    log: Path
    lines: list[str] = field(default_factory=list)

    def release(self) -> None:
        """Let a gated request (seed GATE_SEED) go on past its step 2."""
        self.gate.touch()

    def hold(self) -> None:
        """Gate the next request with seed GATE_SEED again."""
        self.gate.unlink(missing_ok=True)

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
        self.process.wait()

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(30)
            except subprocess.TimeoutExpired:
                self.kill()

    def stderr(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def token_file(folder: Path, token: str = TOKEN) -> Path:
    path = folder / "token"
    if not path.exists():
        write_private(path, token)
    return path


def start_server(folder: Path, model: Path, *flags: str) -> ServerProcess:
    """Start a server for ``model`` with extra ``settle serve`` flags; wait for its address."""
    folder.mkdir(parents=True, exist_ok=True)
    gate, log = folder / "gate", folder / "server.log"
    env = dict(os.environ, SETTLE_TEST_GATE=str(gate), SETTLE_TORCH_THREADS="1")
    env["SETTLE_CONFIG_DIR"] = str(folder / "config")
    command = [sys.executable, "-m", "tests.helpers.remote_server", "--model", str(model)]
    command += ["--device", "cpu", "--listen", "127.0.0.1:0"]
    command += ["--token-file", str(token_file(folder)), *flags]
    with log.open("w") as err:
        process = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=err, text=True
        )
    lines = read_announcement(process)
    match = re.search(r"listening on (\S+)", "\n".join(lines))
    if match is None:
        process.kill()
        raise RuntimeError(f"the server did not start: {lines}\n{log.read_text()}")
    return ServerProcess(process, match.group(1), TOKEN, gate, log, lines)


def read_announcement(process: subprocess.Popen[str]) -> list[str]:
    """stdout lines up to the "listening on" one (or the process's end)."""
    lines: queue.Queue[str | None] = queue.Queue()

    def pump() -> None:
        assert process.stdout is not None
        with process.stdout:  # closed here, at the end of the output: no one else reads it
            for line in process.stdout:
                lines.put(line.rstrip("\n"))
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    seen: list[str] = []
    while True:
        try:
            line = lines.get(timeout=START_WAIT)
        except queue.Empty:
            return seen
        if line is None:
            return seen
        seen.append(line)
        if "listening on" in line:
            return seen


def self_signed(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 and localhost, and its key: (cert.pem, key.pem)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(certificate(key).public_bytes(serialization.Encoding.PEM))
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    )
    key_path.write_bytes(pem)
    key_path.chmod(0o600)
    return cert_path, key_path


def certificate(key: Any) -> Any:
    """A self-signed CA certificate for ``key``, valid for a few days, naming the loopback."""
    from cryptography import x509
    from cryptography.hazmat.primitives import hashes
    from cryptography.x509.oid import NameOID

    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "settle test engine")])
    now = datetime.datetime.now(datetime.UTC)
    alt = x509.SubjectAlternativeName(
        [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
    )
    return (
        x509.CertificateBuilder()
        .subject_name(name)
        .issuer_name(name)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(days=1))
        .not_valid_after(now + datetime.timedelta(days=2))
        .add_extension(alt, critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )


class InProcessServer:
    """``settle serve``'s server on a thread of the test process (loopback, a free port).

    For rules that need no separate process (idle connections, the client limit, switching
    models): ``loader`` may be any test loader. ``stop()`` ends it.
    """

    def __init__(self, loader: Any, **config: Any) -> None:
        import asyncio

        from engine.remote.auth import Listen
        from engine.remote.server import RemoteServer, ServerConfig

        settings = ServerConfig("first", TOKEN, "cpu", Listen("127.0.0.1", 0), **config)
        self.server = RemoteServer(settings, loader)
        self.url = ""
        self._ready = threading.Event()
        self._stop: asyncio.Event | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self.token = TOKEN
        self._thread = threading.Thread(target=lambda: asyncio.run(self._serve()), daemon=True)
        self._thread.start()
        if not self._ready.wait(START_WAIT):
            raise RuntimeError("the in-process server did not start")

    async def _serve(self) -> None:
        import asyncio

        from engine.remote.serve import serve_until

        self._loop, self._stop = asyncio.get_running_loop(), asyncio.Event()
        await serve_until(self.server, self._announce, self._stop)

    def _announce(self, line: str) -> None:
        match = re.search(r"listening on (\S+)", line)
        self.url = match.group(1) if match else ""
        self._ready.set()

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(START_WAIT)


class StuckConnection:
    """A server connection whose peer never reads: each ``send`` waits forever (a full socket).

    ``transport.abort()`` records that the server dropped it. For :class:`Client`'s byte cap.
    """

    def __init__(self) -> None:
        self.aborted = False
        self.transport = self
        self.sent: list[bytes] = []

    def abort(self) -> None:
        self.aborted = True

    async def send(self, data: bytes, text: bool = False) -> None:
        import asyncio

        self.sent.append(data)
        await asyncio.Event().wait()  # the write buffer never drains


class HandshakeStub:
    """What :class:`~engine.remote.guard.Gatekeeper` reads of a connection and its request.

    ``respond`` builds the response as websockets would (status, headers, body), without a
    socket; ``headers`` takes (name, value) pairs, repeats allowed.
    """

    def __init__(self, address: str, headers: list[tuple[str, str]]) -> None:
        from websockets.datastructures import Headers

        self.remote_address = (address, 40000)
        self.headers = Headers(headers)

    def respond(self, status: Any, text: str) -> Any:
        from websockets.datastructures import Headers
        from websockets.http11 import Response

        return Response(int(status), status.phrase, Headers(), text.encode())
