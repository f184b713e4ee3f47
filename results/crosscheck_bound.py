"""Cross-check an optimum of peaceable queens by SAT: one more is impossible.

    python results/crosscheck_bound.py -n 13 --torus --optimum 16 \
        --journal results/checkpoints/t13-sat.jsonl

claims that ``--optimum`` M queens of each colour is the most on the board
(with ``--white W``: that W white queens leave room for at most M black). The
line engine found that optimum; this script shares nothing with it but the
board's lines. It builds the SAT model of "at least M + 1" (the SAT engine's
line-colour formula: a colour per line, a square holds a queen of a colour
only when every line through it has that colour, totalizer counts, lex-leader
clauses for the board's symmetries and the colour swap, translations on a
torus) and cuts it into every sign pattern of the first ``--cube-lines`` line
colours (a complete cover by construction). Each cube is solved by CaDiCaL,
one process per worker; every cube must be unsatisfiable. A model is a
placement beyond the claim: it is checked with ``verify`` and printed (exit 1).

Refuted cubes are written to ``--journal`` (a checkpoint journal, as the
engines keep), so a stopped run resumes where it was; the journal's header
pins the formula by a hash of its clauses. ``--refine COARSER`` reads the
journal of a run with fewer ``--cube-lines`` on the same formula: a cube whose
first colours form a cube refuted there is covered already, so a hard coarse
cube left over can be split into finer ones and only those are solved. The SAT answers are not
proof-logged: this is a second computation by another algorithm, not a
certificate.
"""

from __future__ import annotations

import argparse
import hashlib
import itertools
import sys
import time
from pathlib import Path

from cube_solving import Refuted, covers, refuted_schema, signals_held, solved

from chessplace import Board, puzzles, square_name
from chessplace.certificates.cubes import tree_leaves
from chessplace.control import Control
from chessplace.journal import Journal, recorded_header
from chessplace.models.formulas import DEFAULT_ENCODING, LineFormula
from chessplace.problem import Problem


def beyond(n: int, torus: bool, optimum: int, white: int | None) -> Problem:
    """The problem one past the claim: M + 1 of each, or W white and M + 1 black."""
    board = Board.square(n, torus)
    if white is None:
        return puzzles.peaceable_queens(board).with_counts(at_least=optimum + 1)
    return puzzles.peaceable_queens(board, white=white).with_counts(at_least=optimum + 1)


def _key(cube: tuple[int, ...]) -> str:
    return "".join("1" if literal > 0 else "0" for literal in cube)


def _coarser(path: Path, header: dict[str, object], fine: int) -> dict[str, Refuted]:
    """The cubes refuted in a coarser run's journal on the same formula (each record
    checked as a resumed run checks it)."""
    found = recorded_header(path)
    if found is None:
        raise ValueError(f"{path} is not a cross-check journal")
    cubes = found.get("cubes")
    same = {k: v for k, v in found.items() if k != "cubes"} == {
        k: v for k, v in header.items() if k != "cubes"
    }
    if not same or not isinstance(cubes, int) or cubes < 2 or cubes & (cubes - 1):
        raise ValueError(f"{path} is not a cross-check of the same formula")
    if cubes >= fine:
        raise ValueError(f"{path} has {cubes:,} cubes: refine it with more --cube-lines")
    width = cubes.bit_length() - 1
    keys = {"".join(signs) for signs in itertools.product("10", repeat=width)}
    coarse = Journal(path, found, refuted_schema(keys))
    coarse.close()
    return dict(coarse.done)


