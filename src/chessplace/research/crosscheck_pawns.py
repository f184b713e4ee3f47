"""Recount random parts of an n+k queens count by CP-SAT: an independent check of the
bitboard counter's search of one queen per segment.

    python -m chessplace.research crosscheck-pawns -n 15 --pawns 3 --parts 40 \
        --journal results/a129554/n15-cpsat-parts.jsonl

A part is one class of pawn sets (its smallest member, as the count takes it) with
the files of the first segments fixed: the counter's search counts its queen
placements, and CP-SAT enumerates those of a problem stated apart from it (queens
with the pawns and the first segments' queens given, the checker's rules, CP-SAT's
own encoding of rides stopped by pawns). Segments are fixed one by one, at random,
until the part holds at most ``--most`` placements, so CP-SAT can list them. Each
part is a line of the journal (rerunning resumes; ``--seed`` fixes the parts); exit
0 when every part agrees, 1 when one does not.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from chessplace.research.commands import prog


def _part(
    position: Any, pawns: tuple[tuple[int, int], ...], rng: random.Random, most: int
) -> tuple[list[tuple[int, int]], int] | None:
    """The given queens (file, rank) of one random part and the counter's count of it;
    ``None`` when a random choice leaves no placement."""
    from chessplace.engines.bitboard.pawns import layout
    from chessplace.engines.bitboard.segments import search

    shape = layout(position, pawns)
    assert shape is not None
    segs = shape.segs.copy()
    stop = np.zeros(1, dtype=np.uint8)
    none = np.zeros(0, dtype=np.int64)
    chosen: list[tuple[int, int]] = []
    for s in range(len(segs)):
        arguments = (shape.rows, shape.ends, shape.pawns, shape.need, none, stop)
        found, _ = search(position.n, True, segs, *arguments)
        if found == 0:
            return None
        if found <= most:
            return chosen, int(found)
        files = [x for x in range(position.n) if int(segs[s]) >> x & 1]
        x = rng.choice(files)
        segs[s] = np.uint64(1 << x)
        chosen.append((x, int(shape.rows[s])))
    return None


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=prog("crosscheck-pawns"), description=__doc__.splitlines()[0]
    )
    parser.add_argument("-n", type=int, required=True, help="board side")
    parser.add_argument("--pawns", type=int, required=True, help="pawns (k of n+k queens)")
    parser.add_argument("--parts", type=int, default=20, help="parts to recount (20)")
    parser.add_argument("--most", type=int, default=3000, help="placements per part at most")
    parser.add_argument("--seed", type=int, default=1, help="random seed of the parts (1)")
    parser.add_argument("--journal", type=Path, required=True, help="JSON lines, resumed")
    args = parser.parse_args(argv)

    from chessplace import api
    from chessplace.core.board import Board, square_name
    from chessplace.engines.bitboard.pawns import Position, pawn_classes
    from chessplace.notation.puzzles import queens
    from chessplace.runtime.control import Control

    n, k = args.n, args.pawns
    position = Position(n, n + k, k)
    header = {
        "kind": "pawn parts",
        "n": n,
        "pawns": k,
        "most": args.most,
        "seed": args.seed,
    }
    done: list[dict[str, Any]] = []
    if args.journal.exists() and args.journal.stat().st_size:
        lines = args.journal.read_text(encoding="utf-8").splitlines()
        if json.loads(lines[0])["header"] != header:
            print(f"{args.journal} records another check")
            return 2
        done = [json.loads(line) for line in lines[1:] if line.strip()]
    else:
        args.journal.parent.mkdir(parents=True, exist_ok=True)
        args.journal.write_text(json.dumps({"header": header}) + "\n", encoding="utf-8")
    classes = pawn_classes(position)
    assert classes is not None
    rng = random.Random(args.seed)
    failed = sum(not record["agree"] for record in done)
    resumed, produced = len(done), 0
    while len(done) < args.parts:
        pawn_class = rng.choice(classes)
        part = _part(position, pawn_class.pawns, rng, args.most)
        if part is None:
            continue
        givens, ours = part
        produced += 1
        if produced <= resumed:  # recounted before: the same draws give the same part
            if done[produced - 1]["given"] != [square_name(s) for s in givens]:
                print(f"{args.journal} was written with other parts")
                return 2
            continue
        problem = replace(
            queens(Board.square(n)).with_counts(exactly=n + k),
            pawns=frozenset(pawn_class.pawns),
            given=(frozenset(givens),),
        )
        started = time.process_time()
        theirs = api.count(problem, solver="cpsat", control=Control(None)).count
        seconds = time.process_time() - started
        names = [square_name(s) for s in pawn_class.pawns]
        record: dict[str, Any] = {
            "pawns": names,
            "given": [square_name(s) for s in givens],
            "bitboard": ours,
            "cpsat": theirs,
            "agree": ours == theirs,
            "seconds": round(seconds, 3),
        }
        failed += ours != theirs
        done.append(record)
        with args.journal.open("a", encoding="utf-8") as file:
            file.write(json.dumps(record) + "\n")
        print(
            f"part {len(done)}/{args.parts}: pawns {' '.join(names)}, "
            f"{len(givens)} queens given: {ours} and {theirs}"
            + ("" if ours == theirs else "  DISAGREE"),
            flush=True,
        )
    total = sum(record["bitboard"] for record in done)
    print(f"{len(done)} parts, {total:,} placements; {failed} disagree")
    return 1 if failed else 0
