"""Star Battle deduction: room with pieces apart, the rules built on it, and a
short "what if" chain; every step agrees with the grid's one solution."""

from __future__ import annotations

import json
import random
from itertools import combinations

import pytest

from chessplace import api
from chessplace.core.board import Square
from chessplace.core.regions import touching
from chessplace.making import new_puzzle
from chessplace.notation.puzzles import region_puzzle
from chessplace.regions.deduction import State, next_step
from chessplace.regions.deduction import explain_from as explain
from chessplace.regions.room import EXACT_SQUARES, capacity

STAR_GRID = (  # a 10×10 two-star grid (made by the generator) with one solution
    "AAABCCCCCC",
    "AAABBBBBCC",
    "AAABBEFBCD",
    "AAEEEEFBDD",
    "EEEEGEFFFD",
    "EHHEGGGGFF",
    "HHHGGGGGFF",
    "HHHJIIIIIF",
    "HJJJJIIIFF",
    "HHJJJJJIII",
)


def _most_apart(squares: list[Square]) -> int:
    """Brute force: the largest subset with no two squares touching."""
    for size in range(len(squares), 0, -1):
        for chosen in combinations(squares, size):
            if not any(touching(a, b) for a, b in combinations(chosen, 2)):
                return size
    return 0


@pytest.mark.parametrize("seed", range(40))
def test_room_is_exact_on_small_sets(seed: int) -> None:
    rng = random.Random(seed)
    side = rng.choice([3, 4, 5])
    cells = [(f, r) for f in range(side) for r in range(side)]
    squares = rng.sample(cells, rng.randint(0, min(len(cells), 11)))
    assert capacity(frozenset(squares)) == _most_apart(squares)


def test_room_on_lines_and_line_pairs() -> None:
    assert capacity(frozenset({(0, 0), (1, 0), (2, 0)})) == 2  # three in a row: the ends
    assert capacity(frozenset({(0, 0), (1, 0)})) == 1
    two_ranks = frozenset((f, r) for f in range(10) for r in (4, 5))
    assert capacity(two_ranks) == 5  # five 2×2 blocks
    assert capacity(frozenset((0, r) for r in (0, 2, 4, 6))) == 4


def test_room_of_a_large_set_is_an_upper_bound() -> None:
    rng = random.Random(7)
    squares = rng.sample([(f, r) for f in range(12) for r in range(12)], EXACT_SQUARES + 5)
    picked: list[Square] = []  # a greedy non-touching subset: a lower bound
    for square in sorted(squares):
        if not any(touching(square, other) for other in picked):
            picked.append(square)
    assert capacity(frozenset(squares)) >= len(picked)


def _check_steps(rows: tuple[str, ...], stars: int) -> None:
    problem = region_puzzle("star-battle", rows, stars)
    assert problem.regions is not None
    found = list(api.solutions(problem))
    assert len(found) == 1
    solution = set(found[0].armies[0])
    explained = explain(problem.regions)
    for step in explained.steps:
        assert set(step.places) <= solution, step
        assert not set(step.empties) & solution, step
    assert explained.solved and set(explained.pieces) == solution


def test_a_line_holding_one_of_two_stars_is_not_confined_wrongly() -> None:
    """Ranks 7–9 lie within regions A, B, E here while rank 8 already holds a star:
    the ranks need five more, not six, so A, B and E's other squares keep theirs."""
    _check_steps(STAR_GRID, 2)


def test_the_star_rules_all_fire_and_stay_sound() -> None:
    problem = region_puzzle("star-battle", STAR_GRID, 2)
    assert problem.regions is not None
    rules = {step.rule for step in explain(problem.regions).steps}
    assert {"would cramp a unit", "short chain", "confined", "tight room"} <= rules


def test_a_stop_cuts_grading_short() -> None:
    problem = region_puzzle("star-battle", STAR_GRID, 2)
    assert problem.regions is not None
    calls = []
    cut = explain(problem.regions, stop=lambda: len(calls) > 3 or bool(calls.append(1)))
    assert cut.stopped and not cut.solved and len(cut.steps) <= 4


