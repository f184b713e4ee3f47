"""Problems: a board, armies with their counts, and the rules between them."""

from __future__ import annotations

import operator
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import cached_property
from itertools import permutations

from chessplace.core.board import Board, Square, Symmetry, keeping, square_name
from chessplace.core.features import Feature, shape_features
from chessplace.core.pieces import KING, Piece
from chessplace.core.regions import Regions
from chessplace.core.rules import (
    MAX_COUNT_RULES,
    CountGroup,
    CountRule,
    check_areas,
    count_groups,
)

MAX_PIECES = 1_000_000
"""The most pieces an answer may hold: a million queens are placed, verified and
written in seconds; larger answers would take minutes and gigabytes."""

ARMY_NAMES = ("white", "black", "red", "blue", "green", "yellow", "purple", "orange")


class Sense(StrEnum):
    """What ``optimize`` looks for."""

    MAXIMIZE = "maximize"
    MINIMIZE = "minimize"


def whole_number(value: object, what: str) -> int:
    """``value`` as an ``int`` (NumPy's integers too); ``TypeError`` for anything else,
    booleans and floats included (a count of 2.5 would silently mean 3 or nothing)."""
    if isinstance(value, bool):
        raise TypeError(f"{what} must be a whole number, not {value!r}")
    try:
        return operator.index(value)  # type: ignore[arg-type]
    except TypeError:
        raise TypeError(f"{what} must be a whole number, not {value!r}") from None


@dataclass(frozen=True)
class Army:
    """Pieces of one kind and colour, with bounds on how many are placed.

    A ``fixed`` army's size is part of the puzzle (``--white W``): count
    options leave it alone and the objective does not count it.
    """

    name: str
    piece: Piece
    minimum: int = 0
    maximum: int | None = None
    fixed: bool = False

    def __post_init__(self) -> None:
        object.__setattr__(self, "minimum", whole_number(self.minimum, f"{self.name}'s count"))
        if self.maximum is not None:
            object.__setattr__(self, "maximum", whole_number(self.maximum, f"{self.name}'s count"))

    def admits(self, count: int) -> bool:
        return count >= self.minimum and (self.maximum is None or count <= self.maximum)

    def describe_count(self) -> str:
        if self.maximum == self.minimum:
            return f"exactly {self.minimum}"
        if self.maximum is None:
            return f"at least {self.minimum}"
        return f"{self.minimum} to {self.maximum}"


