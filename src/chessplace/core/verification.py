"""The checker every answer goes through: :meth:`Placement.verify`.

It works from the pieces' movement data and real chess attacks (a rider
stops at the first piece in its way) and shares no code with the solvers,
so a solver bug cannot hide itself. Unlimited rides are checked by grouping
pieces per line with NumPy, where only neighbours can attack each other, so
a million queens take about two seconds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from itertools import chain
from typing import Protocol

import numpy as np

from chessplace.core.betza import Vector
from chessplace.core.board import Board, Square, file_name, square_name
from chessplace.core.pieces import Piece
from chessplace.core.problem import Problem, whole_number
from chessplace.core.violations import Attack, PlacedPiece, RuleBreak, Touch, Violation

_FAR = 2**40
"""More steps than any board has."""


Occupant = dict[Square, int]
"""Square → index of the army on it, or :data:`PAWN` for a pawn."""

PAWN = -1
"""The occupant of a pawn's square: it stops rides and attacks nothing."""


class Placement(Protocol):
    """What the checker reads of a placement (:class:`chessplace.core.placement.Placement`
    has it; the checker never builds one, so it imports nothing of placements)."""

    @property
    def problem(self) -> Problem: ...

    @property
    def armies(self) -> tuple[frozenset[Square], ...]: ...

    @property
    def army_sizes(self) -> tuple[int, ...]: ...

    @property
    def pawns(self) -> frozenset[Square]: ...


def violations(placement: Placement) -> tuple[Violation, ...]:
    """Every broken rule: overlaps, off-board pieces, pieces on blocked squares or pawns,
    given pieces missing, counts, attacks, uncovered squares; for region puzzles the
    counts of each rank, file and region and touching pieces."""
    occupant, breaks = _occupancy(placement)
    if breaks:
        return tuple(breaks)
    found: list[Violation] = _position_breaks(placement)
    if placement.problem.regions is not None:  # its ranks' counts say what the total would
        found += _region_breaks(placement, occupant)
        found += _touches(_illegal_attacks(placement, occupant))
    else:
        found += _count_breaks(placement)
        found += _illegal_attacks(placement, occupant)
    if placement.problem.cover_counted:
        found += _miscovered(placement, occupant)
    elif placement.problem.dominating:
        found += _uncovered(placement, occupant)
    return tuple(found)


def _is_square(square: object) -> bool:
    """A pair of whole numbers, NumPy's too (a hand-built placement may hold anything)."""
    if type(square) is tuple and len(square) == 2:
        x, y = square
        return (type(x) is int and type(y) is int) or (_whole(x) and _whole(y))  # ints first
    return False


def _whole(coordinate: object) -> bool:
    try:
        whole_number(coordinate, "a coordinate")
    except TypeError:
        return False
    return True


def _occupancy(placement: Placement) -> tuple[Occupant, list[Violation]]:
    problem = placement.problem
    board = problem.board
    if len(placement.armies) != len(problem.armies):
        return {}, [
            RuleBreak(
                f"{len(placement.armies)} armies given, the problem has {len(problem.armies)}"
            )
        ]
    occupant: Occupant = {}
    breaks: list[Violation] = []
    placed_pawns = placement.pawns
    groups = [(PAWN, "pawn", problem.pawns | placed_pawns)]
    groups += [(i, army.name, placement.armies[i]) for i, army in enumerate(problem.armies)]
    for index, name, squares in groups:
        for square in squares:
            if not _is_square(square):
                breaks.append(RuleBreak(f"{name} piece on {square!r}: not two whole numbers"))
            elif not board.contains(square):
                breaks.append(
                    RuleBreak(
                        f"{name} piece on {square_name(square)} is off the {board} board",
                        (square,),
                    )
                )
            elif square in problem.blocked:
                breaks.append(
                    RuleBreak(f"{name} piece on blocked {square_name(square)}", (square,))
                )
            elif square in occupant:
                other = (
                    "pawn" if occupant[square] == PAWN else problem.armies[occupant[square]].name
                )
                breaks.append(
                    RuleBreak(f"{square_name(square)} holds both {other} and {name}", (square,))
                )
            else:
                occupant[square] = index
    return occupant, breaks


