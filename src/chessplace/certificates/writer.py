"""Writing a certificate for a proven answer (the untrusted side).

The answer comes from whichever engine chessplace chose; this module adds
what a sceptic needs to check it without trusting that engine: the witness
placement, and for the refutation ("v+1 is impossible", or "no placement")
the certified formula of :mod:`chessplace.certificates.formula`, solved again
by Glucose 4 through PySAT with proof logging, and its DRUP proof. The
formula's lex-leader clauses come from the board's symmetries, each listed as
a variable permutation that the checker confirms before it uses it.
"""

from __future__ import annotations

import hashlib
import json
import platform
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from chessplace import __version__
from chessplace.certificates.formula import (
    claim_bounds,
    refutation_formula,
    rule_clauses,
    symmetry_fault,
)
from chessplace.certificates.spec import MAX_CERTIFIED_SIDE, ArmySpec, Spec
from chessplace.certificates.symmetries import symmetry_permutations
from chessplace.jsonio import placement_pieces
from chessplace.placement import Placement
from chessplace.problem import Problem, Sense
from chessplace.result import Result, Status

FORMAT = "chessplace-certificate/1"
PROOF_SOLVER = "glucose4"
WITNESS, FORMULA, PROOF, SYMMETRIES, MANIFEST = (
    "witness.json",
    "refutation.cnf",
    "refutation.drup",
    "symmetries.json",
    "manifest.json",
)


class CannotCertify(ValueError):
    """The answer or the problem is not one a certificate can be written for."""


class WrongAnswer(RuntimeError):
    """The certifying solver found a placement the engine said cannot exist."""


def spec_of(problem: Problem) -> Spec:
    """The problem as the checker reads it; :class:`CannotCertify` if it cannot."""
    board = problem.board
    if max(board.rows, board.cols) > MAX_CERTIFIED_SIDE:
        raise CannotCertify(f"certificates cover boards up to {MAX_CERTIFIED_SIDE} a side")
    if len({army.piece for army in problem.armies}) != 1:
        raise CannotCertify("certificates cover problems whose armies share one piece")
    return Spec(
        rows=board.rows,
        cols=board.cols,
        armies=tuple(
            ArmySpec(a.name, a.piece.betza, a.minimum, a.maximum, a.fixed) for a in problem.armies
        ),
        independent=problem.independent,
        dominating=problem.dominating,
        equal_armies=problem.equal_armies,
        maximize=problem.sense is Sense.MAXIMIZE,
    )


def claim_of(task: str, result: Result) -> dict[str, Any]:
    """What the answer claims: a placement exists, none does, or an optimum."""
    if task == "solve" and result.status in (Status.FEASIBLE, Status.INFEASIBLE):
        return {"kind": result.status.value}
    if task in ("optimize", "count") and result.objective is not None:
        proven = result.status is Status.OPTIMAL or (
            task == "count" and result.status is Status.COMPLETE
        )
        if proven:
            return {"kind": "optimum", "value": result.objective}
    raise CannotCertify(f"only proven answers are certified; this one is {result.status.value}")


