"""Cross-check a count of optimal peaceable armies by SAT with blocking clauses.

    python -m chessplace.research crosscheck-optima results/a260680/n11.json

The file lists one placement per class (as ``count --optimal --unique`` found
them with the line engine). This script shares nothing with that engine:

1. every listed placement is checked by ``Placement.verify()`` (real attacks),
   has m of each army, and no two listed placements are in one class;
2. the certificates' formula (``chessplace.certificates.checker.formula``: one
   variable per army and square, pairwise attack clauses, a label per line,
   totalizers) says "exactly m of each", its lex-leader clauses keep the
   smallest member of each class, and one blocking clause per member of every
   listed class forbids those placements. Blocking whole classes keeps the
   formula symmetric, so lex-leader stays sound, and the formula is
   unsatisfiable exactly when no placement outside the listed classes exists;
3. it is cut into every sign pattern of the first ``--cube-lines`` line labels
   (a complete cover by construction), or with ``--tree-depth D`` into the
   leaves of the line engine's tree down to D rank and file labels (the nodes
   its bounds and symmetry check keep at D and every node above that they cut:
   far fewer hard cubes). The engine only chooses the cut: this script checks
   that the cubes partition every labelling of those lines (no cube extends
   another, and their shares 2^-length add up to one), and SAT decides every
   cube, so a wrong cut by the engine can hide nothing. Each cube is solved by
   CaDiCaL, one process per core. Every cube must be unsatisfiable; a model
   would be a missing placement, and is printed.

Along the tree, ``--split-conflicts C`` splits a cube CaDiCaL has not decided
within C conflicts into the tree's leaves 4 labels deeper that extend it (down
to every rank and file, where no budget is set), and ``--split-pending``
splits every cube of the cut not refuted yet at once, untried; the refuted
cubes must then cover every labelling of the cut lines (checked), as in
``crosscheck-bound``.

With ``--journal FILE`` each refuted cube is written to a checkpoint journal (its
header pins the formula, blocked classes included, by a hash of its clauses),
so a run stopped by Ctrl-C or SIGTERM (exit 3) resumes where it was.

It prints one line per stage and a verdict; exit 0 when the count is confirmed.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NamedTuple

from chessplace import Board, puzzles
from chessplace.certificates.checker.formula import (
    Formula,
    claim_bounds,
    lex_order,
    refutation_formula,
)
from chessplace.certificates.checker.spec import Spec
from chessplace.certificates.writer.certificate import spec_of
from chessplace.certificates.writer.cubes import tree_cubes
from chessplace.certificates.writer.symmetries import confirmed_symmetries, symmetry_permutations
from chessplace.core.board import parse_square
from chessplace.core.placement import Placement
from chessplace.research.commands import prog
from chessplace.research.cube_solving import (
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
from chessplace.runtime.control import Control
from chessplace.runtime.journal import Journal

LARGEST_BOARD = 32
"""The largest board side a listing is taken for (as ``sample-proofs -n``)."""


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on ``argv`` (the process's arguments when ``None``); the exit status."""
    parser = argparse.ArgumentParser(
        prog=prog("crosscheck-optima"), description=__doc__.splitlines()[0]
    )
    parser.add_argument("classes", type=Path, help="JSON file written by the optima command")
    parser.add_argument("--cube-lines", type=int, default=10, help="lines labelled per cube")
    parser.add_argument(
        "--tree-depth", type=int, help="cubes from the line engine's tree, this many labels"
    )
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--journal", type=Path, help="refuted cubes, so that a stopped run resumes")
    add_split_options(parser)
    args = parser.parse_args(argv)
    fault = cube_options_fault(args)
    if fault:
        print(f"crosscheck-optima: {fault}", file=sys.stderr)
        return 2
    try:
        listed = listed_formula(read_listing(args.classes))
    except ListedFault as rejected:
        print(f"rejected: {rejected}")
        return 1
    except (ValueError, OSError) as error:
        print(f"crosscheck-optima: {error}", file=sys.stderr)
        return 2
    spec, n, m, clauses = listed.spec, listed.n, listed.m, listed.clauses
    started = time.perf_counter()
    print(f"{listed.classes:,} classes, {listed.placements:,} placements verified", flush=True)
    order = lex_order(spec)  # each line's label variables (army 0, army 1), line by line
    cut = None
    if args.tree_depth is None:
        labels = order[: 2 * args.cube_lines : 2]
        cubes = [
            tuple(v if sign else -v for v, sign in zip(labels, signs, strict=True))
            for signs in itertools.product((True, False), repeat=len(labels))
        ]
        signed = words_of(cubes, order)
        assert signed is not None  # the cubes label the first lines of ``order``
        words = signed
    else:
        if not 1 <= args.tree_depth <= 2 * n:
            print(
                f"crosscheck-optima: --tree-depth is 1 to {2 * n} rank and file labels",
                file=sys.stderr,
            )
            return 2
        cut = EngineCut(spec, m, order)
        words = cut.leaves(args.tree_depth)
        if not covers(words):
            print("rejected: the engine's cubes do not partition the labellings")
            return 1
        cubes = [cut.cube(word) for word in words]
    header = {"n": n, "m": m, "cubes": len(cubes), "formula": formula_digest(clauses)}
    header |= {"cube lines": args.cube_lines} if args.tree_depth is None else {}
    header |= {"tree depth": args.tree_depth} if args.tree_depth is not None else {}
    try:
        journal = (
            Journal(
                args.journal,
                header,
                refuted_schema(word_check(cut.deepest) if cut else set(words).__contains__),
            )
            if args.journal
            else None
        )
    except ValueError as error:  # another run's journal, a foreign file, or in use
        print(f"crosscheck-optima: {error}", file=sys.stderr)
        return 2
    done = {k: v for k, v in journal.done.items() if not k.endswith(OVER)} if journal else {}
    print(
        f"formula: {listed.formula.variables:,} variables, {len(clauses):,} clauses "
        f"({listed.placements:,} blocking), {listed.symmetries} symmetries; {len(cubes):,} cubes, "
        f"{len(done):,} refuted before at any depth, {refuted_share(done):.2%} of the labellings",
        flush=True,
    )

    def missing(word: str, model: list[int]) -> None:
        true = set(v for v in model if v > 0)
        squares = [spec.square_of(s) for s in range(spec.squares)]
        armies = [[q for q in squares if spec.var(a, q) in true] for a in (0, 1)]
        print(f"REFUTED: cube {word} holds a placement not listed: {armies}")

    refuting = Refuting(
        clauses,
        cut,
        journal,
        done,
        missing,
        args.workers,
        args.split_conflicts,
        args.split_pending,
    )
    try:
        if refuting.run(words, cubes, args.tree_depth or 0):
            return 1
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM: the workers are gone with the pool
        if journal is None:
            print("stopped: no --journal was given, so the next run starts from the start")
        else:
            print(f"stopped: {len(done):,} cubes refuted, kept in {args.journal}")
        return 3
    finally:
        if journal:
            journal.close()
    if not covers(refuting.used):
        print("rejected: the refuted cubes do not cover every labelling of the cut lines")
        return 1
    slowest = max((done[word].seconds for word in refuting.used), default=0.0)
    elapsed = time.perf_counter() - started
    spent = sum(record.seconds for record in (journal.done if journal else done).values())
    print(
        f"confirmed: peaceable queens on {n}×{n}, exactly {m} of each: {listed.classes:,} "
        f"classes, {listed.placements:,} placements, no other ({len(refuting.used):,} cubes, "
        f"slowest {slowest:.1f} s, {spent:.0f} CPU-s in the cubes, {elapsed:.0f} s this run)"
    )
    return 0


