"""The rules of a problem as constraints over 0/1 variables ``(army, square)``.

CP-SAT and SAT translate the same :class:`Rules` into their own APIs.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import combinations

from chessplace.core.attacks import (
    Line,
    bounded_pairs,
    bounded_paths,
    coverers,
    half_directions,
    parts_along,
    ride_lines,
)
from chessplace.core.board import Board, Square
from chessplace.core.pieces import Piece
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem

Literal = tuple[int, int]
"""A variable: ``(army, square index)``; army :data:`PAWN` is a pawn the answer places."""

PAWN = -1
"""The army number of a pawn's variable ``(PAWN, square)`` (pawns to place only)."""

Key = tuple[object, ...]
"""A variable of :attr:`Rules.clauses`: a :data:`Literal`, or an auxiliary one."""

Clause = tuple[tuple[Key, bool], ...]
"""At least one of ``(variable, value)`` holds."""


@dataclass(frozen=True)
class Rules:
    """Constraints shared by the model-based engines.

    - ``at_most_one``: groups of variables of which at most one is true
      (one army per square; one piece of an independent army per line);
    - ``exclusive_lines``: ``(a, b, line)``: armies ``a`` and ``b`` do not
      both have a piece on ``line``;
    - ``forbidden_pairs``: two variables that are not both true (leaps);
    - ``cover``: for domination, per square to dominate the variables that cover it;
    - ``exactly``: ``(group, k)``: exactly ``k`` of the group are true (the
      pawns to place);
    - ``bounded``: ``(group, at_least, at_most)``: the user's count rules
      (``at_most`` ``None``: no upper bound), and how many times each square to
      dominate is covered when that is not "at least once" (over auxiliary
      variables "this piece sees that square", defined in ``clauses``);
    - ``fixed``: variables with a set value: given pieces true, every piece on
      a blocked square or a given pawn false;
    - ``clauses``: further clauses, over auxiliary variables too: pawns to
      place cut lines as they stand (see :func:`_pawn_clauses`); with one-way
      attack rules, no forbidden attack in sight (see :func:`_sight_clauses`),
      in place of the line rules above.

    Given pawns are in the lines already: ``at_most_one``, ``exclusive_lines``,
    ``forbidden_pairs`` and ``cover`` use the segments between them.
    """

    armies: int
    squares: int
    at_most_one: tuple[tuple[Literal, ...], ...]
    exclusive_lines: tuple[tuple[int, int, Line], ...]
    forbidden_pairs: tuple[tuple[Literal, Literal], ...]
    cover: tuple[tuple[Literal, ...], ...]
    exactly: tuple[tuple[tuple[Literal, ...], int], ...] = ()
    bounded: tuple[tuple[tuple[Key, ...], int, int | None], ...] = ()
    fixed: tuple[tuple[Literal, bool], ...] = ()
    clauses: tuple[Clause, ...] = ()


def pawn_squares(problem: Problem) -> frozenset[int]:
    """The indices of the given pawns' squares."""
    return frozenset(problem.board.index(s) for s in problem.pawns)


def rules_of(problem: Problem) -> Rules:
    """The constraints that make a placement valid (counts not included, but for the
    pawns to place)."""
    board = problem.board
    armies = problem.armies
    pawns = pawn_squares(problem)
    groups: list[tuple[Literal, ...]] = []
    if len(armies) > 1:
        groups += [tuple((a, s) for a in range(len(armies))) for s in range(board.size)]
    pairs: set[tuple[Literal, Literal]] = set()
    exclusive: set[tuple[int, int, Line]] = set()
    free_pawns = problem.free_pawns > 0  # one independent army (Problem checks)
    for a, army in enumerate(armies):
        if problem.independent and not free_pawns and not problem.one_way:
            groups += [tuple((a, s) for s in line) for line in ride_lines(board, army.piece, pawns)]
            pairs.update(((a, s), (a, t)) for s, t in bounded_pairs(board, army.piece, pawns))
    for a, b in combinations(range(len(armies)), 2):
        if problem.one_way:
            break
        for piece in {armies[a].piece, armies[b].piece}:
            exclusive.update((a, b, line) for line in ride_lines(board, piece, pawns))
            for s, t in bounded_pairs(board, piece, pawns):
                pairs.add(((a, s), (b, t)))
                pairs.add(((a, t), (b, s)))
    cover: tuple[tuple[Literal, ...], ...] = ()
    if problem.dominating and not problem.cover_counted:
        targets = {board.index(s) for s in problem.squares_to_dominate}
        cover = tuple(
            tuple((0, s) for s in squares)
            for target, squares in enumerate(coverers(board, armies[0].piece, pawns))
            if target in targets
        )
    placed_pawns: tuple[tuple[tuple[Literal, ...], int], ...] = ()
    clauses: tuple[Clause, ...] = ()
    if free_pawns:
        free = [s for s in range(board.size) if s not in pawns]
        placed_pawns = (((tuple((PAWN, s) for s in free)), problem.free_pawns),)
        groups += [((0, s), (PAWN, s)) for s in free]
        clauses = tuple(_pawn_clauses(board, armies[0].piece, pawns))
    if problem.one_way:
        clauses = tuple(_sight_clauses(problem))
    covered: tuple[tuple[tuple[Key, ...], int, int | None], ...] = ()
    if problem.cover_counted:
        covered, definitions = _cover_counts(problem)
        clauses += definitions
    return Rules(
        armies=len(armies),
        squares=board.size,
        at_most_one=tuple(groups),
        exclusive_lines=tuple(sorted(exclusive)),
        forbidden_pairs=tuple(sorted(pairs)),
        cover=cover,
        exactly=placed_pawns,
        bounded=_count_groups(problem) + covered,
        fixed=_fixed(problem),
        clauses=clauses,
    )