def write_certificate(
    directory: Path, problem: Problem, task: str, result: Result, command: str
) -> str:
    """Write the certificate of ``result`` into ``directory``; returns a one-line summary."""
    started = time.perf_counter()
    claim = claim_of(task, result)
    spec = spec_of(problem)
    directory.mkdir(parents=True, exist_ok=True)
    files: dict[str, str] = {}
    manifest: dict[str, Any] = {
        "format": FORMAT,
        "command": command,
        "puzzle": problem.puzzle,
        "problem": spec.to_data(),
        "claim": claim,
        "answer": {
            "task": task,
            "status": result.status.value,
            "engine": result.solver,
            "seconds": round(result.seconds, 6),
        },
    }
    if task == "count":
        manifest["answer"]["count"] = result.count
        manifest["answer"]["note"] = "the count is not certified; the optimum it is taken at is"
    if claim["kind"] != "infeasible":
        placement = result.placement or _witness_at(problem, claim["value"])
        files[WITNESS] = _write_json(directory / WITNESS, _witness_json(placement))
        manifest["witness"] = {"file": WITNESS, "from": result.solver}
    if claim["kind"] != "feasible":
        manifest["refutation"] = _refute(directory, spec, claim, files)
    manifest["files"] = files
    manifest["versions"] = _versions()
    manifest["created"] = datetime.now(UTC).isoformat(timespec="seconds")
    manifest["seconds"] = {
        "answer": round(result.seconds, 6),
        "certificate": round(time.perf_counter() - started, 6),
    }
    _write_json(directory / MANIFEST, manifest)
    proof = manifest.get("refutation")
    extra = f", proof of {proof['proof_steps']:,} steps" if proof else ""
    return f"certificate written to {directory}{extra}"


def _witness_at(problem: Problem, value: int) -> Placement:
    """A placement reaching ``value``, when the answer carried none (a count)."""
    from chessplace import api

    exact = problem.without_counts().with_counts(exactly=value)
    found = api.solve(exact).placement
    if found is None:
        raise CannotCertify(f"no placement reaching {value} was found for the witness")
    return found


def _witness_json(placement: Placement) -> dict[str, Any]:
    problem = placement.problem
    return {
        "puzzle": problem.puzzle,
        "rows": problem.board.rows,
        "cols": problem.board.cols,
        "objective": placement.objective,
        "pieces": placement_pieces(placement),
    }


def _refute(
    directory: Path, spec: Spec, claim: dict[str, Any], files: dict[str, str]
) -> dict[str, Any]:
    """Write the formula, its proof and the symmetries used; the manifest's entry."""
    from pysat.solvers import Solver

    bounds = claim_bounds(spec, claim)
    rules = rule_clauses(spec)
    permutations = [
        p for p in symmetry_permutations(spec) if symmetry_fault(spec, rules, bounds, p) is None
    ]
    formula = refutation_formula(spec, bounds, permutations)
    started = time.perf_counter()
    with Solver(name=PROOF_SOLVER, bootstrap_with=formula.clauses, with_proof=True) as solver:
        if solver.solve():
            raise WrongAnswer(f"{PROOF_SOLVER} satisfies the refuted formula: the answer is wrong")
        proof = solver.get_proof()
    seconds = time.perf_counter() - started
    statement = "; ".join(bound.describe(spec) for bound in bounds) or "no counts"
    comments = [
        "chessplace certified formula: the rules, then the bounds, then lex-leader clauses",
        f"refuted: {statement}",
        f"variable 1 + army*{spec.squares} + rank*{spec.cols} + file: army on square",
    ]
    files[FORMULA] = _write_text(directory / FORMULA, formula.dimacs(comments))
    files[PROOF] = _write_text(directory / PROOF, "".join(line + "\n" for line in proof))
    files[SYMMETRIES] = _write_json(
        directory / SYMMETRIES, {"permutations": permutations}, indent=None
    )
    return {
        "statement": statement,
        "formula": FORMULA,
        "proof": PROOF,
        "proof_format": "DRUP (text)",
        "symmetries": SYMMETRIES,
        "solver": f"{PROOF_SOLVER} (python-sat), a separate run from the engine that answered",
        "variables": formula.variables,
        "clauses": len(formula.clauses),
        "proof_steps": len(proof),
        "seconds": round(seconds, 6),
    }


def _versions() -> dict[str, str]:
    versions = {"chessplace": __version__, "python": platform.python_version()}
    try:
        import pysat

        versions["python-sat"] = str(pysat.__version__)
    except ImportError:
        pass
    return versions


def _write_text(path: Path, text: str) -> str:
    data = text.encode("utf-8")
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def _write_json(path: Path, data: Any, indent: int | None = 1) -> str:
    return _write_text(path, json.dumps(data, indent=indent) + "\n")