@dataclass(frozen=True)
class Problem:
    """A placement puzzle.

    Rules: pieces of different armies never attack each other; pieces of one
    army attack each other only when ``independent`` is false; with
    ``dominating`` every square is occupied or attacked, or with ``dominated``
    only the squares listed there (blocked squares and pawns need no cover:
    see :attr:`squares_to_dominate`). With these rules a
    placement stays valid when a piece is removed (unless dominating), and
    blockers never change whether a placement is valid.

    ``equal_armies`` makes every army the same size; ``sense`` says whether
    ``optimize`` wants the most or the fewest pieces. The objective of a
    placement is the size of one army when armies are equal, else the total.

    A region puzzle (the Queens game, Star Battle) is an ordinary problem: kings
    (crowns, stars) that do not touch, ``areas`` cutting the square board into as
    many regions as it has ranks, and count rules asking for exactly k pieces on
    each rank, file and region. :attr:`regions` recognises that shape, for the
    engines, deductions and pages made for it.

    The position the puzzle starts from: no piece stands on a ``blocked`` square
    and rides pass over it; a pawn (``pawns``: given, ``free_pawns``: how many the
    answer places) holds its square and stops every ride through it, attacking
    nothing; ``given[a]`` are squares army ``a`` holds in every answer, counted in
    its size. With pawns, removing a piece may open a ride, but a valid placement
    stays valid when a piece is removed: pawns cut lines into segments, and the
    line rules above hold within each segment.

    Rules a user states: ``counts`` bound the pieces on sets of squares (see
    :class:`~chessplace.core.rules.CountRule`; ``areas`` names the regions of the
    board that ``"each region"`` counts over: one string per rank, the top rank
    first, a letter per square); ``no_attack`` lists the ordered pairs of armies
    ``(attacker, target)`` whose pieces may not attack: absent, no army attacks
    another. With one-way pairs, pieces block rides as in chess, so removing a
    piece may open an attack, and with counts it may break a lower bound.
    ``cover`` ``(at_least, at_most)`` says how many times each square to dominate
    is covered: once for its own piece, once for each piece attacking it (rides
    stopping at the first piece, as in chess); ``(1, None)`` is plain domination,
    ``(1, 1)`` exact domination (perfect codes), ``(k, None)`` k-domination.
    """

    puzzle: str
    board: Board
    armies: tuple[Army, ...]
    independent: bool = True
    dominating: bool = False
    equal_armies: bool = False
    sense: Sense = Sense.MAXIMIZE
    blocked: frozenset[Square] = frozenset()
    pawns: frozenset[Square] = frozenset()
    given: tuple[frozenset[Square], ...] = ()
    free_pawns: int = 0
    dominated: frozenset[Square] | None = None
    counts: tuple[CountRule, ...] = ()
    no_attack: tuple[tuple[str, str], ...] | None = None
    areas: tuple[str, ...] | None = None
    cover: tuple[int, int | None] = (1, None)

    def __post_init__(self) -> None:
        if not self.armies:
            raise ValueError("a problem needs at least one army")
        _check_position(self)
        # Rides longer than the board are unlimited: clipping them keeps every
        # table the engines build as small as the board.
        clipped = tuple(replace(a, piece=a.piece.on(self.board)) for a in self.armies)
        object.__setattr__(self, "armies", clipped)
        names = [army.name for army in self.armies]
        if len(set(names)) != len(names):
            raise ValueError(f"army names must differ: {names}")
        if self.dominating and len(self.armies) != 1:
            raise ValueError("domination is defined for a single army")
        _check_dominated(self)
        for army in self.armies:
            if army.minimum < 0 or (army.maximum is not None and army.maximum < army.minimum):
                raise ValueError(f"{army.name}: bad count bounds {army.describe_count()}")
        _check_rules(self)

    def features(self) -> frozenset[Feature]:
        """What the problem asks that not every engine models (engines' ``supports``)."""
        found = {
            Feature.REGIONS: self.regions is not None,
            Feature.POSITION: self.has_position,
            Feature.DOMINATED: self.dominated is not None,
            Feature.COUNTS: bool(self.counts) and self.regions is None,
            Feature.ONE_WAY: self.one_way,
            Feature.COVER_COUNT: self.cover_counted,
        }
        asked = frozenset(feature for feature, present in found.items() if present)
        return asked | shape_features(self.board.shape)

    def forbids(self, attacker: int, target: int) -> bool:
        """True when a piece of army number ``attacker`` may not attack one of ``target``."""
        if attacker == target:
            return self.independent
        if self.no_attack is None:
            return True
        names = (self.armies[attacker].name, self.armies[target].name)
        return names in self.no_attack

    @property
    def cover_counted(self) -> bool:
        """True when each square to dominate is covered a number of times other than
        "at least once" (``cover``; only a dominating problem may ask it)."""
        return self.cover != (1, None)

    def describe_cover(self) -> str:
        """How many times each square is covered, in words (``exactly 1``)."""
        low, high = self.cover
        if low == high:
            return f"exactly {low}"
        return f"at least {low}" if high is None else f"{low} to {high}"

    @property
    def one_way(self) -> bool:
        """True when some two armies may attack each other, or one the other: pieces
        then block rides as in chess, and line rules no longer decide validity."""
        count = len(self.armies)
        return any(not self.forbids(a, b) for a in range(count) for b in range(count) if a != b)

    @cached_property
    def regions(self) -> Regions | None:
        """The grid of a region puzzle, when the problem has that shape (see the class
        docstring); ``None`` for any other problem."""
        return region_grid(self)

    @cached_property
    def count_groups(self) -> tuple[CountGroup, ...]:
        """The count rules, families expanded: a group per rank, file or region."""
        numbers = {army.name: i for i, army in enumerate(self.armies)}
        return tuple(count_groups(self.counts, self.board, self.areas, numbers))

    @cached_property
    def _count_signature(self) -> frozenset[tuple[int | None, int, int | None, frozenset[Square]]]:
        """Each count group as (army, at least, at most, squares): what a symmetry of the
        board or of the armies must map onto itself."""
        return frozenset(
            (g.army, g.rule.at_least, g.rule.at_most, g.squares) for g in self.count_groups
        )

    def _repr_svg_(self) -> str:
        """The board before solving, as Jupyter shows it: blocked squares, pawns, given
        pieces and regions (:func:`chessplace.forms.drawing.problem_svg`)."""
        from chessplace.forms.drawing import problem_svg  # a drawing the layers allow by name

        return problem_svg(self)

    @property
    def has_position(self) -> bool:
        """True when the puzzle starts from a position: blocked squares, pawns (given
        or to place) or given pieces; engines that know none of them refuse it."""
        return bool(self.blocked or self.pawns or self.given or self.free_pawns)

    def given_of(self, army: int) -> frozenset[Square]:
        """The squares army number ``army`` holds in every answer."""
        return self.given[army] if self.given else frozenset()

    def fewest(self, army: int) -> int:
        """The fewest pieces army number ``army`` holds in an answer: its minimum and its
        given pieces, and with equal armies as many as any army's given pieces."""
        given = self.given or (frozenset(),)
        held = max(map(len, given)) if self.equal_armies else len(self.given_of(army))
        return max(self.armies[army].minimum, held)

    def symmetries(self) -> tuple[Symmetry, ...]:
        """The board's symmetries that map the problem onto itself, identity first
        (for a grid of regions, those that map every region onto a region; with a
        position, those that map blocked squares, pawns and each army's given
        pieces onto themselves; with squares to dominate, those that map the squares
        that need cover onto themselves)."""
        every = self.board.symmetries()
        if self.has_position:
            every = keeping(every, [self.blocked, self.pawns, *self.given])
        if self.dominated is not None:  # those that need cover: blocked ones and pawns do not
            every = keeping(every, [self.squares_to_dominate])
        if self.counts:
            every = tuple(g for g in every if self._keeps_counts(g))
        regions = self.regions
        if regions is None:
            return every
        areas = {frozenset(regions.squares(r)) for r in range(regions.size)}
        return tuple(g for g in every if all(frozenset(map(g, area)) in areas for area in areas))

    def _keeps_counts(self, symmetry: Symmetry) -> bool:
        """True when ``symmetry`` maps every count group onto a group of the same army
        and bounds."""
        groups = self._count_signature
        return all(
            (army, low, high, frozenset(map(symmetry, squares))) in groups
            for army, low, high, squares in groups
        )

    @property
    def squares_to_dominate(self) -> frozenset[Square]:
        """The squares every answer must occupy or attack: none unless ``dominating``;
        the ``dominated`` ones, or every square when none are listed; blocked squares
        and pawns excepted (nothing stands on a blocked square, a pawn holds its own)."""
        if not self.dominating:
            return frozenset()
        listed = self.dominated if self.dominated is not None else self.board.squares()
        return frozenset(listed) - self.blocked - self.pawns

    @property
    def has_target(self) -> bool:
        """True when the counts of armies that are not fixed say more than ``at least 0``,
        or a count rule asks for at least one piece."""
        return any(
            army.minimum > 0 or army.maximum is not None for army in self.armies if not army.fixed
        ) or any(rule.at_least > 0 for rule in self.counts)

    def refusal(self) -> str | None:
        """Why no engine can answer: the armies must hold more than ``MAX_PIECES``."""
        least = sum(army.minimum for army in self.armies)
        if least > MAX_PIECES:
            return (
                f"a placement would hold {least:,} pieces; "
                f"chessplace handles at most {MAX_PIECES:,}"
            )
        return None

    def with_counts(
        self,
        at_least: int | None = None,
        exactly: int | None = None,
        at_most: int | None = None,
    ) -> Problem:
        """The same puzzle with new bounds for each army that is not fixed (all alike)."""
        minimum = exactly if exactly is not None else (at_least or 0)
        maximum = exactly if exactly is not None else at_most
        armies = tuple(
            a if a.fixed else replace(a, minimum=minimum, maximum=maximum) for a in self.armies
        )
        return replace(self, armies=armies)

    def without_counts(self) -> Problem:
        """The puzzle with every count that is not fixed free: what ``optimize`` works on."""
        return replace(
            self,
            armies=tuple(
                a if a.fixed else replace(a, minimum=0, maximum=None) for a in self.armies
            ),
        )

    @cached_property
    def army_permutations(self) -> tuple[tuple[int, ...], ...]:
        """Every way to renumber the armies that maps the problem onto itself (same
        piece, counts and given squares), identity first: ``p[i]`` is where army ``i``
        goes. With the board's symmetries it makes a group (each fixes the given
        pieces), not always every symmetry of a problem with given pieces."""
        kinds = [
            (a.piece, a.minimum, a.maximum, a.fixed, self.given_of(i))
            for i, a in enumerate(self.armies)
        ]
        count = len(kinds)
        groups = self._count_signature
        return tuple(
            p
            for p in permutations(range(count))
            if all(kinds[i] == kinds[j] for i, j in enumerate(p))
            and all(
                self.forbids(a, b) == self.forbids(p[a], p[b])
                for a in range(count)
                for b in range(count)
            )
            and {(None if a is None else p[a], lo, hi, sq) for a, lo, hi, sq in groups} == groups
        )

    @property
    def swappable_armies(self) -> bool:
        """True for two armies that swapping maps onto each other."""
        return len(self.armies) == 2 and len(self.army_permutations) == 2

    @property
    def scored_armies(self) -> tuple[int, ...]:
        """Indices of the armies the objective counts: all but fixed ones."""
        free = tuple(i for i, army in enumerate(self.armies) if not army.fixed)
        return free or tuple(range(len(self.armies)))

    def objective(self, army_sizes: tuple[int, ...]) -> int:
        """The value ``optimize`` compares, from the size of each army."""
        if self.equal_armies:
            return min(army_sizes)
        return sum(army_sizes[i] for i in self.scored_armies)

    def describe(self) -> str:
        counts = ", ".join(f"{a.name} {a.piece.name}s {a.describe_count()}" for a in self.armies)
        if self.regions is not None:
            counts += f", {self.regions.per_line} per rank, file and region"
        return f"{self.puzzle} on {self.board}: {counts}{self._describe_position()}"

    def _describe_position(self) -> str:
        parts = []
        if self.blocked:
            parts.append(f"{len(self.blocked)} blocked")
        if self.pawns:
            parts.append(f"{len(self.pawns)} pawn{'s' if len(self.pawns) != 1 else ''}")
        if self.free_pawns:
            parts.append(f"{self.free_pawns} pawn{'s' if self.free_pawns != 1 else ''} to place")
        given = sum(len(squares) for squares in self.given)
        if given:
            parts.append(f"{given} given")
        if self.dominated is not None:
            parts.append(f"{len(self.dominated)} to dominate")
        if self.cover_counted:
            parts.append(f"each square covered {self.describe_cover()} times")
        if self.regions is None:
            parts += [rule.describe() for rule in self.counts]
        if self.no_attack is not None:
            pairs = ", ".join(f"{a} may not attack {b}" for a, b in self.no_attack)
            parts.append(pairs or "armies may attack each other")
        return f" ({', '.join(parts)})" if parts else ""


