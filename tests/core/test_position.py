"""Blocked squares, pawns and given pieces: SAT and CP-SAT against a brute-force
enumerator written here (its own rays; no engine, encoding or checker code), the
checker against the same enumerator, and every other engine's refusal."""

from __future__ import annotations

import json
from dataclasses import replace
from itertools import combinations, product

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from chessplace import api
from chessplace.core.board import Board, Square
from chessplace.core.pieces import AMAZON, BISHOP, KNIGHT, QUEEN, ROOK, Piece, piece_from_text
from chessplace.core.placement import Placement
from chessplace.core.problem import Army, Problem
from chessplace.engines.base import Task
from chessplace.engines.registry import ENGINES
from chessplace.notation.options import problem_from_options
from chessplace.notation.puzzles import queens, queens_and_pawns

PIECES = (QUEEN, ROOK, BISHOP, KNIGHT, AMAZON, piece_from_text("W2F"))


def _hits(piece: Piece, start: Square, stops: set[Square], board: Board) -> set[Square]:
    """The squares ``piece`` on ``start`` attacks: every move's steps taken one by one,
    ending at the edge, at its reach, or on the first square in ``stops`` (included)."""
    found: set[Square] = set()
    for move in piece.moves:
        for dx, dy in move.directions:
            x, y = start
            steps = 0
            while move.reach is None or steps < move.reach:
                x, y, steps = x + dx, y + dy, steps + 1
                if not (0 <= x < board.cols and 0 <= y < board.rows):
                    break
                if (x, y) in stops:
                    found.add((x, y))
                    break
    return found


def _valid(problem: Problem, armies: list[set[Square]], pawns: set[Square]) -> bool:
    """The rules, stated from scratch: no piece or placed pawn on a blocked square, a
    given pawn or another piece; the given pieces present; counts; no attack that the
    rules forbid, rides stopped by any piece or pawn."""
    board = problem.board
    every = [s for squares in armies for s in squares]
    pawn_squares = set(problem.pawns) | pawns
    if len(set(every) | pawn_squares) != len(every) + len(pawn_squares):
        return False
    if (set(every) | pawns) & problem.blocked or len(pawns) != problem.free_pawns:
        return False
    for index, (army, squares) in enumerate(zip(problem.armies, armies, strict=True)):
        if not army.admits(len(squares)) or not problem.given_of(index) <= squares:
            return False
    stops = set(every) | pawn_squares
    for a, squares in enumerate(armies):
        for square in squares:
            for target in _hits(problem.armies[a].piece, square, stops, board):
                b = next((i for i, other in enumerate(armies) if target in other), None)
                if b is not None and (b != a or problem.independent):
                    return False
    return True


def _brute_count(problem: Problem) -> int:
    """Every placement, enumerated: one army (with pawns to place) or two armies."""
    squares = list(problem.board.squares())
    if len(problem.armies) == 1:
        army = problem.armies[0]
        assert army.maximum == army.minimum
        total = 0
        for pawns in combinations(squares, problem.free_pawns):
            for chosen in combinations(squares, army.minimum):
                total += _valid(problem, [set(chosen)], set(pawns))
        return total
    total = 0
    for owners in product((None, 0, 1), repeat=len(squares)):
        armies: list[set[Square]] = [set(), set()]
        for square, owner in zip(squares, owners, strict=True):
            if owner is not None:
                armies[owner].add(square)
        total += _valid(problem, armies, set())
    return total


