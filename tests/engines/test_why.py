"""``engines.support.why`` called directly: the set of givens and blocked squares it
names cannot be completed, and every strict subset of it can.

The judge is a brute force written here (n queens are one per rank and file: every
permutation, with its own diagonal test; no engine, encoding or checker code), and each
completion it finds is checked by ``Placement.verify()``."""

from __future__ import annotations

from dataclasses import replace
from itertools import combinations, permutations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from chessplace.core.board import Board, Square
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.rules import CountRule
from chessplace.engines.support.why import minimal_conflict
from chessplace.notation.puzzles import queens

pytest.importorskip("pysat", reason="why asks a SAT solver for its core")


def _completion(
    n: int, given: frozenset[Square], blocked: frozenset[Square]
) -> frozenset[Square] | None:
    """Brute force: n queens holding ``given`` and none of ``blocked``, or None."""
    for files in permutations(range(n)):
        squares = frozenset((f, r) for r, f in enumerate(files))
        if given <= squares and not squares & blocked and _no_diagonal(squares):
            return squares
    return None


def _no_diagonal(squares: frozenset[Square]) -> bool:
    return all(abs(a[0] - b[0]) != abs(a[1] - b[1]) for a, b in combinations(squares, 2))


def _position(n: int, given: frozenset[Square], blocked: frozenset[Square]) -> Problem:
    return replace(queens(Board.square(n)), given=(given,), blocked=blocked)


def _assert_completes(n: int, given: frozenset[Square], blocked: frozenset[Square]) -> None:
    """The brute force completes the position, and the checker accepts its placement."""
    squares = _completion(n, given, blocked)
    assert squares is not None, (n, sorted(given), sorted(blocked))
    problem = _position(n, given, blocked)
    assert Placement.from_squares(problem, [squares]).verify() == ()


@st.composite
def positions(draw: st.DrawFn) -> tuple[int, frozenset[Square], frozenset[Square]]:
    """A board of 5 or 6 a side, one to three given queens, up to eight blocked squares
    (about a third of them cannot be completed, by sets of one to three)."""
    n = draw(st.integers(5, 6))
    board = [(f, r) for f in range(n) for r in range(n)]
    chosen = draw(st.lists(st.sampled_from(board), min_size=1, max_size=9, unique=True))
    given = frozenset(chosen[: draw(st.integers(1, min(3, len(chosen))))])
    return n, given, frozenset(chosen) - given


@settings(max_examples=80, deadline=None)
@given(positions())
def test_the_named_set_is_a_minimal_conflict(
    position: tuple[int, frozenset[Square], frozenset[Square]],
) -> None:
    n, given, blocked = position
    conflict = minimal_conflict(_position(n, given, blocked))
    if conflict is None:
        _assert_completes(n, given, blocked)
        return
    assert not conflict.stopped and conflict.rules == ()
    named_given = frozenset(square for _, square in conflict.given)
    named_blocked = frozenset(conflict.blocked)
    assert named_given <= given and named_blocked <= blocked
    assert conflict.given or conflict.blocked  # n >= 5 queens fit on an empty board
    assert _completion(n, named_given, named_blocked) is None
    members = [("given", s) for s in sorted(named_given)]
    members += [("blocked", s) for s in sorted(named_blocked)]
    for size in range(len(members)):
        for subset in combinations(members, size):
            _assert_completes(
                n,
                frozenset(s for kind, s in subset if kind == "given"),
                frozenset(s for kind, s in subset if kind == "blocked"),
            )


def test_the_conflict_problem_holds_the_named_set_alone() -> None:
    """Queens on a1 and c3 attack each other: the pair is named, not the queen on h5 or
    the blocked e5 (either queen of the pair completes with them), and
    ``Conflict.problem`` keeps only the pair."""
    problem = queens(Board.square(8), given="Qa1,Qc3,Qh5", blocked="e5")
    for one in ((0, 0), (2, 2)):
        _assert_completes(8, frozenset({one, (7, 4)}), frozenset({(4, 4)}))
    conflict = minimal_conflict(problem)
    assert conflict is not None
    assert sorted(conflict.given) == [(0, (0, 0)), (0, (2, 2))] and conflict.blocked == ()
    assert conflict.describe(problem) == (
        "the given white queen on a1 and the given white queen on c3 cannot be completed"
    )
    alone = conflict.problem(problem)
    assert alone.given == (frozenset({(0, 0), (2, 2)}),) and alone.blocked == frozenset()


def test_a_count_rule_is_named_when_it_alone_cannot_be_met() -> None:
    """Five queens with none on rank 1 cannot be placed: the rule is the whole set, the
    given queen on c3 is left out, and without the rule the position completes."""
    rank_1 = frozenset((f, 0) for f in range(5))
    problem = queens(Board.square(5), given="Qc3", counts=[CountRule(rank_1, at_most=0)])
    conflict = minimal_conflict(problem)
    assert conflict is not None
    assert (conflict.given, conflict.blocked) == ((), ())
    assert conflict.rules == ("exactly 0 pieces on a1,b1,c1,d1,e1",)
    _assert_completes(5, frozenset({(2, 2)}), frozenset())


def test_a_position_with_an_answer_has_no_conflict() -> None:
    given = frozenset({(1, 0)})  # b1: a 6×6 solution starts there
    assert minimal_conflict(_position(6, given, frozenset())) is None
    _assert_completes(6, given, frozenset())


def test_a_stopped_shrinking_still_names_a_set_that_cannot_be_completed() -> None:
    """Stopped before shrinking, the set is the solver's first core: still a conflict,
    said to be not known minimal."""
    given = frozenset({(0, 0), (1, 2), (5, 5), (3, 4)})
    conflict = minimal_conflict(_position(6, given, frozenset()), stopped=lambda: True)
    assert conflict is not None and conflict.stopped
    named = frozenset(square for _, square in conflict.given)
    assert named <= given and _completion(6, named, frozenset(conflict.blocked)) is None
