"""Proof-logging solves for a certificate, in child processes (untrusted side).

Each refutation (the whole formula, or one cube of it) is solved by Glucose 4
through PySAT with proof logging in a child process of its own, a few at a
time (one per core). The child writes its DRUP proof, gzipped, straight to
the certificate's directory and reports the number of steps. A stop or the time
limit of the run's :class:`~chessplace.runtime.control.Control` kills the children at
once (PySAT's solve cannot be interrupted from Python), and every child dies
with this process (:mod:`chessplace.runtime.lifeline`).
"""

from __future__ import annotations

import gzip
import time
from collections.abc import Sequence
from contextlib import closing
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chessplace.runtime.control import Control
from chessplace.runtime.lifeline import fan_out

PROOF_SOLVER = "glucose4"
POLL_SECONDS = 0.1


class StoppedProving(Exception):
    """A stop or the time limit came before every refutation was proved."""


class WrongAnswer(RuntimeError):
    """The certifying solver found a placement the engine said cannot exist."""


@dataclass(frozen=True)
class Job:
    """Refute ``clauses`` with the ``cube``'s literals as unit clauses, and write the
    proof to ``proof`` (the jobs of one formula share its clause list)."""

    clauses: Sequence[Sequence[int]]
    cube: Sequence[int]
    proof: Path


@dataclass(frozen=True)
class Proved:
    steps: int
    seconds: float


def prove_all(jobs: Sequence[Job], control: Control) -> list[Proved]:
    """Refute every job, at most ``control.cores()`` at once; the proofs' sizes and
    times in the jobs' order. :class:`StoppedProving` once ``control`` stops,
    :class:`WrongAnswer` if a formula is satisfiable."""
    proved: dict[int, Proved] = {}
    work = [(job.clauses, job.cube, str(job.proof)) for job in jobs]
    children = fan_out(_refute, work, control.cores, lambda: control.stopped, POLL_SECONDS)
    with closing(children) as done:
        for number, answer in done:
            if answer is not None and answer[0] == "sat":
                raise WrongAnswer(
                    f"{PROOF_SOLVER} satisfies a refuted formula: the answer is wrong"
                )
            if answer is None or answer[0] != "unsat":
                raise RuntimeError(f"the proof-logging {PROOF_SOLVER} process died")
            proved[number] = Proved(answer[1], answer[2])
    if len(proved) < len(jobs):
        raise StoppedProving
    return [proved[number] for number in range(len(jobs))]


def _refute(sender: Any, clauses: Sequence[Sequence[int]], cube: Sequence[int], proof: str) -> None:
    """In the child: solve, write the proof (ending in the empty clause), report."""
    started = time.perf_counter()
    steps = drup_steps(clauses, cube)
    if steps is None:
        sender.send(("sat",))
        return
    with gzip.open(proof, "wt", encoding="utf-8", compresslevel=6) as out:
        out.writelines(line + "\n" for line in steps)
    sender.send(("unsat", len(steps), time.perf_counter() - started))


def drup_steps(clauses: Sequence[Sequence[int]], cube: Sequence[int]) -> list[str] | None:
    """Glucose's DRUP proof, one step per line, that ``clauses`` with the cube's literals
    as unit clauses are unsatisfiable, ending in the empty clause; None when they are
    satisfiable."""
    from pysat.solvers import Solver

    with Solver(name=PROOF_SOLVER, bootstrap_with=clauses, with_proof=True) as solver:
        for literal in cube:
            solver.add_clause([literal])
        if solver.solve():
            return None
        steps = list(solver.get_proof() or [])
    if not steps or steps[-1].strip() != "0":
        steps.append("0")  # refuted by propagation alone: the empty clause is RUP
    return steps
