"""Certificates: written by ``--certificate``, judged by ``chessplace check``.

Proven answers on small boards pass; every kind of tampering is rejected
with a message naming the fault; the checker's modules import nothing from the
solving side; the certified cardinality encodings agree with brute force.
"""

from __future__ import annotations

import ast
import gzip
import importlib.util
import itertools
import json
import subprocess
import sys
from pathlib import Path

import pytest

import chessplace
from chessplace.certificates.checker.formula import Formula
from chessplace.faces.cli import main
from tests.certified import PROOF, rehash

pytest.importorskip("pysat", reason="certificates are written with python-sat")
checks_proofs = pytest.mark.skipif(
    importlib.util.find_spec("dratify") is None,
    reason="chessplace check needs dratify (the certify extra)",
)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def certify(capsys: pytest.CaptureFixture[str], directory: Path, *args: str) -> dict[str, object]:
    code, out, err = run(capsys, *args, "--certificate", str(directory), "--json")
    assert "certificate written" in err, err
    manifest = json.loads((directory / "manifest.json").read_text())
    if "objective" in json.loads(out):
        assert manifest["claim"] == {"kind": "optimum", "value": json.loads(out)["objective"]}
    assert code in (0, 1)
    return manifest


@checks_proofs
@pytest.mark.parametrize(
    ("args", "claim"),
    [
        (("optimize", "peaceable-queens", "-n", "5", "--solver", "sat"), 4),
        (("count", "peaceable-queens", "-n", "4", "--optimal"), 2),
        (("optimize", "dominating-queens", "-n", "5", "--solver", "sat"), 3),
        (("optimize", "independent", "--piece", "queen", "-n", "6"), 6),
        (("optimize", "independent", "--piece", "bishop", "-n", "4"), 6),
        (("solve", "queens", "-n", "3"), None),
        (("optimize", "queens", "-n", "3"), 2),
        (("optimize", "peaceable-queens", "-n", "3", "--armies", "8"), 0),
    ],
    ids=[
        "a(5)",
        "count a(4)",
        "gamma(Q5)",
        "queens 6",
        "bishops 4",
        "no 3 queens",
        "most queens on 3x3",
        "8 armies",
    ],
)
def test_proven_answers_are_certified(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: tuple[str, ...], claim: int | None
) -> None:
    manifest = certify(capsys, tmp_path, *args)
    expected = {"kind": "infeasible"} if claim is None else {"kind": "optimum", "value": claim}
    assert manifest["claim"] == expected
    code, out, _ = run(capsys, "check", str(tmp_path))
    assert code == 0, out
    assert out.startswith("certified: ") and out.count("\n") == 1
    assert "refuted: " in out


