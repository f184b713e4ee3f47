"""Cross-check a list of optimal peaceable armies (A260680) by counting in C.

    python -m chessplace.research crosscheck-count results/a260680/n13.json \\
        --workers 2 --journal results/a260680/n13-count.jsonl

The file (written by the ``optima`` command) lists one placement per class of
a(n) white and a(n) black queens, up to the 16 symmetries (the board's 8 ×
the colour swap). This script checks each listed placement with ``verify``,
expands every class into its placements (its images under the 16 symmetries,
computed here) and checks that no two classes meet. Then ``line_search.c``
(see :mod:`c_search`; it shares no code with the line engine that made the
list) counts every placement of exactly a(n) each, chunk by chunk. The list is
confirmed when the count equals the placements its classes hold: the classes
are valid and disjoint, so then no placement lies outside them. A list with a
class missing is rejected (exit 1).

Each counted chunk is written to ``--journal`` (placements, nodes, CPU
seconds); the header pins n, a(n), the chunking and a hash of the C source, so
a stopped run (Ctrl-C, SIGTERM: exit 3) resumes where it was. This is a second
computation by another program, not a certificate.

With ``-n N --each M`` in place of the file it counts without a list to
compare (a count ahead of the engine's list); with ``--shuffle SEED`` it takes
the chunks in a shuffled order, so a run cut short projects the whole (see
:mod:`sampling`).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import NamedTuple

from chessplace import Board, puzzles
from chessplace.core.board import parse_square
from chessplace.core.placement import Placement
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
from chessplace.runtime.journal import Journal

Square = tuple[int, int]
Armies = tuple[frozenset[Square], frozenset[Square]]


class Counted(NamedTuple):
    """A chunk the C search counted: its placements, nodes and CPU seconds."""

    placements: int
    nodes: int
    seconds: float


def images(armies: Armies, side: int) -> set[Armies]:
    """A placement's images under the 8 symmetries of the board, each with the colours
    as they are and swapped: its class."""
    last = side - 1
    maps: list[Callable[[int, int], Square]] = [
        lambda f, r: (f, r),
        lambda f, r: (last - f, r),
        lambda f, r: (f, last - r),
        lambda f, r: (last - f, last - r),
        lambda f, r: (r, f),
        lambda f, r: (last - r, f),
        lambda f, r: (r, last - f),
        lambda f, r: (last - r, last - f),
    ]
    found = set()
    for move in maps:
        white, black = (frozenset(move(*square) for square in army) for army in armies)
        found |= {(white, black), (black, white)}
    return found


def listed(data: object) -> tuple[int, int, list[Armies]]:
    """n, a(n) and the classes of a listing; ``ValueError`` for one that is malformed."""
    if not isinstance(data, dict):
        raise ValueError("not a listing of classes (a JSON object)")
    side, m, classes = data.get("n"), data.get("m"), data.get("classes")
    if type(side) is not int or type(m) is not int or not isinstance(classes, list):
        raise ValueError("not a listing of classes (n, m and classes)")
    try:
        armies = [
            (
                frozenset(parse_square(name) for name in entry["white"]),
                frozenset(parse_square(name) for name in entry["black"]),
            )
            for entry in classes
        ]
    except (KeyError, TypeError, ValueError) as error:
        raise ValueError(f"a class that is not white and black squares ({error})") from None
    return side, m, armies


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on ``argv`` (the process's arguments when ``None``); the exit status."""
    args = _arguments(argv)
    if args.classes is None:
        fault = _unlisted_fault(args)
        m, classes = args.each, None
    else:
        fault = "-n and --each come from the classes file" if args.n or args.each else None
        try:
            data = json.loads(args.classes.read_text(encoding="utf-8"))
            args.n, m, classes = listed(data)
        except (OSError, ValueError) as error:
            print(f"crosscheck-count: {args.classes}: {error}", file=sys.stderr)
            return 2
    fault = fault or chunk_fault(args)
    if fault:
        print(f"crosscheck-count: {fault}", file=sys.stderr)
        return 2
    held = None if classes is None else _held(args.n, m, classes)
    if classes is not None and held is None:
        return 1
    header: dict[str, object] = {
        "n": args.n,
        "m": m,
        "chunk lines": args.chunk_lines,
        "search": source_digest(),
    }
    order = chunk_order(args, header)
    try:
        journal = Journal(
            args.journal, header, chunk_schema(args.chunk_lines, Counted, "count cross-check")
        )
    except ValueError as error:  # another board's journal, a foreign file, or in use
        print(f"crosscheck-count: {error}", file=sys.stderr)
        return 2
    try:
        return _count(args, m, held, order, journal)
    finally:
        journal.close()