class ListedFault(ValueError):
    """A listed placement breaks a rule, or two are in one class."""


class Listed(NamedTuple):
    """The formula of "a placement outside the listed classes": the certificates'
    formula for exactly m of each, with a blocking clause per listed placement (its
    clauses are ``clauses``; ``formula`` holds them all but the blocking ones)."""

    spec: Spec
    n: int
    m: int
    formula: Formula
    clauses: list[tuple[int, ...]]
    classes: int
    placements: int
    symmetries: int


def listed_formula(data: dict[str, Any]) -> Listed:
    """The formula of the classes an ``optima`` file lists (``data``), each listed
    placement verified first (``data`` as :func:`read_listing` gives it);
    :class:`ListedFault` for one that breaks a rule or shares a class with another."""
    n, m = data["n"], data["m"]
    problem = puzzles.peaceable_queens(Board.square(n)).with_counts(exactly=m)
    spec = spec_of(problem)
    placements = []
    for entry in data["classes"]:
        armies = [[parse_square(s) for s in entry[name]] for name in ("white", "black")]
        placement = Placement.from_squares(problem, armies)
        if placement.verify() or placement.army_sizes != (m, m):
            raise ListedFault(f"listed placement {entry} breaks a rule")
        placements.append([{spec.var(a, s) for s in squares} for a, squares in enumerate(armies)])
    orbits: set[frozenset[int]] = set()
    permutations = symmetry_permutations(spec)
    for white, black in placements:
        literals = frozenset(white | black)
        orbit = {literals} | {frozenset(p[v - 1] for v in literals) for p in permutations}
        if orbit & orbits:
            raise ListedFault("two listed placements are in one class")
        orbits |= orbit
    bounds = claim_bounds(spec, {"kind": "infeasible"})
    kept = confirmed_symmetries(spec, bounds)
    formula = refutation_formula(spec, bounds, kept)
    blocking = sorted(tuple(-v for v in sorted(p)) for p in orbits)
    clauses = [*map(tuple, formula.clauses), *blocking]
    return Listed(spec, n, m, formula, clauses, len(placements), len(orbits), len(kept))


