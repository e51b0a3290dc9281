"""The "Remote engine…" dialog: the URL of a ``settle serve`` engine and its token.

The URL box lists engines used before (editable); choosing one emits ``urlChanged`` so the
controller can fill in the remembered token with :meth:`RemoteEngineDialog.set_token`. The
token is typed hidden. A CA file is optional (an engine with a self-signed certificate). The
Connect button stays disabled until the URL is a ``ws://`` or ``wss://`` address and a token is
given; a plain ``ws://`` address that is not on this machine gets a warning, since the token and
the text would cross the network unencrypted.

Show it with ``open()``, never ``exec()`` (DESIGN §8).

Signals: ``connectRequested(str url, str token, str ca_file)``, ``urlChanged(str url)``.
Methods: ``set_urls(urls)``, ``set_token(token)``, ``url()``, ``token()``, ``ca_file()``,
``connect_engine()`` (what Connect does), ``problem()`` (why Connect is disabled, or ""),
``note()`` (the line shown under the fields: the problem, or a warning).
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)

LOCAL_HOSTS = {"127.0.0.1", "localhost", "::1"}


def url_problem(url: str) -> str:
    """Why ``url`` cannot name an engine, or ""."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("ws", "wss") or not parts.hostname:
        return "The address looks like ws://HOST:PORT (or wss:// for TLS)."
    try:
        parts.port  # noqa: B018  (raises on a port that is not a number)
    except ValueError:
        return "The port must be a number."
    return ""


def is_plain_remote(url: str) -> bool:
    parts = urlsplit(url.strip())
    return parts.scheme == "ws" and (parts.hostname or "") not in LOCAL_HOSTS


class RemoteEngineDialog(QDialog):
    """See the module docstring."""

    connectRequested = Signal(str, str, str)
    urlChanged = Signal(str)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Remote engine")
        self._url = QComboBox()
        self._url.setEditable(True)
        self._url.setMinimumWidth(320)
        self._token = QLineEdit()
        self._token.setEchoMode(QLineEdit.EchoMode.Password)
        self._ca = QLineEdit()
        self._ca.setPlaceholderText("optional: a CA certificate for a self-signed engine")
        self._note = QLabel()
        self._note.setWordWrap(True)
        self._buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Cancel)
        self._connect = self._buttons.addButton("Connect", QDialogButtonBox.ButtonRole.AcceptRole)
        self._build()

    def _build(self) -> None:
        intro = QLabel(
            "Run the model on another machine with <tt>settle serve</tt>, then give its "
            "address and the token it printed."
        )
        intro.setWordWrap(True)
        form = QFormLayout()
        form.addRow("Address", self._url)
        form.addRow("Token", self._token)
        form.addRow("CA file", self._ca)
        layout = QVBoxLayout(self)
        layout.addWidget(intro)
        layout.addLayout(form)
        layout.addWidget(self._note)
        layout.addWidget(self._buttons)
        self._url.editTextChanged.connect(self._on_url)
        self._token.textChanged.connect(self._update)
        self._buttons.accepted.connect(self.connect_engine)
        self._buttons.rejected.connect(self.reject)
        self._update()

    # --- public API ------------------------------------------------------------------------
    def set_urls(self, urls: Iterable[str]) -> None:
        self._url.clear()
        self._url.addItems(list(urls))

    def set_token(self, token: str) -> None:
        self._token.setText(token)

    def url(self) -> str:
        return self._url.currentText().strip()

    def token(self) -> str:
        return self._token.text().strip()

    def ca_file(self) -> str:
        return self._ca.text().strip()

    def problem(self) -> str:
        problem = url_problem(self.url())
        if not problem and not self.token():
            problem = "Paste the token the engine printed when it first started."
        return problem

    def note(self) -> str:
        return self._note.text()

    def connect_engine(self) -> None:
        if self.problem():
            return
        self.connectRequested.emit(self.url(), self.token(), self.ca_file())
        self.accept()

    def exec(self) -> int:
        raise RuntimeError("RemoteEngineDialog must be shown with open(), not exec()")

    # --- internals -------------------------------------------------------------------------
    def _on_url(self, url: str) -> None:
        if not url_problem(url):
            self.urlChanged.emit(url.strip())
        self._update()

    def _update(self) -> None:
        problem = self.problem()
        self._connect.setEnabled(not problem)
        if not problem and is_plain_remote(self.url()):
            problem = (
                "Without TLS (wss://) the token and your text cross the network unencrypted; "
                "prefer wss:// or an SSH tunnel to ws://127.0.0.1."
            )
        self._note.setText(problem)
