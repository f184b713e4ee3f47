"""Random rule books (count rules over square sets and families, one-way attack pairs,
board regions, blocked squares, squares covered a set number of times) on boards up to
5×5 with up to 3 armies: every engine that accepts one, and the CPMpy bridge, agree
with a brute-force enumerator written here, which shares no code with chessplace's
checker or encodings (counts, feasibility, optima); every rule book reads back from
its problem file."""

from __future__ import annotations

from collections.abc import Callable, Container, Iterator
from dataclasses import replace
from functools import cache
from itertools import combinations
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from chessplace import api
from chessplace.core.board import Board, Square
from chessplace.core.pieces import Piece, piece_from_text
from chessplace.core.problem import Army, Problem, Sense
from chessplace.core.result import Status
from chessplace.core.rules import CountRule
from chessplace.engines.base import Task
from chessplace.engines.registry import ENGINES
from chessplace.export.cpmpy import from_cpmpy, to_cpmpy
from chessplace.notation.problemfile import from_text, to_text
from tests.conftest import assert_valid

PIECES = {name: piece_from_text(name) for name in ("Q", "R", "B", "N", "K")}
NAMES = ("white", "black", "red")


def _groups(problem: Problem, rule: CountRule) -> list[frozenset[Square]]:
    """The squares of each member of the rule's family, worked out from the board."""
    rows, cols = problem.board.rows, problem.board.cols
    if not isinstance(rule.squares, str):
        return [rule.squares]
    if rule.squares == "all":
        return [frozenset((f, r) for f in range(cols) for r in range(rows))]
    if rule.squares == "each rank":
        return [frozenset((f, r) for f in range(cols)) for r in range(rows)]
    if rule.squares == "each file":
        return [frozenset((f, r) for r in range(rows)) for f in range(cols)]
    assert problem.areas is not None
    letters: dict[str, set[Square]] = {}
    for r, row in enumerate(reversed(problem.areas)):
        for f, letter in enumerate(row):
            letters.setdefault(letter, set()).add((f, r))
    return [frozenset(squares) for squares in letters.values()]


@cache
def _open_rays(piece: Piece, start: Square, board: Board) -> tuple[tuple[Square, ...], ...]:
    """The squares ``piece`` on ``start`` reaches along each move on an empty board, in
    order, up to the edge or its reach (worked out once: the brute force asks again for
    every set of squares it tries)."""
    rays = []
    for move in piece.moves:
        for dx, dy in move.directions:
            ray: list[Square] = []
            x, y = start
            while move.reach is None or len(ray) < move.reach:
                x, y = x + dx, y + dy
                if not (0 <= x < board.cols and 0 <= y < board.rows):
                    break
                ray.append((x, y))
            rays.append(tuple(ray))
    return tuple(rays)


def _rays(
    piece: Piece, start: Square, occupied: Container[Square], board: Board
) -> Iterator[list[Square]]:
    """The squares ``piece`` on ``start`` reaches along each move, in order, up to the
    edge, its reach or the first occupied square (included)."""
    for open_ray in _open_rays(piece, start, board):
        ray: list[Square] = []
        for square in open_ray:
            ray.append(square)
            if square in occupied:
                break
        yield ray


def _sees(piece: Piece, start: Square, occupied: dict[Square, int], board: Board) -> list[int]:
    """The armies of the first pieces ``piece`` on ``start`` meets along each move."""
    return [
        occupied[ray[-1]]
        for ray in _rays(piece, start, occupied, board)
        if ray and ray[-1] in occupied
    ]


def _valid(problem: Problem, armies: list[set[Square]]) -> bool:
    occupied = {s: a for a, squares in enumerate(armies) for s in squares}
    names = [army.name for army in problem.armies]
    for a, squares in enumerate(armies):
        for square in squares:
            for b in _sees(problem.armies[a].piece, square, occupied, problem.board):
                if a == b and problem.independent:
                    return False
                if a != b and (
                    problem.no_attack is None or (names[a], names[b]) in problem.no_attack
                ):
                    return False
    for rule in problem.counts:
        counted = [a for a in range(len(armies)) if rule.army is None or names[a] == rule.army]
        for group in _groups(problem, rule):
            if not rule.admits(sum(len(group & armies[a]) for a in counted)):
                return False
    return True


