"""chessplace export: the written models, solved by external solvers, agree with chessplace.

DIMACS goes to pycosat (PicoSAT), MiniZinc to Gecode, LP to HiGHS and OPB
(and LP again) to SCIP. Every answer is compared with chessplace's own,
computed here by its CP-SAT engine, and the placements the external solvers
return are read back through the files' own names and checked with
:meth:`Placement.verify`.
"""

from __future__ import annotations

import importlib.util
import json
import random
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from chessplace import api
from chessplace.core.board import parse_square, square_name
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem, Sense
from chessplace.core.result import Status
from chessplace.encodings.formulas import formula_for
from chessplace.faces.cli import main
from chessplace.notation.options import problem_from_options

PUZZLES: dict[str, tuple[str, ...]] = {
    "peaceable queens 5x5": ("peaceable-queens", "-n", "5"),
    "peaceable queens 3x5": ("peaceable-queens", "--rows", "3", "--cols", "5"),
    "three armies of queens": ("peaceable-queens", "-n", "4", "--armies", "3"),
    "queens beside 2 white": ("peaceable-queens", "-n", "4", "--white", "2"),
    "peaceable knights": ("peaceable", "--piece", "N", "-n", "4"),
    "independent chancellors": ("independent", "--piece", "RN", "-n", "5"),
    "independent knights 3x5": ("independent", "--piece", "N", "--rows", "3", "--cols", "5"),
    "dominating queens": ("dominating-queens", "-n", "5"),
    "dominating knights": ("dominating", "--piece", "N", "-n", "4"),
}


def problem_of(args: tuple[str, ...]) -> Problem:
    """The problem the command-line words describe, parsed here without the CLI."""
    options: dict[str, str | int] = {}
    words = list(args[1:])
    while words:
        flag, value = words.pop(0), words.pop(0)
        key = flag.lstrip("-").replace("-", "_")
        options[key] = value if key == "piece" else int(value)
    return problem_from_options(args[0], **options)  # type: ignore[arg-type]


@cache
def optimum(args: tuple[str, ...]) -> int:
    """chessplace's proven optimum."""
    result = api.optimize(problem_of(args), solver="cpsat")
    assert result.status is Status.OPTIMAL and result.objective is not None
    return result.objective


def export(tmp_path: Path, fmt: str, *args: str) -> Path:
    target = tmp_path / f"model.{fmt}"
    assert main(["export", *args, "--format", fmt, "-o", str(target)]) == 0
    return target


def placement_of(problem: Problem, chosen: dict[str, list[str]]) -> Placement:
    """The placement of the squares each army holds, checked by chessplace's checker.

    The rules are checked on the problem with every count free; the counts are
    the caller's to check."""
    free = replace(
        problem,
        armies=tuple(replace(a, minimum=0, maximum=None, fixed=False) for a in problem.armies),
        equal_armies=False,
    )
    placement = Placement.from_squares(
        free, ([parse_square(s) for s in chosen.get(a.name, [])] for a in problem.armies)
    )
    assert placement.verify() == ()
    return placement


# --- DIMACS -------------------------------------------------------------------


def read_dimacs(path: Path) -> tuple[list[list[int]], dict[int, tuple[str, str]], list[str]]:
    """Clauses, the ``c var N ARMY SQUARE`` names, and the comment lines."""
    clauses: list[list[int]] = []
    names: dict[int, tuple[str, str]] = {}
    comments: list[str] = []
    declared = None
    for line in path.read_text().splitlines():
        if line.startswith("c"):
            comments.append(line)
            match = re.fullmatch(r"c var (\d+) (\w+) ([a-z]+\d+)", line)
            if match:
                names[int(match[1])] = (match[2], match[3])
        elif line.startswith("p cnf"):
            declared = [int(word) for word in line.split()[2:]]
        else:
            literals = [int(word) for word in line.split()]
            assert literals[-1] == 0
            clauses.append(literals[:-1])
    assert declared is not None and declared[1] == len(clauses)
    assert all(abs(lit) <= declared[0] for clause in clauses for lit in clause)
    return clauses, names, comments


