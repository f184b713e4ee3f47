"""Refute a random sample of a claim's cubes by SAT, each with a checked DRUP proof.

    python -m chessplace.research sample-proofs -n 13 --white 24 --optimum 25 \\
        --sample 30 --journal results/a308632/n13-sample-proofs.jsonl
    python -m chessplace.research sample-proofs --classes results/a260680/n13.json \\
        --sample 30 --journal results/a260680/n13-sample-proofs.jsonl

A second method beside the line engine and the C search, which share one line
of reasoning (line colourings, their bounds, their order, their symmetry cut).
Here the claim is the certificates' formula (``chessplace.certificates.checker.formula``:
a variable per army and square, a clause per attacking pair, a label per line,
totalizers, lex-leader clauses): with ``-n``, ``--optimum`` M and ``--white`` W,
"at least M + 1 of each" or "W white and at least M + 1 black"; with
``--classes`` an ``optima`` file, "exactly m of each, outside the listed
classes" (a blocking clause per listed placement, each verified first, as
``crosscheck-optima`` builds it). It is cut into every labelling of the first
``--lines`` lines of the formula's order (ranks and files from the edges
inward): 2^lines cubes, a cover by construction. The cubes are taken in the
order a seeded shuffle gives, and the first ``--sample`` of them are refuted,
each in a child process: Glucose 4 with a DRUP proof, which dratify checks at
once against the formula with the cube as unit clauses. Each is journaled
with its proof's steps, the SHA-256 of the proof's text and the CPU seconds
proving and checking; a proof of at most 1 MiB gzipped is written to
``--proofs DIR`` (``WORD.drup.gz``, the word being the cube's labels, "1"
white) to be kept, by this process after the check (exit 2 when it cannot be
written), so that no proof there lacks its record. Glucose is deterministic
here, so a cube proved again gives the same proof and hash. A cube whose proof
is too large to check in the memory here is journaled as ``WORD+`` (the
attempt's steps, hash and seconds) and split into the labellings of the next
two lines, each refuted the same way, up to four splits deep; its cost is the
attempt's and its parts'.

The cubes refuted are a uniform sample of all of them, so they project what
refuting the whole would cost, with a 95% interval (:mod:`sampling`). A
satisfiable cube refutes the claim: its placement is printed (exit 1), as is a
proof dratify rejects. A rerun resumes; a larger ``--sample`` goes on with the
same draw. Ctrl-C or SIGTERM stops it (exit 3, the refuted cubes kept); exit 4
when a child died without an answer (out of memory?) or a proof is still too
large at the deepest split, which proves nothing.
"""

from __future__ import annotations

import argparse
import itertools
import os
import signal
import sys
from collections.abc import Mapping, Sequence
from contextlib import closing
from pathlib import Path
from typing import NamedTuple

from chessplace.certificates.checker.formula import (
    claim_bounds,
    lex_order,
    refutation_formula,
    refuted_statement,
)
from chessplace.certificates.checker.proofs import NoProofChecker, checker_name
from chessplace.certificates.checker.spec import Spec
from chessplace.certificates.checker.verdict import CubeFormula
from chessplace.certificates.writer.certificate import spec_of
from chessplace.certificates.writer.proving import PROOF_SOLVER
from chessplace.certificates.writer.symmetries import confirmed_symmetries
from chessplace.core.board import square_name
from chessplace.research.checked_proofs import SATISFIABLE, refute_and_check
from chessplace.research.commands import prog
from chessplace.research.crosscheck_bound import beyond
from chessplace.research.crosscheck_optima import (
    ListedFault,
    listed_formula,
    read_listing,
)
from chessplace.research.cube_solving import formula_digest
from chessplace.research.sampling import SPLIT, SPLIT_LINES, done_so_far, settled_costs, shuffled
from chessplace.runtime.journal import Journal, Schema, natural
from chessplace.runtime.lifeline import fan_out

FORMAT = "chessplace-proof-sample-1"

MOST_LINES = 20
"""The most lines a cube labels (a million cubes)."""

MOST_SPLITS = 4
"""How many times a cube is split, at most, to make its proofs small enough to check."""


class Proved(NamedTuple):
    """A cube refuted with a proof dratify accepted (a journal record)."""

    steps: int
    proving: float
    checking: float
    proof: str  # the SHA-256 of the proof's text
    kept: bool


