"""Certificates of the user's rules: count rules, one-way attack pairs, and squares
covered a set number of times (exact domination, k-domination).

The manifest states each rule in plain data (count rules expanded to their squares,
attack pairs as army names, the cover's bounds); the checker encodes each with code
of its own (a totalizer per count rule, sight clauses for attack pairs, "sees"
variables and a totalizer per square for covers) and checks the witness with its
own walk of the moves. On tiny boards the checker's formula, its witness check and
the model's own verifier agree on every placement; certificates of each rule are
written and checked; a manifest whose rule was edited, and a witness that breaks a
rule, are rejected.
"""

from __future__ import annotations

import importlib.util
import json
import shutil
from collections.abc import Iterator
from dataclasses import replace
from itertools import product
from pathlib import Path
from typing import Any

import pytest

from chessplace import Board, api, puzzles
from chessplace.certificates.checker.formula import (
    Formula,
    add_cover_counts,
    claim_bounds,
    named_variables,
    refutation_formula,
    rule_clauses,
)
from chessplace.certificates.checker.spec import Spec, SpecError, Square
from chessplace.certificates.checker.witness import witness_fault
from chessplace.certificates.writer.certificate import CannotCertify, spec_of, write_certificate
from chessplace.core.pieces import piece_from_text
from chessplace.core.placement import Placement
from chessplace.core.problem import Army, Problem, Sense
from chessplace.core.rules import CountRule
from chessplace.faces.cli import main
from tests.certified import PROOF, manifest_of, rehash, seal

pytest.importorskip("pysat", reason="certificates are written with python-sat")
checks_proofs = pytest.mark.skipif(
    importlib.util.find_spec("dratify") is None,
    reason="chessplace check needs dratify (the certify extra)",
)

KING, QUEEN, KNIGHT = (piece_from_text(text) for text in "KQN")


def perfect_kings(side: int = 6, cover: tuple[int, int | None] = (1, 1)) -> Problem:
    """Kings covering every square as often as ``cover`` says (their own square once,
    each king next to it once), as few as possible: a perfect code for (1, 1)."""
    return Problem(
        "perfect kings",
        Board.square(side),
        (Army("white", KING),),
        independent=False,
        dominating=True,
        sense=Sense.MINIMIZE,
        cover=cover,
    )


def queens_over_knights(side: int = 5) -> Problem:
    """Two fixed white queens that may not attack a black knight; the knights attack
    what they like, one another included: as many knights as possible."""
    return Problem(
        "one-way",
        Board.square(side),
        (Army("white", QUEEN, 2, 2, fixed=True), Army("black", KNIGHT)),
        independent=False,
        no_attack=(("white", "black"),),
    )


def peaceable_with_counts() -> Problem:
    """Peaceable queens on 5×5 with at most one black queen on each rank: 3 (4 without)."""
    problem = puzzles.peaceable_queens(Board.square(5))
    return replace(problem, counts=(CountRule("each rank", 0, 1, "black"),))


def corner_queens() -> Problem:
    """Six queens on 6×6 with one on a1: none of the four answers has a corner queen."""
    problem = Problem("queens", Board.square(6), (Army("white", QUEEN, 6, 6),))
    return replace(problem, counts=(CountRule(frozenset({(0, 0)}), 1, 1),))


def rook_between_queens() -> Problem:
    """Two white queens and a black rook on a 1×3 board, the rook forbidden to attack a
    queen: wherever it stands it attacks one (issue 51's blocking example)."""
    return Problem(
        "blocking",
        Board(1, 3),
        (Army("white", QUEEN, 2, 2), Army("black", piece_from_text("R"), 1, 1)),
        no_attack=(("black", "white"),),
    )


def write(directory: Path, problem: Problem, task: str) -> Path:
    result = getattr(api, task)(problem)
    write_certificate(directory, problem, task, result, f"test {task}")
    return directory


def verdict(capsys: pytest.CaptureFixture[str], directory: Path) -> tuple[int, str]:
    code = main(["check", str(directory)])
    out, err = capsys.readouterr()
    assert out.count("\n") == 1 and not err, (out, err)
    return code, out


# The checker's formula, its witness check and the model's verifier agree.