def _check_position(problem: Problem) -> None:
    """Normalise and check blocked squares, pawns and given pieces: on the board, one
    thing a square, ``given`` one set per army (``()`` when none is given)."""
    board = problem.board
    given = tuple(frozenset(squares) for squares in problem.given)
    if not any(given):
        given = ()
    elif len(given) != len(problem.armies):
        raise ValueError(
            f"given pieces name {len(given)} armies, the problem has {len(problem.armies)}"
        )
    object.__setattr__(problem, "given", given)
    object.__setattr__(problem, "blocked", frozenset(problem.blocked))
    object.__setattr__(problem, "pawns", frozenset(problem.pawns))
    free = whole_number(problem.free_pawns, "the pawns to place")
    if free < 0:
        raise ValueError(f"the pawns to place cannot be negative: {free}")
    object.__setattr__(problem, "free_pawns", free)
    held: dict[Square, str] = {}
    parts = [("blocked square", problem.blocked), ("pawn", problem.pawns)]
    parts += [
        (f"given {a.name} {a.piece.name}", given[i]) for i, a in enumerate(problem.armies) if given
    ]
    for what, squares in parts:
        for square in squares:
            if not _on_board(square, board):
                raise ValueError(f"{what} {_named(square)} is off the {board} board")
            if square in held:
                raise ValueError(f"{square_name(square)}: {held[square]} and {what} at once")
            held[square] = what
    if free and (len(problem.armies) != 1 or not problem.independent):
        raise ValueError("pawns to place are for one army whose pieces must not attack each other")
    if free and problem.dominating:
        raise ValueError("pawns to place do not combine with domination")
    if free and board.shape.joined:
        raise ValueError(f"pawns to place need a plane board, not a {board.shape}")
    if problem.free_pawns + len(held) > board.size:
        raise ValueError(f"{problem.free_pawns} pawns to place do not fit on the {board} board")


