"""``chessplace serve``: the web app on a local socket."""

from __future__ import annotations

import argparse
import socket
import sys

from chessplace.faces.cli.exits import EXIT_OK, UsageError


def serve(arguments: argparse.Namespace) -> int:
    try:
        import uvicorn

        from chessplace.faces.web.app import create_app
        from chessplace.faces.web.limits import DEFAULT_SECONDS, Limits
        from chessplace.faces.web.server import Server
    except ImportError:
        raise UsageError("the web app needs: pip install 'chessplace[web]'") from None
    if arguments.time_limit is None:
        arguments.time_limit = min(DEFAULT_SECONDS, arguments.max_time_limit)
    if arguments.time_limit > arguments.max_time_limit:
        raise UsageError(
            f"--time-limit {arguments.time_limit:g} is past --max-time-limit "
            f"{arguments.max_time_limit:g}"
        )
    chosen = {"workers": arguments.workers} if arguments.workers else {}
    limits = Limits(
        **chosen,
        queue=arguments.queue,
        small_workers=arguments.small_workers,
        small_queue=arguments.small_queue,
        memory_mb=arguments.memory_mb,
        default_seconds=arguments.time_limit,
        max_seconds=arguments.max_time_limit,
    ).with_sides(**dict(arguments.max_side))
    listening = _listening_socket(arguments.host, arguments.port)
    app = create_app(limits)
    config = uvicorn.Config(
        app, log_level="warning", timeout_graceful_shutdown=max(1, int(limits.grace_seconds))
    )
    server = Server(config, app.state.pool)
    print(f"chessplace: serving on {_address(listening)} (Ctrl-C stops)", file=sys.stderr)
    server.run(sockets=[listening])
    return EXIT_OK


def _listening_socket(host: str, port: int) -> socket.socket:
    """The server's socket, bound here so that a busy port is one line and exit code 2."""
    try:
        family, kind, proto, _, address = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)[0]
        listening = socket.socket(family, kind, proto)
    except OSError as error:
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    try:
        listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listening.bind(address)
    except OSError as error:
        listening.close()
        raise UsageError(f"cannot listen on {host}:{port}: {error.strerror or error}") from None
    return listening


def _address(listening: socket.socket) -> str:
    """The URL the server answers on (IPv6 hosts in brackets)."""
    host, port = listening.getsockname()[:2]
    return f"http://[{host}]:{port}/" if ":" in host else f"http://{host}:{port}/"
