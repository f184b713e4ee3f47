"""A Dask client for the engines that spread work over a cluster."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from typing import Any

DASK_CONNECT_SECONDS = 10.0
"""How long to wait for a Dask scheduler, unless the time limit comes sooner."""

LOCAL_WORKERS_PER_CORE = 4
"""The most LocalCluster processes ``--dask local`` starts per core."""


def connect_seconds(remaining: float | None) -> float:
    """How long to wait for the scheduler with ``remaining`` seconds of time limit left."""
    if remaining is None:
        return DASK_CONNECT_SECONDS
    return max(0.1, min(remaining, DASK_CONNECT_SECONDS))


def local_workers(workers: int | None) -> int:
    """The LocalCluster's processes: ``workers`` (default: one per core); ``ValueError``
    beyond :data:`LOCAL_WORKERS_PER_CORE` per core, each being a process of its own."""
    cores = os.cpu_count() or 1
    count = workers or cores
    most = LOCAL_WORKERS_PER_CORE * cores
    if count > most:
        raise ValueError(
            f"--dask local starts a process per worker: at most {most} here"
            f" ({LOCAL_WORKERS_PER_CORE} per core), not {count}"
        )
    return count


@contextmanager
def dask_client(
    workers: int | None, dask: str, connect: float = DASK_CONNECT_SECONDS
) -> Iterator[Any]:
    """A ``distributed.Client`` of the scheduler at ``dask``, or of a LocalCluster of
    ``workers`` single-threaded processes (default: one per core) for ``local``.

    The local workers die with this process however it ends, SIGKILL
    included: each holds a pipe to its nanny here and exits when the pipe
    closes (distributed's ``AsyncProcess``). A scheduler that does not
    finish Dask's handshake within ``connect`` seconds (nothing listening,
    a peer that stays silent or speaks another protocol, a malformed address)
    raises ``ConnectionError`` (an ``OSError``) with a one-line message.
    """
    from distributed import Client, LocalCluster

    if dask == "local":
        with (
            LocalCluster(
                n_workers=local_workers(workers),
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",  # scheduler, workers and nannies on loopback only
                dashboard_address="127.0.0.1:0",  # any free port, on loopback only
                silence_logs=logging.ERROR,  # not a warning per chunk cancelled by a stop
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    try:
        _handshake(dask, connect)
        client = Client(dask, timeout=connect)
    except Exception as error:
        raise ConnectionError(_unreachable(dask, connect, error)) from None
    try:
        yield client
    finally:
        with _quiet("distributed.client"):  # a lost scheduler: its reconnection, cut short
            client.close()


@contextmanager
def _quiet(name: str) -> Iterator[None]:
    """The logger ``name`` says nothing below CRITICAL meanwhile."""
    logger = logging.getLogger(name)
    level = logger.level
    logger.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        logger.setLevel(level)


def _handshake(address: str, seconds: float) -> None:
    """Open a comm to ``address`` and exchange Dask's handshake, all within ``seconds``.

    ``distributed.Client`` bounds only the connection by its timeout, not the
    handshake read after it, so a silent peer would hold it for good. The TLS settings
    are dask's configured ones, as the client's own (without a security loader)."""
    from distributed.comm.core import connect
    from distributed.security import Security

    settings = Security().get_connection_args("client")

    async def shake() -> None:
        comm = await asyncio.wait_for(connect(address, timeout=seconds, **settings), seconds)
        await comm.close()

    with ThreadPoolExecutor(1) as thread:  # a loop of its own, whatever the caller runs
        thread.submit(asyncio.run, shake()).result()


def _unreachable(address: str, seconds: float, error: Exception) -> str:
    """One line for a scheduler that could not be reached."""
    if isinstance(error, ValueError):
        return f"bad Dask scheduler address {address!r}: {error}"
    if isinstance(error, OSError):
        return f"cannot reach the Dask scheduler at {address} within {seconds:.3g} s"
    return (
        f"cannot reach the Dask scheduler at {address}: the peer does not speak Dask's"
        f" protocol ({type(error).__name__})"
    )