def _position_breaks(placement: Placement) -> list[Violation]:
    """Given pieces missing from the placement, and a wrong number of placed pawns."""
    problem = placement.problem
    breaks: list[Violation] = []
    for index, army in enumerate(problem.armies):
        for square in sorted(problem.given_of(index) - placement.armies[index]):
            breaks.append(
                RuleBreak(
                    f"the given {army.name} {army.piece.name} on {square_name(square)} is missing",
                    (square,),
                )
            )
    placed = len(placement.pawns)
    if placed != problem.free_pawns:
        breaks.append(RuleBreak(f"{placed} pawns placed, the problem asks {problem.free_pawns}"))
    return breaks


def _count_breaks(placement: Placement) -> list[Violation]:
    problem = placement.problem
    sizes = placement.army_sizes
    breaks: list[Violation] = [
        RuleBreak(f"{army.name} has {size} pieces, the problem asks {army.describe_count()}")
        for army, size in zip(problem.armies, sizes, strict=True)
        if not army.admits(size)
    ]
    if problem.equal_armies and len(set(sizes)) > 1:
        listed = ", ".join(f"{a.name} {n}" for a, n in zip(problem.armies, sizes, strict=True))
        breaks.append(RuleBreak(f"armies must be equal: {listed}"))
    for group in problem.count_groups:
        armies = range(len(sizes)) if group.army is None else (group.army,)
        held = sum(len(group.squares & placement.armies[a]) for a in armies)
        if not group.rule.admits(held):
            noun = "piece" if held == 1 else "pieces"
            who = noun if group.army is None else f"{problem.armies[group.army].name} {noun}"
            squares = tuple(sorted(group.squares & frozenset().union(*placement.armies)))
            breaks.append(
                RuleBreak(
                    f"{group.label} holds {held} {who}, the rule asks {group.rule.bounds}", squares
                )
            )
    return breaks


def _region_breaks(placement: Placement, occupant: Occupant) -> list[Violation]:
    """Every rank, file and region that does not hold exactly ``per_line`` pieces."""
    regions = placement.problem.regions
    assert regions is not None
    n, want = regions.size, regions.per_line
    piece = placement.problem.armies[0].piece.name
    ranks, files, areas = [0] * n, [0] * n, [0] * n
    for square in occupant:
        files[square[0]] += 1
        ranks[square[1]] += 1
        areas[regions.region_of(square)] += 1
    lines = (
        [(f"rank {r + 1}", ranks[r]) for r in range(n)]
        + [(f"file {file_name(f)}", files[f]) for f in range(n)]
        + [(f"region {regions.labels[g]}", areas[g]) for g in range(n)]
    )
    return [
        RuleBreak(f"{where} has {held} {piece}{'s' if held != 1 else ''}, it needs {want}")
        for where, held in lines
        if held != want
    ]


def _touches(attacks: list[Violation]) -> list[Violation]:
    """The attacks of a region puzzle's pieces, each touching pair once."""
    found: list[Violation] = []
    for attack in attacks:
        assert isinstance(attack, Attack)
        if attack.attacker.square[::-1] < attack.victim.square[::-1]:
            found.append(Touch(attack.attacker, attack.victim))
    return found


