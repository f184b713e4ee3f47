"""Region puzzles (Queens game, Star Battle): reading grids, engines against the
exhaustive oracle, the CLI (the grids ``generate`` makes are tested in tests/making)."""

from __future__ import annotations

import json
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from chessplace import api
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.faces.cli import main
from chessplace.forms.drawing import marked_svg
from chessplace.forms.text import parse_text, render_text
from chessplace.notation.puzzles import region_puzzle

# Hand-made grids, top row first, with their number of solutions (each also counted
# by the exhaustive oracle below).
GRIDS = [
    (("AAABBB", "AAACCD", "EAAADD", "EAAFDD", "EFFFFD", "EEEFFD"), 1),
    (("AAAAB", "AAABB", "CDEEB", "CCEEB", "CCEEB"), 1),
    (("AABBB", "AABBB", "ACCCB", "DDCCE", "DDDCE"), 3),
    (("AAABBB", "AACCDD", "AAACDE", "FFDDDE", "FFFDEE", "FFFDEE"), 6),
    (("AAAAB", "AAAAB", "ACDAB", "EEDBB", "EEDBB"), 0),
    (("AAABBB", "CCAABB", "CCAADE", "CCCCFE", "CCCFFE", "CCCFFE"), 0),
    (("AAAA", "BBBB", "CCCC", "DDDD"), 2),  # one region per rank: 2413 and 3142
]
STAR_GRID = ("AAAABBBB", "AAACBBDD", "AFCCCDDD", "FFCCCDDE")
STAR_GRID += ("FFFDDDEE", "FFGGGHEE", "FGGHHHHE", "GGGHHHHH")


def _queens(rows: tuple[str, ...]) -> Problem:
    return region_puzzle("queens-game", rows)


@pytest.mark.parametrize(("rows", "solutions"), GRIDS)
def test_counts_agree_with_the_oracle(rows: tuple[str, ...], solutions: int) -> None:
    problem = _queens(rows)
    oracle = api.count(problem, solver="exhaustive")
    assert oracle.count == solutions
    for solver in ("regions", "cpsat"):
        assert api.count(problem, solver=solver).count == solutions, solver
    listed = {p.armies[0] for p in api.solutions(problem)}
    assert len(listed) == solutions
    limited = api.count(problem, limit=2)
    assert limited.count == min(solutions, 2)
    assert limited.status.value == ("feasible" if solutions >= 2 else "complete")


@pytest.mark.parametrize(("rows", "solutions"), GRIDS[:5])
def test_solve_verdicts(rows: tuple[str, ...], solutions: int) -> None:
    for solver in ("regions", "sat", "exhaustive"):
        result = api.solve(_queens(rows), solver=solver)
        assert (result.placement is not None) == (solutions > 0), solver
        assert result.status.value == ("feasible" if solutions else "infeasible")
        if result.placement is not None:
            assert result.placement.verify() == ()


def test_star_battle_agrees_with_the_oracle() -> None:
    problem = region_puzzle("star-battle", STAR_GRID, stars=2)
    oracle = api.count(problem, solver="exhaustive")
    found = api.count(problem, solver="regions")
    assert found.count == oracle.count
    assert found.placement is not None and found.placement.verify() == ()
    assert len(found.placement) == 16


def test_verify_names_every_broken_rule() -> None:
    problem = _queens(("AABB", "AABB", "CCDD", "CCDD"))
    placement = Placement.from_squares(problem, [[(0, 0), (1, 1), (3, 3)]])
    found = [str(v) for v in placement.verify()]
    assert "crowns on a1 and b2 touch" in found
    assert "rank 3 has 0 crowns, it needs 1" in found
    assert "file c has 0 crowns, it needs 1" in found
    assert "region C has 2 crowns, it needs 1" in found
    assert {"region A has 0 crowns, it needs 1", "region D has 0 crowns, it needs 1"} <= set(found)
    assert len(found) == 6


