"""Time a random sample of the line engine's chunks, to project what a long proof costs.

    python -m chessplace.research sample-lines -n 19 --torus --target 33 --sample 40 \\
        --journal results/a279405/n19-scaled-sample.jsonl

The line engine proves "no m each" (or, with ``--white W``, "no m black beside W
white") chunk by chunk, in its own order, and its checkpoint keeps no times. This
command splits the same search as the engine does (the depth read from the
engine's ``--checkpoint`` when given, so the chunks are the same), takes the
chunks in an order shuffled by ``--seed`` and searches the first ``--sample`` of
them for ``--target``, one at a time, journaling each chunk's nodes and CPU
seconds. The chunks done are a uniform sample, so they project the whole with a
95% interval (:mod:`sampling`). On a torus the search breaks the scalings
too, as the engine does (``--without-scalings``: the board's symmetries only, as
journals written before them were). A chunk holding a labelling that reaches the
target refutes the claim: it is printed (exit 1). Rerunning resumes; a larger
``--sample`` goes on with the same draw. Ctrl-C or SIGTERM stops the chunk under
way (exit 3, the finished ones kept).
"""

from __future__ import annotations

import argparse
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

import numpy as np

from chessplace import Board, Shape, puzzles
from chessplace.engines.lines import kernel
from chessplace.engines.lines.chunk import call
from chessplace.engines.lines.geometry import Geometry, geometry
from chessplace.engines.lines.runner import LineSearch, chunk_key, geometry_digest
from chessplace.research.c_search import STOPPED
from chessplace.research.commands import prog
from chessplace.research.sampling import done_so_far, shuffled
from chessplace.runtime.journal import Journal, Schema, natural, recorded_header

FORMAT = "chessplace-lines-sample-1"


class Timed(NamedTuple):
    """A chunk searched in full below the target: its nodes and CPU seconds."""

    nodes: int
    seconds: float


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on ``argv`` (the process's arguments when ``None``); the exit status."""
    args = _arguments(argv)
    fault = _fault(args)
    if fault:
        print(f"sample-lines: {fault}", file=sys.stderr)
        return 2
    board = Board.square(args.n, Shape.TORUS if args.torus else Shape.PLANE)
    problem = puzzles.peaceable_queens(board, white=args.white)
    scaled = not args.without_scalings
    g = geometry(board, problem.armies[0].piece, True, args.white is None, scaled=scaled)
    search = LineSearch(g, 1, white_target=args.white)
    depth = search.split_depth()
    if args.checkpoint is not None:
        engine = recorded_header(args.checkpoint) or {}
        if engine.get("geometry") != geometry_digest(g) or not natural(engine.get("depth")):
            hint = " (written before the scalings? try --without-scalings)"
            hint = "" if args.without_scalings else hint
            print(
                f"sample-lines: {args.checkpoint} is another search's checkpoint{hint}",
                file=sys.stderr,
            )
            return 2
        depth = engine["depth"]
    prefixes = search.prefixes(depth, args.target)
    keys = [chunk_key(row[g.order[:depth]]) for row in prefixes]
    header = {
        "format": FORMAT,
        "n": args.n,
        "torus": args.torus,
        "white": args.white,
        "target": args.target,
        "depth": depth,
        "chunks": len(keys),
        "order": f"shuffled, seed {args.seed}",
        "geometry": geometry_digest(g),
    }
    try:
        journal = Journal(args.journal, header, _schema(depth))
    except ValueError as error:  # another search's journal, a foreign file, or in use
        print(f"sample-lines: {error}", file=sys.stderr)
        return 2
    try:
        return _sample(args, g, prefixes, keys, journal, search)
    finally:
        journal.close()


def _sample(
    args: argparse.Namespace,
    g: Geometry,
    prefixes: np.ndarray,
    keys: list[str],
    journal: Journal,
    search: LineSearch,
) -> int:
    """Search the drawn chunks not journaled yet; the exit status."""
    row = {key: index for index, key in enumerate(keys)}
    drawn = shuffled(keys, args.seed)[: args.sample]
    left = [key for key in drawn if key not in journal.done]
    print(f"{len(keys):,} chunks at depth {len(keys[0]) if keys else 0}; {len(left):,} to search")
    for key in left:
        answer = _searched(g, prefixes[row[key]], search.shared(args.target))
        if answer is None:
            print(f"stopped: {_projected(journal, len(keys))}, kept in {args.journal}")
            return STOPPED
        status, best, nodes, seconds = answer
        if status == kernel.FOUND or best >= args.target:
            print(f"REFUTED: chunk {key} holds a labelling worth {best}")
            return 1
        journal.record(key, nodes, seconds)
    print(_projected(journal, len(keys)))
    return 0


def _searched(
    g: Geometry, prefix: np.ndarray, shared: np.ndarray
) -> tuple[int, int, int, float] | None:
    """One chunk searched for ``shared[1]`` on a thread of its own, so that a stop is
    heard (the search is asked to stop): status, best, nodes and CPU seconds, or
    ``None`` when stopped."""
    answer: list[tuple[int, int, int, float]] = []

    def work() -> None:
        started = time.thread_time()
        status, best, nodes, _, _, _ = call(g, prefix, -1, np.zeros((1, 1), np.int8), True, shared)
        answer.append((status, best, nodes, time.thread_time() - started))

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    try:
        while thread.is_alive():
            thread.join(0.2)
    except KeyboardInterrupt:
        shared[0] = 1
        thread.join()
        return None
    return answer[0] if answer and answer[0][0] != kernel.STOPPED else None


def _projected(journal: Journal, total: int) -> str:
    """The chunks timed so far and, from enough of them, the projection of the whole."""
    return done_so_far([record.seconds for record in journal.done.values()], total)


def _schema(depth: int) -> Schema:
    def valid(record: Timed) -> bool:
        return natural(record.nodes) and type(record.seconds) is float and record.seconds >= 0

    return Schema(
        key="chunk",
        record=Timed,
        valid_key=lambda key: len(key) == depth and set(key) <= {"0", "1"},
        valid=valid,
        work="sample of line search chunks",
        unit="chunk",
        redone="searched again",
    )


def _fault(args: argparse.Namespace) -> str | None:
    """What is wrong with the options (``None``: nothing)."""
    if not 2 <= args.n <= 32:
        return "-n is 2 to 32"
    if not 1 <= args.target <= args.n * args.n:
        return f"--target is 1 to {args.n * args.n}"
    if args.white is not None and not 0 <= args.white <= args.n * args.n:
        return f"--white is 0 to {args.n * args.n}"
    if args.sample < 1:
        return "--sample is at least 1"
    if not 0 <= args.seed < 2**32:
        return "--seed is 0 to 2^32 - 1"
    return None


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog=prog("sample-lines"), description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, required=True, help="board side")
    parser.add_argument("--torus", action="store_true", help="the n×n torus")
    parser.add_argument("--target", type=int, required=True, help="the m each to refute")
    parser.add_argument("--white", type=int, help="W white queens fixed (A308632)")
    parser.add_argument("--sample", type=int, required=True, help="chunks to time")
    parser.add_argument("--seed", type=int, default=1, help="the shuffle's seed (default 1)")
    parser.add_argument("--checkpoint", type=Path, help="the engine's checkpoint: its depth")
    parser.add_argument("--journal", type=Path, required=True, help="timed chunks, resumable")
    parser.add_argument(
        "--without-scalings",
        action="store_true",
        help="the board's symmetries only, as the engine searched a torus before it "
        "broke the scalings too (a journal or checkpoint written then)",
    )
    return parser.parse_args(argv)