def _check_rules(problem: Problem) -> None:
    """Normalise and check the count rules, the board's areas and the attack pairs:
    ``ValueError`` in one line naming what is wrong."""
    counts = tuple(problem.counts)
    if len(counts) > MAX_COUNT_RULES:
        raise ValueError(
            f"{len(counts):,} count rules; a problem takes at most {MAX_COUNT_RULES:,}"
        )
    if not all(isinstance(rule, CountRule) for rule in counts):
        raise ValueError("count rules must be CountRule values")
    object.__setattr__(problem, "counts", counts)
    if problem.areas is not None:
        object.__setattr__(problem, "areas", check_areas(problem.areas, problem.board))
    names = [army.name for army in problem.armies]
    if problem.no_attack is not None:
        pairs = tuple(tuple(pair) for pair in problem.no_attack)
        for pair in pairs:
            if len(pair) != 2 or not all(isinstance(name, str) for name in pair):
                raise ValueError(f"an attack rule is a pair of army names, not {list(pair)!r}")
            for name in pair:
                if name not in names:
                    raise ValueError(
                        f"attack rule names army {name!r}; the armies are {', '.join(names)}"
                    )
        object.__setattr__(problem, "no_attack", tuple(dict.fromkeys(pairs)))
    if (counts or problem.one_way) and problem.free_pawns:
        raise ValueError("count and attack rules do not combine with pawns to place")
    if problem.one_way and problem.dominating:
        raise ValueError("attack rules between armies do not combine with domination")
    _check_cover(problem)
    problem.count_groups  # noqa: B018 - expands the rules, raising on a bad one