def _placements(problem: Problem, sizes: list[range]) -> Iterator[list[set[Square]]]:
    """Every placement with army ``a`` holding a number of pieces in ``sizes[a]``."""
    free = [s for s in problem.board.squares() if s not in problem.blocked]

    def place(a: int, left: list[Square]) -> Iterator[list[set[Square]]]:
        if a == len(sizes):
            yield []
            return
        for k in sizes[a]:
            for chosen in combinations(left, k):
                rest = [s for s in left if s not in chosen]
                for others in place(a + 1, rest):
                    yield [set(chosen), *others]

    yield from place(0, free)


def _maps(rows: int, cols: int) -> list[Callable[[Square], Square]]:
    """The board's dihedral symmetries, written here: four, eight on a square board."""
    maps: list[Callable[[Square], Square]] = [
        lambda s: s,
        lambda s: (cols - 1 - s[0], rows - 1 - s[1]),
        lambda s: (cols - 1 - s[0], s[1]),
        lambda s: (s[0], rows - 1 - s[1]),
    ]
    if rows == cols:
        maps += [
            lambda s: (s[1], s[0]),
            lambda s: (rows - 1 - s[1], cols - 1 - s[0]),
            lambda s: (s[1], cols - 1 - s[0]),
            lambda s: (rows - 1 - s[1], s[0]),
        ]
    return maps


def _classes(problem: Problem, solutions: list[set[Square]]) -> int:
    """Solutions of one army up to the board's symmetries that map the problem onto
    itself: its blocked squares, and each rule's squares onto a member of a rule with
    the same army and bounds."""
    rules = {
        (rule.army, rule.at_least, rule.at_most, group)
        for rule in problem.counts
        for group in _groups(problem, rule)
    }
    kept = [
        g
        for g in _maps(problem.board.rows, problem.board.cols)
        if {g(s) for s in problem.blocked} == problem.blocked
        and {(a, lo, hi, frozenset(map(g, group))) for a, lo, hi, group in rules} == rules
    ]
    return len({min(tuple(sorted(map(g, solution))) for g in kept) for solution in solutions})


def _brute(problem: Problem, sizes: list[range]) -> list[list[set[Square]]]:
    return [p for p in _placements(problem, sizes) if _valid(problem, p)]


@st.composite
def rule_books(draw: st.DrawFn, exact: bool) -> tuple[Problem, list[range]]:
    """A problem with count rules and attack pairs; with ``exact`` every army has an
    exact size (for solve and count), else none (for optimize, on smaller boards)."""
    armies_count = draw(st.integers(1, 3))
    # boards whose every placement the brute force tries: with exact sizes a few
    # thousand; without, (armies + 1) ** squares, so smaller boards for more armies
    side = (5 if armies_count == 1 else 4) if exact else 5 - armies_count
    rows, cols = draw(st.integers(2, side)), draw(st.integers(2, side))
    if not exact and armies_count == 3:
        cols = 2
    board = Board(rows, cols)
    squares = sorted(board.squares())
    pieces = [draw(st.sampled_from(sorted(PIECES))) for _ in range(armies_count)]
    total = 3 if rows * cols > 16 else 4
    sizes = [draw(st.integers(0, 2)) for _ in range(armies_count)] if exact else []
    if exact and sum(sizes) > total:
        sizes = [min(k, 1) for k in sizes]
    armies = tuple(
        Army(NAMES[a], PIECES[p], sizes[a], sizes[a]) if exact else Army(NAMES[a], PIECES[p])
        for a, p in enumerate(pieces)
    )
    pairs = [(x, y) for x in NAMES[:armies_count] for y in NAMES[:armies_count] if x != y]
    no_attack = draw(
        st.none() | st.lists(st.sampled_from(pairs), unique=True) if pairs else st.none()
    )
    areas = tuple("".join(draw(st.sampled_from("AB")) for _ in range(cols)) for _ in range(rows))
    family = st.sampled_from(["all", "each rank", "each file", "each region"])
    subset = st.frozensets(st.sampled_from(squares), min_size=1, max_size=4)
    counts = []
    for _ in range(draw(st.integers(0 if exact else 1, 2))):
        low = draw(st.integers(0, 2))
        high = draw(st.none() | st.integers(low, low + 2))
        army = draw(st.none() | st.sampled_from(NAMES[:armies_count]))
        counts.append(CountRule(draw(family | subset), low, high, army))
    blocked = draw(st.frozensets(st.sampled_from(squares), max_size=2))
    problem = Problem(
        "rule book",
        board,
        armies,
        independent=draw(st.booleans()),
        blocked=blocked,
        counts=tuple(counts),
        no_attack=None if no_attack is None else tuple(no_attack),
        areas=areas,
    )
    free = rows * cols - len(blocked)
    ranges = [range(k, k + 1) for k in sizes] if exact else [range(free + 1)] * armies_count
    return problem, ranges