def placements(spec: Spec) -> Iterator[list[dict[Square, None]]]:
    """Every placement on the board: each square empty or held by one army."""
    squares = [spec.square_of(s) for s in range(spec.squares)]
    for holders in product(range(len(spec.armies) + 1), repeat=len(squares)):
        armies: list[dict[Square, None]] = [{} for _ in spec.armies]
        for square, holder in zip(squares, holders, strict=True):
            if holder:
                armies[holder - 1][square] = None
        yield armies


def three_queens(no_attack: tuple[tuple[str, str], ...]) -> Problem:
    armies = tuple(Army(name, QUEEN) for name in ("white", "black", "red"))
    return Problem("three", Board(4, 1), armies, independent=False, no_attack=no_attack)


AGREEING = {
    "queens over knights": replace(
        queens_over_knights(3), armies=(Army("white", QUEEN), Army("black", KNIGHT))
    ),
    "knights over queens, a1 blocked": replace(
        queens_over_knights(3),
        armies=(Army("white", QUEEN), Army("black", KNIGHT)),
        no_attack=(("black", "white"),),
        blocked=frozenset({(0, 0)}),
    ),
    "knights over queens, counted": replace(
        queens_over_knights(3),
        armies=(Army("white", QUEEN), Army("black", KNIGHT)),
        no_attack=(("black", "white"),),
        counts=(CountRule("each file", 1, None), CountRule("each rank", 0, 1, "white")),
    ),
    "three queens, red blocks": three_queens((("white", "black"), ("black", "white"))),
    "three queens, independent": replace(three_queens((("red", "white"),)), independent=True),
    "perfect kings": perfect_kings(3),
    "kings twice": perfect_kings(3, (2, None)),
    "queens at most once, b2 blocked": replace(
        perfect_kings(3, (0, 1)),
        armies=(Army("white", QUEEN),),
        blocked=frozenset({(1, 1)}),
    ),
    "independent queens 1 to 2": replace(
        perfect_kings(3, (1, 2)), armies=(Army("white", QUEEN),), independent=True
    ),
    "counts": replace(
        puzzles.peaceable_queens(Board(3, 3)),
        equal_armies=False,  # not in the formula: refuting more is sound
        counts=(
            CountRule("each rank", 0, 1, "black"),
            CountRule(frozenset({(0, 0), (2, 2), (1, 1)}), 1, 2),
        ),
    ),
}


@pytest.mark.parametrize("problem", AGREEING.values(), ids=AGREEING.keys())
def test_formula_witness_check_and_model_agree_on_every_placement(problem: Problem) -> None:
    """A placement satisfies the checker's formula (rules, counts and covers, its
    auxiliary variables free) exactly when the checker's witness check and the
    model's verifier accept it."""
    from pysat.solvers import Solver

    spec = spec_of(problem)
    formula = Formula(named_variables(spec))
    formula.clauses += rule_clauses(spec)
    add_cover_counts(formula, spec)
    for bound in claim_bounds(spec, {"kind": "infeasible"}):
        formula.at_least(bound.variables, bound.least)
        if bound.most is not None:
            formula.at_most(bound.variables, bound.most)
    valid = total = 0
    with Solver(name="glucose4", bootstrap_with=formula.clauses) as solver:
        for armies in placements(spec):
            chosen = {spec.var(a, square) for a, squares in enumerate(armies) for square in squares}
            literals = [
                v if v in chosen else -v for v in range(1, len(spec.armies) * spec.squares + 1)
            ]
            fault = witness_fault(spec, armies)
            model = Placement.from_squares(problem, [set(squares) for squares in armies])
            assert solver.solve(assumptions=literals) == (fault is None), (armies, fault)
            assert (model.verify() == ()) == (fault is None), (armies, fault)
            valid += fault is None
            total += 1
    assert 0 < valid < total


# Certificates of each rule, written and checked.


