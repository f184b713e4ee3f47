"""The ASGI server of ``chessplace serve``: uvicorn, stopping the work as soon as it is
asked to exit."""

from __future__ import annotations

import socket

import uvicorn

from chessplace.faces.web.jobs.pool import Pool


class Server(uvicorn.Server):
    """Asked to exit (Ctrl-C, SIGTERM), it closes the pool before it waits for the open
    requests: jobs waiting in line are refused and running ones end, so every request
    is answered within seconds (uvicorn alone waits for each one, and the pool would
    go on starting queued work)."""

    def __init__(self, config: uvicorn.Config, pool: Pool) -> None:
        super().__init__(config)
        self._pool = pool

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        self._pool.close()  # brief: it ends the worker processes and answers the line
        await super().shutdown(sockets)
