"""Certificates of problems with blocked squares and given pieces.

The manifest lists the position; the checker reads it strictly (one verdict line
for every malformed entry), regenerates the formula with it and holds the witness
to it; the writer offers only the symmetries that keep it. Forgeries of the
position are rejected.
"""

from __future__ import annotations

import importlib.util
import json
import random
import shutil
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from chessplace import Board, puzzles
from chessplace.certificates.checker.formula import (
    claim_bounds,
    lex_order,
    refutation_formula,
    rule_clauses,
    symmetry_fault,
)
from chessplace.certificates.checker.spec import Spec, SpecError
from chessplace.certificates.checker.witness import witness_fault
from chessplace.certificates.writer import cubes
from chessplace.certificates.writer.certificate import spec_of
from chessplace.certificates.writer.symmetries import (
    confirmed_symmetries,
    symmetry_permutations,
)
from chessplace.core.pieces import KNIGHT
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.faces.cli import main
from chessplace.notation.position import with_position
from chessplace.runtime.control import Control
from tests.certified import manifest_of, rehash, seal

pytest.importorskip("pysat", reason="certificates are written with python-sat")
checks_proofs = pytest.mark.skipif(
    importlib.util.find_spec("dratify") is None,
    reason="chessplace check needs dratify (the certify extra)",
)

PEACEABLE = ("optimize", "peaceable-queens", "-n", "6", "--blocked", "a1,c3,f5", "--given", "Qd1")
"""Peaceable queens on 6×6 with three blocked squares and a given white queen: 5."""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def verdict(capsys: pytest.CaptureFixture[str], directory: Path) -> tuple[int, str]:
    code, out, err = run(capsys, "check", str(directory))
    assert out.count("\n") == 1 and not err, (out, err)
    return code, out