def _tree_cut(
    problem: Problem, target: int, depth: int, refine: Path | None
) -> tuple[LineFormula, list[tuple[int, ...]]]:
    """The formula, its lex-leader comparing the engine's ranks and files first (so the
    nodes the engine cut by symmetry fall to propagation), and the leaves of the engine's
    tree for ``target`` down to ``depth`` labels as cubes on the line colours."""
    if refine is not None:
        raise ValueError("--refine splits cubes by line colours, not along the tree")
    sides = problem.board.rows + problem.board.cols
    if not 1 <= depth <= sides:
        raise ValueError(f"--tree-depth is 1 to {sides} rank and file labels")
    tree = tree_leaves(problem, target, Control(), depth)
    if tree is None:
        raise ValueError("the line engine does not search this problem")
    lines, leaves = tree
    formula = LineFormula(problem, DEFAULT_ENCODING, compare_first=lines)
    split = [formula.white_line(line) for line in lines]
    cubes = [
        tuple(split[p] if label else -split[p] for p, label in enumerate(leaf)) for leaf in leaves
    ]
    return formula, cubes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-n", type=int, required=True, help="board side")
    parser.add_argument("--torus", action="store_true", help="the n×n torus")
    parser.add_argument("--optimum", type=int, required=True, help="the claimed most M")
    parser.add_argument("--white", type=int, help="W white queens fixed (A308632)")
    parser.add_argument("--cube-lines", type=int, default=8, help="line colours per cube")
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--journal", type=Path, required=True, help="refuted cubes, resumable")
    parser.add_argument("--refine", type=Path, help="a coarser run's journal: its cubes count")
    parser.add_argument(
        "--tree-depth", type=int, help="cubes from the line engine's tree, this many labels"
    )
    args = parser.parse_args()
    problem = beyond(args.n, args.torus, args.optimum, args.white)
    started = time.perf_counter()
    if args.tree_depth is None:
        formula = LineFormula(problem, DEFAULT_ENCODING)
        first = 1 if problem.swappable_armies else 0
        lines = range(first, min(len(formula.model.lines), first + args.cube_lines))
        split = [formula.named(("white line", i)) for i in lines]
        cubes = [
            tuple(v if sign else -v for v, sign in zip(split, signs, strict=True))
            for signs in itertools.product((True, False), repeat=len(split))
        ]
    else:
        try:
            formula, cubes = _tree_cut(problem, args.optimum + 1, args.tree_depth, args.refine)
        except ValueError as error:
            print(f"crosscheck_bound: {error}", file=sys.stderr)
            return 2
        if not covers([_key(cube) for cube in cubes]):
            print("rejected: the engine's cubes do not partition the line colourings")
            return 1
    clauses = formula.clauses
    digest = hashlib.sha256()
    for clause in clauses:
        digest.update(" ".join(map(str, clause)).encode() + b"\n")
    header: dict[str, object] = {
        "n": args.n,
        "torus": args.torus,
        "white": args.white,
        "beyond": args.optimum + 1,
        "cubes": len(cubes),
        "formula": digest.hexdigest(),
    }
    if args.tree_depth is not None:
        header["tree depth"] = args.tree_depth
    try:
        coarse = _coarser(args.refine, header, len(cubes)) if args.refine else {}
        journal = Journal(args.journal, header, refuted_schema({_key(cube) for cube in cubes}))
    except ValueError as error:  # another run's journal, a foreign file, or in use
        print(f"crosscheck_bound: {error}", file=sys.stderr)
        return 2
    prefix = len(next(iter(coarse), ""))  # the coarser run's cube lines
    covered = {
        _key(cube): coarse[_key(cube)[:prefix]] for cube in cubes if _key(cube)[:prefix] in coarse
    }
    done = {**covered, **journal.done}
    pending = [cube for cube in cubes if _key(cube) not in done]
    what = f"{'torus' if args.torus else 'board'} {args.n}×{args.n}"
    if args.white is None:
        claim, past = f"{args.optimum} each", f"{args.optimum + 1} each"
    else:
        claim = f"{args.white} white, {args.optimum} black"
        past = f"{args.white} white with {args.optimum + 1} black"
    print(
        f"{what}, claim {claim}: {formula.pool.top:,} variables, {len(clauses):,} clauses; "
        f"{len(cubes):,} cubes, {len(cubes) - len(pending):,} refuted before"
        + (f" ({len(covered):,} by {args.refine})" if args.refine else ""),
        flush=True,
    )
    slowest = max((r.seconds for r in done.values()), default=0.0)
    try:
        for count, (cube, model, seconds) in enumerate(solved(clauses, pending, args.workers), 1):
            if model is not None:
                found = formula.decode(model)
                broken = found.verify()
                print(f"REFUTED: cube {_key(cube)} holds {found.army_sizes}; broken: {broken}")
                for army, squares in zip(problem.armies, found.armies, strict=True):
                    print(f"  {army.name}: {' '.join(sorted(map(square_name, squares)))}")
                return 1
            with signals_held():
                journal.record(_key(cube), seconds)
                done[_key(cube)] = Refuted(seconds)
            slowest = max(slowest, seconds)
            if count % max(1, len(pending) // 20) == 0 or seconds > 60:
                print(f"{len(done):,}/{len(cubes):,} cubes unsatisfiable", flush=True)
    except KeyboardInterrupt:
        print(f"stopped: {len(done):,}/{len(cubes):,} cubes refuted, kept in {args.journal}")
        return 3
    finally:
        journal.close()
    spent = sum(r.seconds for r in {**coarse, **journal.done}.values())
    print(
        f"confirmed: {what}, no {past}: "
        f"{len(cubes):,} cubes unsatisfiable, slowest {slowest:.1f} s, {spent:.0f} CPU-s in the "
        f"cubes ({time.perf_counter() - started:.0f} s this run)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
