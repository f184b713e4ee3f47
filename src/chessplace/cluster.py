"""A Dask client for the engines that spread work over a cluster."""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

DASK_CONNECT_SECONDS = 10.0
"""How long to wait for a Dask scheduler, unless the time limit comes sooner."""


def connect_seconds(remaining: float | None) -> float:
    """How long to wait for the scheduler with ``remaining`` seconds of time limit left."""
    if remaining is None:
        return DASK_CONNECT_SECONDS
    return max(0.1, min(remaining, DASK_CONNECT_SECONDS))


@contextmanager
def dask_client(
    workers: int | None, dask: str, connect: float = DASK_CONNECT_SECONDS
) -> Iterator[Any]:
    """A ``distributed.Client`` of the scheduler at ``dask``, or of a LocalCluster of
    ``workers`` single-threaded processes (default: one per core) for ``local``.

    The local workers die with this process however it ends, SIGKILL
    included: each holds a pipe to its nanny here and exits when the pipe
    closes (distributed's ``AsyncProcess``). A scheduler that does not
    answer within ``connect`` seconds raises ``ConnectionError`` (an
    ``OSError``) with a one-line message.
    """
    from distributed import Client, LocalCluster

    if dask == "local":
        count = workers or os.cpu_count() or 1
        with (
            LocalCluster(
                n_workers=count,
                threads_per_worker=1,
                processes=True,
                dashboard_address=":0",  # any free port: never a clash with another cluster
                silence_logs=logging.ERROR,  # not a warning per chunk cancelled by a stop
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    try:
        client = Client(dask, timeout=connect)
    except (OSError, ValueError, TypeError):
        raise ConnectionError(
            f"cannot reach the Dask scheduler at {dask} within {connect:.3g} s"
        ) from None
    with client:
        yield client