CERTIFIED = {
    "an infeasible count rule": (
        corner_queens,
        "solve",
        1,
        "exactly 1 piece on a1: no placement exists",
    ),
    "an infeasible attack pair": (
        rook_between_queens,
        "solve",
        1,
        "black may not attack white, other armies may; no piece attacks one of its own army",
    ),
    "an optimum with a count rule": (
        peaceable_with_counts,
        "optimize",
        3,
        "at most 1 black piece on each rank; maximising the smallest of white, black: "
        "the maximum is 3, witness valid (3)",
    ),
    "an optimum with a one-way pair": (
        queens_over_knights,
        "optimize",
        7,
        "white may not attack black, other armies may; pieces of one army may attack one "
        "another; rides stop at the first piece; maximising black: the maximum is 7",
    ),
    "a perfect code of kings": (
        perfect_kings,
        "optimize",
        4,
        "every square covered exactly 1 time (its own piece and each piece attacking it, "
        "rides stopping at the first piece); minimising white: the minimum is 4",
    ),
    "2-domination of kings": (
        lambda: perfect_kings(4, (2, None)),
        "optimize",
        8,
        "every square covered at least 2 times",
    ),
}


@checks_proofs
@pytest.mark.parametrize(("make", "task", "value", "stated"), CERTIFIED.values(), ids=CERTIFIED)
def test_rules_are_certified_and_checked(
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    make: Any,
    task: str,
    value: int,
    stated: str,
) -> None:
    directory = write(tmp_path / "c", make(), task)
    claim = manifest_of(directory)["claim"]
    assert claim == (
        {"kind": "infeasible"} if task == "solve" else {"kind": "optimum", "value": value}
    )
    code, out = verdict(capsys, directory)
    assert code == 0 and out.startswith("certified: ") and stated in out, out


def test_the_manifest_states_each_rule_in_plain_data(tmp_path: Path) -> None:
    counted = spec_of(peaceable_with_counts()).to_data()
    assert counted["counts"][0] == {
        "army": "black",
        "squares": ["a1", "b1", "c1", "d1", "e1"],
        "at_least": 0,
        "at_most": 1,
    }
    assert len(counted["counts"]) == 5 and "no_attack" not in counted and "cover" not in counted
    one_way = spec_of(queens_over_knights()).to_data()
    assert one_way["no_attack"] == [["white", "black"]]
    assert [a["betza"] for a in one_way["armies"]] == ["WWFF", "N"]
    assert spec_of(perfect_kings()).to_data()["cover"] == {"at_least": 1, "at_most": 1}
    for data in (counted, one_way, spec_of(perfect_kings()).to_data()):
        assert Spec.from_data(data).to_data() == data


def test_what_stays_refused_is_refused_before_any_work() -> None:
    mixed = Problem("mixed", Board.square(4), (Army("white", QUEEN), Army("black", KNIGHT)))
    with pytest.raises(CannotCertify, match="share one piece"):
        spec_of(mixed)
    fewest = replace(puzzles.peaceable_queens(Board.square(4)), sense=Sense.MINIMIZE)
    with pytest.raises(CannotCertify, match="equal armies when maximising"):
        spec_of(fewest)


@pytest.mark.parametrize(
    ("change", "fault"),
    [
        (
            {"counts": [{"army": "green", "squares": ["a1"], "at_least": 0, "at_most": 1}]},
            "names no army",
        ),
        (
            {"counts": [{"army": None, "squares": [], "at_least": 0, "at_most": 1}]},
            "lists no squares",
        ),
        (
            {"counts": [{"army": None, "squares": ["b1", "a1"], "at_least": 0, "at_most": 1}]},
            "out of order",
        ),
        (
            {"counts": [{"army": None, "squares": ["a1"], "at_least": 2, "at_most": 1}]},
            "at least 2 and at most 1",
        ),
        ({"counts": [{"army": None, "squares": ["a1"], "at_least": 0}]}, "not an object"),
        ({"no_attack": [["white", "white"]]}, "names one army twice"),
        ({"no_attack": [["black", "white"], ["white", "black"]]}, "out of order"),
        ({"no_attack": [["white", "green"]]}, "not two army names"),
        ({"cover": {"at_least": 1, "at_most": 1}}, "for a dominating problem"),
    ],
)
def test_malformed_rules_are_spec_errors(change: dict[str, Any], fault: str) -> None:
    data = spec_of(puzzles.peaceable_queens(Board.square(5))).to_data()
    with pytest.raises(SpecError, match=fault):
        Spec.from_data(data | change)