def test_drawings_show_the_regions() -> None:
    problem = _queens(GRIDS[0][0])
    placement = api.solve(problem).placement
    assert placement is not None
    text = render_text(placement, ascii_only=True)
    assert text.splitlines()[0].split()[1:] == [
        "@" if (f, 5) in placement.armies[0] else GRIDS[0][0][0][f] for f in range(6)
    ]
    assert parse_text(problem, text) == placement
    svg = ET.fromstring(marked_svg(placement))
    fills = {r.get("fill") for r in svg.iter("{http://www.w3.org/2000/svg}rect")}
    assert len(fills) >= 1 + 6  # the frame and one colour per region
    assert any(g.get("class") == "walls" for g in svg.iter("{http://www.w3.org/2000/svg}g"))


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_cli_solve_count_verify_and_generate(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(" ".join(row) for row in GRIDS[2][0]) + "\n\n")
    code, out, _ = _run(capsys, "count", "queens-game", "--grid", str(grid), "--limit", "2")
    assert code == 0 and "2 placements" in out and "stopped at the limit" in out
    code, out, _ = _run(capsys, "solve", "queens-game", "--grid", str(grid), "--json")
    answer = json.loads(out)
    assert code == 0 and answer["grid"] == list(GRIDS[2][0]) and len(answer["pieces"]) == 5
    answer["pieces"] = answer["pieces"][:4]
    placement = tmp_path / "placement.json"
    placement.write_text(json.dumps(answer))
    code, out, _ = _run(capsys, "verify", "queens-game", "--grid", str(grid), str(placement))
    assert code == 1 and "✗ rank" in out and "it needs 1" in out
    code, out, _ = _run(capsys, "generate", "star-battle", "-n", "8", "--stars", "2", "--json")
    made = json.loads(out)
    assert code == 0 and len(made["grid"]) == 8 and len(made["pieces"]) == 16
    grid.write_text(json.dumps(made["grid"]))
    code, out, _ = _run(capsys, "count", "star-battle", "--grid", str(grid), "--stars", "2")
    assert code == 0 and "1 placement —" in out


