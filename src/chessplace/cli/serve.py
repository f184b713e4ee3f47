"""``chessplace serve``: the web app on a local socket."""

from __future__ import annotations

import argparse
import socket

from chessplace.cli.exits import EXIT_OK, UsageError


def serve(arguments: argparse.Namespace) -> int:
    try:
        import uvicorn

        from chessplace.web.app import create_app
        from chessplace.web.limits import Limits
    except ImportError:
        raise UsageError("the web app needs: pip install 'chessplace[web]'") from None
    chosen = {"workers": arguments.workers} if arguments.workers else {}
    limits = Limits(
        **chosen,
        queue=arguments.queue,
        memory_mb=arguments.memory_mb,
        default_seconds=min(arguments.time_limit, arguments.max_time_limit),
        max_seconds=arguments.max_time_limit,
    ).with_sides(**dict(arguments.max_side))
    listening = _listening_socket(arguments.host, arguments.port)
    server = uvicorn.Server(uvicorn.Config(create_app(limits), log_level="warning"))
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
