"""Cross-check a peaceable-queens bound with an independent search written in C.

    python results/crosscheck_search.py -n 13 --white 24 --optimum 25 --workers 2 \\
        --journal results/checkpoints/a308632-n13-search.jsonl

claims that ``--optimum`` M queens of each colour is the most on the n×n board
(with ``--white W``: that W white queens leave room for at most M black). The
line engine found that optimum; ``line_search.c`` (compiled here with the
system's C compiler) shares no code with it: another language, its own board
geometry, its own bounds (the product bound and a fractional-knapsack bound per
family of parallel lines, their soundness argued at the top of the file) and
its own symmetry check. It refutes "at least M + 1 of each" (or "W white and
M + 1 black") in chunks: every colouring of the first ``--chunk-lines`` ranks
and files in its order, so the chunks cover every colouring by construction. A
placement it finds is checked with ``verify`` and printed (exit 1).

Each refuted chunk is written to ``--journal`` with its nodes and CPU seconds;
the header pins the claim, the chunking and a hash of the C source, so a
stopped run (Ctrl-C, SIGTERM: exit 3) resumes where it was, and the journal of
another claim or of an edited search is refused (exit 2). This is a second
computation by another program and a simpler algorithm, not a certificate.
"""

from __future__ import annotations

import argparse
import contextlib
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
from collections.abc import Generator
from pathlib import Path
from typing import NamedTuple

from crosscheck_bound import beyond
from cube_solving import run_script

from chessplace import square_name
from chessplace.journal import Journal, Schema
from chessplace.placement import Placement
from chessplace.problem import Problem

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


class Searched(NamedTuple):
    """A chunk the C search refuted: its nodes and CPU seconds (a journal record)."""

    nodes: int
    seconds: float


class Answer(NamedTuple):
    """One line of the C search: ``refuted WORD NODES SECONDS`` or ``found WORD
    PLACEMENT SECONDS``."""

    verdict: str
    word: str
    detail: str
    seconds: float


def _schema(chunk_lines: int) -> Schema:
    def valid_key(key: str) -> bool:
        return len(key) == chunk_lines and set(key) <= {"0", "1"}

    def valid(record: Searched) -> bool:
        nodes, seconds = record
        return type(nodes) is int and nodes > 0 and type(seconds) is float and seconds >= 0

    return Schema(
        key="chunk",
        record=Searched,
        valid_key=valid_key,
        valid=valid,
        work="search cross-check",
        unit="chunk",
        redone="searched again",
    )


def compiled(directory: Path) -> Path:
    """``line_search.c`` built in ``directory``; ``ValueError`` without a C compiler."""
    compiler = shutil.which("cc") or shutil.which("gcc")
    if compiler is None:
        raise ValueError("no C compiler (cc or gcc) on the PATH")
    program = directory / "line_search"
    built = subprocess.run(
        [compiler, "-O2", "-std=c11", "-o", str(program), str(SOURCE)],
        capture_output=True,
        text=True,
    )
    if built.returncode != 0:
        raise ValueError(f"{compiler} could not build {SOURCE.name}: {built.stderr[:300]}")
    return program


def _answer(line: str) -> Answer:
    parts = line.split()
    if len(parts) != 4 or parts[0] not in ("refuted", "found"):
        raise RuntimeError(f"line_search answered {line[:80]!r}")
    return Answer(parts[0], parts[1], parts[2], float(parts[3]))


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


def searched(
    program: Path, targets: tuple[int, int, int], words: list[str], workers: int
) -> Generator[Answer, None, None]:
    """The C search's answer for each chunk word, as ``workers`` processes finish them.

    Ctrl-C and SIGTERM (through :func:`cube_solving.run_script`) raise
    ``KeyboardInterrupt`` here within :data:`POLL` seconds; the children are killed
    whatever ends it (and die with this process, by ``prctl``, if it is killed)."""
    todo: queue.Queue[str] = queue.Queue()
    for word in words:
        todo.put(word)
    answers: queue.Queue[object] = queue.Queue()
    command = [str(program), *map(str, targets)]
    children = [
        subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        for _ in range(min(workers, len(words)))
    ]
    try:
        for child in children:
            threading.Thread(target=_feed, args=(child, todo, answers), daemon=True).start()
        for _ in words:
            while True:
                try:
                    answer = answers.get(timeout=POLL)
                    break
                except queue.Empty:
                    continue
            if not isinstance(answer, Answer):
                raise RuntimeError(f"a line_search process failed: {answer}")
            yield answer
    except KeyboardInterrupt:
        for sig in (signal.SIGINT, signal.SIGTERM):
            signal.signal(sig, signal.SIG_IGN)  # one stop is enough: end cleanly
        raise
    finally:
        for child in children:
            child.kill()
            child.wait()