@st.composite
def positions(draw: st.DrawFn, two_armies: bool = False) -> Problem:
    """A small board with random blocked squares, pawns and given pieces."""
    rows = draw(st.integers(2, 3 if two_armies else 5))
    cols = draw(st.integers(2, 3 if two_armies else 5))
    board = Board(rows, cols)
    squares = list(board.squares())
    roles = draw(st.lists(st.sampled_from("....bpg"), min_size=len(squares), max_size=len(squares)))
    blocked = {s for s, r in zip(squares, roles, strict=True) if r == "b"}
    pawns = {s for s, r in zip(squares, roles, strict=True) if r == "p"}
    given_squares = [s for s, r in zip(squares, roles, strict=True) if r == "g"]
    piece = draw(st.sampled_from(PIECES))
    if two_armies:
        count = draw(st.integers(1, 3))
        sides = draw(
            st.lists(st.integers(0, 1), min_size=len(given_squares), max_size=len(given_squares))
        )
        given = tuple(
            frozenset(s for s, side in zip(given_squares, sides, strict=True) if side == a)
            for a in (0, 1)
        )
        armies = tuple(Army(name, piece, count, count) for name in ("white", "black"))
        return Problem(
            "peaceable",
            board,
            armies,
            independent=False,
            blocked=frozenset(blocked),
            pawns=frozenset(pawns),
            given=given,
        )
    count = draw(st.integers(1, min(5, board.size - len(blocked) - len(pawns) or 1)))
    return Problem(
        "independent",
        board,
        (Army("white", piece, count, count),),
        blocked=frozenset(blocked),
        pawns=frozenset(pawns),
        given=(frozenset(given_squares),),
    )


def _agree(problem: Problem) -> None:
    expected = _brute_count(problem)
    counted = api.count(problem, solver="cpsat")
    assert counted.count == expected, problem
    for solver in ("sat", "cpsat"):
        result = api.solve(problem, solver=solver)
        assert (result.placement is not None) == (expected > 0), (solver, problem)
        if result.placement is not None:
            assert result.placement.verify() == ()
            assert _valid(
                problem, [set(a) for a in result.placement.armies], set(result.placement.pawns)
            )


@settings(max_examples=40)
@given(positions())
def test_one_army_agrees_with_brute_force(problem: Problem) -> None:
    _agree(problem)


@settings(max_examples=10)
@given(positions(two_armies=True))
def test_two_armies_agree_with_brute_force(problem: Problem) -> None:
    _agree(problem)


@settings(max_examples=60)
@given(positions(), st.data())
def test_the_checker_agrees_with_brute_force(problem: Problem, data: st.DataObject) -> None:
    """Random placements (pieces anywhere, blocked squares and pawns included) are
    valid for the checker exactly when they are for the rules stated here."""
    squares = list(problem.board.squares())
    chosen = data.draw(st.lists(st.sampled_from(squares), unique=True, max_size=6))
    placement = Placement.from_squares(problem, [chosen])
    assert (placement.verify() == ()) == _valid(problem, [set(chosen)], set())


@pytest.mark.parametrize(("n", "pawns", "expected"), [(4, 1, 0), (5, 1, 0), (6, 1, 16), (7, 1, 20)])
def test_queens_and_pawns_counts_match_brute_force_and_oeis(
    n: int, pawns: int, expected: int
) -> None:
    """A103330: n+1 queens and one pawn on n×n (0, 0, 16, 20 for n = 4..7)."""
    problem = queens_and_pawns(Board.square(n), pawns)
    assert api.count(problem, solver="cpsat").count == expected
    if n <= 4:
        assert _brute_count(problem) == expected
    result = api.solve(problem, solver="sat")
    assert (result.placement is not None) == (expected > 0)
    if result.placement is not None:
        assert len(result.placement.pawns) == pawns and result.placement.verify() == ()


def test_a_pawn_between_two_queens_stops_the_attack() -> None:
    problem = replace(queens(Board.square(4)), pawns=frozenset({(0, 1)}))
    between = Placement.from_squares(problem.with_counts(exactly=2), [[(0, 0), (0, 2)]])
    assert between.verify() == ()
    beside = Placement.from_squares(problem.with_counts(exactly=2), [[(0, 2), (0, 3)]])
    assert len(beside.verify()) == 1  # the two queens attack each other: one broken rule


def test_blocked_squares_let_rides_pass_and_givens_must_stay() -> None:
    problem = replace(
        queens(Board.square(4)).with_counts(exactly=2),
        blocked=frozenset({(0, 1)}),
        given=(frozenset({(3, 3)}),),
    )
    over = Placement.from_squares(problem, [[(0, 0), (0, 2)]])
    messages = [str(v) for v in over.verify()]
    assert "the given white queen on d4 is missing" in messages
    assert any("attack" in m for m in messages)
    on_blocked = Placement.from_squares(problem, [[(0, 1), (3, 3)]])
    assert [str(v) for v in on_blocked.verify()] == ["white piece on blocked a2"]