def test_a_cover_of_plain_domination_and_pieces_apart_without_pairs_are_refused() -> None:
    data = spec_of(perfect_kings()).to_data()
    with pytest.raises(SpecError, match="plain domination"):
        Spec.from_data(data | {"cover": {"at_least": 1, "at_most": None}})
    mixed = spec_of(queens_over_knights()).to_data()
    del mixed["no_attack"]
    with pytest.raises(SpecError, match="same piece"):
        Spec.from_data(mixed)


# Forgeries: rules edited in the manifest, witnesses that break a rule.


@pytest.fixture(scope="module")
def certificates(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """The certificates of a count rule, a one-way pair and a perfect code, once."""
    root = tmp_path_factory.mktemp("rules")
    return {
        "counted": write(root / "counted", peaceable_with_counts(), "optimize"),
        "one-way": write(root / "one-way", queens_over_knights(), "optimize"),
        "perfect": write(root / "perfect", perfect_kings(), "optimize"),
    }


@pytest.fixture
def forge(certificates: dict[str, Path], tmp_path: Path) -> Any:
    def copy(name: str) -> tuple[Path, dict[str, Any]]:
        directory = Path(shutil.copytree(certificates[name], tmp_path / name))
        return directory, manifest_of(directory)

    return copy


def regenerate(directory: Path, manifest: dict[str, Any]) -> None:
    """Write the formula the checker builds from the (edited) manifest, as a forger
    with the checker's own code would, and seal."""
    spec = Spec.from_data(manifest["problem"])
    permutations = json.loads((directory / "symmetries.json").read_text())["permutations"]
    formula = refutation_formula(spec, claim_bounds(spec, manifest["claim"]), permutations)
    (directory / "refutation.cnf").write_text(formula.dimacs())
    seal(directory, manifest)


def loosen_counts(problem: dict[str, Any]) -> None:
    for count in problem["counts"]:
        count["at_most"] = 2


def drop_a_square(problem: dict[str, Any]) -> None:
    problem["counts"][2]["squares"].pop()


def count_white(problem: dict[str, Any]) -> None:
    problem["counts"][0]["army"] = "white"


def reverse_the_pair(problem: dict[str, Any]) -> None:
    problem["no_attack"] = [["black", "white"]]


def free_the_pair(problem: dict[str, Any]) -> None:
    problem["no_attack"] = []


def cover_at_most_once(problem: dict[str, Any]) -> None:
    problem["cover"] = {"at_least": 0, "at_most": 1}


def plain_domination(problem: dict[str, Any]) -> None:
    del problem["cover"]


EDITS = {
    "count bound raised": ("counted", loosen_counts),
    "count square removed": ("counted", drop_a_square),
    "count army changed": ("counted", count_white),
    "pair reversed": ("one-way", reverse_the_pair),
    "pair removed": ("one-way", free_the_pair),
    "cover lowered": ("perfect", cover_at_most_once),
    "cover dropped": ("perfect", plain_domination),
}


@checks_proofs
@pytest.mark.parametrize(("name", "edit"), EDITS.values(), ids=EDITS)
def test_a_manifest_whose_rule_was_edited_is_rejected(
    capsys: pytest.CaptureFixture[str], forge: Any, name: str, edit: Any
) -> None:
    """The shipped formula is no longer the one the edited problem gives (or the
    witness breaks the edited rule, which is checked first)."""
    directory, manifest = forge(name)
    edit(manifest["problem"])
    seal(directory, manifest)
    code, out = verdict(capsys, directory)
    assert code == 1, out
    assert (
        "differs from the formula regenerated" in out
        or "is not a symmetry of the formula" in out
        or out.startswith("rejected: witness witness.json: ")
    ), out


FALSE_CLAIMS = {
    "count bound raised": ("counted", loosen_counts),  # 4 queens a side then
    "pair removed": ("one-way", free_the_pair),  # knights may sit in the queens' lines
    "cover lowered": ("perfect", cover_at_most_once),  # no king at all
}


@checks_proofs
@pytest.mark.parametrize(("name", "edit"), FALSE_CLAIMS.values(), ids=FALSE_CLAIMS)
def test_an_edited_rule_with_its_formula_regenerated_fails_the_proof(
    capsys: pytest.CaptureFixture[str], forge: Any, name: str, edit: Any
) -> None:
    """The forger also ships the formula of the edited problem: its claim is false
    there, so the old proof cannot refute it."""
    directory, manifest = forge(name)
    edit(manifest["problem"])
    regenerate(directory, manifest)
    code, out = verdict(capsys, directory)
    assert code == 1 and out.startswith(f"rejected: {PROOF}: "), out


@checks_proofs
def test_a_symmetry_that_breaks_a_count_rule_is_rejected(
    capsys: pytest.CaptureFixture[str], forge: Any
) -> None:
    """Only the first rank bounded: the flip of ranks (one of the symmetries shipped
    for every rank bounded) maps its count onto no count."""
    directory, manifest = forge("counted")
    manifest["problem"]["counts"] = manifest["problem"]["counts"][:1]
    regenerate(directory, manifest)
    code, out = verdict(capsys, directory)
    assert code == 1 and "maps the bound 'count rule 1: black at most 1'" in out, out


@checks_proofs
def test_a_symmetry_offered_with_counted_cover_is_rejected(
    capsys: pytest.CaptureFixture[str], forge: Any
) -> None:
    directory, manifest = forge("perfect")
    spec = Spec.from_data(manifest["problem"])
    swap = list(range(named_variables(spec), 0, -1))  # the half turn
    (directory / "symmetries.json").write_text(json.dumps({"permutations": [swap]}))
    regenerate(directory, manifest)
    code, out = verdict(capsys, directory)
    assert code == 1 and "which take no symmetries" in out, out


def moved_piece(directory: Path, army: str, old: str, new: str) -> None:
    """Move one piece of the witness from square ``old`` to ``new`` (names like d4)."""
    witness = json.loads((directory / "witness.json").read_text())
    file, rank = ord(old[0]) - 96, int(old[1:])
    for piece in witness["pieces"]:
        if piece["army"] == army and (piece["file"], piece["rank"]) == (file, rank):
            piece["file"], piece["rank"] = ord(new[0]) - 96, int(new[1:])
            break
    else:
        raise AssertionError(f"no {army} piece on {old}")
    (directory / "witness.json").write_text(json.dumps(witness))
    rehash(directory)


@checks_proofs
def test_a_witness_that_covers_a_square_twice_or_never_is_rejected(
    capsys: pytest.CaptureFixture[str], forge: Any
) -> None:
    directory, _ = forge("perfect")
    kings = {
        (p["file"], p["rank"])
        for p in json.loads((directory / "witness.json").read_text())["pieces"]
    }
    assert kings == {(2, 2), (5, 2), (2, 5), (5, 5)}
    moved_piece(directory, "white", "b2", "a1")
    code, out = verdict(capsys, directory)
    assert code == 1 and "c1 is covered 0 times, the rule asks exactly 1" in out, out


def test_witnesses_that_break_a_rule_are_caught() -> None:
    counted = replace(spec_of(peaceable_with_counts()), equal_armies=False)
    two_black = [{}, {(0, 0): None, (2, 0): None}]
    assert witness_fault(counted, two_black) == "count rule 1 holds 2 pieces, outside its bounds"
    one_way = spec_of(
        replace(queens_over_knights(), armies=(Army("white", QUEEN), Army("black", KNIGHT)))
    )
    assert witness_fault(one_way, [{(0, 0): None}, {(1, 2): None}]) is None  # knight takes a1
    assert witness_fault(one_way, [{(0, 0): None}, {(0, 2): None}]) == "white a1 attacks black a3"
    three = spec_of(three_queens((("white", "black"),)))
    assert witness_fault(three, [{(0, 0): None}, {(0, 2): None}, {(0, 1): None}]) is None
    assert witness_fault(three, [{(0, 0): None}, {(0, 2): None}, {}]) == "white a1 attacks black a3"
    perfect = spec_of(perfect_kings(3))
    assert witness_fault(perfect, [{(1, 1): None}]) is None
    assert witness_fault(perfect, [{(1, 1): None, (0, 0): None}]) == (
        "a1 is covered 2 times, the rule asks exactly 1"
    )