def test_explain_and_hint_honour_a_time_limit(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    """30×30 stripes with two stars per line have many solutions: the short chain
    would try all 900 squares; the time limit stops it with exit 3 and one line."""
    from string import ascii_letters

    from chessplace.faces.cli import main

    grid = tmp_path / "stripes.txt"
    grid.write_text("\n".join(ascii_letters[i] * 30 for i in range(30)) + "\n")
    for command in ("explain", "hint"):
        arguments = [command, "star-battle", "--stars", "2", "--grid", str(grid)]
        assert main([*arguments, "--time-limit", "0.3"]) == 3
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and "stopped" in err[0]


@pytest.mark.parametrize(("n", "stars"), [(3, 1), (7, 2), (11, 3)])
def test_sizes_whose_odd_files_would_stay_empty_are_refused(n: int, stars: int) -> None:
    """On an odd side with 2K = (n + 1) / 2, two neighbouring rows need every file
    a, c, e, …, so b, d, … get no piece: no such grid has a solution. A brute force
    over the rows of 7×7 with 2 per row agrees."""
    from chessplace.core.regions import check_room

    with pytest.raises(ValueError, match=r"odd-numbered files.*the smallest that can is"):
        check_room(n, stars)
    with pytest.raises(ValueError, match=r"odd-numbered files.*the smallest that can is"):
        new_puzzle.generate(
            "star-battle" if stars > 1 else "queens-game", n, stars=stars if stars > 1 else None
        )
    rows = [r for r in combinations(range(7), 2) if r[1] - r[0] > 1]
    counts = [0] * 7

    def fill(depth: int, previous: tuple[int, ...]) -> bool:
        if depth == 7:
            return all(c == 2 for c in counts)
        for row in rows:
            if any(abs(a - b) <= 1 for a in row for b in previous) or any(
                counts[f] >= 2 for f in row
            ):
                continue
            for f in row:
                counts[f] += 1
            if fill(depth + 1, row):
                return True
            for f in row:
                counts[f] -= 1
        return False

    assert not fill(0, ())


def test_twelve_by_twelve_three_stars_still_fit() -> None:
    from chessplace.core.regions import check_room

    check_room(12, 3)  # raises nothing: 12×12 3-star grids exist


def test_hint_refuses_pieces_off_the_board(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from chessplace.faces.cli import main

    grid = tmp_path / "grid.txt"
    grid.write_text("\n".join(STAR_GRID) + "\n")
    placed = tmp_path / "placed.json"
    for square in ("k1", "z99"):
        placed.write_text(json.dumps({"pieces": [{"square": square}]}))
        arguments = ["hint", "star-battle", "--stars", "2", "--grid", str(grid)]
        assert main([*arguments, "--placed", str(placed)]) == 2
        err = capsys.readouterr().err.strip().splitlines()
        assert len(err) == 1 and f"{square} is off the 10×10 board" in err[0]


def test_grids_read_from_a_json_answer_and_past_a_byte_order_mark(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from chessplace.faces.cli import main

    made = new_puzzle.generate("star-battle", 10, stars=2, seed=1)
    assert made.placement is not None and made.placement.problem.regions is not None
    rows = made.placement.problem.regions.rows
    answer = tmp_path / "made.json"
    assert (
        main(["generate", "star-battle", "-n", "10", "--stars", "2", "--seed", "1", "--json"]) == 0
    )
    answer.write_text(capsys.readouterr().out)
    bom = tmp_path / "bom.txt"
    bom.write_text("\ufeff" + "\n".join(rows) + "\n", encoding="utf-8")
    for path in (answer, bom):
        assert main(["solve", "star-battle", "--stars", "2", "--grid", str(path), "--json"]) == 0
        assert tuple(json.loads(capsys.readouterr().out)["grid"]) == rows


def test_an_unmet_difficulty_is_named_when_generation_stops(capsys) -> None:  # type: ignore[no-untyped-def]
    from chessplace.faces.cli import main

    arguments = ["generate", "star-battle", "-n", "10", "--stars", "2", "--seed", "1"]
    assert main([*arguments, "--difficulty", "medium", "--time-limit", "1"]) == 3
    err = capsys.readouterr().err
    assert "before a unique grid the rules solve at 'medium' was made" in err


@pytest.mark.parametrize("stars", [2, 3])
def test_an_easy_grid_with_several_stars_is_refused_at_once(capsys, stars: int) -> None:  # type: ignore[no-untyped-def]
    """The easy rules cannot make a first step with k > 1 stars per line: touching and
    unit full need a star placed, and last squares a unit with exactly k open squares,
    which only a region of k joined squares is at the start, and k > 1 joined squares
    hold two that touch. So asking is refused (exit 2), not run until the time limit."""
    from chessplace.faces.cli import main

    arguments = ["generate", "star-battle", "-n", "10", "--stars", str(stars)]
    assert main([*arguments, "--difficulty", "easy"]) == 2
    assert "is easy" in capsys.readouterr().err
    made = new_puzzle.generate("star-battle", 10, stars=2, seed=0)  # any grid: no easy first step
    regions = made.placement.problem.regions if made.placement else None
    assert regions is not None
    assert next_step(State(regions, {}), ceiling="easy") is None


def test_boards_past_file_z_label_files_as_squares_are_named() -> None:
    """File 27 is "aa": its first letter goes on a line above the last, and the drawing
    reads back unchanged (both label lines are skipped)."""
    from string import ascii_letters

    from chessplace.forms.text import parse_text, render_text

    problem = region_puzzle("star-battle", [ascii_letters[i] * 30 for i in range(30)], 2)
    found = api.solve(problem).placement
    assert found is not None
    drawn = render_text(found)
    firsts, lasts = drawn.splitlines()[-2:]
    assert firsts.split() == ["a"] * 4 and lasts.split()[-4:] == ["a", "b", "c", "d"]
    assert lasts.index("a b c d", 10) == firsts.index("a")
    assert parse_text(problem, drawn).armies == found.armies


def test_a_letter_other_than_the_region_label_is_refused_on_a_board() -> None:
    """A Q written for a crown was read as an empty square; now it is one clear error,
    while a drawing with region labels on its empty squares still reads back."""
    from chessplace.forms.text import parse_text, render_text

    problem = region_puzzle("star-battle", STAR_GRID, 2)
    found = api.solve(problem).placement
    assert found is not None
    drawn = render_text(found)
    assert parse_text(problem, drawn).armies == found.armies
    top = STAR_GRID[0]
    written = "\n".join(["Q" + "." * 9, *("." * 10 for _ in range(9))])
    with pytest.raises(ValueError, match=f"a10 shows 'Q', not its region's label '{top[0]}'"):
        parse_text(problem, written)


def test_the_command_line_hint_says_solved_once_every_star_is_placed(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    from chessplace.faces.cli import main
    from chessplace.forms.text import render_text

    problem = region_puzzle("star-battle", STAR_GRID, 2)
    found = api.solve(problem).placement
    assert found is not None
    grid, placed = tmp_path / "grid.txt", tmp_path / "placed.txt"
    grid.write_text("\n".join(STAR_GRID) + "\n")
    placed.write_text(render_text(found) + "\n")
    arguments = ["hint", "star-battle", "--stars", "2", "--grid", str(grid), "--placed"]
    assert main([*arguments, str(placed)]) == 0
    assert capsys.readouterr().out.startswith("solved: every piece is placed")