@checks_proofs
def test_a_found_placement_is_certified_by_its_witness(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    manifest = certify(capsys, tmp_path, "solve", "peaceable-queens", "-n", "6", "--at-least", "4")
    assert manifest["claim"] == {"kind": "feasible"} and "refutation" not in manifest
    code, out, _ = run(capsys, "check", str(tmp_path))
    assert code == 0 and "witness valid" in out and "refuted" not in out


@checks_proofs
def test_an_empty_placement_is_certified_by_its_witness(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """At most 8 a side asks for no piece: the empty placement is the answer and the
    witness (it was taken for no placement, and the writer failed with a traceback)."""
    certify(capsys, tmp_path, "solve", "peaceable-queens", "-n", "5", "--at-most", "8")
    code, out, _ = run(capsys, "check", str(tmp_path))
    assert code == 0 and "a placement exists, witness valid (0)" in out, out


def rejected(capsys: pytest.CaptureFixture[str], directory: Path) -> str:
    code, out, _ = run(capsys, "check", str(directory))
    assert code == 1, out
    assert out.startswith("rejected: ") and out.count("\n") == 1
    return out


def edit_lines(path: Path, change: object) -> None:
    """Rewrite a text file (gzipped when its name ends in .gz) line by line."""
    packed = path.suffix == ".gz"
    data = path.read_bytes()
    lines = (gzip.decompress(data) if packed else data).decode().splitlines()
    assert callable(change)
    text = ("\n".join(change(lines)) + "\n").encode()
    path.write_bytes(gzip.compress(text) if packed else text)


@checks_proofs
def test_the_copy_is_certified(capsys: pytest.CaptureFixture[str], copy: Path) -> None:
    assert run(capsys, "check", str(copy))[0] == 0


@checks_proofs
def test_a_tampered_witness_is_rejected(capsys: pytest.CaptureFixture[str], copy: Path) -> None:
    path = copy / "witness.json"
    witness = json.loads(path.read_text())
    white = next(p for p in witness["pieces"] if p["army"] == "white")
    black = next(p for p in witness["pieces"] if p["army"] == "black")
    white["file"], white["rank"], white["square"] = black["file"], black["rank"] + 1, "?"
    path.write_text(json.dumps(witness))
    assert "witness.json: SHA-256 differs" in rejected(capsys, copy)
    rehash(copy)
    out = rejected(capsys, copy)
    assert "witness witness.json" in out and "attacks" in out


def last_lemma(lines: list[str]) -> int:
    return max(i for i, line in enumerate(lines) if not line.startswith("d") and line != "0")


@checks_proofs
def test_a_deleted_proof_step_is_rejected(capsys: pytest.CaptureFixture[str], copy: Path) -> None:
    edit_lines(copy / PROOF, lambda ls: ls[: last_lemma(ls)] + ls[last_lemma(ls) + 1 :])
    rehash(copy)
    assert f"{PROOF}: step" in rejected(capsys, copy)


@checks_proofs
def test_an_edited_proof_step_is_rejected(capsys: pytest.CaptureFixture[str], copy: Path) -> None:
    def negate_first(lines: list[str]) -> list[str]:
        first = next(i for i, line in enumerate(lines) if not line.startswith("d"))
        literals = lines[first].split()
        literals[0] = str(-int(literals[0]))
        return [*lines[:first], " ".join(literals), *lines[first + 1 :]]

    edit_lines(copy / PROOF, negate_first)
    rehash(copy)
    assert f"{PROOF}: step 1 " in rejected(capsys, copy)


@checks_proofs
def test_a_proof_without_the_empty_clause_is_rejected(
    capsys: pytest.CaptureFixture[str], copy: Path
) -> None:
    edit_lines(copy / PROOF, lambda ls: [line for line in ls if line != "0"])
    rehash(copy)
    assert "never derives the empty clause" in rejected(capsys, copy)


@checks_proofs
def test_a_proof_that_differs_from_its_hash_is_rejected(
    capsys: pytest.CaptureFixture[str], copy: Path
) -> None:
    edit_lines(copy / PROOF, lambda ls: ["1 0", *ls])
    assert f"{PROOF}: SHA-256 differs from the manifest" in rejected(capsys, copy)


@checks_proofs
def test_a_file_name_too_long_to_open_is_rejected(
    capsys: pytest.CaptureFixture[str], copy: Path
) -> None:
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["files"]["x" * 300] = "0" * 64
    (copy / "manifest.json").write_text(json.dumps(manifest))
    assert "cannot be read" in rejected(capsys, copy)


@checks_proofs
def test_a_dropped_proof_file_is_rejected(capsys: pytest.CaptureFixture[str], copy: Path) -> None:
    (copy / PROOF).unlink()
    assert f"{PROOF} is missing" in rejected(capsys, copy)


@checks_proofs
def test_a_wrong_symmetry_is_rejected(capsys: pytest.CaptureFixture[str], copy: Path) -> None:
    path = copy / "symmetries.json"
    data = json.loads(path.read_text())
    first = data["permutations"][0]
    first[0], first[1] = first[1], first[0]  # still a permutation, no longer a symmetry
    path.write_text(json.dumps(data))
    rehash(copy)
    assert "symmetry 1 is not a symmetry of the formula" in rejected(capsys, copy)


def test_too_many_symmetries_are_rejected(capsys: pytest.CaptureFixture[str], copy: Path) -> None:
    path = copy / "symmetries.json"
    data = json.loads(path.read_text())
    data["permutations"] = data["permutations"][:1] * 1025
    path.write_text(json.dumps(data))
    rehash(copy)
    assert "symmetries: more than 1024 permutations" in rejected(capsys, copy)


@checks_proofs
def test_a_shipped_formula_that_differs_is_rejected(
    capsys: pytest.CaptureFixture[str], copy: Path
) -> None:
    edit_lines(copy / "refutation.cnf", lambda ls: ls[:-1])
    rehash(copy)
    assert "refutation.cnf differs from the formula regenerated" in rejected(capsys, copy)


@checks_proofs
def test_a_raised_claim_is_rejected(capsys: pytest.CaptureFixture[str], copy: Path) -> None:
    manifest = json.loads((copy / "manifest.json").read_text())
    manifest["claim"]["value"] = 5
    (copy / "manifest.json").write_text(json.dumps(manifest))
    assert "reaches 4, the claim is 5" in rejected(capsys, copy)


def test_no_certificate_is_bad_usage(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "check", str(tmp_path / "absent"))
    assert code == 2 and err.count("\n") == 1 and "no such directory" in err
    code, _, err = run(capsys, "check", str(tmp_path))
    assert code == 2 and "not a certificate" in err


def test_a_plain_count_is_not_certified(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, _, err = run(capsys, "count", "queens", "-n", "5", "--certificate", str(tmp_path / "c"))
    assert code == 2 and "--optimal" in err
    assert not (tmp_path / "c").exists()


NEUTRAL = {"chessplace.runtime.lifeline"}  # keeps worker processes from outliving the checker


def test_the_checker_imports_nothing_from_the_solving_side() -> None:
    folder = Path(chessplace.__file__).parent / "certificates" / "checker"
    for path in folder.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        modules = {
            node.module
            for node in ast.walk(tree)
            if isinstance(node, ast.ImportFrom) and node.module
        } | {
            alias.name
            for node in ast.walk(tree)
            if isinstance(node, ast.Import)
            for alias in node.names
        }
        ours = {m for m in modules if m.startswith("chessplace")}
        trusted = {m for m in ours if m.startswith("chessplace.certificates.checker")}
        assert ours - trusted <= NEUTRAL, (path.name, ours)


def test_the_checker_runs_without_the_engines_in_its_process() -> None:
    """``import chessplace`` loads nothing until asked, so the checker's process holds no
    engine, encoding or solver library."""
    probe = (
        "import sys, chessplace.certificates.checker.verdict;"
        "print(' '.join(sorted(m for m in sys.modules if m.startswith('chessplace')"
        " or m in ('numba', 'ortools', 'pysat', 'dask'))))"
    )
    loaded = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True
    ).stdout.split()
    assert "chessplace.certificates.checker.verdict" in loaded
    solving = ("chessplace.api", "chessplace.engines", "chessplace.encodings", "numba", "ortools")
    assert not [m for m in loaded if m.startswith(solving) or m in ("pysat", "dask")], loaded


@pytest.mark.parametrize("size", range(1, 6))
def test_the_counting_clauses_agree_with_brute_force(size: int) -> None:
    from pysat.solvers import Solver

    items = list(range(1, size + 1))
    for k in range(-1, size + 2):
        for way in ("at_least", "at_most"):
            formula = Formula(size)
            getattr(formula, way)(items, k)
            with Solver(name="glucose4", bootstrap_with=formula.clauses) as solver:
                for values in itertools.product((False, True), repeat=size):
                    fixed = [v if on else -v for v, on in zip(items, values, strict=True)]
                    want = sum(values) >= k if way == "at_least" else sum(values) <= k
                    assert solver.solve(assumptions=fixed) == want, (way, k, values)


@checks_proofs
def test_a_tampered_line_variable_clause_is_rejected(
    capsys: pytest.CaptureFixture[str], copy: Path
) -> None:
    placement = 2 * 25  # a(5): two armies on 25 squares, then the line variables

    def weaken(lines: list[str]) -> list[str]:
        at = next(
            i
            for i, line in enumerate(lines)
            if line[0] not in "cp" and len(line.split()) == 3 and int(line.split()[1]) > placement
        )
        return [*lines[:at], *lines[at + 1 :]]

    edit_lines(copy / "refutation.cnf", weaken)
    rehash(copy)
    assert "refutation.cnf differs from the formula regenerated" in rejected(capsys, copy)


@checks_proofs
def test_a_symmetry_that_misplaces_line_variables_is_rejected(
    capsys: pytest.CaptureFixture[str], copy: Path
) -> None:
    path = copy / "symmetries.json"
    data = json.loads(path.read_text())
    first = data["permutations"][0]
    first[50], first[52] = first[52], first[50]  # white's lines 0 and 1 swapped
    path.write_text(json.dumps(data))
    rehash(copy)
    assert "symmetry 1 is not a symmetry of the formula" in rejected(capsys, copy)


def test_the_line_variables_allow_exactly_the_peaceable_placements() -> None:
    """Random placements of two queen armies on 4×4: the rules with line variables
    are satisfiable under them exactly when the checker's own attack rules accept them."""
    import random

    from pysat.solvers import Solver

    from chessplace.certificates.checker.formula import ride_lines, rule_clauses
    from chessplace.certificates.checker.spec import ArmySpec, Spec
    from chessplace.certificates.checker.witness import witness_fault

    armies = tuple(ArmySpec(name, "Q", 0, None, False) for name in ("white", "black"))
    spec = Spec(4, 4, armies, False, False, False, True)
    assert len(ride_lines(spec)) == 4 + 4 + 5 + 5
    chance = random.Random(12)
    seen = {True: 0, False: 0}
    with Solver(name="glucose4", bootstrap_with=rule_clauses(spec)) as solver:
        for _ in range(400):
            squares = chance.sample(range(16), chance.randint(1, 6))
            cut = chance.randint(0, len(squares))
            placed = [
                {spec.square_of(s): None for s in part} for part in (squares[:cut], squares[cut:])
            ]
            units = [spec.var(a, sq) for a in range(2) for sq in placed[a]]
            units += [
                -spec.var(a, spec.square_of(s))
                for a in range(2)
                for s in range(16)
                if spec.square_of(s) not in placed[a]
            ]
            valid = witness_fault(spec, placed) is None
            assert solver.solve(assumptions=units) == valid, placed
            seen[valid] += 1
    assert min(seen.values()) > 20


@pytest.fixture
def split_a6(
    tmp_path_factory: pytest.TempPathFactory,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> Path:
    """A certificate of a(6) = 5 split into cubes along the line engine's tree, as
    boards from 8×8 are."""
    from chessplace.certificates.writer import cubes

    monkeypatch.setattr(cubes, "SPLIT_FROM_SIDE", 6)
    directory = tmp_path_factory.mktemp("a6")
    assert main(["optimize", "peaceable-queens", "-n", "6", "--certificate", str(directory)]) == 0
    capsys.readouterr()
    return directory


@checks_proofs
def test_cubes_are_certified_and_a_dropped_cube_is_rejected(
    capsys: pytest.CaptureFixture[str], split_a6: Path
) -> None:
    code, out, _ = run(capsys, "check", str(split_a6))
    manifest = json.loads((split_a6 / "manifest.json").read_text())
    proofs = manifest["refutation"]["proofs"]
    assert code == 0 and f"{len(proofs)} cubes covering all" in out, out
    assert len(proofs) > 4 and all(len(proof["cube"]) == 4 for proof in proofs[-2:])
    dropped = proofs.pop(len(proofs) // 2)
    del manifest["files"][dropped["proof"]]
    (split_a6 / "manifest.json").write_text(json.dumps(manifest))
    out = rejected(capsys, split_a6)
    assert "cover: cover.drup.gz step" in out and "may leave a gap" in out


@checks_proofs
@pytest.mark.parametrize("cores", [1, 2])
def test_each_proof_is_hashed_when_it_is_read_for_checking(
    capsys: pytest.CaptureFixture[str],
    split_a6: Path,
    monkeypatch: pytest.MonkeyPatch,
    cores: int,
) -> None:
    """A proof changed after the checker listed the files is caught where it is
    read: in the checker itself on one core, in the proof's child process on two."""
    from chessplace.certificates.checker import verdict as check

    monkeypatch.setattr(check.os, "sched_getaffinity", lambda pid: set(range(cores)))
    proofs = json.loads((split_a6 / "manifest.json").read_text())["refutation"]["proofs"]
    victim = proofs[len(proofs) // 2]["proof"]
    listing = check._Files.__init__

    def list_then_tamper(self: object, directory: Path, files: object) -> None:
        listing(self, directory, files)  # type: ignore[arg-type]
        edit_lines(directory / victim, lambda lines: ["1 0", *lines])

    monkeypatch.setattr(check._Files, "__init__", list_then_tamper)
    assert f"{victim}: SHA-256 differs from the manifest" in rejected(capsys, split_a6)


@checks_proofs
def test_a_relabelled_cube_is_rejected(capsys: pytest.CaptureFixture[str], split_a6: Path) -> None:
    """A cube's last line given the other army's label: either its proof no longer
    refutes it, or the cube it was has no proof left, and the cover says so."""
    manifest = json.loads((split_a6 / "manifest.json").read_text())
    proofs = manifest["refutation"]["proofs"]
    last = proofs[-1]["cube"]
    white = (last[-1] - 1) % 2 == 0  # label variables: white's, then black's, per line
    last[-1] += 1 if white else -1
    (split_a6 / "manifest.json").write_text(json.dumps(manifest))
    out = rejected(capsys, split_a6)
    assert f"{proofs[-1]['proof']}: step" in out or "cover: cover.drup.gz step" in out


@checks_proofs
def test_a_damaged_cover_proof_is_rejected(
    capsys: pytest.CaptureFixture[str], split_a6: Path
) -> None:
    edit_lines(split_a6 / "cover.drup.gz", lambda ls: ls[-1:])  # the empty clause alone
    rehash(split_a6)
    assert "cover: cover.drup.gz step" in rejected(capsys, split_a6)
    (split_a6 / "cover.drup.gz").write_bytes(b"not gzip")
    rehash(split_a6)
    assert "cover: cover.drup.gz is not valid gzip data" in rejected(capsys, split_a6)


@checks_proofs
def test_a_cube_naming_no_variable_is_rejected(
    capsys: pytest.CaptureFixture[str], split_a6: Path
) -> None:
    manifest = json.loads((split_a6 / "manifest.json").read_text())
    manifest["refutation"]["proofs"][0]["cube"] = [10**9]
    (split_a6 / "manifest.json").write_text(json.dumps(manifest))
    assert "cube 1 is not a list of placement and line literals" in rejected(capsys, split_a6)


@checks_proofs
@pytest.mark.parametrize(
    ("args", "claim"),
    [
        (("optimize", "peaceable-queens", "-n", "8"), {"kind": "optimum", "value": 9}),
        (("solve", "peaceable-queens", "-n", "8", "--at-least", "10"), {"kind": "infeasible"}),
        (
            ("optimize", "peaceable-queens", "-n", "8", "--white", "9"),
            {"kind": "optimum", "value": 10},
        ),
        (
            ("solve", "peaceable-queens", "-n", "8", "--white", "9", "--at-least", "11"),
            {"kind": "infeasible"},
        ),
    ],
    ids=["a(8) = 9", "no 10 on 8x8", "10 black beside 9 white", "no 11 beside 9 white"],
)
def test_eight_by_eight_is_cut_along_the_line_engine_tree(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: tuple[str, ...], claim: object
) -> None:
    manifest = certify(capsys, tmp_path, *args)
    assert manifest["claim"] == claim
    refutation = manifest["refutation"]
    assert refutation["cover"] == "cover.drup.gz" and len(refutation["proofs"]) > 4
    assert max(len(proof["cube"]) for proof in refutation["proofs"]) == 4  # rank/file labels
    code, out, _ = run(capsys, "check", str(tmp_path))
    assert code == 0 and f"{len(refutation['proofs'])} cubes covering all" in out, out