@lru_cache(maxsize=8)  # the registry and the formula ask it of the same problem
def filled_lines(problem: Problem) -> tuple[tuple[tuple[Literal, ...], ...], ...]:
    """Per army, lines that must each hold one of its pieces, or none (``()``).

    An independent army has at most one piece on each segment of a ride line; the
    segments along one direction (one-square ones too) cut the free squares into
    parts, so an army that needs as many pieces as there are parts with a free square
    needs exactly one in each: the ranks and the files of n queens on n×n, whatever
    squares are blocked. The engines state that as one clause a part, which a solver propagates
    at once, where a cardinality bound over the whole board would cost it a search
    (the blocked n-queens instances of CSPLib prob080: seconds, not a minute), and an
    army that needs more pieces than there are parts has no placement: its lines are
    one empty part, a clause no assignment meets (where a cardinality bound would leave
    the solver a pigeonhole proof, exponential for resolution). Such an army's count
    follows from these lines: the engines leave it out. ``()`` for an army with no such
    direction, and for every army when pawns are to be placed.
    """
    board = problem.board
    if problem.free_pawns or not problem.independent or problem.one_way:
        return tuple(() for _ in problem.armies)
    pawns = pawn_squares(problem)
    closed = pawns | {board.index(s) for s in problem.blocked}
    found: list[tuple[tuple[Literal, ...], ...]] = []
    for a, army in enumerate(problem.armies):
        filled: list[tuple[Literal, ...]] = []
        for direction in half_directions(army.piece):
            parts = [
                tuple((a, s) for s in segment if s not in closed)
                for segment in parts_along(board, direction, pawns)
            ]
            parts = [part for part in parts if part]
            if len(parts) < army.minimum:  # no room for the army: no placement
                filled = [()]
                break
            if len(parts) == army.minimum:
                filled += parts
        found.append(tuple(filled))
    return tuple(found)


def counts_follow(problem: Problem) -> bool:
    """True when every army with a count has :func:`filled_lines` (so its count needs no
    cardinality bound), and at least one army has a count."""
    counted = [
        filled
        for army, filled in zip(problem.armies, filled_lines(problem), strict=True)
        if army.minimum or army.maximum is not None
    ]
    return bool(counted) and all(counted)


def _fixed(problem: Problem) -> tuple[tuple[Literal, bool], ...]:
    """Given pieces true; every army false on blocked squares and given pawns (and no
    pawn to place on them either)."""
    board = problem.board
    closed = sorted(board.index(s) for s in problem.blocked | problem.pawns)
    armies = range(len(problem.armies))
    fixed = [((a, s), False) for s in closed for a in armies]
    if problem.free_pawns:
        fixed += [((PAWN, board.index(s)), False) for s in sorted(problem.blocked)]
    fixed += [((a, board.index(s)), True) for a in armies for s in sorted(problem.given_of(a))]
    return tuple(fixed)


def _pawn_clauses(board: Board, piece: Piece, pawns: frozenset[int]) -> Iterable[Clause]:
    """One army with pawns to place: two pieces on a ride line need a pawn between them,
    two joined by a limited ride a pawn on its path; leaps are forbidden outright.

    Along each segment ``l_1 .. l_m`` of a line, ``seen_k`` is true exactly when a
    piece stands on some ``l_j``, ``j <= k``, with no pawn on ``l_j+1 .. l_k``:
    ``seen_k <-> x_k or (seen_k-1 and not p_k)``, and ``x_k`` forbids ``seen_k-1``
    (defined exactly, so that enumeration sees each placement once).
    """
    for number, line in enumerate(ride_lines(board, piece, pawns)):
        before: Key | None = None
        for k, s in enumerate(line):
            seen: Key = ("seen", number, k)
            x: Key = (0, s)
            p: Key = (PAWN, s)
            yield ((x, False), (seen, True))
            if before is None:
                yield ((seen, False), (x, True))
            else:
                yield ((seen, False), (x, True), (before, True))
                yield ((before, False), (p, True), (seen, True))
                yield ((seen, False), (x, True), (p, False))
                yield ((before, False), (x, False))
            before = seen
    for s, t, between in bounded_paths(board, piece, pawns):
        if set(between) & pawns:
            continue  # a given pawn stands on the path
        yield ((0, s), False), ((0, t), False), *(((PAWN, m), True) for m in between)