def _placement(problem: Problem, side: int, text: str) -> Placement:
    """The C search's placement (rank by rank: W, B or .) as chessplace's."""
    if len(text) != side * side or set(text) - set("WB."):
        raise RuntimeError(f"line_search gave a malformed placement {text[:80]!r}")
    squares = [(i % side, i // side) for i in range(side * side)]
    return Placement.from_squares(
        problem,
        [[s for s, c in zip(squares, text, strict=True) if c == mark] for mark in "WB"],
    )


def _fault(args: argparse.Namespace) -> str | None:
    """What is wrong with the options (``None``: nothing)."""
    if not 1 <= args.n <= MOST_SIDE:
        return f"-n is 1 to {MOST_SIDE}"
    if args.chunk_lines is None:
        args.chunk_lines = min(CHUNK_LINES, 2 * args.n)
    squares = args.n * args.n
    if not 0 <= args.optimum < squares:
        return f"--optimum is 0 to {squares - 1} on {args.n}×{args.n}"
    if args.white is not None and not 0 <= args.white <= squares:
        return f"--white is 0 to {squares} on {args.n}×{args.n}"
    if not 1 <= args.chunk_lines <= min(2 * args.n, MOST_CHUNK_LINES):
        return f"--chunk-lines is 1 to {min(2 * args.n, MOST_CHUNK_LINES)} ranks and files"
    if args.workers < 1:
        return "--workers is at least 1"
    return None


def main() -> int:
    args = _arguments()
    fault = _fault(args)
    if fault:
        print(f"crosscheck_search: {fault}", file=sys.stderr)
        return 2
    white = args.optimum + 1 if args.white is None else args.white
    targets = (args.n, white, args.optimum + 1)
    header = {
        "n": args.n,
        "white": white,
        "black": args.optimum + 1,
        "chunk lines": args.chunk_lines,
        "search": hashlib.sha256(SOURCE.read_bytes()).hexdigest(),
    }
    try:
        journal = Journal(args.journal, header, _schema(args.chunk_lines))
    except ValueError as error:  # another claim's journal, a foreign file, or in use
        print(f"crosscheck_search: {error}", file=sys.stderr)
        return 2
    try:
        return _check(args, targets, journal)
    finally:
        journal.close()


def _check(args: argparse.Namespace, targets: tuple[int, int, int], journal: Journal) -> int:
    """Search every chunk not refuted yet; the exit status."""
    side, white, black = targets
    words = ["".join(bits) for bits in itertools.product("10", repeat=args.chunk_lines)]
    left = [word for word in words if word not in journal.done]
    past = f"{black} each" if args.white is None else f"{white} white with {black} black"
    print(
        f"board {side}×{side}, no {past}: {len(words):,} chunks, "
        f"{len(words) - len(left):,} refuted before",
        flush=True,
    )
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="line_search") as directory:
        try:
            program = compiled(Path(directory))
        except ValueError as error:
            print(f"crosscheck_search: {error}", file=sys.stderr)
            return 2
        try:
            with contextlib.closing(searched(program, targets, left, args.workers)) as answers:
                for answer in answers:
                    if answer.verdict == "found":
                        return _found(args, side, answer)
                    journal.record(answer.word, int(answer.detail), answer.seconds)
                    if len(journal.done) % 256 == 0 or answer.seconds > 60:
                        print(f"{len(journal.done):,} chunks refuted", flush=True)
        except KeyboardInterrupt:
            done = f"{len(journal.done):,}/{len(words):,}"
            print(f"stopped: {done} chunks refuted, kept in {args.journal}")
            return 3
    records = [journal.done[word] for word in words]
    print(
        f"confirmed: board {side}×{side}, no {past}: {len(words):,} chunks refuted, "
        f"{sum(r.nodes for r in records):,} nodes, {sum(r.seconds for r in records):.1f} CPU-s "
        f"in the search ({time.perf_counter() - started:.1f} s this run)"
    )
    return 0


def _found(args: argparse.Namespace, side: int, answer: Answer) -> int:
    """A placement past the claim, checked and shown: exit 1."""
    problem = beyond(side, False, args.optimum, args.white)
    found = _placement(problem, side, answer.detail)
    broken = found.verify()
    print(f"REFUTED: chunk {answer.word} holds {found.army_sizes}; broken: {broken}")
    for army, squares in zip(problem.armies, found.armies, strict=True):
        print(f"  {army.name}: {' '.join(sorted(map(square_name, squares)))}")
    return 1


def _arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, required=True, help="board side")
    parser.add_argument("--optimum", type=int, required=True, help="the claimed most M")
    parser.add_argument("--white", type=int, help="W white queens fixed (A308632)")
    parser.add_argument(
        "--chunk-lines",
        type=int,
        help=f"ranks and files per chunk (default {CHUNK_LINES}, at most 2n)",
    )
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--journal", type=Path, required=True, help="refuted chunks, resumable")
    return parser.parse_args()


if __name__ == "__main__":
    run_script(main)