def _takers(problem: Problem, task: Task) -> list[str]:
    return [
        name
        for name, engine in ENGINES.items()
        if engine.available() and engine.refusal(problem, task) is None
    ]


SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(rule_books(exact=True))
def test_counts_and_answers_agree_with_brute_force(case: tuple[Problem, list[range]]) -> None:
    problem, sizes = case
    truth = _brute(problem, sizes)
    counters = _takers(problem, Task.COUNT)
    assert counters, problem.describe()
    for name in counters:
        assert api.count(problem, solver=name).count == len(truth), (name, problem.describe())
    if len(problem.armies) == 1:
        classes = _classes(problem, [p[0] for p in truth])
        for name in counters:
            result = api.count(problem, unique=True, solver=name)
            assert result.unique == classes, (name, problem.describe())
    model, _ = to_cpmpy(problem)
    assert model.solveAll() == len(truth), ("cpmpy", problem.describe())
    assert from_text(to_text(problem)) == problem
    assert from_text(to_text(problem, "toml"), "toml") == problem
    for name in _takers(problem, Task.SOLVE):
        result = api.solve(problem, solver=name)
        assert (result.status is Status.FEASIBLE) == bool(truth), (name, problem.describe())
        if result.placement is not None:
            assert_valid(result)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rule_books(exact=False))
def test_optima_agree_with_brute_force(case: tuple[Problem, list[range]]) -> None:
    problem, sizes = case
    truth = _brute(problem, sizes)
    best = max((sum(map(len, p)) for p in truth), default=None)
    for name in _takers(problem, Task.OPTIMIZE):
        result = api.optimize(problem, solver=name)
        if best is None:
            assert result.status is Status.INFEASIBLE, (name, problem.describe())
            continue
        assert (result.status, result.objective) == (Status.OPTIMAL, best), (
            name,
            problem.describe(),
        )
        assert_valid(result)


def test_a_rook_army_blocks_a_queen_it_may_be_attacked_by() -> None:
    """White queens may not attack black rooks, black rooks may attack white queens, and
    a rook between two white queens blocks them: chess attacks, not lines."""
    board = Board(1, 3)
    queen, rook = PIECES["Q"], PIECES["R"]
    problem = Problem(
        "blocking",
        board,
        (Army("white", queen, 2, 2), Army("black", rook, 1, 1)),
        no_attack=(("black", "white"),),
    )
    assert api.count(problem).count == len(_brute(problem, [range(2, 3), range(1, 2)])) == 0
    allowed = Problem(
        "blocking",
        board,
        (Army("white", queen, 2, 2), Army("black", rook, 1, 1)),
        no_attack=(("white", "black"),),
    )
    assert api.count(allowed).count == 0  # a white queen next to the rook attacks it
    free = Problem(
        "blocking", board, (Army("white", queen, 2, 2), Army("black", rook, 1, 1)), no_attack=()
    )
    result = api.count(free)
    assert result.count == len(_brute(free, [range(2, 3), range(1, 2)])) == 1  # Q R Q


