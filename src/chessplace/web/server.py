"""The ASGI server of ``chessplace serve``: uvicorn, stopping the work as soon as it is
asked to exit."""

from __future__ import annotations

import threading
from types import FrameType

import uvicorn

from chessplace.web.pool import Pool


class Server(uvicorn.Server):
    """Asked to exit (Ctrl-C, SIGTERM), it closes the pool at once: jobs waiting in line
    are refused and running ones end, so every open request is answered within seconds
    (uvicorn alone waits for each one, and the pool would go on starting queued work)."""

    def __init__(self, config: uvicorn.Config, pool: Pool) -> None:
        super().__init__(config)
        self._pool = pool

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        super().handle_exit(sig, frame)
        # in a thread: the signal may have interrupted a holder of the pool's lock
        threading.Thread(target=self._pool.close, name="pool-close", daemon=True).start()
