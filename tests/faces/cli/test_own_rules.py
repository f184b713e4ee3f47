"""Your own rules from the command line (issue 51): the issue's four rule books, as
problem files and as options (--count, --no-attack, --regions), through solve, count,
optimize, verify, render and export, checked against answers known without chessplace
(brute force here, PicoSAT on the exported DIMACS, HiGHS on the exported LP); every
hostile rule value is one line on stderr and exit 2."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import replace
from itertools import combinations
from pathlib import Path
from typing import Any

import pytest

from chessplace.core.board import parse_square
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.faces.cli import main
from chessplace.forms.jsonio import read_placement
from chessplace.notation.options import problem_from_options
from chessplace.notation.problemfile import from_text, read_problem
from tests.export.test_export import HIGHS, read_dimacs, solve_apart

BOOKS: dict[str, dict[str, Any]] = {
    "kings": {
        "board": {"rows": 8, "cols": 8},
        "armies": [{"name": "white", "piece": "king"}],
        "rules": {"independent": True},
        "counts": [
            {"squares": "each rank", "exactly": 2},
            {"squares": "each file", "exactly": 2},
        ],
    },
    "queens": {
        "board": {"rows": 8, "cols": 8},
        "armies": [{"name": "white", "piece": "queen", "min": 8, "max": 8}],
        "rules": {"independent": True},
        "counts": [{"army": "white", "squares": ["a1", "a2", "b1", "b2"], "at_most": 1}],
    },
    "one-way": {
        "board": {"rows": 6, "cols": 6},
        "armies": [
            {"name": "white", "piece": "queen", "min": 2, "max": 2, "fixed": True},
            {"name": "black", "piece": "knight"},
        ],
        "rules": {"independent": False, "no_attack": [["white", "black"]]},
        "objective": "maximize",
    },
    "regions": {
        "board": {
            "rows": 6,
            "cols": 6,
            "regions": ["AABBCC", "AABBCC", "DDEEFF", "DDEEFF", "DDEEFF", "DDEEFF"],
        },
        "armies": [{"name": "crowns", "piece": "king"}],
        "rules": {"independent": True},
        "counts": [
            {"squares": "each rank", "exactly": 1},
            {"squares": "each file", "exactly": 1},
            {"squares": "each region", "exactly": 1},
        ],
    },
}
"""The issue's rule books, as problem files."""

AS_OPTIONS = {
    "kings": [
        *("independent", "--piece", "king", "-n", "8"),
        *("--count", "each rank=2", "--count", "each-file=2"),
    ],
    "queens": ["queens", "-n", "8", "--count", "white:a1,a2,b1,b2<=1"],
    "regions": [
        *("independent", "--piece", "K", "-n", "6"),
        *("--regions", "AABBCC,AABBCC,DDEEFF,DDEEFF,DDEEFF,DDEEFF"),
        *("--count", "each rank=1", "--count", "each file = 1", "--count", "each-region=1"),
    ],
}
"""The same rule books stated with the command line's options (one-way mixes pieces,
which the options cannot)."""


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def book(tmp_path: Path) -> Iterator[Any]:
    """``book(name)``: the path of the rule book written as a problem file."""

    def path(name: str) -> str:
        written = tmp_path / f"{name}.json"
        written.write_text(json.dumps(BOOKS[name]), encoding="utf-8")
        return str(written)

    yield path


def verified(problem: Problem, text: str) -> set[str]:
    """The squares of an answer (JSON or text), after the checker found no broken rule."""
    placement = read_placement(problem, text)
    assert placement.verify() == (), text
    return {piece["square"] for piece in json.loads(text)["pieces"]}


def dimacs_models(path: Path) -> int:
    """PicoSAT's count of the formula's models, told apart by their piece variables."""
    pycosat = pytest.importorskip("pycosat")
    clauses, names, _ = read_dimacs(path)
    pieces = sorted(names)
    assert pieces, "the DIMACS file names no piece variables"
    found = 0
    while (model := pycosat.solve(clauses)) != "UNSAT":
        found += 1
        chosen = set(model)
        clauses.append([-v if v in chosen else v for v in pieces])
    return found