@pytest.fixture(scope="module")
def positioned(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The certificate of :data:`PEACEABLE`, written once per module."""
    directory = tmp_path_factory.mktemp("positioned")
    assert main([*PEACEABLE, "--certificate", str(directory)]) == 0
    return directory


@pytest.fixture
def forged(positioned: Path, tmp_path: Path) -> Path:
    """A copy of the :data:`PEACEABLE` certificate to tamper with."""
    return Path(shutil.copytree(positioned, tmp_path / "certificate"))


@checks_proofs
def test_an_optimum_with_blocked_squares_and_a_given_piece_is_certified(
    capsys: pytest.CaptureFixture[str], positioned: Path
) -> None:
    problem = manifest_of(positioned)["problem"]
    assert problem["blocked"] == ["a1", "c3", "f5"]
    assert problem["given"] == [{"piece": "WWFF", "army": "white", "square": "d1"}]
    code, out = verdict(capsys, positioned)
    assert code == 0, out
    assert out.startswith("certified: 6×6 flat board (blocked a1 c3 f5; white given d1); ")
    assert "the maximum is 5, witness valid (5), refuted: " in out


@checks_proofs
@pytest.mark.parametrize(
    ("task", "code", "claim", "stated"),
    [
        ("solve", 1, {"kind": "infeasible"}, "no placement exists"),
        ("optimize", 0, {"kind": "optimum", "value": 7}, "the maximum is 7"),
    ],
)
def test_given_queens_that_leave_no_eight_are_certified(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    task: str,
    code: int,
    claim: dict[str, Any],
    stated: str,
) -> None:
    """Queens on a1 and c2 do not attack each other, yet no eight queens hold them."""
    answered, _, err = run(
        capsys, task, "queens", "-n", "8", "--given", "Qa1,Qc2", "--certificate", str(tmp_path)
    )
    assert answered == code and "certificate written" in err, err
    assert manifest_of(tmp_path)["claim"] == claim
    checked, out = verdict(capsys, tmp_path)
    assert checked == 0, out
    assert "(white given a1 c2)" in out and stated in out, out


@checks_proofs
def test_given_pieces_that_attack_each_other_leave_optimize_a_certified_no(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    args = ("optimize", "peaceable-queens", "-n", "5", "--given", "Qa1,qe5")
    answered, _, err = run(capsys, *args, "--certificate", str(tmp_path))
    assert answered == 1 and "certificate written" in err, err
    assert manifest_of(tmp_path)["claim"] == {"kind": "infeasible"}
    checked, out = verdict(capsys, tmp_path)
    assert checked == 0 and "no placement exists, refuted: the rules alone" in out, out


@checks_proofs
def test_a_blocked_square_removed_from_the_manifest_is_rejected(
    capsys: pytest.CaptureFixture[str], forged: Path
) -> None:
    manifest = manifest_of(forged)
    manifest["problem"]["blocked"].remove("c3")
    seal(forged, manifest)
    code, out = verdict(capsys, forged)
    assert code == 1 and "refutation.cnf differs from the formula regenerated" in out, out


@checks_proofs
def test_a_blocked_square_added_to_the_manifest_is_rejected(
    capsys: pytest.CaptureFixture[str], forged: Path
) -> None:
    witness = json.loads((forged / "witness.json").read_text())
    used = {piece["square"] for piece in witness["pieces"]}
    manifest = manifest_of(forged)
    free = next(name for name in ("b2", "e4", "f6", "a6", "e2") if name not in used)
    under = sorted(used - {"d1"})[0]
    for added, fault in (
        (free, "differs from the formula regenerated"),
        (under, f"{under} stands on a blocked square"),
    ):
        problem = manifest["problem"]
        blocked = sorted({*problem["blocked"], added}, key=lambda name: (name[1:], name[0]))
        seal(forged, {**manifest, "problem": {**problem, "blocked": blocked}})
        code, out = verdict(capsys, forged)
        assert code == 1 and fault in out, (added, out)


@checks_proofs
def test_a_given_piece_moved_in_the_manifest_is_rejected(
    capsys: pytest.CaptureFixture[str], forged: Path
) -> None:
    witness = json.loads((forged / "witness.json").read_text())
    white = {piece["square"] for piece in witness["pieces"] if piece["army"] == "white"}
    manifest = manifest_of(forged)
    for square in ("d1", "b6", "c6", "d6", "e6"):  # to an empty square, or a white one
        if square != "d1" and square not in white:
            break
    given = manifest["problem"]["given"][0]
    given["square"] = square
    seal(forged, manifest)
    code, out = verdict(capsys, forged)
    assert code == 1 and f"witness witness.json: the given white {square} is missing" in out, out
    given["square"] = sorted(white - {"d1"})[0]
    seal(forged, manifest)
    code, out = verdict(capsys, forged)
    assert code == 1 and "differs from the formula regenerated" in out, out


@checks_proofs
@pytest.mark.parametrize(
    ("change", "fault"),
    [
        ("onto a1", "witness witness.json: white a1 stands on a blocked square"),
        ("drop d1", "witness witness.json: the given white d1 is missing"),
    ],
)
def test_a_witness_off_the_position_is_rejected(
    capsys: pytest.CaptureFixture[str], forged: Path, change: str, fault: str
) -> None:
    path = forged / "witness.json"
    witness = json.loads(path.read_text())
    pieces = witness["pieces"]
    if change == "drop d1":
        witness["pieces"] = [p for p in pieces if p["square"] != "d1"]
    else:
        moved = next(p for p in pieces if p["army"] == "white" and p["square"] != "d1")
        moved.update(square="a1", file=1, rank=1)
    path.write_text(json.dumps(witness))
    rehash(forged)
    code, out = verdict(capsys, forged)
    assert code == 1 and fault in out, out


@checks_proofs
def test_a_symmetry_that_moves_the_position_is_rejected(
    capsys: pytest.CaptureFixture[str], forged: Path
) -> None:
    """Listing a board symmetry of the bare 6×6 board, with the formula regenerated to
    match: the checker finds it maps the blocked squares' unit clauses away."""
    manifest = manifest_of(forged)
    spec = Spec.from_data(manifest["problem"])
    bare = symmetry_permutations(replace(spec, blocked=frozenset(), given=frozenset()))
    assert not symmetry_permutations(spec) and bare
    (forged / "symmetries.json").write_text(json.dumps({"permutations": bare[:1]}))
    formula = refutation_formula(spec, claim_bounds(spec, manifest["claim"]), bare[:1])
    (forged / "refutation.cnf").write_text(formula.dimacs())
    rehash(forged)
    code, out = verdict(capsys, forged)
    assert code == 1 and "symmetry 1 is not a symmetry of the formula" in out, out


def problem_of(puzzle: Problem, blocked: str | None, given: str | None) -> Problem:
    return with_position(puzzle, blocked=blocked, given=given)


@pytest.mark.parametrize(
    ("blocked", "given", "offered"),
    [
        ("a1,c3,f5", "Qd1", 0),
        ("a1,f6", None, 7),  # the main diagonal, the half turn, the other diagonal × colours
        ("c4,d3", "Qa2,qf5", 1),  # the half turn with the colours swapped
        (None, "Qa1,qf6", 3),  # the diagonal; the half turn and the other one, swapped
    ],
)
def test_the_writer_offers_exactly_the_symmetries_that_keep_the_position(
    blocked: str | None, given: str | None, offered: int
) -> None:
    problem = problem_of(puzzles.peaceable_queens(Board.square(6)), blocked, given)
    spec = spec_of(problem)
    bounds = claim_bounds(spec, {"kind": "optimum", "value": 5})
    listed = symmetry_permutations(spec)
    assert len(listed) == offered
    assert confirmed_symmetries(spec, bounds) == listed
    rules = rule_clauses(spec)
    bare = symmetry_permutations(replace(spec, blocked=frozenset(), given=frozenset()))
    moving = [p for p in bare if p not in listed]
    assert len(moving) == 15 - offered
    assert all(symmetry_fault(spec, rules, bounds, p) for p in moving)


@pytest.mark.parametrize(
    ("puzzle", "blocked", "given"),
    [
        (puzzles.peaceable_queens(Board.square(4)), "b2,c4", "Qa1,qd3"),
        (puzzles.dominating(Board.square(4), KNIGHT), "a1,b2", "Nc3"),
        (puzzles.queens(Board.square(4)), "b2,c4", "Qb1"),
    ],
    ids=["peaceable", "dominating", "independent"],
)
def test_the_rules_allow_exactly_the_placements_chessplace_verifies(
    puzzle: Problem, blocked: str, given: str
) -> None:
    """Random placements on 4×4 with two blocked squares and a given piece: the rule
    clauses hold under them exactly when ``Placement.verify`` (the solving side's own
    rules) and the checker's witness check accept them (knights leave a blocked
    corner uncovered often enough to show that it needs no cover)."""
    from pysat.solvers import Solver

    free = tuple(replace(army, minimum=0, maximum=None) for army in puzzle.armies)
    problem = problem_of(replace(puzzle, armies=free, equal_armies=False), blocked, given)
    spec = spec_of(problem)
    chance = random.Random(44)
    seen = {True: 0, False: 0}
    squares = [spec.square_of(s) for s in range(spec.squares)]
    with Solver(name="glucose4", bootstrap_with=rule_clauses(spec)) as solver:
        for _ in range(600):
            picked = chance.sample(squares, chance.randint(1, 7))
            owners = [chance.randrange(len(spec.armies)) for _ in picked]
            if chance.random() < 0.7:  # mostly keep the given pieces
                for army, square in spec.given:
                    if square in picked:
                        owners[picked.index(square)] = army
                    else:
                        picked.append(square)
                        owners.append(army)
            armies = [
                {sq: None for sq, owner in zip(picked, owners, strict=True) if owner == a}
                for a in range(len(spec.armies))
            ]
            units = [
                spec.var(a, sq) if sq in armies[a] else -spec.var(a, sq)
                for a in range(len(spec.armies))
                for sq in squares
            ]
            valid = not Placement.from_squares(problem, armies).verify()
            assert (witness_fault(spec, armies) is None) == valid, armies
            assert solver.solve(assumptions=units) == valid, armies
            seen[valid] += 1
    assert min(seen.values()) > 20, seen


def spec_data(**position: Any) -> dict[str, Any]:
    """A peaceable 6×6 problem's data with the position given."""
    problem = spec_of(puzzles.peaceable_queens(Board.square(6))).to_data()
    return {**problem, **position}


def given(square: Any, army: Any = "white", piece: Any = "WWFF") -> dict[str, Any]:
    return {"piece": piece, "army": army, "square": square}


@pytest.mark.parametrize(
    ("position", "fault"),
    [
        ({"blocked": "a1,c3"}, "blocked: expected a list of square names"),
        ({"blocked": ["a1", "g1"]}, "blocked: 'g1' is not a square of the 6×6 board"),
        ({"blocked": ["a7"]}, "blocked: 'a7' is not a square of the 6×6 board"),
        ({"blocked": ["A1"]}, "blocked: 'A1' is not a square"),
        ({"blocked": ["a01"]}, "blocked: 'a01' is not a square"),
        ({"blocked": [1]}, "blocked: 1 is not a square"),
        ({"blocked": [["a", 1]]}, "is not a square"),
        ({"blocked": ["a1" * 10**6]}, "is not a square"),
        ({"blocked": ["a1", "c3", "a1"]}, "blocked: a1 is listed twice"),
        ({"blocked": ["c3", "a1"]}, "blocked: a1 is out of order"),
        ({"given": {"square": "d1"}}, "given: expected a list"),
        ({"given": [given("d1") | {"fixed": True}]}, "given: piece 1 is not an object"),
        ({"given": [{"army": "white", "square": "d1"}]}, "given: piece 1 is not an object"),
        ({"given": ["Qd1"]}, "given: piece 1 is not an object"),
        ({"given": [given("d1", "red")]}, "given: piece 1 names no army"),
        ({"given": [given("d1", ["white"])]}, "given: piece 1 names no army"),
        ({"given": [given("d7")]}, "given: 'd7' is not a square of the 6×6 board"),
        ({"given": [given("d1", piece="N")]}, "given: white d1 is not its army's piece WWFF"),
        ({"blocked": ["d1"], "given": [given("d1")]}, "white d1 stands on a blocked square"),
        ({"given": [given("d1"), given("d1", "black")]}, "black d1 shares it with white"),
        ({"given": [given("d1"), given("d1")]}, "given: white d1 is listed twice"),
        ({"given": [given("d1", "black"), given("e1")]}, "given: white e1 is out of order"),
        ({"given": [given("e1"), given("d1")]}, "given: white d1 is out of order"),
    ],
)
def test_a_malformed_position_is_one_clear_fault(position: dict[str, Any], fault: str) -> None:
    with pytest.raises(SpecError) as raised:
        Spec.from_data(spec_data(**position))
    assert fault in str(raised.value) and "\n" not in str(raised.value)


def test_a_canonical_position_is_read_back_as_written() -> None:
    problem = problem_of(puzzles.peaceable_queens(Board.square(6)), "f5,a1,c3", "qb6,Qe2,Qd1")
    spec = spec_of(problem)
    data = spec.to_data()
    assert data["blocked"] == ["a1", "c3", "f5"]
    assert [(g["army"], g["square"]) for g in data["given"]] == [
        ("white", "d1"),
        ("white", "e2"),
        ("black", "b6"),
    ]
    assert Spec.from_data(data) == spec
    assert "blocked" not in spec_data() and Spec.from_data(spec_data(blocked=[], given=[]))


@checks_proofs
def test_a_malformed_position_in_a_certificate_is_one_rejection(
    capsys: pytest.CaptureFixture[str], forged: Path
) -> None:
    manifest = manifest_of(forged)
    manifest["problem"]["given"].append(given("a1", "black"))
    seal(forged, manifest)
    code, out = verdict(capsys, forged)
    assert code == 1 and out.startswith("rejected: problem: given: black a1 stands on a blocked")


@pytest.mark.parametrize("pawns", [("--pawns", "b2"), ("--pawns", "2")])
def test_pawns_are_refused_in_one_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, pawns: tuple[str, ...]
) -> None:
    puzzle = "queens-and-pawns" if pawns[1].isdigit() else "queens"
    code, out, err = run(
        capsys, "optimize", puzzle, "-n", "5", *pawns, "--certificate", str(tmp_path / "c")
    )
    assert code == 2 and not out and err.count("\n") == 1, err
    assert "certificates do not cover pawns yet" in err
    assert not (tmp_path / "c").exists()


