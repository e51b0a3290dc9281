"""``settle serve`` and ``--engine URL``: the engine on one machine, the editing on another.

``settle serve`` loads a model and listens (:mod:`engine.remote.serve`); its flags become an
:class:`~engine.remote.server.ServerConfig` here, after the security rules of
:mod:`engine.remote.auth` have been applied (loopback default, a token, TLS or ``--insecure``
for a network address). ``settle rewrite|draft --engine URL`` sends the request to such a
server instead of loading a model here (:func:`run_remote`); the token comes from
``$SETTLE_TOKEN`` or ``--token-file``.

Exit codes add 4: the engine could not be reached or refused the connection.
"""

from __future__ import annotations

import argparse
import math
import os
import sys
from pathlib import Path
from typing import Any

from engine.core.errors import BadRequest, ModelLoadError, SettleError
from engine.core.protocol import (
    Cancelled,
    Edit,
    Event,
    Failed,
    Frame,
    LoadModel,
    LoadProgress,
    ModelInfo,
    ModelReady,
    Proposal,
    Queued,
)
from engine.remote.auth import (
    SecurityError,
    check_listen,
    parse_listen,
    read_token_file,
    server_tls,
    server_token,
)
from ui.wording import counted

EXIT_ENGINE = 4
DEFAULT_LISTEN = "127.0.0.1:8765"


class EngineUnreachable(SettleError):
    """The remote engine could not be reached, refused us, or went away."""


def add_serve_command(commands: Any) -> None:
    serve = commands.add_parser("serve", help="run the engine for windows on other machines")
    serve.add_argument("--model", default="embedded", help="registry id, cached repo id or folder")
    serve.add_argument("--device", default="auto", choices=["auto", "cpu", "cuda", "mps"])
    serve.add_argument("--listen", default=DEFAULT_LISTEN, help="HOST:PORT (default: loopback)")
    serve.add_argument("--token-file", type=Path, help="use this token (an owner-only file)")
    serve.add_argument("--tls-cert", type=Path, help="serve TLS with this certificate (PEM)")
    serve.add_argument("--tls-key", type=Path, help="and this private key (PEM)")
    serve.add_argument(
        "--insecure", action="store_true", help="allow a non-loopback address without TLS"
    )
    serve.add_argument(
        "--allow-model-switch", action="store_true", help="let clients load other models"
    )
    serve.add_argument(
        "--allow-remote-code", action="store_true", help="consent to models' own code (LLaDA)"
    )
    serve.add_argument("--max-message-mb", type=float, default=16.0, help="largest message")
    serve.add_argument(
        "--max-outgoing-mb", type=float, default=8.0, help="unsent data before a client is dropped"
    )
    serve.add_argument("--max-requests", type=int, default=4, help="requests in flight a client")
    serve.add_argument("--max-clients", type=int, default=32, help="connections at once")
    serve.add_argument("--idle-timeout", type=float, default=600.0, help="seconds; 0: never")
    serve.set_defaults(handler=run_serve)


def add_remote_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("remote engine")
    group.add_argument("--engine", metavar="URL", help="use the engine at ws(s)://HOST:PORT")
    group.add_argument("--token-file", type=Path, help="the engine's token (else $SETTLE_TOKEN)")
    group.add_argument("--ca-file", type=Path, help="trust this CA (a self-signed engine)")