def test_symmetry_breaking_respects_the_position() -> None:
    """Only the symmetries that fix the given pieces are broken: the identity alone
    for a queen on b1, two for queens on a1 and f6 (the diagonal mirror and the
    identity; the half turn maps a1 onto f6 too)."""
    corners = replace(queens(Board.square(6)), given=(frozenset({(0, 0), (5, 5)}),))
    assert len(corners.symmetries()) == 4
    problem = replace(queens(Board.square(6)), given=(frozenset({(1, 0)}),))
    assert len(problem.symmetries()) == 1
    counted = api.count(problem, solver="cpsat").count
    assert counted == _count_with_b1()
    assert api.solve(problem, solver="sat").placement is not None


def _count_with_b1() -> int:
    """6-queens solutions with a queen on b1, by brute force over permutations."""
    from itertools import permutations

    return sum(
        1
        for perm in permutations(range(6))
        if perm[1] == 0
        and all(abs(perm[i] - perm[j]) != j - i for i in range(6) for j in range(i + 1, 6))
    )


def test_every_other_engine_refuses_a_position_with_its_reason() -> None:
    problem = replace(queens(Board.square(6)), blocked=frozenset({(0, 0)}))
    takers = set()
    for name, engine in ENGINES.items():
        for task in Task:
            reason = engine.refusal(problem, task)
            if reason is None:
                takers.add(name)
    assert takers == {"sat", "cpsat", "portfolio", "bitboard"}


def test_bad_positions_are_value_errors() -> None:
    base = queens(Board.square(4))
    with pytest.raises(ValueError, match="off the 4×4 board"):
        replace(base, pawns=frozenset({(4, 0)}))
    with pytest.raises(ValueError, match="blocked square and given white queen"):
        replace(base, blocked=frozenset({(0, 0)}), given=(frozenset({(0, 0)}),))
    with pytest.raises(ValueError, match="one army"):
        Problem("p", Board.square(4), (Army("w", QUEEN), Army("b", QUEEN)), free_pawns=1)


@pytest.mark.parametrize(
    "position",
    [
        {"given": "Qa1,qe2"},
        {"pawns": "c3", "blocked": "a5,e1"},
        {"given": "Qa1,Qe5"},
    ],
)
def test_sat_counts_by_class_as_cpsat_enumerates(position: dict[str, str]) -> None:
    """SAT counts two armies one symmetry class at a time: its group must be the one
    that keeps the position, or the class sizes would be wrong."""
    problem = problem_from_options("peaceable-queens", n=5, exactly=3, **position)  # type: ignore[arg-type]
    assert api.count(problem, solver="sat").count == api.count(problem, solver="cpsat").count


def _listed(problem: Problem, unique: bool = False) -> list[Placement]:
    """Every placement ``api.solutions`` lists, each verified, none twice."""
    listed = list(api.solutions(problem, unique=unique))
    for placement in listed:
        assert placement.verify() == (), placement
    keys = [(placement.armies, placement.pawns) for placement in listed]
    assert len(set(keys)) == len(keys)
    return listed


@settings(max_examples=30)
@given(positions())
def test_one_army_lists_as_many_as_brute_force_counts(problem: Problem) -> None:
    assert len(_listed(problem)) == _brute_count(problem)


@settings(max_examples=10)
@given(positions(two_armies=True))
def test_two_armies_list_as_many_as_brute_force_counts(problem: Problem) -> None:
    assert len(_listed(problem)) == _brute_count(problem)