class Claim(NamedTuple):
    """The formula to refute, in words, and its clauses."""

    spec: Spec
    statement: str
    variables: int
    clauses: list[tuple[int, ...]]
    header: Mapping[str, object]


_STOP = {"asked": False}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command on ``argv`` (the process's arguments when ``None``); the exit status."""
    args = _arguments(argv)
    try:
        fault = _fault(args)
        if fault:
            raise ValueError(fault)
        checker = checker_name()
        import pysat.solvers  # noqa: F401  (the children's Glucose)

        claim = _claim(args)
        if args.lines > _line_count(claim):
            raise ValueError("--lines is more than the board's lines")
        if args.proofs is not None:
            args.proofs.mkdir(parents=True, exist_ok=True)
    except ListedFault as rejected:
        print(f"rejected: {rejected}")
        return 1
    except (ValueError, OSError, ImportError, NoProofChecker) as error:
        print(f"sample-proofs: {error}", file=sys.stderr)
        return 2
    words = ["".join(signs) for signs in itertools.product("10", repeat=args.lines)]
    header = {
        "format": FORMAT,
        **claim.header,
        "lines": args.lines,
        "cubes": len(words),
        "order": f"shuffled, seed {args.seed}",
        "formula": formula_digest(claim.clauses),
        "solver": PROOF_SOLVER,
        "checker": checker,
    }
    try:
        journal = Journal(args.journal, header, _schema(args.lines))
    except (ValueError, OSError) as error:  # another run's, foreign, in use, unreadable
        print(f"sample-proofs: {error}", file=sys.stderr)
        return 2
    try:
        for sig in (signal.SIGINT, signal.SIGTERM):  # from here a stop keeps what is done
            signal.signal(sig, _stop)
        drawn = shuffled(words, args.seed)[: args.sample]
        left = [word for word in drawn if _unsettled(word, journal.done)]
        print(
            f"refuting {claim.statement}: {len(claim.clauses):,} clauses, {len(words):,} cubes "
            f"(every labelling of the first {args.lines} lines); {len(drawn) - len(left):,} of "
            f"the {len(drawn):,} drawn proved and checked before",
            flush=True,
        )
        status = _refute(claim, left, journal, args)
    finally:
        journal.close()
    seconds = {key: r.proving + r.checking for key, r in journal.done.items()}
    costs = settled_costs(seconds, {key.removesuffix(SPLIT)[: args.lines] for key in seconds})
    print(done_so_far(list(costs.values()), len(words), unit="cubes"))
    if status == 0:
        checked = [r for key, r in journal.done.items() if not key.endswith(SPLIT)]
        print(
            f"confirmed on the sample: {len(drawn):,} random cubes of {len(words):,} refuted, "
            f"every DRUP proof of {PROOF_SOLVER} ({sum(r.steps for r in checked):,} steps in "
            f"{len(checked):,} proofs, the cubes split included) checked by {checker}; "
            f"{sum(r.kept for r in checked):,} proofs kept"
        )
    return status


def _refute(claim: Claim, left: list[str], journal: Journal, args: argparse.Namespace) -> int:
    """Refute the cubes of ``left`` in child processes, journaling each, a cube whose
    proof is too large to check split into its extensions; the exit status."""
    todo = [leaf for word in left for leaf in _unsettled(word, journal.done)]
    while todo:
        split: list[str] = []
        status = _round(claim, todo, split, journal, args)
        if status is not None:
            return status
        deepest = min(args.lines + MOST_SPLITS * SPLIT_LINES, _line_count(claim))
        if any(len(word) + SPLIT_LINES > deepest for word in split):
            print("not refuted: a proof is too large to check, and its cube is split no deeper")
            return 4
        todo = [extended for word in split for extended in _extensions(word)]
    return 0


def _round(
    claim: Claim, todo: list[str], split: list[str], journal: Journal, args: argparse.Namespace
) -> int | None:
    """Refute the words of ``todo`` in child processes, journaling each, and list in
    ``split`` those whose proof is too large to check (journaled as split); ``None``
    when every word was dealt with, else the exit status."""
    base = cube_formula(claim)
    cubes = [cube_of(claim, word) for word in todo]
    keep = args.proofs is not None
    jobs = [(base, claim.clauses, cube, keep) for cube in cubes]
    children = fan_out(refute_and_check, jobs, lambda: args.workers, lambda: _STOP["asked"])
    with closing(children) as done:
        for index, answer in done:
            word = todo[index]
            if answer is None and _STOP["asked"]:  # a stop sent to the group kills children
                break
            if answer is None:
                print(f"not refuted: the process proving cube {word} died (out of memory?)")
                return 4
            if answer == SATISFIABLE:
                print(f"REFUTED: cube {word} holds {_placement(claim, cubes[index])}")
                return 1
            if answer.fault is not None:
                print(f"rejected: cube {word}: the proof {answer.fault}")
                return 1
            if answer.unchecked:
                record = (answer.steps, answer.proving, 0.0, answer.proof, False)
                journal.record(word + SPLIT, *record)
                split.append(word)
                print(
                    f"cube {word}: split {SPLIT_LINES} lines deeper: the proof {answer.unchecked}"
                )
                continue
            if answer.packed is not None:
                try:
                    _write(args.proofs / f"{word}.drup.gz", answer.packed)
                except OSError as error:
                    print(f"sample-proofs: cannot keep a proof: {error}", file=sys.stderr)
                    return 2
            kept = answer.packed is not None
            journal.record(word, answer.steps, answer.proving, answer.checking, answer.proof, kept)
            print(
                f"cube {word}: {answer.steps:,} steps, {answer.proving:,.1f} s proving, "
                f"{answer.checking:,.1f} s checking",
                flush=True,
            )
    if any(word not in journal.done and word + SPLIT not in journal.done for word in todo):
        print(f"stopped: the cubes refuted so far are kept in {journal.path}")
        return 3
    return None


def _unsettled(word: str, done: Mapping[str, object]) -> list[str]:
    """The words still to refute for ``word``: itself, nothing when refuted, or, split
    before, what is left of its extensions."""
    if word in done:
        return []
    if word + SPLIT not in done:
        return [word]
    return [leaf for extended in _extensions(word) for leaf in _unsettled(extended, done)]


def _line_count(claim: Claim) -> int:
    """How many lines the formula labels (two armies: two label variables a line)."""
    return len(lex_order(claim.spec)) // 2 - claim.spec.squares


def _extensions(word: str) -> list[str]:
    """The cubes a cube splits into: every labelling of the next lines."""
    return [word + "".join(signs) for signs in itertools.product("10", repeat=SPLIT_LINES)]


def _claim(args: argparse.Namespace) -> Claim:
    """The formula the options describe; ``ValueError`` for a problem it cannot take or
    a file it cannot parse, ``OSError`` for one it cannot read, :class:`ListedFault`
    for a listed placement that is wrong."""
    if args.classes is not None:
        return listed_claim(args.classes)
    return bound_claim(args.n, args.optimum, args.white)


def listed_claim(path: Path) -> Claim:
    """ "Exactly m of each outside the classes listed in ``path``" (an optima file)."""
    listed = listed_formula(read_listing(path))
    statement = f"exactly {listed.m} of each on {listed.n}×{listed.n} outside the listed "
    statement += f"{listed.classes:,} classes"
    header = {"n": listed.n, "m": listed.m, "classes": listed.classes}
    return Claim(listed.spec, statement, listed.formula.variables, listed.clauses, header)


def bound_claim(n: int, optimum: int, white: int | None) -> Claim:
    """ "At least ``optimum`` + 1 of each", or "``white`` white and at least ``optimum``
    + 1 black", on n×n."""
    problem = beyond(n, False, optimum, white)
    spec = spec_of(problem)
    bounds = claim_bounds(spec, {"kind": "infeasible"})
    formula = refutation_formula(spec, bounds, confirmed_symmetries(spec, bounds))
    statement = f"{refuted_statement(spec, bounds)} on {n}×{n}"
    header = {"n": n, "white": white, "beyond": optimum + 1}
    clauses = [tuple(clause) for clause in formula.clauses]
    return Claim(spec, statement, formula.variables, clauses, header)


def cube_of(claim: Claim, word: str) -> list[int]:
    """The label literals of a cube's word: army 0's label of each line where the
    word says "1", its negation where "0", along the formula's order."""
    labels = lex_order(claim.spec)[: 2 * len(word) : 2]
    return [v if c == "1" else -v for v, c in zip(labels, word, strict=True)]


def cube_formula(claim: Claim) -> CubeFormula:
    """The claim's clauses as DIMACS lines, each cube's proof checked against them."""
    return CubeFormula.of_clauses(claim.variables, claim.clauses)


def _placement(claim: Claim, cube: list[int]) -> str:
    """The placement CaDiCaL finds in a satisfiable cube, in words."""
    from pysat.solvers import Solver

    with Solver(name="cadical195", bootstrap_with=claim.clauses) as solver:
        solver.solve(assumptions=cube)
        true = set(v for v in solver.get_model() or [] if v > 0)
    spec = claim.spec
    squares = [spec.square_of(s) for s in range(spec.squares)]
    armies = [
        " ".join(square_name(q) for q in squares if spec.var(a, q) in true)
        for a in range(len(spec.armies))
    ]
    return "; ".join(
        f"{army.name}: {found}" for army, found in zip(spec.armies, armies, strict=True)
    )


def _write(path: Path, data: bytes) -> None:
    """Write a file whole or not at all."""
    partial = path.with_name(path.name + ".part")
    partial.write_bytes(data)
    os.replace(partial, path)


def _stop(signum: int, frame: object) -> None:
    _STOP["asked"] = True


def _schema(lines: int) -> Schema:
    def valid(r: Proved) -> bool:
        return (
            natural(r.steps)
            and r.steps > 0
            and all(type(s) is float and s >= 0 for s in (r.proving, r.checking))
            and isinstance(r.proof, str)
            and len(r.proof) == 64
            and set(r.proof) <= set("0123456789abcdef")
            and type(r.kept) is bool
        )

    return Schema(
        key="cube",
        record=Proved,
        valid_key=lambda key: (
            lines <= len(key.removesuffix(SPLIT)) <= lines + MOST_SPLITS * SPLIT_LINES
            and set(key.removesuffix(SPLIT)) <= {"0", "1"}
        ),
        valid=valid,
        work="proof sample",
        unit="cube",
        redone="proved and checked again",
    )


def _fault(args: argparse.Namespace) -> str | None:
    """What is wrong with the options (``None``: nothing)."""
    if (args.classes is None) == (args.n is None):
        return "give -n (with --optimum) or --classes, not both"
    if args.classes is None:
        if args.optimum is None:
            return "-n needs --optimum"
        if not 2 <= args.n <= 32:
            return "-n is 2 to 32"
        if not 0 <= args.optimum < args.n * args.n:
            return f"--optimum is 0 to {args.n * args.n - 1}"
        if args.white is not None and not 0 <= args.white <= args.n * args.n:
            return f"--white is 0 to {args.n * args.n}"
    elif args.optimum is not None or args.white is not None:
        return "--classes takes neither --optimum nor --white"
    if not 1 <= args.lines <= MOST_LINES:
        return f"--lines is 1 to {MOST_LINES}"
    if args.sample < 1:
        return "--sample is at least 1"
    if not 0 <= args.seed < 2**32:
        return "--seed is 0 to 2^32 - 1"
    if not 1 <= args.workers <= 256:
        return "--workers is 1 to 256"
    return None


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=prog("sample-proofs"), description=__doc__.splitlines()[0]
    )
    parser.add_argument("-n", type=int, help="board side")
    parser.add_argument("--optimum", type=int, help="the claimed most M (M + 1 is refuted)")
    parser.add_argument("--white", type=int, help="W white queens fixed (A308632)")
    parser.add_argument("--classes", type=Path, help="a file written by the optima command")
    parser.add_argument("--lines", type=int, default=12, help="lines labelled per cube")
    parser.add_argument("--sample", type=int, required=True, help="cubes to refute")
    parser.add_argument("--seed", type=int, default=1, help="the shuffle's seed (default 1)")
    parser.add_argument("--workers", type=int, default=1, help="child processes at once")
    parser.add_argument("--proofs", type=Path, help="folder for the proofs small enough to keep")
    parser.add_argument("--journal", type=Path, required=True, help="refuted cubes, resumable")
    return parser.parse_args(argv)