def _check_cover(problem: Problem) -> None:
    """How many times each square is covered: whole numbers, at least 0, the upper
    bound not below the lower; other than once or more only when dominating."""
    if not isinstance(problem.cover, tuple) or len(problem.cover) != 2:
        raise ValueError("cover is a pair (at least, at most)")
    low = whole_number(problem.cover[0], "the times a square is covered")
    high = problem.cover[1]
    if high is not None:
        high = whole_number(high, "the times a square is covered")
    if low < 0 or (high is not None and high < low):
        shown = f"at least {low}" + ("" if high is None else f" and at most {high}")
        raise ValueError(f"each square covered {shown}: no such number")
    if (low, high) != (1, None) and not problem.dominating:
        raise ValueError("how often squares are covered is for a dominating problem")
    object.__setattr__(problem, "cover", (low, high))


def _check_dominated(problem: Problem) -> None:
    """The listed squares to dominate: a non-empty set of squares on the board, for a
    dominating problem."""
    if problem.dominated is None:
        return
    listed = frozenset(problem.dominated)
    object.__setattr__(problem, "dominated", listed)
    if not problem.dominating:
        raise ValueError("squares to dominate are for a dominating problem (dominating=True)")
    if not listed:
        raise ValueError("list at least one square to dominate")
    for square in listed:
        if not _on_board(square, problem.board):
            raise ValueError(
                f"square to dominate {_named(square)} is off the {problem.board} board"
            )


def _on_board(square: object, board: Board) -> bool:
    return (
        type(square) is tuple
        and len(square) == 2
        and all(type(c) is int for c in square)
        and board.contains(square)
    )


def _named(square: object) -> str:
    if type(square) is tuple and len(square) == 2 and all(type(c) is int for c in square):
        return square_name(square)
    return repr(square)


REGION_FAMILIES = frozenset({"each rank", "each file", "each region"})


def region_grid(problem: Problem) -> Regions | None:
    """The grid of regions when ``problem`` is a region puzzle: one army of pieces that
    move as kings and may not touch, on a square board with no position, cut by its
    areas into as many regions as it has ranks, with exactly k pieces on each rank,
    file and region (and an army that admits them); else ``None``."""
    areas, board = problem.areas, problem.board
    if areas is None or len(problem.armies) != 1 or board.rows != board.cols or board.shape.joined:
        return None
    army = problem.armies[0]
    if problem.has_position or problem.dominating or not problem.independent:
        return None
    if army.piece.moves != KING.moves or len(problem.counts) != 3:
        return None
    per_line = problem.counts[0].at_least
    if {rule.squares for rule in problem.counts} != REGION_FAMILIES or not all(
        rule.at_least == rule.at_most == per_line and rule.army in (None, army.name)
        for rule in problem.counts
    ):
        return None
    if per_line < 1 or len(set("".join(areas))) != board.rows:
        return None
    if not army.admits(board.rows * per_line):
        return None
    try:
        return Regions(areas, per_line)
    except ValueError:  # not a grid the region engine takes: an ordinary problem
        return None