def test_a_generated_grid_saved_from_stdout_reads_back(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """``generate > file`` keeps the grid alone; the solution goes to stderr."""
    code, out, err = _run(capsys, "generate", "queens-game", "-n", "6", "--seed", "3")
    assert code == 0 and "one solution, proven" in err and "proven" not in out
    grid = tmp_path / "grid.txt"
    grid.write_text(out)
    code, out, _ = _run(capsys, "count", "queens-game", "--grid", str(grid), "--limit", "2")
    assert code == 0 and "1 placement —" in out


def test_generate_shows_the_solution_only_when_asked(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = _run(capsys, "generate", "queens-game", "-n", "6", "--seed", "3")
    assert code == 0 and "♛" not in err and "♕" not in err
    code, _, err = _run(
        capsys, "generate", "queens-game", "-n", "6", "--seed", "3", "--show-solution"
    )
    assert code == 0 and ("♛" in err or "♕" in err)


def test_generate_waits_longer_by_default_for_three_stars_or_large_grids() -> None:
    from chessplace.faces.cli.regions import generate_limit

    assert generate_limit(None, None, 14) == generate_limit(None, 2, 10) == 60
    assert generate_limit(None, 3, 12) == generate_limit(None, 4, 14) == 300
    assert generate_limit(None, None, 15) == generate_limit(None, None, 17) == 300
    assert generate_limit(5.0, 3, 14) == generate_limit(5.0, None, 17) == 5.0


@pytest.mark.parametrize("limit", ["0", "-1", "nan", "inf", ""])
def test_generate_refuses_a_bad_time_limit(capsys: pytest.CaptureFixture[str], limit: str) -> None:
    code, _, err = _run(capsys, "generate", "queens-game", "-n", "6", "--time-limit", limit)
    assert code == 2 and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("grid", "extra", "message"),
    [
        ("AAB\nAB\nCCC\n", [], "row 2 has 2 cells"),
        ("AAA\nBBB\nBBB\n", [], "2 regions"),
        ("ABA\nBBB\nCCC\n", [], "region A is not connected"),
        ("AAAA\nBBBB\nCCCC\nDDDD\n", ["--stars", "2"], "stars are for star-battle"),
        ("", [], "the grid is empty"),
        ("AB\x07\nAB\nCC\n", [], "is not a region label"),
        ("A" * 70_000, [], "too long for the grid"),
        ('["AB", 3]', [], "list of strings"),
        ("AAAAAAA\n" * 7 + "BBBBBBB\n", [], "must be square"),
    ],
    ids=["ragged", "too-few", "split", "stars", "empty", "control", "huge", "json", "square"],
)
def test_bad_grids_are_one_line_and_exit_2(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    grid: str,
    extra: list[str],
    message: str,
) -> None:
    path = tmp_path / "grid.txt"
    path.write_text(grid)
    code, out, err = _run(capsys, "solve", "queens-game", "--grid", str(path), *extra)
    assert code == 2 and out == ""
    assert len(err.strip().splitlines()) == 1 and message in err, err


@pytest.mark.parametrize(
    ("rows", "message"),
    [
        (("AA", "BB"), "cannot stand in a row of 2 apart"),
        (tuple("ABCDEF"[r] * 6 for r in range(6)), "two neighbouring rows"),
        (("AAAAAAAA",) * 2 + tuple("BCDEFG"[r] * 8 for r in range(5)) + ("GGGGGGGH",), "H has no"),
    ],
    ids=["row", "pair", "small-region"],
)
def test_two_stars_must_fit(rows: tuple[str, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        region_puzzle("star-battle", rows, stars=2)


def test_a_real_process_refuses_a_bad_grid_from_stdin() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "chessplace", "count", "queens-game", "--grid", "-"],
        input="AB\nBA\n",
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "region" in done.stderr


def test_region_puzzles_export_as_the_count_rules_they_are(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A region puzzle is kings that do not touch with a count on each rank, file and
    region: its DIMACS model (no symmetry breaking) has as many models as it has answers."""
    import pycosat

    grid = tmp_path / "grid.txt"
    grid.write_text("AABBB\nAABBB\nCCDDD\nCCDEE\nCCDEE\n", encoding="utf-8")
    code, out, _ = _run(capsys, "count", "queens-game", "--grid", str(grid), "--json")
    answers = json.loads(out)["count"]
    code, out, _ = _run(
        capsys, "export", "queens-game", "--grid", str(grid), "--format", "dimacs", "--no-symmetry"
    )
    assert code == 0
    clauses = [
        [int(x) for x in line.split()[:-1]] for line in out.splitlines() if line[:1] not in "cp"
    ]
    squares, models = 25, 0
    while (model := pycosat.solve(clauses)) != "UNSAT":  # the squares' models, each once
        models += 1
        clauses.append([-v for v in model[:squares]])
    assert models == answers == 8


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (("solve", "queens-game", "--certificate", "cert"), "does not cover region puzzles"),
    ],
)
def test_certificates_refuse_regions(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, argv: tuple[str, ...], message: str
) -> None:
    """The certified formula holds no regions: saying so beats writing a certificate of
    a different puzzle."""
    grid = tmp_path / "grid.txt"
    grid.write_text("AAAA\nBBBB\nCCCC\nDDDD\n", encoding="utf-8")
    argv = tuple(str(tmp_path / a) if a == "cert" else a for a in argv)
    code, out, err = _run(capsys, *argv, "--grid", str(grid))
    assert (code, out) == (2, "")
    assert message in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "cert").exists()


def test_the_certified_formula_refuses_regions() -> None:
    """The library's own door, not only the command line's: the checker's formula has no
    regions, so a region problem must not become a certificate of another puzzle."""
    from chessplace.certificates.writer.certificate import CannotCertify, spec_of

    with pytest.raises(CannotCertify, match="region puzzles"):
        spec_of(_queens(("AAAA", "BBBB", "CCCC", "DDDD")))


def test_a_board_drawn_on_digit_labels_reads_back(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """Region labels that are digits are squares, not rank labels or army numbers."""
    code, out, _ = _run(capsys, "generate", "queens-game", "-n", "6", "--seed", "3")
    grid = tmp_path / "digits.txt"
    grid.write_text(out.translate(str.maketrans("ABCDEF", "123456")))
    code, drawn, _ = _run(capsys, "solve", "queens-game", "--grid", str(grid))
    top = drawn.splitlines()[0][2:].split()  # past the rank label: the squares
    assert code == 0 and len(top) == 6 and sum(label.isdigit() for label in top) == 5
    board = tmp_path / "board.txt"
    board.write_text(drawn)
    code, out, err = _run(capsys, "verify", "queens-game", "--grid", str(grid), str(board))
    assert code == 0 and out.rstrip().endswith("valid"), err
    label = grid.read_text().split()[0][top.index("♛")]  # the top crown's region
    board.write_text(drawn.replace("♛", label, 1))  # one crown fewer: named, not misread
    code, out, _ = _run(capsys, "verify", "queens-game", "--grid", str(grid), str(board))
    assert code == 1 and "it needs 1" in out


def test_verify_json_carries_the_grid(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, _ = _run(capsys, "generate", "queens-game", "-n", "6", "--seed", "3")
    grid = tmp_path / "grid.txt"
    grid.write_text(out)
    code, answer, _ = _run(capsys, "solve", "queens-game", "--grid", str(grid), "--json")
    placement = tmp_path / "answer.json"
    placement.write_text(answer)
    code, out, _ = _run(
        capsys, "verify", "queens-game", "--grid", str(grid), str(placement), "--json"
    )
    verdict = json.loads(out)
    assert code == 0 and verdict["status"] == "valid"
    assert verdict["grid"] == json.loads(answer)["grid"] and verdict["stars"] == 1


@pytest.mark.parametrize("solver", ["regions", "cpsat", "exhaustive"])
def test_unique_uses_the_symmetries_that_map_the_grid_onto_itself(solver: str) -> None:
    """Stripes (one region per rank) are mapped onto themselves by the mirrors and the
    half turn: the two 4×4 placements are mirror images, one class; 5×5 has 14 in 4."""
    stripes4 = region_puzzle("queens-game", ["AAAA", "BBBB", "CCCC", "DDDD"])
    assert len(stripes4.symmetries()) == 4
    found = api.count(stripes4, unique=True, solver=solver)
    assert (found.count, found.unique) == (2, 1)
    stripes5 = region_puzzle("queens-game", ["AAAAA", "BBBBB", "CCCCC", "DDDDD", "EEEEE"])
    found = api.count(stripes5, unique=True, solver=solver)
    assert (found.count, found.unique) == (14, 4)


def test_a_grid_without_symmetry_counts_every_placement_as_its_own_class() -> None:
    rows, solutions = GRIDS[0]
    grid = region_puzzle("queens-game", rows)
    assert len(grid.symmetries()) == 1
    found = api.count(grid, unique=True)
    assert found.count == found.unique == solutions


def test_region_colours_stay_apart_and_keep_ink_readable() -> None:
    """The first n colours (a grid of n regions) are far apart in CIELAB, every colour
    gives dark ink at least 4.5:1 contrast, and no colour repeats within 62 regions."""
    from itertools import combinations
    from math import dist

    from chessplace.forms import svg as svgboard

    palette = svgboard.region_palette()
    assert len(set(palette)) == len(palette) == 62
    points = [svgboard._lab(svgboard._rgb(colour)) for colour in palette]
    for n, apart in ((9, 30), (17, 20), (62, 10)):
        assert min(dist(a, b) for a, b in combinations(points[:n], 2)) >= apart
    ink = svgboard._luminance(svgboard._rgb(svgboard.INK))
    for colour in palette:
        assert (svgboard._luminance(svgboard._rgb(colour)) + 0.05) / (ink + 0.05) >= 4.5


@pytest.mark.parametrize(("n", "stars", "smallest"), [(3, 1, 4), (2, 1, 4), (5, 2, 8)])
def test_a_grid_too_small_says_why_and_the_smallest_that_works(
    capsys: pytest.CaptureFixture[str], n: int, stars: int, smallest: int
) -> None:
    puzzle = "queens-game" if stars == 1 else "star-battle"
    extra = [] if stars == 1 else ["--stars", str(stars)]
    code, out, err = _run(capsys, "generate", puzzle, "-n", str(n), *extra)
    assert code == 2 and out == "" and err.count("\n") == 1, err
    assert f"no {n}×{n} grid can hold {stars} per row" in err
    assert f"the smallest that can is {smallest}×{smallest}" in err