def sat_placement(problem: Problem, path: Path) -> Placement | None:
    """PicoSAT's answer to the exported formula, read back as a placement."""
    pycosat = pytest.importorskip("pycosat")
    clauses, names, comments = read_dimacs(path)
    model = pycosat.solve(clauses)
    if model == "UNSAT":
        return None
    chosen: dict[str, list[str]] = {}
    for literal in model:
        if literal > 0 and literal in names:
            army, square = names[literal]
            chosen.setdefault(army, []).append(square)
    placement = placement_of(problem, chosen)
    trims = any("model: LineFormula" in line for line in comments)
    for army, size in zip(problem.armies, placement.army_sizes, strict=True):
        assert size >= army.minimum
        assert trims or army.maximum is None or size <= army.maximum
    return placement


@pytest.mark.parametrize("name", PUZZLES)
def test_dimacs_says_what_chessplace_says_at_the_optimum_and_past_it(
    tmp_path: Path, name: str
) -> None:
    args = PUZZLES[name]
    best = optimum(args)
    count = "--at-most" if problem_of(args).sense is Sense.MINIMIZE else "--at-least"
    past = best - 1 if count == "--at-most" else best + 1
    for value, expected in ((best, True), (past, False)):
        exact = (*args, count, str(value))
        problem = problem_of(exact)
        path = export(tmp_path, "dimacs", *exact)
        assert (sat_placement(problem, path) is not None) is expected, f"{count} {value}"
        verdict = api.solve(problem, solver="cpsat").status
        assert (verdict is Status.FEASIBLE) is expected


@pytest.mark.parametrize(
    ("args", "feasible"),
    [
        (("queens", "-n", "6"), True),
        (("queens", "-n", "3"), False),
        (("amazons", "-n", "6"), False),
        (("bishops", "-n", "5"), True),
        (("peaceable-queens", "-n", "5", "--exactly", "4"), True),
    ],
)
def test_dimacs_of_built_in_counts_with_and_without_symmetry_breaking(
    tmp_path: Path, args: tuple[str, ...], feasible: bool
) -> None:
    problem = problem_of(args)
    assert (api.solve(problem, solver="cpsat").status is Status.FEASIBLE) is feasible
    with_symmetry = export(tmp_path, "dimacs", *args)
    header = with_symmetry.read_text()
    assert "symmetry breaking: included" in header
    assert (sat_placement(problem, with_symmetry) is not None) is feasible
    without = tmp_path / "plain.cnf"
    assert main(["export", *args, "--format", "dimacs", "--no-symmetry", "-o", str(without)]) == 0
    assert "symmetry breaking: none" in without.read_text()
    assert len(read_dimacs(without)[0]) < len(read_dimacs(with_symmetry)[0])
    assert (sat_placement(problem, without) is not None) is feasible


# --- MiniZinc, LP, OPB ------------------------------------------------------


