"""Cross-check a peaceable-queens bound with an independent search written in C.

    python -m chessplace.research crosscheck-search -n 13 --white 24 --optimum 25 \\
        --workers 2 --journal results/a308632/n13-search.jsonl

claims that ``--optimum`` M queens of each colour is the most on the n×n board
(with ``--white W``: that W white queens leave room for at most M black). The
line engine found that optimum; ``line_search.c`` (compiled here with the
system's C compiler, see :mod:`c_search`) shares no code with it: another
language, its own board geometry, its own bounds (the product bound and a
fractional-knapsack bound per family of parallel lines, their soundness argued
at the top of the file) and its own symmetry check. It refutes "at least M + 1
of each" (or "W white and M + 1 black") in chunks: every colouring of the first
``--chunk-lines`` ranks and files in its order. A placement it finds is checked
with ``verify`` and printed (exit 1).

Each refuted chunk is written to ``--journal`` with its nodes and CPU seconds;
the header pins the claim, the chunking and a hash of the C source, so a
stopped run (Ctrl-C, SIGTERM: exit 3) resumes where it was, and the journal of
another claim or of an edited search is refused (exit 2). This is a second
computation by another program and a simpler algorithm, not a certificate.
With ``--shuffle SEED`` the chunks are taken in a shuffled order, so a run cut
short projects the whole (see :mod:`sampling`).
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NamedTuple

from chessplace import square_name
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.research.c_search import (
    Answer,
    Progress,
    add_chunk_options,
    chunk_fault,
    chunk_order,
    chunk_schema,
    effort,
    search_chunks,
    source_digest,
    spent,
)
from chessplace.research.commands import prog
from chessplace.research.crosscheck_bound import beyond
from chessplace.runtime.journal import Journal


class Searched(NamedTuple):
    """A chunk the C search refuted: its nodes and CPU seconds (a journal record)."""

    nodes: int
    seconds: float


def placement_of(problem: Problem, side: int, text: str) -> Placement:
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
    fault = chunk_fault(args)
    if fault:
        return fault
    squares = args.n * args.n
    if not 0 <= args.optimum < squares:
        return f"--optimum is 0 to {squares - 1} on {args.n}×{args.n}"
    if args.white is not None and not 0 <= args.white <= squares:
        return f"--white is 0 to {squares} on {args.n}×{args.n}"
    return None


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on ``argv`` (the process's arguments when ``None``); the exit status."""
    args = _arguments(argv)
    fault = _fault(args)
    if fault:
        print(f"crosscheck-search: {fault}", file=sys.stderr)
        return 2
    white = args.optimum + 1 if args.white is None else args.white
    header: dict[str, object] = {
        "n": args.n,
        "white": white,
        "black": args.optimum + 1,
        "chunk lines": args.chunk_lines,
        "search": source_digest(),
    }
    order = chunk_order(args, header)
    try:
        journal = Journal(
            args.journal, header, chunk_schema(args.chunk_lines, Searched, "search cross-check")
        )
    except ValueError as error:  # another claim's journal, a foreign file, or in use
        print(f"crosscheck-search: {error}", file=sys.stderr)
        return 2
    try:
        return _check(args, white, order, journal)
    finally:
        journal.close()


def _check(args: argparse.Namespace, white: int, words: list[str], journal: Journal) -> int:
    """Search every chunk not refuted yet, in the order of ``words``; the exit status."""
    side, black = args.n, args.optimum + 1
    left = [word for word in words if word not in journal.done]
    past = f"{black} each" if args.white is None else f"{white} white with {black} black"
    print(
        f"board {side}×{side}, no {past}: {len(words):,} chunks, "
        f"{len(words) - len(left):,} refuted before",
        flush=True,
    )
    started = time.perf_counter()
    progress = Progress()

    def take(answer: Answer) -> int | None:
        if answer.verdict == "found":
            return _found(args, answer)
        journal.record(answer.word, int(answer.fields[0]), answer.seconds)
        progress.tick(f"refuted {done()}")
        return None

    def done() -> str:
        return spent(list(journal.done.values()), len(words), journal.header.get("order"))

    def stopped() -> str:
        return f"refuted {done()}, kept in {args.journal}"

    status = search_chunks([str(side), str(white), str(black)], left, args.workers, take, stopped)
    if status is not None:
        return status
    records = [journal.done[word] for word in words]
    print(
        f"confirmed: board {side}×{side}, no {past}: {len(words):,} chunks refuted, "
        + effort(records, started)
    )
    return 0


def _found(args: argparse.Namespace, answer: Answer) -> int:
    """A placement past the claim, checked and shown: exit 1."""
    problem = beyond(args.n, False, args.optimum, args.white)
    found = placement_of(problem, args.n, answer.fields[0])
    broken = found.verify()
    print(f"REFUTED: chunk {answer.word} holds {found.army_sizes}; broken: {broken}")
    for army, squares in zip(problem.armies, found.armies, strict=True):
        print(f"  {army.name}: {' '.join(sorted(map(square_name, squares)))}")
    return 1


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=prog("crosscheck-search"), description=__doc__.splitlines()[0]
    )
    add_chunk_options(parser)
    parser.add_argument("--optimum", type=int, required=True, help="the claimed most M")
    parser.add_argument("--white", type=int, help="W white queens fixed (A308632)")
    parser.add_argument("--journal", type=Path, required=True, help="refuted chunks, resumable")
    return parser.parse_args(argv)
