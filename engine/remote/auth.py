"""The remote engine's security rules: where it listens, the token, TLS.

* **Loopback by default.** ``settle serve`` binds to ``127.0.0.1`` unless given another
  address; a non-loopback address needs TLS, or an explicit ``--insecure``
  (:func:`check_listen`).
* **A token, always.** Generated on first start (:func:`server_token`) with
  :func:`secrets.token_urlsafe`, stored in a file only its owner can read, printed once; a
  ``--token-file`` supplies one instead. A token file that others can read is refused, as ssh
  refuses such a key. Clients send it as ``Authorization: Bearer ...``; it is compared in
  constant time (:func:`token_matches`).
* **TLS** when given a certificate and key (:func:`server_tls`); clients verify the server
  against the system's certificates or a CA file given to them (:func:`client_tls`).
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
import socket
import ssl
import stat
from dataclasses import dataclass
from pathlib import Path

MIN_TOKEN_CHARS = 16
TOKEN_FILE_NAME = "server-token"


class SecurityError(ValueError):
    """A setting the security rules refuse; the message says which rule and what to do."""


@dataclass(frozen=True)
class Listen:
    host: str
    port: int


def config_dir() -> Path:
    """Settle's configuration folder: ``$SETTLE_CONFIG_DIR``, else the XDG one."""
    explicit = os.environ.get("SETTLE_CONFIG_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "settle"


def parse_listen(value: str) -> Listen:
    """``HOST:PORT`` (``[::1]:PORT`` for IPv6; a bare ``PORT`` means loopback)."""
    host, sep, port = value.rpartition(":")
    if not sep:
        host, port = "127.0.0.1", value
    host = host.strip("[]") or "127.0.0.1"
    if not port.isdigit() or not 0 <= int(port) <= 65535:
        raise SecurityError(f"--listen wants HOST:PORT with a port from 0 to 65535, got {value!r}")
    return Listen(host, int(port))


def is_loopback(host: str) -> bool:
    """True when every address ``host`` names is a loopback one (127.0.0.0/8, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        pass
    try:
        infos = socket.getaddrinfo(host, None)
    except OSError:
        return False
    return bool(infos) and all(ipaddress.ip_address(i[4][0]).is_loopback for i in infos)


def check_listen(listen: Listen, tls: bool, insecure: bool) -> None:
    """Refuse to serve a network address in plain text unless the user said ``--insecure``."""
    if is_loopback(listen.host) or tls or insecure:
        return
    raise SecurityError(
        f"{listen.host} is reachable from other machines, and without TLS the token and your "
        "documents would cross the network in plain text. Give --tls-cert and --tls-key, use "
        "an SSH tunnel to a loopback address, or pass --insecure if this network is trusted."
    )


def token_matches(expected: str, offered: str | None) -> bool:
    if offered is None:
        return False
    return hmac.compare_digest(expected.encode(), offered.encode())


def read_token_file(path: Path) -> str:
    """The token in ``path``, refused when missing, short, or readable by others."""
    try:
        mode = path.stat().st_mode
        text = path.read_text(encoding="utf-8").strip()
    except OSError as exc:
        raise SecurityError(f"Cannot read the token file {path}: {exc.strerror}.") from None
    if mode & (stat.S_IRWXG | stat.S_IRWXO):
        raise SecurityError(
            f"The token file {path} can be read by other users; "
            f"make it private with: chmod 600 {path}"
        )
    if len(text) < MIN_TOKEN_CHARS or any(c.isspace() for c in text):
        raise SecurityError(
            f"The token in {path} must be one word of at least {MIN_TOKEN_CHARS} characters."
        )
    return text


def write_private(path: Path, text: str) -> None:
    """Write ``text`` to a new file only its owner can read (the folder too is owner-only)."""
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as handle:
        handle.write(text + "\n")


def server_token(token_file: Path | None) -> tuple[str, Path, bool]:
    """(token, its file, whether it was just created). A given file must exist already."""
    if token_file is not None:
        return read_token_file(token_file), token_file, False
    path = config_dir() / TOKEN_FILE_NAME
    if path.exists():
        return read_token_file(path), path, False
    token = secrets.token_urlsafe(32)
    write_private(path, token)
    return token, path, True


def server_tls(cert: Path | None, key: Path | None) -> ssl.SSLContext | None:
    """A TLS context for the listener, or None for plain WebSockets (both paths or neither)."""
    if cert is None and key is None:
        return None
    if cert is None or key is None:
        raise SecurityError("TLS needs both --tls-cert and --tls-key.")
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    try:
        context.load_cert_chain(cert, key)
    except (OSError, ssl.SSLError) as exc:
        raise SecurityError(
            f"Cannot use the TLS certificate {cert} with key {key}: {exc}"
        ) from None
    return context


def client_tls(url: str, ca_file: Path | None) -> ssl.SSLContext | None:
    """For ``wss://`` URLs: verify the server (system certificates, or ``ca_file`` if given)."""
    if not url.startswith("wss://"):
        return None
    try:
        return ssl.create_default_context(cafile=str(ca_file) if ca_file else None)
    except (OSError, ssl.SSLError) as exc:
        raise SecurityError(f"Cannot read the CA file {ca_file}: {exc}") from None
