"""Running ``line_search.c``, the independent search in C, chunk by chunk on the cores.

The cross-checks built on it (``crosscheck-search`` for bounds,
``crosscheck-count`` for counts of optimal placements) compile the source
with the system's C compiler into a temporary folder, start one search process
per worker, hand each chunk words (the colours of the first ranks and files in
the search's order: every word of one length, so the chunks cover every
colouring by construction) and journal what comes back.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import queue
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Generator, Sequence
from pathlib import Path
from typing import NamedTuple, Protocol

from chessplace.research.sampling import done_so_far, shuffled
from chessplace.runtime.journal import Schema

SOURCE = Path(__file__).with_name("line_search.c")

MOST_SIDE = 32
"""The largest board ``line_search.c`` takes (its arrays are sized for it)."""

MOST_CHUNK_LINES = 20
"""The most ranks and files a chunk colours (2^20 chunks, about a million)."""

CHUNK_LINES = 12
"""The ranks and files a chunk colours unless told (4,096 chunks: enough to share out,
few enough to journal)."""

POLL = 0.2
"""Seconds between looks for a stop while the searches run."""

STOPPED = 3
"""The exit status of a run stopped by Ctrl-C or SIGTERM (its journal kept)."""


PROGRESS_SECONDS = 60.0
"""The least time between two progress lines of a run."""


class Progress:
    """Prints how far a run is, at most once every :data:`PROGRESS_SECONDS`."""

    def __init__(self) -> None:
        self._last = time.monotonic()

    def tick(self, message: str) -> None:
        now = time.monotonic()
        if now - self._last >= PROGRESS_SECONDS:
            print(message, flush=True)
            self._last = now


class Answer(NamedTuple):
    """One line of the C search: its verdict (``refuted``, ``found`` or ``counted``), the
    chunk word, what it reports, and the chunk's CPU seconds."""

    verdict: str
    word: str
    fields: tuple[str, ...]
    seconds: float


FIELDS = {"refuted": 1, "found": 1, "counted": 2}
"""How many fields each verdict reports between the word and the seconds."""


def add_chunk_options(parser: argparse.ArgumentParser, side: bool = True) -> None:
    """The options every search cross-check takes (``-n`` too unless ``side`` is
    false: the board then comes from elsewhere)."""
    if side:
        parser.add_argument("-n", type=int, required=True, help="board side")
    parser.add_argument(
        "--chunk-lines", type=int, help=f"ranks and files per chunk (default {CHUNK_LINES})"
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--shuffle",
        type=int,
        metavar="SEED",
        help="take the chunks in a shuffled order (so a run cut short projects the whole)",
    )


def chunk_fault(args: argparse.Namespace) -> str | None:
    """What is wrong with ``-n``, ``--chunk-lines`` or ``--workers`` (``None``: nothing);
    sets the default ``--chunk-lines``, 12 or 2n if fewer."""
    if not 1 <= args.n <= MOST_SIDE:
        return f"-n is 1 to {MOST_SIDE}"
    if args.chunk_lines is None:
        args.chunk_lines = min(CHUNK_LINES, 2 * args.n)
    most = min(2 * args.n, MOST_CHUNK_LINES)
    if not 1 <= args.chunk_lines <= most:
        return f"--chunk-lines is 1 to {most} ranks and files"
    if args.workers < 1:
        return "--workers is at least 1"
    if args.shuffle is not None and not 0 <= args.shuffle < 2**32:
        return "--shuffle is a seed from 0 to 2^32 - 1"
    return None


def chunk_order(args: argparse.Namespace, header: dict[str, object]) -> list[str]:
    """Every chunk word in the order the run takes them: shuffled by ``--shuffle``'s seed
    (which the journal's ``header`` then pins), else in order."""
    words = chunk_words(args.chunk_lines)
    if args.shuffle is None:
        return words
    header["order"] = f"shuffled, seed {args.shuffle}"
    return shuffled(words, args.shuffle)


def spent(records: Sequence[Effort], total: int, order: str | None) -> str:
    """What a run stopped short has done, with its projection when its chunks were
    taken in a shuffled ``order`` (a journal header's)."""
    return done_so_far([r.seconds for r in records], total, order is not None)


def chunk_words(lines: int) -> list[str]:
    """Every colouring of the first ``lines`` ranks and files, as words."""
    return ["".join(bits) for bits in itertools.product("10", repeat=lines)]


def source_digest() -> str:
    """SHA-256 of ``line_search.c``: a journal of another version is not trusted."""
    return hashlib.sha256(SOURCE.read_bytes()).hexdigest()


def chunk_schema(lines: int, record: type[NamedTuple], work: str) -> Schema:
    """The journal of a search cross-check: one record per chunk, keyed by its word,
    every field a non-negative number (the last one, seconds, a float)."""

    def valid_key(key: str) -> bool:
        return len(key) == lines and set(key) <= {"0", "1"}

    def valid(values: tuple[object, ...]) -> bool:
        *counts, seconds = values
        return all(type(c) is int and c >= 0 for c in counts) and (
            type(seconds) is float and seconds >= 0
        )

    return Schema(
        key="chunk",
        record=record,
        valid_key=valid_key,
        valid=valid,
        work=work,
        unit="chunk",
        redone="searched again",
    )


class Effort(Protocol):
    """What a journal keeps of each chunk's work."""

    @property
    def nodes(self) -> int: ...

    @property
    def seconds(self) -> float: ...


