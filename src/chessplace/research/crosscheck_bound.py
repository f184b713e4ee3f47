"""Cross-check an optimum of peaceable queens by SAT: one more is impossible.

    python -m chessplace.research crosscheck-bound -n 13 --torus --optimum 16 \
        --journal results/a279405/n13-sat-lines8.jsonl

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
cube left over can be split into finer ones and only those are solved.

``--tree-depth D`` cuts along the line engine's tree instead (:mod:`tree_cut`):
the leaves of its search for M + 1 down to D rank and file labels. With
``--split-conflicts C`` a cube CaDiCaL has not decided within C conflicts is
split into the leaves 4 labels deeper that extend it, and so on down to every
rank and file, where no budget is set; the journal notes each such cube, so a
resumed run splits it at once. ``--split-pending`` splits every cube of the cut
not yet refuted at once, untried (a resumed run whose cubes left are known to
be hard). The engine only proposes the cut: the
refuted cubes must cover every colouring of the cut lines (checked), and each
was refuted by CaDiCaL. The SAT answers are not proof-logged: this is a second
computation by another algorithm, not a certificate.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from chessplace import Board, Shape, puzzles, square_name
from chessplace.core.problem import Problem
from chessplace.encodings.formulas import DEFAULT_ENCODING, LineFormula
from chessplace.research.commands import prog
from chessplace.research.cube_solving import (
    Refuted,
    covers,
    formula_digest,
    refuted_schema,
    refuted_share,
)
from chessplace.research.splitting import (
    OVER,
    Refuting,
    add_split_options,
    cube_options_fault,
    word_check,
)
from chessplace.research.tree_cut import TreeCut
from chessplace.runtime.journal import Journal, recorded_header


def beyond(n: int, torus: bool, optimum: int, white: int | None) -> Problem:
    """The problem one past the claim: M + 1 of each, or W white and M + 1 black."""
    board = Board.square(n, Shape.TORUS if torus else Shape.PLANE)
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
    coarse = Journal(path, found, refuted_schema(keys.__contains__))
    coarse.close()
    return dict(coarse.done)


def _print_model(formula: LineFormula, problem: Problem, word: str, model: list[int]) -> None:
    """A placement past the claim, found in cube ``word``, checked and shown."""
    found = formula.decode(model)
    broken = found.verify()
    print(f"REFUTED: cube {word} holds {found.army_sizes}; broken: {broken}")
    for army, squares in zip(problem.armies, found.armies, strict=True):
        print(f"  {army.name}: {' '.join(sorted(map(square_name, squares)))}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on ``argv`` (the process's arguments when ``None``); the exit status."""
    args = _arguments(argv)
    problem = beyond(args.n, args.torus, args.optimum, args.white)
    started = time.perf_counter()
    try:
        formula, cubes, cut = _cubes(args, problem)
    except ValueError as error:
        print(f"crosscheck-bound: {error}", file=sys.stderr)
        return 2
    clauses = formula.clauses
    header = _header(args, clauses, len(cubes), cut)
    keys = {_key(cube) for cube in cubes}
    valid = keys.__contains__ if cut is None else word_check(cut.deepest)
    try:
        coarse = _coarser(args.refine, header, len(cubes)) if args.refine else {}
        journal = Journal(args.journal, header, refuted_schema(valid))
    except ValueError as error:  # another run's journal, a foreign file, or in use
        print(f"crosscheck-bound: {error}", file=sys.stderr)
        return 2
    prefix = len(next(iter(coarse), ""))  # the coarser run's cube lines
    covered = {
        _key(cube): coarse[_key(cube)[:prefix]] for cube in cubes if _key(cube)[:prefix] in coarse
    }
    done = {**covered, **{k: v for k, v in journal.done.items() if not k.endswith(OVER)}}
    what = f"{'torus' if args.torus else 'board'} {args.n}×{args.n}"
    if args.white is None:
        claim, past = f"{args.optimum} each", f"{args.optimum + 1} each"
    else:
        claim = f"{args.white} white, {args.optimum} black"
        past = f"{args.white} white with {args.optimum + 1} black"
    print(
        f"{what}, claim {claim}: {formula.pool.top:,} variables, {len(clauses):,} clauses; "
        f"{len(cubes):,} cubes, {len(done):,} refuted before at any depth"
        + (f" ({len(covered):,} by {args.refine})" if args.refine else "")
        + f", {refuted_share(done):.2%} of the colourings",
        flush=True,
    )
    refuting = Refuting(
        formula.clauses,
        cut,
        journal,
        done,
        lambda word, model: _print_model(formula, problem, word, model),
        args.workers,
        args.split_conflicts,
        args.split_pending,
    )
    try:
        found = refuting.run([_key(cube) for cube in cubes], cubes, args.tree_depth or 0)
    except KeyboardInterrupt:
        share = f"{len(done):,}/{len(cubes):,}" if cut is None else f"{len(done):,}"
        print(f"stopped: {share} cubes refuted, kept in {args.journal}")
        return 3
    finally:
        journal.close()
    if found:
        return 1
    if not covers(refuting.used):
        print("rejected: the refuted cubes do not cover every colouring of the cut lines")
        return 1
    slowest = max((done[word].seconds for word in refuting.used), default=0.0)
    spent = sum(r.seconds for r in {**coarse, **journal.done}.values())
    print(
        f"confirmed: {what}, no {past}: "
        f"{len(refuting.used):,} cubes unsatisfiable, slowest {slowest:.1f} s, {spent:.0f} CPU-s "
        f"in the cubes ({time.perf_counter() - started:.0f} s this run)"
    )
    return 0


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=prog("crosscheck-bound"), description=__doc__.splitlines()[0]
    )
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
    add_split_options(parser)
    return parser.parse_args(argv)


def _cubes(
    args: argparse.Namespace, problem: Problem
) -> tuple[LineFormula, list[tuple[int, ...]], TreeCut | None]:
    """The formula, its first cubes and the tree cut they come from (``None`` for the
    sign patterns of the first line colours); ``ValueError`` for options that clash."""
    fault = cube_options_fault(args)
    if fault:
        raise ValueError(fault)
    if args.tree_depth is None:
        formula = LineFormula(problem, DEFAULT_ENCODING)
        first = 1 if problem.swappable_armies else 0
        lines = range(first, min(len(formula.model.lines), first + args.cube_lines))
        split = [formula.named(("white line", i)) for i in lines]
        cubes = [
            tuple(v if sign else -v for v, sign in zip(split, signs, strict=True))
            for signs in itertools.product((True, False), repeat=len(split))
        ]
        return formula, cubes, None
    if args.refine is not None:
        raise ValueError("--refine splits cubes by line colours, not along the tree")
    cut = TreeCut(problem, args.optimum + 1, args.tree_depth)
    return cut.formula, [cut.cube(word) for word in cut.leaves(args.tree_depth)], cut


def _header(
    args: argparse.Namespace, clauses: list[list[int]], cubes: int, cut: TreeCut | None
) -> dict[str, object]:
    """The journal's header: the claim, and the formula pinned by a hash of its clauses."""
    header: dict[str, object] = {
        "n": args.n,
        "torus": args.torus,
        "white": args.white,
        "beyond": args.optimum + 1,
        "cubes": cubes,
        "formula": formula_digest(clauses),
    }
    if cut is not None:
        header["tree depth"] = args.tree_depth
    return header