@pytest.mark.skipif(
    shutil.which("minizinc") is None, reason="needs minizinc (make test installs it)"
)
@pytest.mark.parametrize("name", PUZZLES)
def test_minizinc_with_gecode_finds_chessplaces_optimum(tmp_path: Path, name: str) -> None:
    args = PUZZLES[name]
    path = export(tmp_path, "mzn", *args)
    done = subprocess.run(
        ["minizinc", "--solver", "gecode", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "==========" in out  # the optimum is proven
    last = out.split("----------")[-2]
    chosen = {
        army: squares.split()
        for army, squares in re.findall(r"^(\w+):([a-z0-9 ]*)$", last, re.MULTILINE)
        if army != "objective"
    }
    objective = int(re.findall(r"^objective: (\d+)$", last, re.MULTILINE)[0])
    assert objective == optimum(args)
    problem = problem_of(args)
    placement = placement_of(problem, chosen)
    assert problem.objective(placement.army_sizes) == objective


HIGHS = """
import json, sys
import highspy
highs = highspy.Highs()
highs.setOptionValue("output_flag", False)
assert highs.readModel(sys.argv[1]) == highspy.HighsStatus.kOk
highs.run()
status = highs.modelStatusToString(highs.getModelStatus())
names = [highs.getColName(i)[1] for i in range(highs.getNumCol())]
values = highs.getSolution().col_value
chosen = [name for name, value in zip(names, values) if value > 0.5]
objective = highs.getInfo().objective_function_value
print(json.dumps({"status": status, "objective": objective, "chosen": chosen}))
"""
"""HiGHS in a process of its own: highspy and OR-Tools each bring a HiGHS library,
and the two cannot be loaded in one process."""


def solve_apart(script: str, path: Path) -> dict[str, Any]:
    """Run a solver script on ``path`` in a fresh interpreter; its JSON answer."""
    module = "highspy" if script is HIGHS else "pyscipopt"
    if importlib.util.find_spec(module) is None:
        pytest.skip(f"needs {module} (the dev extra)")
    done = subprocess.run(
        [sys.executable, "-c", script, str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    answer: dict[str, Any] = json.loads(done.stdout)
    return answer


@pytest.mark.parametrize("name", PUZZLES)
def test_lp_with_highs_finds_chessplaces_optimum(tmp_path: Path, name: str) -> None:
    args = PUZZLES[name]
    answer = solve_apart(HIGHS, export(tmp_path, "lp", *args))
    assert answer["status"] == "Optimal"
    assert answer["objective"] == pytest.approx(optimum(args))
    chosen: dict[str, list[str]] = {}
    for variable in answer["chosen"]:
        match = re.fullmatch(r"(\w+?)_([a-z]+\d+)", variable)
        if match:
            chosen.setdefault(match[1], []).append(match[2])
    problem = problem_of(args)
    assert problem.objective(placement_of(problem, chosen).army_sizes) == optimum(args)


@pytest.mark.parametrize(
    ("args", "status"),
    [(("queens", "-n", "4"), "Optimal"), (("queens", "-n", "3"), "Infeasible")],
)
def test_lp_checking_problem_with_highs(tmp_path: Path, args: tuple[str, ...], status: str) -> None:
    assert solve_apart(HIGHS, export(tmp_path, "lp", *args))["status"] == status


def read_opb(path: Path) -> tuple[int, int]:
    """Check the OPB grammar line by line; the header's variable and constraint counts."""
    lines = path.read_text().splitlines()
    header = re.fullmatch(r"\* #variable= (\d+) #constraint= (\d+)", lines[0])
    assert header is not None
    term = r"[+-]\d+ x(\d+)"
    used: set[int] = set()
    constraints = 0
    for line in lines[1:]:
        if line.startswith("*"):
            continue
        match = re.fullmatch(rf"(min: )?((?:{term} )+)(?:(>=|=) (-?\d+) )?;", line)
        assert match is not None, line
        used.update(int(v) for v in re.findall(r"x(\d+)", match[2]))
        constraints += match[1] is None
    assert max(used) <= int(header[1])
    assert constraints == int(header[2])
    return int(header[1]), constraints


SCIP = """
import json, sys
import pyscipopt
model = pyscipopt.Model()
model.hideOutput()
model.readProblem(sys.argv[1])
model.optimize()
print(json.dumps({"status": model.getStatus(), "objective": model.getObjVal()}))
"""


@pytest.mark.parametrize(
    "name",
    [
        "peaceable queens 3x5",
        "queens beside 2 white",
        "dominating queens",
        "independent chancellors",
    ],
)
def test_opb_and_lp_with_scip_find_chessplaces_optimum(tmp_path: Path, name: str) -> None:
    args = PUZZLES[name]
    sign = 1 if problem_of(args).sense is Sense.MINIMIZE else -1  # OPB minimises
    opb = export(tmp_path, "opb", *args)
    read_opb(opb)
    lp = export(tmp_path, "lp", *args)
    for path, expected in ((opb, sign * optimum(args)), (lp, optimum(args))):
        answer = solve_apart(SCIP, path)
        assert answer["status"] == "optimal"
        assert answer["objective"] == pytest.approx(expected)


# --- the command line -------------------------------------------------------


def test_export_writes_to_standard_output(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "queens", "-n", "4", "--format", "opb", "-o", "-"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("* #variable= 16 #constraint=")
    assert main(["export", "queens", "-n", "4", "--format", "dimacs"]) == 0
    assert "c var 1 white a1" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("queens", "-n", "4", "--format", "xml"), "invalid choice"),
        (("independent", "--piece", "Q", "-n", "4", "--format", "dimacs"), "give a count"),
        (("queens", "-n", "40", "--format", "dimacs"), "at most 1,024 squares"),
        (("queens", "-n", "65", "--format", "lp"), "too large"),
        (("queens", "-n", "4", "--format", "dimacs", "--encoding", "pairwise"), "encoding"),
        (("queens", "-n", "4", "--format", "lp", "--encoding", "totalizer"), "dimacs"),
        (
            ("independent", "--piece", "Q", "-n", "4", "--format", "lp", "--at-least", "10000000"),
            "at most",
        ),
        (
            ("queens", "-n", "4", "--format", "lp", "-o", "/nonexistent/dir/model.lp"),
            "cannot write",
        ),
        (("queens", "-n", "4", "--format", "lp", "-o", ""), "file name"),
        (("queens", "-n", "0", "--format", "lp"), "positive"),
    ],
)
def test_bad_input_is_one_line_and_exit_two(
    capsys: pytest.CaptureFixture[str], args: tuple[str, ...], message: str
) -> None:
    assert main(["export", *args]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and message in err


def test_a_failed_export_leaves_the_old_file_and_no_partial_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk filling up half way (raised here after the first lines) keeps what
    the file held and leaves no temporary file behind."""
    from chessplace.export import export_lines
    from chessplace.faces.cli import export as command

    target = tmp_path / "model.lp"
    target.write_text("before\n")

    def full_disk(*args: object, **options: object) -> Iterator[str]:
        lines = export_lines(*args, **options)  # type: ignore[arg-type]
        yield next(lines)
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(command, "export_lines", full_disk)
    code = main(["export", "queens", "-n", "4", "--format", "lp", "-o", str(target)])
    assert code == 2 and "No space left on device" in capsys.readouterr().err
    assert target.read_text() == "before\n" and sorted(tmp_path.iterdir()) == [target]


def test_export_writes_to_a_device_in_place(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["export", "queens", "-n", "4", "--format", "opb", "-o", "/dev/null"]) == 0
    assert Path("/dev/null").is_char_device()


def _blocked_queens(n: int, seed: int, count: int) -> tuple[str, ...]:
    """n queens on n×n with ``count`` random blocked squares (CSPLib's Blocked n-Queens)."""
    squares = [f"{chr(97 + f)}{r + 1}" for f in range(n) for r in range(n)]
    blocked = random.Random(seed).sample(squares, count)
    return ("queens", "-n", str(n), "--blocked", ",".join(blocked))


BLOCKED = [
    _blocked_queens(n, seed, count)
    for n, seed, count in [(5, 1, 4), (6, 2, 8), (6, 3, 14), (7, 4, 10), (8, 5, 24), (8, 6, 30)]
] + [
    ("queens", "-n", "6", "--blocked", "a1,a2,a3,a4,a5,a6"),  # a file with no free square
    ("queens", "-n", "3"),  # a pigeonhole: two queens fit, three lines need one each
]


def _problem_of_words(args: tuple[str, ...]) -> Problem:
    words = dict(zip(args[1::2], args[2::2], strict=False))
    return problem_from_options(args[0], n=int(words["-n"]), blocked=words.get("--blocked"))


@pytest.mark.parametrize("args", BLOCKED, ids=lambda args: " ".join(args[2:5])[:40])
def test_dimacs_of_blocked_queens_is_the_engines_line_formula_and_agrees_with_it(
    tmp_path: Path, args: tuple[str, ...]
) -> None:
    """The export writes the sat engine's formula, clause for clause: one clause per rank
    and per file over its free squares, no cardinality encoding; PicoSAT on it says what
    the sat and cpsat engines say."""
    problem = _problem_of_words(args)
    path = export(tmp_path, "dimacs", *args)
    clauses, names, comments = read_dimacs(path)
    assert clauses == formula_for(problem, None).clauses
    assert any("no cardinality encoding" in line for line in comments)
    assert not any(line.startswith("c cardinality encoding") for line in comments)
    var_of = {square: v for v, (_, square) in names.items()}
    present = {frozenset(clause) for clause in clauses}
    board = problem.board
    ranks = [[(f, r) for f in range(board.cols)] for r in range(board.rows)]
    files = [[(f, r) for r in range(board.rows)] for f in range(board.cols)]
    for line in ranks + files:
        free = frozenset(var_of[square_name(s)] for s in line if s not in problem.blocked)
        assert free in present or frozenset() in present
    for solver in ("sat", "cpsat"):
        verdict = api.solve(problem, solver=solver).status
        assert verdict in (Status.FEASIBLE, Status.INFEASIBLE)
        assert (sat_placement(problem, path) is not None) is (verdict is Status.FEASIBLE)


def test_the_blocked_instances_above_have_both_answers() -> None:
    verdicts = {api.solve(_problem_of_words(args), solver="cpsat").status for args in BLOCKED}
    assert verdicts == {Status.FEASIBLE, Status.INFEASIBLE}