def _illegal_attacks(placement: Placement, occupant: Occupant) -> list[Violation]:
    problem = placement.problem
    found: set[tuple[Square, Square]] = set()
    for attacker, victim in _direct_attacks(placement, occupant):
        if problem.forbids(occupant[attacker], occupant[victim]):
            found.add((attacker, victim))

    def placed(square: Square) -> PlacedPiece:
        army = problem.armies[occupant[square]]
        return PlacedPiece(army.name, army.piece, square)

    def first(pair: tuple[Square, Square]) -> tuple[Square, Square]:
        return pair[0][::-1], pair[1][::-1]

    # Two pieces that attack each other break one rule: kept once, from the lower square.
    kept = {(a, v) for a, v in found if (v, a) not in found or first((a, v)) < first((v, a))}
    return [
        Attack(placed(attacker), placed(victim), mutual=(victim, attacker) in found)
        for attacker, victim in sorted(kept, key=first)
    ]


def _direct_attacks(placement: Placement, occupant: Occupant) -> Iterator[tuple[Square, Square]]:
    """Every ``(attacker, victim)`` pair of direct attacks, blockers respected."""
    problem = placement.problem
    board = problem.board
    pieces = [army.piece for army in problem.armies]
    for square, army in occupant.items():
        if army == PAWN:
            continue
        for move in pieces[army].moves:
            if move.reach is not None:
                for target in _first_hits(square, move.directions, move.reach, occupant, board):
                    if occupant[target] != PAWN:
                        yield square, target
    riders = [piece.ride_directions for piece in pieces]
    directions = {_half(d) for ride in riders for d in ride}
    if not directions:
        return
    if board.shape.joined:
        for square, army in occupant.items():
            if army == PAWN:
                continue
            for target in _first_hits(square, riders[army], None, occupant, board):
                if occupant[target] != PAWN:
                    yield square, target
        return
    squares = list(occupant)
    flat = np.fromiter(chain.from_iterable(squares), dtype=np.int64, count=2 * len(squares))
    coordinates = flat.reshape(-1, 2)  # a million pairs: 0.44 s, against 0.80 s by np.array
    for direction in sorted(directions):
        for first, second in _line_neighbours(coordinates, direction, board):
            a, b = squares[first], squares[second]
            if PAWN in (occupant[a], occupant[b]):
                continue  # a pawn stops the ride and is not attacked
            if direction in riders[occupant[a]]:
                yield a, b
            if direction in riders[occupant[b]]:
                yield b, a


def _first_hits(
    start: Square,
    directions: frozenset[Vector],
    reach: int | None,
    occupant: Occupant,
    board: Board,
) -> Iterator[Square]:
    """The first other occupied square within ``reach`` steps (``None``: any number)
    in each direction."""
    for dx, dy in directions:
        for square in _ray(start, dx, dy, reach, board):
            if square in occupant:
                if square != start:
                    yield square
                break


def _ray(start: Square, dx: int, dy: int, reach: int | None, board: Board) -> Iterator[Square]:
    """The squares ``reach`` steps (``None``: any number) from ``start``, in order, until
    the edge or, round a board whose shape joins its edges, ``start`` again (which ends
    the ray)."""
    square: Square | None = start
    steps = 0
    while reach is None or steps < reach:
        square = board.step(square, dx, dy) if square is not None else None
        steps += 1
        if square is None:
            return
        yield square
        if square == start:
            return


def _half(direction: Vector) -> Vector:
    """One representative of the pair ``direction``, ``-direction``."""
    dx, dy = direction
    return direction if direction > (0, 0) else (-dx, -dy)


def _line_neighbours(
    coordinates: np.ndarray, direction: Vector, board: Board
) -> Iterator[tuple[int, int]]:
    """Index pairs of pieces next to each other on a line of steps ``direction``."""
    if len(coordinates) < 2:
        return
    dx, dy = direction
    x, y = coordinates[:, 0], coordinates[:, 1]
    back = np.minimum(_steps_back(x, dx, board.cols), _steps_back(y, dy, board.rows))
    start_x, start_y = x - back * dx, y - back * dy
    line = start_x * (board.rows + 1) + start_y
    order = np.lexsort((back, line))
    same = line[order][1:] == line[order][:-1]
    yield from zip(order[:-1][same].tolist(), order[1:][same].tolist(), strict=True)