BLOCKED_LINES = ("a1", "a1,b1,c1,d1,e1,f1", "c3,d4")
"""Blocked squares on the first ranks and files the line engine labels (a corner, a
whole rank), and off them (two inner squares)."""


@pytest.mark.parametrize("blocked", BLOCKED_LINES)
def test_the_tree_cubes_with_blocked_squares_label_the_formulas_whole_lines(blocked: str) -> None:
    """The line engine leaves blocked squares out of its lines, the certified formula
    keeps them (rides pass over them): each cube's literal at depth p is a label of
    the p-th rank or file of the formula's lex order, blocked squares and all."""
    problem = problem_of(puzzles.peaceable_queens(Board.square(6)), blocked, None)
    spec = spec_of(problem)
    found = cubes.tree_cubes(problem, spec, 6, Control(), depth=4)
    order = lex_order(spec)
    assert len(found) > 4 and max(len(cube) for cube in found) == 4
    for cube in found:
        assert all(v in order[2 * p : 2 * p + 2] for p, v in enumerate(cube)), cube


@pytest.fixture
def split_from_6x6(monkeypatch: pytest.MonkeyPatch) -> None:
    """Boards from 6×6 split into cubes along the line engine's tree, as from 8×8."""
    monkeypatch.setattr(cubes, "SPLIT_FROM_SIDE", 6)


@checks_proofs
@pytest.mark.usefixtures("split_from_6x6")
@pytest.mark.parametrize(
    ("position", "split"),
    [
        *((("--blocked", blocked), True) for blocked in BLOCKED_LINES),
        (("--blocked", "a1", "--armies", "3"), False),  # the tree labels two armies only
        (("--armies", "3"), False),
    ],
)
def test_a_split_certificate_with_blocked_squares_is_written_and_checked(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, position: tuple[str, ...], split: bool
) -> None:
    """As ``optimize peaceable-queens -n 8 --blocked a1`` is: its refutation cut into
    cubes along the line engine's tree (two armies), one proof for three armies."""
    args = ("optimize", "peaceable-queens", "-n", "6", *position)
    code, _, err = run(capsys, *args, "--certificate", str(tmp_path))
    assert code == 0 and "certificate written" in err, err
    proofs = manifest_of(tmp_path)["refutation"]["proofs"]
    assert (len(proofs) > 1) == split, len(proofs)
    checked, out = verdict(capsys, tmp_path)
    assert checked == 0 and out.startswith("certified: "), out
    assert ("cubes covering all" in out) == split, out
