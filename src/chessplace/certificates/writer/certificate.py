"""Writing a certificate for a proven answer (the untrusted side).

The answer comes from whichever engine chessplace chose; this module adds
what a sceptic needs to check it without trusting that engine: the witness
placement, and for the refutation ("v+1 is impossible", or "no placement")
the certified formula of :mod:`chessplace.certificates.checker.formula`, solved again
by Glucose 4 through PySAT with proof logging, and its DRUP proof. The
formula's lex-leader clauses come from the board's symmetries, each listed as
a variable permutation that the checker confirms before it uses it. Large
peaceable formulas are split into cubes along the top of the line engine's
search tree (:mod:`.cubes`), refuted one per core (:mod:`.proving`).

The certificate is written into a staging directory beside the one named and
renamed into place once its manifest is written, so a run that stops or fails
leaves the named directory as it was, and it never holds a certificate that
looks complete but is not.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import platform
import shutil
import time
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from chessplace import __version__
from chessplace.certificates.checker.formula import (
    claim_bounds,
    refutation_comments,
    refutation_formula,
    refuted_statement,
)
from chessplace.certificates.checker.spec import MAX_CERTIFIED_SIDE, ArmySpec, CountSpec, Spec
from chessplace.certificates.writer.cubes import cover_proof, tree_cubes
from chessplace.certificates.writer.directory import (
    put_in_place,
    staging_beside,
    unusable_directory,
)
from chessplace.certificates.writer.proving import (
    PROOF_SOLVER,
    Job,
    StoppedProving,
    prove_all,
)
from chessplace.certificates.writer.symmetries import confirmed_symmetries
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem, Sense
from chessplace.core.result import Result, Status
from chessplace.forms.jsonio import placement_pieces
from chessplace.runtime.control import Control

FORMAT = "chessplace-certificate/3"
WITNESS, FORMULA, SYMMETRIES, COVER, MANIFEST = (
    "witness.json",
    "refutation.cnf",
    "symmetries.json",
    "cover.drup.gz",
    "manifest.json",
)


class CannotCertify(ValueError):
    """The answer or the problem is not one a certificate can be written for."""


def spec_of(problem: Problem) -> Spec:
    """The problem as the checker reads it; :class:`CannotCertify` if it cannot."""
    board = problem.board
    if problem.regions is not None:
        raise CannotCertify("certificates do not cover region puzzles yet")
    if problem.board.shape.joined:
        raise CannotCertify(f"certificates do not cover {problem.board.shape} boards yet")
    if problem.pawns or problem.free_pawns:
        raise CannotCertify(
            "certificates do not cover pawns yet: they cut rides, which the certified formula "
            "does not model"
        )
    if problem.dominated is not None:
        raise CannotCertify("certificates do not cover domination of listed squares yet")
    if max(board.rows, board.cols) > MAX_CERTIFIED_SIDE:
        raise CannotCertify(f"certificates cover boards up to {MAX_CERTIFIED_SIDE} a side")
    if not problem.one_way and len({army.piece for army in problem.armies}) != 1:
        raise CannotCertify(
            "certificates cover problems whose armies share one piece (or that state which "
            "armies may attack which)"
        )
    if problem.equal_armies and problem.sense is Sense.MINIMIZE and len(problem.armies) > 1:
        raise CannotCertify("certificates cover equal armies when maximising")
    count = len(problem.armies)
    no_attack = None
    if problem.one_way:
        no_attack = tuple(
            (a, b) for a in range(count) for b in range(count) if a != b and problem.forbids(a, b)
        )
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
        blocked=problem.blocked,
        given=frozenset(
            (index, square)
            for index in range(len(problem.armies))
            for square in problem.given_of(index)
        ),
        counts=tuple(
            CountSpec(
                group.army,
                tuple(sorted(group.squares, key=lambda s: (s[1], s[0]))),
                group.rule.at_least,
                group.rule.at_most,
            )
            for group in problem.count_groups
        ),
        no_attack=no_attack,
        cover=problem.cover if problem.dominating else (1, None),
    )


def claim_of(task: str, result: Result) -> dict[str, Any]:
    """What the answer claims: a placement exists, none does (given pieces that attack
    each other leave ``optimize`` nothing to maximise), or an optimum."""
    if task == "solve" and result.status is Status.FEASIBLE:
        return {"kind": result.status.value}
    if task in ("solve", "optimize") and result.status is Status.INFEASIBLE:
        return {"kind": result.status.value}
    if task in ("optimize", "count") and result.objective is not None:
        proven = result.status is Status.OPTIMAL or (
            task == "count" and result.status is Status.COMPLETE
        )
        if proven:
            return {"kind": "optimum", "value": result.objective}
    raise CannotCertify(f"only proven answers are certified; this one is {result.status.value}")


def write_certificate(
    directory: Path,
    problem: Problem,
    task: str,
    result: Result,
    command: str,
    control: Control | None = None,
) -> str:
    """Write the certificate of ``result`` into ``directory``; returns a one-line summary.

    The files are written into a staging directory beside ``directory`` and put in
    its place only once the manifest is written, so a stop of ``control``
    (:class:`~.proving.StoppedProving`) or any failure leaves ``directory`` as it
    was, an earlier certificate there included. ``directory`` must be new, empty, or
    hold a certificate and nothing else (:func:`unusable_directory`)."""
    claim_of(task, result)  # CannotCertify before anything is written
    if task == "optimize":  # it maximises over free counts, as every engine does
        problem = problem.without_counts()
    spec_of(problem)
    fault = unusable_directory(directory)
    if fault:
        raise CannotCertify(fault)
    target = directory.resolve()
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = staging_beside(target)
    try:
        details = _write(staging, problem, task, result, command, control or Control(), {})
        put_in_place(staging, target)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return f"certificate written to {directory}{details}"


def _write(
    directory: Path,
    problem: Problem,
    task: str,
    result: Result,
    command: str,
    control: Control,
    files: dict[str, str],
) -> str:
    started = time.perf_counter()
    claim = claim_of(task, result)
    spec = spec_of(problem)
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
        placement = result.placement  # empty, and so false, where no piece is needed
        if placement is None:
            placement = _witness_at(problem, claim["value"], control)
        files[WITNESS] = _write_json(directory / WITNESS, _witness_json(placement))
        manifest["witness"] = {"file": WITNESS, "from": result.solver}
    if claim["kind"] != "feasible":
        manifest["refutation"] = _refute(directory, problem, spec, claim, files, control)
    manifest["files"] = files
    manifest["versions"] = _versions()
    manifest["created"] = datetime.now(UTC).isoformat(timespec="seconds")
    manifest["seconds"] = {
        "answer": round(result.seconds, 6),
        "certificate": round(time.perf_counter() - started, 6),
    }
    files[MANIFEST] = _write_json(directory / MANIFEST, manifest)
    refutation = manifest.get("refutation")
    extra = ""
    if refutation:
        proofs = len(refutation["proofs"])
        extra = f", {proofs} proofs" if proofs > 1 else ", proof"
        extra += f" of {refutation['proof_steps']:,} steps"
    return extra


def _witness_at(problem: Problem, value: int, control: Control) -> Placement:
    """A placement reaching ``value``, when the answer carried none (a count)."""
    from chessplace import api

    exact = problem.without_counts().with_counts(exactly=value)
    found = api.solve(exact, control=control).placement
    if control.stopped:
        raise StoppedProving
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
    directory: Path,
    problem: Problem,
    spec: Spec,
    claim: dict[str, Any],
    files: dict[str, str],
    control: Control,
) -> dict[str, Any]:
    """Write the formula, its proofs (one per cube), the cover proof and the symmetries
    used; the manifest's entry."""
    bounds = claim_bounds(spec, claim)
    permutations = confirmed_symmetries(spec, bounds)
    formula = refutation_formula(spec, bounds, permutations)
    cubes = tree_cubes(problem, spec, _target(spec, claim), control) or [[]]
    names = (
        [f"refutation-{i:04d}.drup.gz" for i in range(len(cubes))]
        if len(cubes) > 1
        else ["refutation.drup.gz"]
    )
    jobs = [
        Job(formula.clauses, cube, directory / name)
        for cube, name in zip(cubes, names, strict=True)
    ]
    files.update(dict.fromkeys(names, ""))  # removed on failure even before they are hashed
    started = time.perf_counter()
    proved = prove_all(jobs, control)
    seconds = time.perf_counter() - started
    for name in names:
        files[name] = hashlib.sha256((directory / name).read_bytes()).hexdigest()
    statement = refuted_statement(spec, bounds)
    comments = refutation_comments(spec, bounds)
    files[FORMULA] = _write_text(directory / FORMULA, formula.dimacs(comments))
    files[SYMMETRIES] = _write_json(
        directory / SYMMETRIES, {"permutations": permutations}, indent=None
    )
    entry: dict[str, Any] = {
        "statement": statement,
        "formula": FORMULA,
        "symmetries": SYMMETRIES,
        "proofs": [
            {"cube": cube, "proof": name, "steps": p.steps, "seconds": round(p.seconds, 6)}
            for cube, name, p in zip(cubes, names, proved, strict=True)
        ],
        "proof_format": "DRUP (text, gzipped), each against the formula with its cube as units",
        "solver": f"{PROOF_SOLVER} (python-sat), a separate run from the engine that answered",
        "variables": formula.variables,
        "clauses": len(formula.clauses),
        "proof_steps": sum(p.steps for p in proved),
        "seconds": round(seconds, 6),
    }
    if len(cubes) > 1:
        files[COVER] = _write_gzip(directory / COVER, cover_proof(cubes))
        entry["cover"] = COVER
        entry["cubes_from"] = "the lines engine's search tree, down to its rank and file labels"
    return entry


def _target(spec: Spec, claim: dict[str, Any]) -> int:
    """The target of the line engine's tree: one past the optimum, or when no placement
    exists the largest army minimum (beside a fixed white army, the black one's: the
    engine's targets count black there)."""
    if claim["kind"] == "optimum":
        return int(claim["value"]) + 1
    if len(spec.armies) == 2 and spec.armies[0].fixed and not spec.equal_armies:
        return spec.armies[1].minimum
    return max(army.minimum for army in spec.armies)


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


def _write_gzip(path: Path, text: str) -> str:
    data = gzip.compress(text.encode("utf-8"), compresslevel=6)
    path.write_bytes(data)
    return hashlib.sha256(data).hexdigest()


def _write_json(path: Path, data: Any, indent: int | None = 1) -> str:
    return _write_text(path, json.dumps(data, indent=indent) + "\n")
