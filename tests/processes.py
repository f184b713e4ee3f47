"""Process helpers shared by the tests: /proc readers and a real ``chessplace serve``."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

import httpx

from tests.waiting import wait_until


def _stat(pid: int | str) -> list[str] | None:
    """The fields of /proc/PID/stat after the command name (state first), or None."""
    try:
        return (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None


def _live_processes() -> Iterator[tuple[int, list[str]]]:
    """Every live process (zombies aside) with its /proc stat fields (:func:`_stat`)."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            fields = _stat(entry.name)
            if fields is not None and fields[0] != "Z":
                yield int(entry.name), fields


def _live(match: int, field: int) -> list[int]:
    return [pid for pid, fields in _live_processes() if int(fields[field]) == match]


def alive(pid: int) -> bool:
    """True while ``pid`` runs (a zombie does not)."""
    fields = _stat(pid)
    return fields is not None and fields[0] != "Z"


def parent(pid: int) -> int | None:
    fields = _stat(pid)
    return None if fields is None else int(fields[1])


def children(pid: int) -> list[int]:
    """Live child processes of ``pid``."""
    return _live(pid, 1)


def group(pgid: int) -> list[int]:
    """Live processes in process group ``pgid``."""
    return _live(pgid, 2)


def running(fragment: str, among: Iterable[int] | None = None) -> list[int]:
    """Live processes (of ``among`` where given) whose command line (arguments joined by
    spaces) holds ``fragment``, this test process aside."""
    found = []
    pids = (pid for pid, _ in _live_processes()) if among is None else among
    for pid in pids:
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        if pid != os.getpid() and fragment in command:
            found.append(pid)
    return found


def lasting_child(parent: int, seconds: float) -> Callable[[], bool]:
    """A condition to poll: some child of ``parent`` has been seen for ``seconds`` (a long
    solve, not one that ends by itself and would leave on its own)."""
    seen: dict[int, float] = {}

    def condition() -> bool:
        now = time.monotonic()
        running = children(parent)
        for pid in list(seen):
            if pid not in running:
                del seen[pid]
        return any(now - seen.setdefault(pid, now) >= seconds for pid in running)

    return condition


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def start_server(*options: str) -> tuple[str, subprocess.Popen[bytes]]:
    """``chessplace serve`` on a free loopback port, once its health check answers."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "chessplace", "serve", "--port", str(port), *options]
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until(lambda: _healthy(url), what="the server answering", alive=process)
    except AssertionError:
        process.kill()
        process.wait()
        raise
    return url, process


def _healthy(url: str) -> bool:
    try:
        return httpx.get(f"{url}/api/health", timeout=1).status_code == 200
    except httpx.HTTPError:
        return False