@pytest.mark.parametrize(
    ("rule", "message"),
    [
        (CountRule("each region", 1, 1), "needs board regions"),
        (CountRule("all", 1, 1, "green"), "names army 'green'"),
        (CountRule(frozenset({(9, 9)}), 0, 1), "off the"),
    ],
)
def test_bad_rules_say_what_is_wrong(rule: CountRule, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        Problem("bad", Board.square(4), (Army("white", PIECES["Q"]),), counts=(rule,))


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (("each rank", 3, 1), "at least 3 and at most 1"),
        (("each rank", -1, None), "cannot be negative"),
        (("each diagonal", 1, 1), "unknown squares"),
        ((frozenset(), 1, 1), "at least one square"),
        (("all", 1.5, None), "whole number"),
        (("all", True, None), "whole number"),
    ],
)
def test_bad_bounds_say_what_is_wrong(arguments: tuple[object, ...], message: str) -> None:
    with pytest.raises(ValueError, match=message):
        CountRule(*arguments)  # type: ignore[arg-type]


def test_attack_rules_name_real_armies() -> None:
    with pytest.raises(ValueError, match="names army 'blue'"):
        Problem(
            "bad",
            Board.square(4),
            (Army("white", PIECES["Q"]), Army("black", PIECES["N"])),
            no_attack=(("white", "blue"),),
        )


def test_the_cpmpy_bridge_takes_a_rule_of_the_users_own() -> None:
    """The issue's recipe: 8 queens, at least two of them on four chosen squares."""
    queens = Problem("queens", Board.square(8), (Army("white", PIECES["Q"], 8, 8),))
    api.solve(queens, solver="cpsat")  # OR-Tools loaded first: CPMpy still loads
    model, x = to_cpmpy(queens)
    assert model.solveAll() == 92
    import cpmpy as cp

    model += cp.sum(x["white"][s] for s in ["a1", "b3", "c5", "d7"]) >= 2
    assert model.solve()
    placement = from_cpmpy(queens, x)
    assert placement.verify() == ()
    assert len(placement.armies[0] & {(0, 0), (1, 2), (2, 4), (3, 6)}) >= 2
    model += cp.sum(x["white"][s] for s in ["c3", "d4", "e5", "f6"]) >= 2  # one diagonal
    assert model.solveAll() == 0


def test_from_cpmpy_needs_a_solved_model() -> None:
    problem = Problem("queens", Board.square(4), (Army("white", PIECES["Q"], 4, 4),))
    _, x = to_cpmpy(problem)
    with pytest.raises(ValueError, match="solve it first"):
        from_cpmpy(problem, x)
    with pytest.raises(ValueError, match="no variables for army 'white'"):
        from_cpmpy(problem, {})


def _covers(problem: Problem, squares: set[Square]) -> bool:
    """Every square to dominate covered as often as ``problem.cover`` asks: once for its
    own piece, once for each piece that attacks it."""
    low, high = problem.cover
    piece, board = problem.armies[0].piece, problem.board
    times = {s: int(s in squares) for s in board.squares()}
    for square in squares:
        for target in {s for ray in _rays(piece, square, squares, board) for s in ray}:
            times[target] += 1
    return all(
        low <= times[s] and (high is None or times[s] <= high)
        for s in board.squares()
        if s not in problem.blocked
    )


@st.composite
def covers(draw: st.DrawFn) -> Problem:
    rows, cols = draw(st.integers(2, 4)), draw(st.integers(2, 4))
    board = Board(rows, cols)
    low = draw(st.integers(0, 2))
    high = draw(st.none() | st.integers(low, 2))
    piece = PIECES[draw(st.sampled_from(sorted(PIECES)))]
    blocked = draw(st.frozensets(st.sampled_from(sorted(board.squares())), max_size=2))
    return Problem(
        "cover",
        board,
        (Army("white", piece),),
        independent=draw(st.booleans()),
        dominating=True,
        sense=Sense.MINIMIZE,
        blocked=blocked,
        cover=(low, high),
    )