def _unlisted_fault(args: argparse.Namespace) -> str | None:
    """What is wrong with ``-n`` and ``--each`` when no classes file is given."""
    if args.n is None or args.each is None:
        return "give a classes file, or -n and --each to count without one"
    if not 0 <= args.each <= args.n * args.n // 2:
        return f"--each is 0 to {args.n * args.n // 2} on {args.n}×{args.n}"
    return None


def _held(side: int, m: int, classes: list[Armies]) -> int | None:
    """The placements the listed classes hold, each class checked; ``None`` (and the
    reason printed) when one breaks a rule or two are one class."""
    problem = puzzles.peaceable_queens(Board.square(side)).with_counts(exactly=m)
    seen: set[Armies] = set()
    for armies in classes:
        placement = Placement.from_squares(problem, armies)
        broken = placement.verify()
        if broken or placement.army_sizes != (m, m):
            print(f"rejected: a listed placement breaks a rule: {broken}")
            return None
        orbit = images(armies, side)
        if orbit & seen:
            print("rejected: two listed placements are in one class")
            return None
        seen |= orbit
    print(f"board {side}×{side}, {m} each: {len(classes):,} classes, {len(seen):,} placements")
    return len(seen)


def _count(
    args: argparse.Namespace, m: int, held: int | None, words: list[str], journal: Journal
) -> int:
    """Count every chunk not counted yet, in the order of ``words``, and compare the total
    with the placements the classes ``held`` (``None``: no classes listed); the exit
    status."""
    left = [word for word in words if word not in journal.done]
    print(f"{len(words):,} chunks, {len(words) - len(left):,} counted before", flush=True)
    started = time.perf_counter()
    progress = Progress()

    def take(answer: Answer) -> None:
        if answer.verdict != "counted":
            raise RuntimeError(f"line_search answered {answer.verdict} to a count")
        placements, nodes = map(int, answer.fields)
        journal.record(answer.word, placements, nodes, answer.seconds)
        progress.tick(f"counted {done()}")

    def done() -> str:
        return spent(list(journal.done.values()), len(words), journal.header.get("order"))

    def stopped() -> str:
        return f"counted {done()}, kept in {args.journal}"

    status = search_chunks(
        [str(args.n), str(m), str(m), "count"], left, args.workers, take, stopped
    )
    if status is not None:
        return status
    records = [journal.done[word] for word in words]
    total = sum(r.placements for r in records)
    if held is None:
        print(f"counted: {total:,} placements, no classes to compare; {effort(records, started)}")
        return 0
    if total != held:
        print(f"rejected: the search counts {total:,} placements, the classes hold {held:,}")
        return 1
    print(f"confirmed: {total:,} placements, all in the listed classes; {effort(records, started)}")
    return 0


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=prog("crosscheck-count"), description=__doc__.splitlines()[0]
    )
    parser.add_argument(
        "classes", type=Path, nargs="?", help="JSON file written by the optima command"
    )
    parser.add_argument("-n", type=int, help="board side, when no classes file is given")
    parser.add_argument("--each", type=int, help="queens of each colour, with -n")
    add_chunk_options(parser, side=False)
    parser.add_argument("--journal", type=Path, required=True, help="counted chunks, resumable")
    return parser.parse_args(argv)