def build_config(args: argparse.Namespace) -> tuple[Any, str]:
    """The server's configuration, and what to tell the operator about the token."""
    from engine.remote.server import ServerConfig

    sizes = (args.max_message_mb, args.max_outgoing_mb)
    if (
        not all(math.isfinite(mb) and mb > 0 for mb in sizes)
        or min(args.max_requests, args.max_clients) < 1
    ):
        raise BadRequest(
            "--max-message-mb, --max-outgoing-mb, --max-requests and --max-clients must be "
            "positive."
        )
    listen = parse_listen(args.listen)
    tls = server_tls(args.tls_cert, args.tls_key)
    check_listen(listen, tls is not None, args.insecure)
    token, path, created = server_token(args.token_file)
    config = ServerConfig(
        model=args.model, token=token, device=args.device, listen=listen, tls=tls,
        allow_model_switch=args.allow_model_switch, allow_remote_code=args.allow_remote_code,
        max_message_bytes=int(args.max_message_mb * 1024 * 1024),
        max_outgoing_bytes=int(args.max_outgoing_mb * 1024 * 1024),
        max_in_flight=args.max_requests, max_clients=args.max_clients,
        idle_timeout_s=args.idle_timeout if args.idle_timeout > 0 else float("inf"),
    )  # fmt: skip
    return config, token_notice(token, path, created)


def token_notice(token: str, path: Path, created: bool) -> str:
    if not created:
        return f"Token: the one in {path}"
    return (
        f"A new token was made and saved to {path} (readable by you only).\n"
        f"It is shown this once; give it to clients as SETTLE_TOKEN or a token file:\n  {token}"
    )


def run_serve(args: argparse.Namespace, loader: Any = None) -> int:
    """``settle serve``: check the flags, load the model, serve until interrupted."""
    import logging

    from engine.remote.serve import run

    logging.basicConfig(level=logging.INFO, format="settle-serve %(levelname)s %(message)s")
    config, notice = build_config(args)
    print(notice, flush=True)
    print(f"Loading {config.model} on {config.device}…", file=sys.stderr, flush=True)
    run(config, loader, announce=lambda line: print(line, flush=True))
    return 0


# --- the client side: settle rewrite|draft --engine URL -----------------------------------


def client_token(args: argparse.Namespace) -> str:
    if args.token_file is not None:
        return read_token_file(args.token_file)
    token = os.environ.get("SETTLE_TOKEN", "").strip()
    if not token:
        raise SecurityError("--engine needs the engine's token: set SETTLE_TOKEN or --token-file.")
    return token


def run_remote(edit: Edit, args: argparse.Namespace) -> tuple[Proposal, str]:
    """Send ``edit`` to the engine at ``args.engine``; the proposal and the model's name."""
    from app.cli_options import report_load
    from app.headless import end_steps, show_step
    from engine.remote.client import RemoteWorker

    worker = RemoteWorker(args.engine, client_token(args), ca_file=args.ca_file)
    worker.start()
    try:
        # "" asks for the engine's own model; another name asks it to switch (if allowed)
        worker.send(LoadModel("" if args.model == "embedded" else args.model))
        info = wait_for_model(worker, report_load)
        worker.send(edit)
        while True:
            event = next_event(worker)
            if isinstance(event, Frame):
                show_step(event)
            elif isinstance(event, Queued) and event.position > 0:
                ahead = counted(event.position, "request")
                print(f"# queued: {ahead} ahead", file=sys.stderr)
            elif isinstance(event, Proposal) and event.request_id == edit.request_id:
                end_steps()
                return event, f"{info.display_name} at {worker.host}"
            elif isinstance(event, Cancelled) and event.request_id == edit.request_id:
                raise SettleError("The engine cancelled the request.")
    finally:
        worker.stop()


def wait_for_model(worker: Any, progress: Any) -> ModelInfo:
    while True:
        event = next_event(worker)
        if isinstance(event, LoadProgress):
            progress(event)
        elif isinstance(event, ModelReady):
            return event.info


def next_event(worker: Any) -> Event:
    """The next event; a failure becomes the exception the CLI maps to its exit code."""
    event = worker.poll(timeout=None)
    if isinstance(event, Failed):
        if event.kind == "worker-died":
            raise EngineUnreachable(event.message)
        if event.kind == "model-load":
            raise ModelLoadError(event.message)
        if event.kind == "bad-request":
            raise BadRequest(event.message)
        raise SettleError(event.message)
    if event is None:
        raise EngineUnreachable(f"The engine at {worker.host} stopped answering.")
    result: Event = event
    return result
