"""Running ``settle serve``: load the model, then listen until SIGINT or SIGTERM.

:func:`run` is what the command line calls (``app/serve_cli.py`` builds the
:class:`ServerConfig` from its flags). The model is loaded *before* the listener opens, so the
first client already finds it ready; a model that cannot load ends the command with
:class:`~engine.core.errors.ModelLoadError`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
from collections.abc import Callable

from websockets.asyncio.server import serve

from engine.core.errors import ModelLoadError
from engine.core.protocol import ModelInfo
from engine.process.worker import Loader
from engine.remote.server import RemoteServer, ServerConfig

log = logging.getLogger("settle.serve")

PING_INTERVAL_S = 20.0  # websockets' keepalive: a peer that stops answering is dropped
SERVER_HEADER = "Settle"  # websockets' default names the Python and websockets versions
INCOMING_FRAMES = 8  # frames buffered per client before websockets stops reading its socket


def run(
    config: ServerConfig,
    loader: Loader | None = None,
    announce: Callable[[str], None] = print,
) -> None:
    """Serve until interrupted. ``announce`` receives the lines meant for the operator."""
    from engine.process.runtime import configure_threads  # torch: only in the serving process

    configure_threads()
    asyncio.run(serve_until_signalled(RemoteServer(config, loader), announce))


async def serve_until_signalled(server: RemoteServer, announce: Callable[[str], None]) -> None:
    """:func:`serve_until` SIGINT or SIGTERM (the main thread's loop only)."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    await serve_until(server, announce, stop)


async def serve_until(
    server: RemoteServer, announce: Callable[[str], None], stop: asyncio.Event
) -> None:
    """Load the model, listen, and serve until ``stop`` is set."""
    config = server.config
    try:
        info = await server.load_first_model()
    except RuntimeError as exc:
        server.close()
        raise ModelLoadError(str(exc)) from None
    try:
        async with serve(
            server.handle,
            config.listen.host,
            config.listen.port,
            ssl=config.tls,
            process_request=server.authorize,
            server_header=SERVER_HEADER,
            max_size=config.max_message_bytes,
            max_queue=INCOMING_FRAMES,
            ping_interval=PING_INTERVAL_S,
            ping_timeout=PING_INTERVAL_S,
        ) as listener:
            port = listener.sockets[0].getsockname()[1]
            announce(listening_line(config, port, info))
            await stop.wait()
    finally:
        server.close()


def listening_line(config: ServerConfig, port: int, info: ModelInfo) -> str:
    scheme = "wss" if config.tls is not None else "ws"
    host = config.listen.host
    host = f"[{host}]" if ":" in host else host
    where = f" ({info.placement})" if info.placement else ""
    return (
        f"Settle engine listening on {scheme}://{host}:{port} — "
        f"{info.display_name} on {info.device}{where}"
    )