def _steps_back(coordinate: np.ndarray, step: int, length: int) -> np.ndarray:
    """How many steps of ``-step`` stay on the board from each coordinate."""
    if step > 0:
        return coordinate // step
    if step < 0:
        return (length - 1 - coordinate) // -step
    return np.full_like(coordinate, _FAR)


def attacked_squares(placement: Placement, army: int | None = None) -> set[Square]:
    """Every square some piece (of army number ``army``, if given) attacks, riders
    stopping at the first piece or pawn in their way, whichever army it belongs to."""
    return _attacked(placement, _occupancy(placement)[0], army)


def _attacked(placement: Placement, occupant: Occupant, only: int | None = None) -> set[Square]:
    board = placement.problem.board
    pieces = [army.piece for army in placement.problem.armies]
    attacked: set[Square] = set()
    for square, army in occupant.items():
        if army != PAWN and (only is None or army == only):
            attacked |= _attacks_from(square, pieces[army], occupant, board)
    return attacked


def _attacks_from(start: Square, piece: Piece, occupant: Occupant, board: Board) -> set[Square]:
    """The squares ``piece`` on ``start`` attacks, each move stopping at the first
    occupied square (which it attacks)."""
    found: set[Square] = set()
    for move in piece.moves:
        for dx, dy in move.directions:
            for target in _ray(start, dx, dy, move.reach, board):
                if target == start:
                    break
                found.add(target)
                if target in occupant:
                    break
    return found


def _uncovered(placement: Placement, occupant: Occupant) -> list[Violation]:
    problem = placement.problem
    board = problem.board
    covered = set(occupant) | _attacked(placement, occupant) | problem.blocked
    listed = problem.dominated
    targets = board.squares() if listed is None else sorted(listed, key=lambda s: (s[1], s[0]))
    missing = tuple(square for square in targets if square not in covered)
    if not missing:
        return []
    names = " ".join(square_name(s) for s in missing[:12])
    more = f" and {len(missing) - 12} more" if len(missing) > 12 else ""
    return [
        RuleBreak(f"{len(missing)} squares neither occupied nor attacked: {names}{more}", missing)
    ]


def _miscovered(placement: Placement, occupant: Occupant) -> list[Violation]:
    """The squares to dominate covered a wrong number of times: once for a piece on
    the square, once for each piece that attacks it (rides stop at the first piece)."""
    problem = placement.problem
    low, high = problem.cover
    times = Counter(square for square, army in occupant.items() if army != PAWN)
    pieces = [army.piece for army in problem.armies]
    for square, army in occupant.items():
        if army != PAWN:
            times.update(_attacks_from(square, pieces[army], occupant, problem.board))
    wrong = [
        (square, times[square])
        for square in sorted(problem.squares_to_dominate, key=lambda s: (s[1], s[0]))
        if times[square] < low or (high is not None and times[square] > high)
    ]
    if not wrong:
        return []
    shown = " ".join(f"{square_name(s)}:{n}" for s, n in wrong[:12])
    more = f" and {len(wrong) - 12} more" if len(wrong) > 12 else ""
    return [
        RuleBreak(
            f"{len(wrong)} squares covered other than {problem.describe_cover()} times: "
            f"{shown}{more}",
            tuple(s for s, _ in wrong),
        )
    ]


def directed_pairs(found: tuple[Violation, ...]) -> set[tuple[Square, Square]]:
    """Every (attacker, victim) pair of squares among ``found``, a mutual attack as both."""
    pairs = set(conflict_pairs(found))
    mutual = [v for v in found if isinstance(v, Attack) and v.mutual]
    return pairs | {(v.victim.square, v.attacker.square) for v in mutual}


def conflict_pairs(found: tuple[Violation, ...]) -> list[tuple[Square, Square]]:
    """The (attacker, victim) squares of every illegal attack among ``found``, a mutual
    attack once."""
    return [(v.attacker.square, v.victim.square) for v in found if isinstance(v, Attack)]