def _cover_sets(problem: Problem) -> list[set[Square]]:
    free = [s for s in problem.board.squares() if s not in problem.blocked]
    found = []
    for k in range(len(free) + 1):
        for chosen in combinations(free, k):
            squares = set(chosen)
            if _covers(problem, squares) and _valid(problem, [squares]):
                found.append(squares)
    return found


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(covers())
def test_squares_covered_a_set_number_of_times_agree_with_brute_force(problem: Problem) -> None:
    """Exact domination (perfect codes), k-domination and "at most k" covers."""
    truth = _cover_sets(problem)
    for name in _takers(problem, Task.COUNT):
        assert api.count(problem, solver=name).count == len(truth), (name, problem.describe())
    model, _ = to_cpmpy(problem)
    assert model.solveAll() == len(truth)
    assert from_text(to_text(problem)) == problem
    fewest = min((len(s) for s in truth), default=None)
    for name in _takers(problem, Task.OPTIMIZE):
        result = api.optimize(problem, solver=name)
        if fewest is None:
            assert result.status is Status.INFEASIBLE, (name, problem.describe())
        else:
            assert (result.status, result.objective) == (Status.OPTIMAL, fewest), name
            assert_valid(result)


def test_kings_cover_a_6x6_board_exactly_once_in_one_way() -> None:
    """The perfect code of the king's graph on 6×6: kings on b2, e2, b5, e5."""
    problem = Problem(
        "perfect kings",
        Board.square(6),
        (Army("white", PIECES["K"]),),
        independent=False,
        dominating=True,
        cover=(1, 1),
    )
    result = api.count(problem)
    assert result.count == 1
    assert result.placement is not None
    assert result.placement.armies[0] == {(1, 1), (4, 1), (1, 4), (4, 4)}
    twice = replace(problem, board=Board(3, 3), cover=(2, None))  # 2-domination
    assert api.count(twice).count == len(_cover_sets(twice)) > 0


@pytest.mark.parametrize(
    ("cover", "message"),
    [((2, 1), "no such number"), ((-1, None), "no such number"), ((1.5, None), "whole number")],
)
def test_bad_covers_say_what_is_wrong(cover: tuple[object, object], message: str) -> None:
    with pytest.raises((ValueError, TypeError), match=message):
        Problem(
            "bad",
            Board.square(4),
            (Army("white", PIECES["K"]),),
            dominating=True,
            cover=cover,  # type: ignore[arg-type]
        )


def test_why_names_a_minimal_set_of_count_rules() -> None:
    """Six queens on 6×6, one in the corner f6 (no 6-queens answer has one), two in the
    block a1-c3 (one answer has c1 and b3): the corner rule alone cannot be completed."""
    block = frozenset((f, r) for f in range(3) for r in range(3))
    corner = CountRule(frozenset({(5, 5)}), 1, 1)
    rules = (CountRule(block, 2, None), CountRule("each rank", 1, 1), corner)
    problem = Problem("why", Board.square(6), (Army("white", PIECES["Q"], 6, 6),), counts=rules)
    assert api.solve(problem).status is Status.INFEASIBLE
    conflict = api.why_not(problem)
    assert conflict is not None and not conflict.stopped
    assert conflict.rules == ("exactly 1 piece on f6",)
    assert conflict.describe(problem) == "exactly 1 piece on f6 cannot be completed"
    without = replace(problem, counts=rules[:2])
    assert api.solve(without).status is Status.FEASIBLE
    only = replace(problem, counts=(corner,))
    assert api.solve(only).status is Status.INFEASIBLE


def test_a_perfect_code_exports_as_a_linear_model_highs_solves(tmp_path: Path) -> None:
    """The LP export states covers with "sees" and "clear" variables: HiGHS finds the
    6×6 king code's 4 kings, and 9×9 (3×3 blocks) needs 9."""
    import highspy

    from chessplace.export import export_lines

    for n, kings in ((6, 4), (9, 9)):
        problem = Problem(
            "perfect kings",
            Board.square(n),
            (Army("white", PIECES["K"]),),
            independent=False,
            dominating=True,
            sense=Sense.MINIMIZE,
            cover=(1, 1),
        )
        path = tmp_path / f"kings{n}.lp"
        path.write_text("\n".join(export_lines(problem, "lp")) + "\n")
        highs = highspy.Highs()
        highs.setOptionValue("output_flag", False)
        assert highs.readModel(str(path)) == highspy.HighsStatus.kOk
        highs.run()
        assert highs.getModelStatus() == highspy.HighsModelStatus.kOptimal
        assert round(highs.getInfo().objective_function_value) == kings