def test_placed_pawns_are_listed_and_unique_lists_one_per_class() -> None:
    """A103330: 20 placements of 8 queens and a pawn on 7×7; the blocked a1 and the
    given queen keep only the diagonal mirror, so the classes are CP-SAT's."""
    every = _listed(queens_and_pawns(Board.square(7), 1))
    assert len(every) == 20 and all(len(p.pawns) == 1 for p in every)
    problem = problem_from_options("peaceable-queens", n=5, exactly=3, blocked=["a1"])
    counted = api.count(problem, unique=True, solver="cpsat")
    assert len(_listed(problem)) == counted.count
    assert len(_listed(problem, unique=True)) == counted.unique


def test_cli_lists_a_position_as_json_lines_and_counts_to_a_limit(
    capsys: pytest.CaptureFixture[str],
) -> None:
    from chessplace.faces.cli import main

    position = ["count", "queens", "-n", "8", "--blocked", "a1,h8", "--given", "Qd1"]
    assert main([*position, "--json"]) == 0
    expected = json.loads(capsys.readouterr().out)["count"]
    assert expected == 17
    assert main([*position, "--list"]) == 0
    lines = capsys.readouterr().out.splitlines()
    squares = [frozenset(p["square"] for p in json.loads(line)["pieces"]) for line in lines]
    assert len(set(squares)) == len(squares) == expected
    assert all("d1" in placement and not {"a1", "h8"} & placement for placement in squares)
    assert main([*position, "--limit", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["count"] == 1


def test_closing_a_listing_ends_the_enumeration_thread() -> None:
    """CP-SAT enumerates in a thread of its own: closing the stream stops and joins it."""
    import threading

    before = threading.active_count()
    problem = problem_from_options("peaceable-queens", n=8, exactly=6, blocked=["a1"])
    stream = api.solutions(problem)
    assert next(stream).verify() == ()
    assert threading.active_count() == before + 1
    stream.close()
    assert threading.active_count() == before


@st.composite
def equal_armies_with_givens(draw: st.DrawFn) -> Problem:
    """Two equal armies on a board of at most 3×3, given pieces uneven between them, and
    a count that is no exact size (at least or at most)."""
    problem = draw(positions(two_armies=True))
    if not any(problem.given):
        free = sorted(set(problem.board.squares()) - problem.blocked - problem.pawns)
        assume(free)
        problem = replace(problem, given=(frozenset(free[:1]), frozenset()))
    low = draw(st.integers(0, 2))
    high = draw(st.integers(max(low, 1), 4) if low == 0 else st.none() | st.integers(low, 4))
    armies = tuple(replace(a, minimum=low, maximum=high) for a in problem.armies)
    return replace(problem, armies=armies, equal_armies=True)


def _brute_equal_count(problem: Problem) -> int:
    squares = list(problem.board.squares())
    total = 0
    for owners in product((None, 0, 1), repeat=len(squares)):
        armies = [{s for s, o in zip(squares, owners, strict=True) if o == a} for a in (0, 1)]
        total += len(armies[0]) == len(armies[1]) and _valid(problem, armies, set())
    return total


@settings(max_examples=25, deadline=None)
@given(equal_armies_with_givens())
def test_equal_armies_keep_their_given_pieces_in_sat(problem: Problem) -> None:
    """SAT counts equal armies size by size and trims an answer to the smallest army:
    neither may lose a given piece (an army with two given pieces beside one with one
    counted 0 placements, and its answer dropped a given piece)."""
    expected = _brute_equal_count(problem)
    for solver in ("sat", "cpsat"):
        assert api.count(problem, solver=solver).count == expected, (solver, problem)
    found = api.solve(problem, solver="sat")
    assert (found.placement is not None) == (expected > 0)
    if found.placement is not None:
        assert found.placement.verify() == ()


@pytest.mark.parametrize(("option", "expected"), [("at_least", 19), ("at_most", 19)])
def test_two_given_queens_beside_one_count_alike_in_sat_and_cpsat(
    option: str, expected: int
) -> None:
    problem = problem_from_options(
        "peaceable-queens", n=5, given="Qa1,Qb1,qd5", **{option: 1 if option == "at_least" else 3}
    )
    for solver in ("sat", "cpsat"):
        assert api.count(problem, solver=solver).count == expected, solver
    found = api.solve(problem, solver="sat")
    assert found.placement is not None and found.placement.verify() == ()
