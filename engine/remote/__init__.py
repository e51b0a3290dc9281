"""The remote engine: the worker behind a network listener (``settle serve``) and its client.

``wire`` (JSON messages, validated on arrival), ``auth`` (loopback default, token, TLS),
``guard`` (the HTTP checks before a connection opens; token guessers back off),
``fairqueue`` (several clients, one engine), ``engine_thread`` (the worker loop on a thread),
``server`` (WebSocket connections and routing), ``serve`` (start-up), ``client``
(:class:`~engine.remote.client.RemoteWorker`, the window's and the CLI's side).
"""