def effort(records: Sequence[Effort], started: float) -> str:
    """The work of a whole check: its chunks' nodes and CPU seconds (all runs), and the
    wall time of this run since ``started`` (``time.perf_counter``)."""
    nodes, seconds = sum(r.nodes for r in records), sum(r.seconds for r in records)
    return (
        f"{nodes:,} nodes, {seconds:.1f} CPU-s in the search "
        f"({time.perf_counter() - started:.1f} s this run)"
    )


def compiled(directory: Path) -> Path:
    """``line_search.c`` built in ``directory`` as GNU C (it uses ``__int128`` and the
    overflow builtins); ``ValueError`` without a C compiler or when it fails."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise ValueError("no C compiler (cc or gcc) on the PATH")
    program = directory / "line_search"
    built = subprocess.run(
        [compiler, "-O2", "-std=gnu11", "-o", str(program), str(SOURCE)],
        capture_output=True,
        text=True,
        check=False,
    )
    if built.returncode != 0:
        raise ValueError(f"{compiler} could not build {SOURCE.name}: {built.stderr[:300]}")
    return program


def _answer(line: str) -> Answer:
    if not line:
        raise RuntimeError("a line_search process ended without answering")
    parts = line.split()
    if not parts or parts[0] not in FIELDS or len(parts) != FIELDS[parts[0]] + 3:
        raise RuntimeError(f"line_search answered {line[:80]!r}")
    return Answer(parts[0], parts[1], tuple(parts[2:-1]), float(parts[-1]))


def _feed(child: subprocess.Popen[str], words: queue.Queue[str], out: queue.Queue[object]) -> None:
    """One worker's thread: hands its C search chunk words until none are left, and
    passes on each answer (or what went wrong)."""
    assert child.stdin is not None and child.stdout is not None
    try:
        while True:
            try:
                word = words.get_nowait()
            except queue.Empty:
                return
            child.stdin.write(word + "\n")
            child.stdin.flush()
            out.put(_answer(child.stdout.readline()))
    except (OSError, RuntimeError, ValueError) as error:
        out.put(error)


def _answers(
    program: Path, arguments: list[str], words: list[str], workers: int
) -> Generator[Answer, None, None]:
    """The C search's answer for each chunk word, as ``workers`` processes finish them.

    Ctrl-C and SIGTERM only mark the stop while it runs: ``KeyboardInterrupt`` comes
    out of the next look for an answer (within :data:`POLL` seconds), never from inside
    the caller's handling of the last one, so an answer taken is an answer kept (a stop
    during the very last one lets the run end as it would have). Later stops are
    ignored while the caller ends; the children are killed whatever ends it (and die
    with this process, by ``prctl``, if it is killed)."""
    asked = threading.Event()
    signals = (signal.SIGINT, signal.SIGTERM)
    before = {sig: signal.getsignal(sig) for sig in signals}
    todo: queue.Queue[str] = queue.Queue()
    for word in words:
        todo.put(word)
    out: queue.Queue[object] = queue.Queue()
    children: list[subprocess.Popen[str]] = []
    try:
        for sig in signals:
            signal.signal(sig, lambda _signum, _frame: asked.set())
        for _ in range(min(workers, len(words))):
            children.append(
                subprocess.Popen(
                    [str(program), *arguments],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    text=True,
                )
            )
        for child in children:
            threading.Thread(target=_feed, args=(child, todo, out), daemon=True).start()
        for _ in words:
            answer = _next_answer(out, asked)
            if not isinstance(answer, Answer):
                raise RuntimeError(f"a line_search process failed: {answer}")
            yield answer
    except KeyboardInterrupt:
        before = dict.fromkeys(signals, signal.SIG_IGN)  # one stop is enough: end cleanly
        raise
    finally:
        for child in children:
            child.kill()
            child.wait()
        for sig, handler in before.items():
            signal.signal(sig, handler)


def _next_answer(out: queue.Queue[object], asked: threading.Event) -> object:
    """The next thing a feeding thread put out; ``KeyboardInterrupt`` once a stop is asked."""
    while not asked.is_set():
        try:
            return out.get(timeout=POLL)
        except queue.Empty:
            continue
    raise KeyboardInterrupt


def search_chunks(
    arguments: list[str],
    words: list[str],
    workers: int,
    take: Callable[[Answer], int | None],
    stopped: Callable[[], str],
) -> int | None:
    """Build the search and run it with ``arguments`` on every chunk word, handing each
    answer to ``take``, which returns an exit status to end the run or ``None`` to go on.
    ``None`` once every word is answered; otherwise the exit status (``take``'s, 2 when
    the search cannot be built, 1 when a search process fails, :data:`STOPPED` on
    Ctrl-C or SIGTERM, after printing ``stopped()``, the line that says what is kept)."""
    with tempfile.TemporaryDirectory(prefix="line_search") as directory:
        try:
            program = compiled(Path(directory))
        except ValueError as error:
            print(f"line_search: {error}", file=sys.stderr)
            return 2
        answers = _answers(program, arguments, words, workers)
        try:
            for answer in answers:
                status = take(answer)
                if status is not None:
                    return status
        except KeyboardInterrupt:
            print(f"stopped: {stopped()}")
            return STOPPED
        except RuntimeError as error:  # a search died or answered nonsense
            print(f"line_search: {error}", file=sys.stderr)
            return 1
        finally:
            answers.close()
    return None