def export(capsys: pytest.CaptureFixture[str], tmp_path: Path, form: str, *args: str) -> Path:
    path = tmp_path / f"model.{form}"
    code, _, err = run(capsys, "export", *args, "--format", form, "--no-symmetry", "-o", str(path))
    assert code == 0, err
    return path


# --- the options state the same problems as the files --------------------------------


@pytest.mark.parametrize("name", sorted(AS_OPTIONS))
def test_the_options_state_the_rule_book(
    capsys: pytest.CaptureFixture[str], book: Any, name: str
) -> None:
    code, out, err = run(capsys, "solve", *AS_OPTIONS[name], "--print-problem")
    assert code == 0, err
    printed, stated = from_text(out), read_problem(book(name))
    assert [a.piece for a in printed.armies] == [a.piece for a in stated.armies]
    assert replace(printed, puzzle=stated.puzzle, armies=stated.armies) == stated
    data = json.loads(out)
    assert len(data["counts"]) == len(BOOKS[name]["counts"])
    assert data["board"].get("regions") == BOOKS[name]["board"].get("regions")


def test_no_attack_options_print_their_pairs(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["peaceable-queens", "-n", "5", "--armies", "3"]
    code, out, _ = run(capsys, "solve", *args, "--no-attack", "white:black", "--print-problem")
    assert code == 0 and json.loads(out)["rules"]["no_attack"] == [["white", "black"]]
    code, out, _ = run(
        capsys,
        "solve",
        *args,
        "--no-attack",
        "red:white",
        "--no-attack",
        "white:red",
        "--print-problem",
    )
    assert json.loads(out)["rules"]["no_attack"] == [["red", "white"], ["white", "red"]]
    code, out, _ = run(capsys, "solve", *args, "--no-attack", "none", "--print-problem")
    assert code == 0 and json.loads(out)["rules"]["no_attack"] == []


# --- the 8-queens rule book: 92 placements, every rule holding --------------------------


def test_eight_queens_with_a_corner_rule(
    capsys: pytest.CaptureFixture[str], book: Any, tmp_path: Path
) -> None:
    path = book("queens")
    problem = read_problem(path)
    code, out, _ = run(capsys, "count", path, "--json")
    assert code == 0 and json.loads(out)["count"] == 92
    code, out, _ = run(capsys, "count", path, "--list")
    lines = out.splitlines()
    assert code == 0 and len(lines) == 92
    placements = {frozenset(verified(problem, line)) for line in lines}
    assert len(placements) == 92
    corner = {"a1", "a2", "b1", "b2"}
    assert all(len(squares) == 8 and len(squares & corner) <= 1 for squares in placements)
    code, out, _ = run(capsys, "solve", path, "--json")
    answer = tmp_path / "answer.json"
    answer.write_text(out)
    assert code == 0 and len(verified(problem, out)) == 8
    code, verdict, _ = run(capsys, "verify", path, str(answer))
    assert code == 0 and "valid" in verdict
    code, out, _ = run(capsys, "count", *AS_OPTIONS["queens"], "--json")
    assert code == 0 and json.loads(out)["count"] == 92


def test_a_count_rule_that_bites_halves_the_eight_queens(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """No queen on a1..d1: the queen of rank 1 stands on e1..h1, in half of the 92
    placements (the mirror maps one half onto the other)."""
    args = ["queens", "-n", "8", "--count", "a1,b1,c1,d1=0"]
    code, out, _ = run(capsys, "count", *args, "--json")
    assert code == 0 and json.loads(out)["count"] == 46
    path = export(capsys, tmp_path, "dimacs", *args)
    assert dimacs_models(path) == 46


def test_a_placement_that_breaks_a_count_rule_fails_verify(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out, _ = run(capsys, "solve", "queens", "-n", "8", "--json")
    answer = tmp_path / "answer.json"
    answer.write_text(out)
    rank_one = next(p["square"] for p in json.loads(out)["pieces"] if p["rank"] == 1)
    code, verdict, _ = run(
        capsys, "verify", "queens", "-n", "8", "--count", f"{rank_one}=0", str(answer)
    )
    assert code == 1 and f"{rank_one} holds 1 piece" in verdict and "exactly 0" in verdict


# --- the kings: two on every rank and file ---------------------------------------------


def kings_by_hand() -> int:
    """Placements of kings, two on each rank and file of 8×8, none touching: rank by rank."""
    pairs = [p for p in combinations(range(8), 2) if p[1] - p[0] > 1]

    def placements(rank: int, last: tuple[int, ...], files: tuple[int, ...]) -> int:
        if rank == 8:
            return int(all(count == 2 for count in files))
        total = 0
        for pair in pairs:
            if any(abs(a - b) <= 1 for a in last for b in pair):
                continue
            more = tuple(count + (f in pair) for f, count in enumerate(files))
            if max(more) <= 2:
                total += placements(rank + 1, pair, more)
        return total

    return placements(0, (), (0,) * 8)


def test_kings_two_on_every_rank_and_file(
    capsys: pytest.CaptureFixture[str], book: Any, tmp_path: Path
) -> None:
    path = book("kings")
    problem = read_problem(path)
    truth = kings_by_hand()
    assert truth == 2
    code, out, _ = run(capsys, "count", path, "--solver", "cpsat", "--json")
    assert code == 0 and json.loads(out)["count"] == truth
    code, out, _ = run(capsys, "count", *AS_OPTIONS["kings"], "--json")
    assert code == 0 and json.loads(out)["count"] == truth
    # sat counts several armies only: it says so in one line
    code, _, err = run(capsys, "count", path, "--solver", "sat")
    assert code == 2 and err.count("\n") == 1 and "cpsat enumerates single ones" in err
    assert dimacs_models(export(capsys, tmp_path, "dimacs", path)) == truth
    for solver in ("sat", "cpsat"):
        code, out, _ = run(capsys, "solve", path, "--solver", solver, "--json")
        assert code == 0 and len(verified(problem, out)) == 16


# --- white queens that may not attack black knights, which may attack them -------------

QUEEN_STEPS = [(1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1)]


def one_way_by_hand() -> tuple[int, int]:
    """(the most black knights, the placements with that many): two white queens, and
    knights on every square neither queen sees (a queen stops at the first piece; a
    knight on a seen square would be attacked, and one on an unseen square blocks no
    ride of a queen)."""
    squares = [(f, r) for f in range(6) for r in range(6)]
    best, ways = 0, 0
    for queens in combinations(squares, 2):
        seen: set[tuple[int, int]] = set()
        for f, r in queens:
            for df, dr in QUEEN_STEPS:
                x, y = f + df, r + dr
                while 0 <= x < 6 and 0 <= y < 6:
                    seen.add((x, y))
                    if (x, y) in queens:
                        break
                    x, y = x + df, y + dr
        free = len([s for s in squares if s not in queens and s not in seen])
        if free > best:
            best, ways = free, 0
        ways += free == best
    return best, ways


def test_one_way_attacks_queens_and_knights(
    capsys: pytest.CaptureFixture[str], book: Any, tmp_path: Path
) -> None:
    path = book("one-way")
    problem = read_problem(path)
    best, ways = one_way_by_hand()
    assert (best, ways) == (13, 24)
    code, _, err = run(capsys, "solve", path)
    assert code == 2 and "sets no count to solve" in err and err.count("\n") == 1
    code, out, _ = run(capsys, "optimize", path, "--json")
    data = json.loads(out)
    assert code == 0 and data["status"] == "optimal" and data["objective"] == best
    answer = tmp_path / "answer.json"
    answer.write_text(out)
    verified(problem, out)
    code, verdict, _ = run(capsys, "verify", path, str(answer))
    assert code == 0 and "valid" in verdict
    for solver in ("cpsat", "sat"):
        code, out, err = run(capsys, "count", path, "--optimal", "--solver", solver, "--json")
        assert code == 0, err
        assert json.loads(out)["count"] == ways, solver
    highs = solve_apart(HIGHS, export(capsys, tmp_path, "lp", path))
    assert highs["status"] == "Optimal" and highs["objective"] == pytest.approx(best)
    # the knights may attack the queens, not the queens the knights
    assert placed(problem, ["a6", "f1"], ["b4"]).verify() == ()  # the knight attacks a6
    broken = [str(v) for v in placed(problem, ["a6", "c3"], ["b4"]).verify()]
    assert broken == ["white queen c3 attacks black knight b4"]


def placed(problem: Problem, queens: list[str], knights: list[str]) -> Placement:
    return Placement.from_squares(
        problem, [[parse_square(s) for s in queens], [parse_square(s) for s in knights]]
    )


# --- regions that cannot hold one crown per rank --------------------------------------


def test_the_regions_rule_book_is_infeasible(
    capsys: pytest.CaptureFixture[str], book: Any, tmp_path: Path
) -> None:
    """Regions A, B and C lie in the top two ranks: three crowns, one per region, in two
    ranks with one per rank cannot be."""
    path = book("regions")
    for args in ([path], AS_OPTIONS["regions"]):
        code, out, _ = run(capsys, "solve", *args)
        assert code == 1 and "no placement" in out
        code, out, _ = run(capsys, "count", *args, "--json")
        assert code == 0 and json.loads(out)["count"] == 0
    assert dimacs_models(export(capsys, tmp_path, "dimacs", path)) == 0
    assert solve_apart(HIGHS, export(capsys, tmp_path, "lp", path))["status"] == "Infeasible"
    drawing = tmp_path / "none.svg"
    code, _, _ = run(capsys, "render", path, "-o", str(drawing))
    assert code == 1 and not drawing.exists()


def test_regions_that_fit_are_a_queens_game(capsys: pytest.CaptureFixture[str]) -> None:
    """The same rules on regions one can meet: every answer verified."""
    rows = "AABBCC,AABBCC,DDEEFF,DDEEFF,GGHHII,GGHHII"
    args = ["independent", "--piece", "K", "-n", "6", "--regions", rows]
    args += ["--count", "each-region=1"]
    code, out, _ = run(capsys, "solve", *args, "--json")
    problem = problem_from_options(
        "independent", n=6, piece="K", regions=rows, counts=["each-region=1"]
    )
    squares = verified(problem, out)
    assert code == 0 and len(squares) == 9


# --- every command takes every rule book ----------------------------------------------


@pytest.mark.parametrize("name", sorted(BOOKS))
@pytest.mark.parametrize("form", ["dimacs", "opb", "lp", "mzn"])
def test_every_export_takes_the_rule_books(
    capsys: pytest.CaptureFixture[str], book: Any, tmp_path: Path, name: str, form: str
) -> None:
    path = tmp_path / f"{name}.{form}"
    code, _, err = run(
        capsys, "export", book(name), "--format", form, "--no-symmetry", "-o", str(path)
    )
    if name == "one-way" and form == "dimacs":  # no count to check, no objective in CNF
        assert code == 2 and err.count("\n") == 1 and "has no objective" in err
        return
    assert code == 0, err
    assert path.stat().st_size > 0


@pytest.mark.parametrize("name", ["kings", "queens", "one-way"])
def test_render_draws_the_rule_books(
    capsys: pytest.CaptureFixture[str], book: Any, tmp_path: Path, name: str
) -> None:
    drawing = tmp_path / f"{name}.svg"
    code, _, err = run(capsys, "render", book(name), "-o", str(drawing))
    assert code == 0 and f"wrote {drawing}" in err
    assert drawing.read_text().lstrip().startswith(("<svg", "<?xml"))


# --- hostile values: one line, exit 2 --------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--count", ""], "count: an empty rule"),
        (["--count", "   "], "count: an empty rule"),
        (["--count", "each rank"], "no =, <= or >="),
        (["--count", "each column=2"], "'each column' is no square"),
        (["--count", "ranks=1"], "'ranks' is no square"),
        (["--count", "each rank<2"], "'<' is no comparison"),
        (["--count", "each rank>1"], "'>' is no comparison"),
        (["--count", "each rank==1"], "expected a whole number after the comparison"),
        (["--count", "each rank=-1"], "cannot be negative"),
        (["--count", "each rank=" + "9" * 40], "more than the board's 64 squares"),
        (["--count", "all=65"], "more than the board's 64 squares"),
        (["--count", "each rank=x"], "expected a whole number after the comparison, not 'x'"),
        (["--count", "each rank=2.5"], "not '2.5'"),
        (["--count", "each rank=\u0663"], "expected a whole number"),
        (["--count", "each rank="], "not nothing"),
        (["--count", "=2"], "no squares before the comparison"),
        (["--count", ":all=1"], "no army's name before ':'"),
        (["--count", "red:all=1"], "count rule names army 'red'; the armies are white"),
        (["--count", "a1,a1<=1"], "a1 is listed twice"),
        (["--count", "i9<=1"], "count rule square i9 is off the 8×8 board"),
        (["--count", "a1," * 100_000 + "=1"], "too long for the board"),
        (["--count", "each region=1"], '"each region" needs board regions'),
        (["--no-attack", ""], "write ATTACKER:TARGET"),
        (["--no-attack", "white"], "write ATTACKER:TARGET"),
        (["--no-attack", "white:"], "write ATTACKER:TARGET"),
        (["--no-attack", "white:red"], "attack rule names army 'red'"),
        (["--no-attack", "none", "--no-attack", "white:white"], "give it alone"),
        (["--regions", ""], "regions: none given"),
        (["--regions", "AABB"], "board regions have 1 rows, the board has 8 ranks"),
        (["--regions", ",".join(["AAAABBBB"] * 7 + ["AAAABBB"])], "row 8 has 7 letters"),
        (["--regions", ",".join(["AAAABBB-"] * 8)], "'-' is not a letter or digit"),
        (["--regions", ",,,,,,,"], "row 1 has 0 letters"),
    ],
)
def test_bad_rules_are_one_line_and_exit_two(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    for command in ("solve", "count", "export"):
        extra = ["--format", "lp"] if command == "export" else []
        code, out, err = run(capsys, command, "queens", "-n", "8", *args, *extra)
        assert code == 2 and out == "", (command, err)
        assert err.count("\n") == 1 and message in err, err
        assert "Traceback" not in err


def test_rules_beside_a_problem_file_or_a_grid_are_refused(
    capsys: pytest.CaptureFixture[str], book: Any, tmp_path: Path
) -> None:
    code, _, err = run(capsys, "solve", book("kings"), "--count", "all>=1")
    assert code == 2 and "give no --count beside it" in err
    code, _, err = run(capsys, "solve", book("kings"), "--no-attack", "none")
    assert code == 2 and "give no --no-attack beside it" in err
    code, _, err = run(capsys, "solve", book("kings"), "--regions", "AB,AB")
    assert code == 2 and "give no --regions beside it" in err
    grid = tmp_path / "grid.txt"
    grid.write_text("aabb\naabb\nccdd\nccdd\n")
    code, _, err = run(capsys, "solve", "queens-game", "--grid", str(grid), "--count", "all=4")
    assert code == 2 and "from the grid alone" in err and err.count("\n") == 1