def _count_groups(problem: Problem) -> tuple[tuple[tuple[Key, ...], int, int | None], ...]:
    """The user's count rules as groups of variables with their bounds."""
    board, armies = problem.board, range(len(problem.armies))
    return tuple(
        (
            tuple(
                (a, board.index(square))
                for square in sorted(group.squares, key=lambda s: (s[1], s[0]))
                for a in (armies if group.army is None else (group.army,))
            ),
            group.rule.at_least,
            group.rule.at_most,
        )
        for group in problem.count_groups
    )


def _cover_counts(
    problem: Problem,
) -> tuple[tuple[tuple[tuple[Key, ...], int, int | None], ...], tuple[Clause, ...]]:
    """How many times each square to dominate is covered, as a bounded group per square:
    its own piece and ``("sees", s, t)``, true exactly when a piece on ``s`` attacks
    ``t`` (along some move whose squares between are empty, ``("clear", between)``);
    and the clauses that define those variables. One army (domination has one)."""
    board, low, high = problem.board, *problem.cover
    paths: dict[tuple[int, int], set[tuple[int, ...]]] = {}
    for s, t, between in _reaches(problem, problem.armies[0].piece):
        paths.setdefault((s, t), set()).add(tuple(sorted(between)))
    clauses: list[Clause] = []
    clear: set[tuple[int, ...]] = set()
    attackers: dict[int, list[Key]] = {}
    for (s, t), ways in sorted(paths.items()):
        sees: Key = ("sees", s, t)
        attackers.setdefault(t, []).append(sees)
        clauses.append(((sees, False), ((0, s), True)))
        if () in ways:  # a leap or a step: nothing can stand between
            clauses.append((((0, s), False), (sees, True)))
            continue
        for way in sorted(ways):
            if way not in clear:
                clear.add(way)
                flag: Key = ("clear", way)
                clauses += [((flag, False), ((0, m), False)) for m in way]
                clauses.append(((flag, True), *(((0, m), True) for m in way)))
            clauses.append((((0, s), False), (("clear", way), False), (sees, True)))
        clauses.append(((sees, False), *((("clear", way), True) for way in sorted(ways))))
    groups = tuple(
        (((0, t), *attackers.get(t, [])), low, high)
        for t in sorted(board.index(square) for square in problem.squares_to_dominate)
    )
    return groups, tuple(clauses)


def _sight_clauses(problem: Problem) -> Iterable[Clause]:
    """No piece sees a piece it may not attack: for a piece of army ``a`` on ``s`` and
    a square ``t`` its move reaches, "not a on s, or not b on t, or a piece stands
    between" for every army ``b`` that ``a`` may not attack. Rides stop at given pawns
    and pass over blocked squares, as the checker's do; leaps have nothing between."""
    armies = range(len(problem.armies))
    seen: set[frozenset[tuple[Key, bool]]] = set()
    for a, army in enumerate(problem.armies):
        targets = [b for b in armies if problem.forbids(a, b)]
        if not targets:
            continue
        for s, t, between in _reaches(problem, army.piece):
            occupied = tuple(((c, m), True) for m in between for c in armies)
            for b in targets:
                clause = ((a, s), False), ((b, t), False), *occupied
                key = frozenset(clause)
                if key not in seen:
                    seen.add(key)
                    yield clause


def _reaches(problem: Problem, piece: Piece) -> Iterator[tuple[int, int, tuple[int, ...]]]:
    """``(s, t, between)``: ``piece`` on ``s`` (a square that can hold it) reaches ``t``
    along one of its moves over the squares ``between`` (none for a leap). Rides stop
    at given pawns and pass over blocked squares, as the checker's do."""
    board, pawns = problem.board, problem.pawns
    for square in board.squares():
        if square in pawns or square in problem.blocked:
            continue
        s = board.index(square)
        for move in piece.moves:
            for dx, dy in move.directions:
                between: list[int] = []
                current: Square | None = square
                steps = 0
                while move.reach is None or steps < move.reach:
                    current = board.step(current, dx, dy) if current is not None else None
                    steps += 1
                    if current is None or current == square or current in pawns:
                        break
                    t = board.index(current)
                    yield s, t, tuple(between)
                    between.append(t)


def decode(problem: Problem, true_literals: list[Literal]) -> Placement:
    """The placement whose pieces (and pawns placed) are the true variables."""
    armies: list[list[Square]] = [[] for _ in problem.armies]
    pawns: list[Square] = []
    for army, square in true_literals:
        (pawns if army == PAWN else armies[army]).append(problem.board.at(square))
    return Placement.from_squares(problem, armies, pawns)