def read_listing(path: Path) -> Any:
    """The data of an ``optima`` file; ``ValueError`` for one that is not JSON or
    not of its shape, ``OSError`` for one that cannot be read."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (ValueError, RecursionError):  # not UTF-8, not JSON, nested too deep
        raise ValueError(f"{path} is not a file the optima command wrote") from None
    fault = _listing_fault(data)
    if fault:
        raise ValueError(f"{path} is not a file the optima command wrote: {fault}")
    return data


def _listing_fault(data: object) -> str | None:
    """What is wrong with the shape of an ``optima`` file's data (``None``: nothing)."""
    if not isinstance(data, dict):
        return "not a JSON object"
    n, m, classes = data.get("n"), data.get("m"), data.get("classes")
    if type(n) is not int or not 2 <= n <= LARGEST_BOARD:
        return f"n is not a whole number from 2 to {LARGEST_BOARD}"
    if type(m) is not int or not 0 <= m <= n * n:
        return f"m is not a whole number from 0 to {n * n}"
    if not isinstance(classes, list) or not all(
        isinstance(entry, dict)
        and all(
            isinstance(entry.get(army), list)
            and all(isinstance(square, str) for square in entry[army])
            for army in ("white", "black")
        )
        for entry in classes
    ):
        return "classes is not a list of white and black square lists"
    return None


class EngineCut:
    """The line engine's tree for m of each on the free square board, its leaves as
    words on the lines of ``order`` (the formula's label variables, line by line)."""

    def __init__(self, spec: Spec, m: int, order: list[int]) -> None:
        self.spec, self.m, self.order = spec, m, order
        self.deepest = spec.rows + spec.cols
        self._trees: dict[int, list[str]] = {}

    def leaves(self, depth: int) -> list[str]:
        """The words of the tree's leaves down to ``depth`` labels."""
        if depth not in self._trees:
            free = puzzles.peaceable_queens(Board.square(self.spec.rows))
            cubes = [tuple(c) for c in tree_cubes(free, self.spec, self.m, Control(), depth)]
            words = words_of(cubes, self.order)
            assert words is not None  # the tree labels the lines of ``order``
            self._trees[depth] = words
        return self._trees[depth]

    def cube(self, word: str) -> tuple[int, ...]:
        """The label literals of a word: each line's army 0 label, or army 1's."""
        if len(word) > self.deepest:  # past the ranks and files: not a word of this cut
            raise ValueError(f"cube {word} labels more than {self.deepest} lines")
        return tuple(self.order[2 * p + (c == "0")] for p, c in enumerate(word))


def words_of(cubes: list[tuple[int, ...]], order: list[int]) -> list[str] | None:
    """Each cube as its labels, "1" for army 0 and "0" for army 1, on the lines of
    ``order`` (each line's label variables, army 0's then army 1's); a cube's p-th
    literal is army 0's label of line p, its negation, or army 1's label. ``None``
    when a literal belongs to another line."""
    words = []
    for cube in cubes:
        word = ""
        for p, literal in enumerate(cube):
            white, black = order[2 * p : 2 * p + 2]
            if literal not in (white, -white, black):
                return None
            word += "1" if literal == white else "0"
        words.append(word)
    return words
