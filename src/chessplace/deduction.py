"""Solving region puzzles (the Queens game, Star Battle) as a person does: named rules,
one step at a time, each saying what it marks and why.

A square is unknown, a piece (crown or star) or empty. Each rank, file and
region (a *unit*) needs ``per_line`` pieces; no two pieces touch. The rules,
easiest first:

- ``touching``: the neighbours of a piece are empty;
- ``unit full``: a unit with all its pieces has its other squares empty;
- ``last squares``: a unit whose unknown squares are exactly the pieces it still
  needs has a piece on each;
- ``confined``: when k regions have all their unknown squares inside k ranks
  (or files) that need no more pieces than the regions still do, those ranks'
  pieces all belong to them, so the other squares of those ranks are empty;
  likewise k ranks (or files) inside k regions. With k = 1 this is "a region
  confined to one rank";
- ``would empty a unit``: a piece on this square would leave some unit too few
  unknown squares, so the square is empty;
- ``tight room``: a unit's free squares fit the pieces it still needs only with a
  piece on certain squares (three free squares in a row needing two: the ends);
- ``would cramp a unit``: a piece on this square would leave some unit room for
  fewer pieces than it needs, counting that pieces may not touch;
- ``short chain``: a piece on this square, followed by the rules above up to
  ``tight room``, ends with a unit too cramped for its pieces, so the square is
  empty: the "what if" a player follows a few moves.

The last three rules are for two or more pieces per line (Star Battle): with
one, room is the number of unknown squares, which the rules above already
count, and a grid the other rules leave stuck is left to guessing. The
``tight room`` and ``would cramp`` rules also look at two neighbouring ranks
(or files) together, a unit of twice the pieces: their squares pair off into
2×2 blocks of one piece at most, the Star Battle player's block counting.

Every step is sound (it only marks what every solution agrees with), so a
puzzle the rules finish has exactly one solution. The grade of a step is
``easy`` for the first three rules, ``medium`` for ``confined`` with one unit and
``tight room`` in one unit, and ``hard`` for the rest. When no rule applies the
puzzle needs a guess (or a rule not written here) and :func:`explain_from` says so.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from chessplace.board import Square, square_name
from chessplace.regions import Regions
from chessplace.room import capacity

GRADES = ("easy", "medium", "hard")
GUESSING = "needs guessing"
"""The grade of a grid whose rules stop short of the solution."""
MAX_CONFINED = 3
"""The most regions (or lines) the ``confined`` rule looks at together."""


@dataclass(frozen=True)
class Step:
    """One deduction: the rule, the pieces it places and the squares it empties, and
    the unit or square that made it so."""

    rule: str
    places: tuple[Square, ...]
    empties: tuple[Square, ...]
    because: str
    size: int = 1
    """How many units the rule looked at together (``confined``)."""

    def __str__(self) -> str:
        marks = [f"piece on {_names(self.places)}"] if self.places else []
        if self.empties:
            marks.append(f"{_names(self.empties)} empty")
        return f"{self.rule}: {self.because} — {'; '.join(marks)}"

    def to_json(self) -> dict[str, object]:
        """The step as the CLI's and the web's JSON give it (squares by name)."""
        return {
            "rule": self.rule,
            "grade": self.grade,
            "because": self.because,
            "places": [square_name(s) for s in self.places],
            "empties": [square_name(s) for s in self.empties],
        }

    @property
    def grade(self) -> str:
        """``easy``, ``medium`` or ``hard``: how much a player must see at once."""
        if self.rule in ("touching", "unit full", "last squares"):
            return "easy"
        if self.rule in ("confined", "tight room") and self.size == 1:
            return "medium"
        return "hard"


@dataclass
class State:
    """What is known of each square: ``None`` unknown, ``True`` a piece, ``False`` empty."""

    regions: Regions
    marks: dict[Square, bool] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return self.regions.size

    def units(self) -> Iterator[tuple[str, Sequence[Square]]]:
        """Every rank, file and region with its squares."""
        for name, squares, _ in _room_units(self.regions)[: 3 * self.n]:
            yield name, squares

    def room_units(self) -> tuple[Unit, ...]:
        """Every unit with how many pieces it holds (``per_line``), and with two or more
        per line every two neighbouring ranks or files (twice that)."""
        return _room_units(self.regions)

    def unknown(self, squares: Sequence[Square]) -> list[Square]:
        return [s for s in squares if s not in self.marks]

    def needed(self, squares: Sequence[Square]) -> int:
        return self.regions.per_line - sum(1 for s in squares if self.marks.get(s) is True)

    def apply(self, step: Step) -> None:
        for square in step.places:
            self.marks[square] = True
        for square in step.empties:
            self.marks[square] = False

    @property
    def solved(self) -> bool:
        return len(self.marks) == self.n * self.n

    def broken(self) -> bool:
        """True when some unit can no longer get its pieces or two pieces touch."""
        for _, squares in self.units():
            needed = self.needed(squares)
            if needed < 0 or len(self.unknown(squares)) < needed:
                return True
        pieces = [s for s, piece in self.marks.items() if piece]
        return any(t in self.marks and self.marks[t] for s in pieces for t in _around(s, self.n))


Stop = Callable[[], bool]
"""Asked now and then during a long deduction: True to stop."""
Unit = tuple[str, tuple[Square, ...], int]
"""A unit's name, its squares and how many pieces it holds."""


@lru_cache(maxsize=16)
def _room_units(regions: Regions) -> tuple[Unit, ...]:
    """Ranks, files and regions (in that order, ``per_line`` pieces each), then with
    two or more per line every two neighbouring ranks and files (twice that)."""
    n, k = regions.size, regions.per_line
    units: list[Unit] = []
    for rank in range(n):
        units.append((f"rank {rank + 1}", tuple((file, rank) for file in range(n)), k))
    for file in range(n):
        squares = tuple((file, rank) for rank in range(n))
        units.append((f"file {_file_name(file)}", squares, k))
    for region in range(n):
        units.append((f"region {regions.labels[region]}", tuple(regions.squares(region)), k))
    if k > 1:
        for low in range(n - 1):
            squares = tuple((file, rank) for rank in (low, low + 1) for file in range(n))
            units.append((f"ranks {low + 1}–{low + 2}", squares, 2 * k))
        for low in range(n - 1):
            squares = tuple((file, rank) for file in (low, low + 1) for rank in range(n))
            pair = f"{_file_name(low)}–{_file_name(low + 1)}"
            units.append((f"files {pair}", squares, 2 * k))
    return tuple(units)


@lru_cache(maxsize=32)
def _units_holding(
    regions: Regions, lines_and_regions: bool = False
) -> dict[Square, tuple[int, ...]]:
    """Square → the indices (in :func:`_room_units`) of the units that hold it (with
    ``lines_and_regions``, of its rank, file and region only)."""
    units = _room_units(regions)
    holding: dict[Square, list[int]] = {}
    for index, (_, squares, _) in enumerate(
        units[: 3 * regions.size] if lines_and_regions else units
    ):
        for square in squares:
            holding.setdefault(square, []).append(index)
    return {square: tuple(indices) for square, indices in holding.items()}


def _file_name(file: int) -> str:
    return square_name((file, 0))[:-1]


def next_step(state: State, stop: Stop = lambda: False) -> Step | None:
    """The easiest step that applies, or ``None`` when no rule does (or ``stop`` said
    to stop while the last rule was trying squares)."""
    for finder in (_touching, _unit_full, _last_squares, _confined, _would_empty):
        step = finder(state)
        if step is not None:
            return step
    if state.regions.per_line == 1:  # the rules below find nothing more for one per line
        return None
    return _tight_room(state) or _would_cramp(state) or _short_chain(state, stop)


@dataclass(frozen=True)
class Explanation:
    """The steps from the start, whether they solve the puzzle, and its grade
    (the hardest step's; ``needs guessing`` when the rules stop short)."""

    steps: tuple[Step, ...]
    solved: bool
    pieces: tuple[Square, ...]
    stopped: bool = False
    """True when ``stop`` cut the rules short: the grade is then unknown."""

    @property
    def next_piece(self) -> tuple[Step, tuple[Step, ...]] | None:
        """The first step that places a piece, and the steps before it."""
        for index, step in enumerate(self.steps):
            if step.places:
                return step, self.steps[:index]
        return None

    @property
    def grade(self) -> str:
        if not self.solved:
            return GUESSING
        grades = [GRADES.index(step.grade) for step in self.steps] or [0]
        return GRADES[max(grades)]


def explain_from(
    regions: Regions, placed: tuple[Square, ...] = (), stop: Stop = lambda: False
) -> Explanation:
    """Apply the rules until the puzzle is solved or none applies; ``placed`` are
    pieces already on the board (a player's progress). ``stop`` is asked between
    steps and trials, so a caller's time limit cuts a long grading short."""
    state = State(regions, {square: True for square in placed})
    steps: list[Step] = []
    while not state.solved and not stop():
        step = next_step(state, stop)
        if step is None:
            break
        state.apply(step)
        steps.append(step)
    pieces = tuple(sorted(s for s, piece in state.marks.items() if piece))
    solved = state.solved and not state.broken()
    return Explanation(tuple(steps), solved, pieces, stopped=not solved and stop())


def _touching(state: State) -> Step | None:
    for square, piece in sorted(state.marks.items()):
        if piece:
            around = [t for t in _around(square, state.n) if t not in state.marks]
            if around:
                return Step(
                    "touching", (), tuple(sorted(around)), f"{square_name(square)} has a piece"
                )
    return None


def _unit_full(state: State) -> Step | None:
    for name, squares in state.units():
        rest = state.unknown(squares)
        if rest and state.needed(squares) == 0:
            return Step("unit full", (), tuple(sorted(rest)), f"{name} has all its pieces")
    return None


def _last_squares(state: State) -> Step | None:
    for name, squares in state.units():
        rest = state.unknown(squares)
        needed = state.needed(squares)
        if rest and 0 < needed == len(rest) and not _touch_each_other(rest):
            return Step("last squares", tuple(sorted(rest)), (), f"{name} has no other room")
    return None


def _confined(state: State) -> Step | None:
    n = state.n
    region_units = [state.regions.squares(r) for r in range(n)]
    rank_units = [[(f, r) for f in range(n)] for r in range(n)]
    file_units = [[(f, r) for r in range(n)] for f in range(n)]
    regions, ranks, files = (
        [(state.unknown(squares), state.needed(squares)) for squares in units]
        for units in (region_units, rank_units, file_units)
    )
    names = state.regions.labels
    for size in range(1, MAX_CONFINED + 1):
        for inner, outer, inner_name, outer_name in (
            (regions, ranks, "region", "rank"),
            (regions, files, "region", "file"),
            (ranks, regions, "rank", "region"),
            (files, regions, "file", "region"),
        ):
            step = _confined_sets(inner, outer, size, inner_name, outer_name, names, n)
            if step is not None:
                return step
    return None


Open = list[tuple[list[Square], int]]
"""Units of one kind: the unknown squares of each and the pieces it still needs."""


def _confined_sets(
    inner: Open,
    outer: Open,
    size: int,
    inner_name: str,
    outer_name: str,
    names: tuple[str, ...],
    n: int,
) -> Step | None:
    """``size`` inner units whose unknown squares lie within outer units that need no
    more pieces than they do: every piece those outer units still need goes on the
    inner units' squares, so their other squares are empty."""
    outer_of = {square: k for k, (squares, _) in enumerate(outer) for square in squares}
    cover: dict[int, int] = {}  # inner unit -> bit mask of the outer units its squares meet
    for k, (squares, _) in enumerate(inner):
        mask = 0
        for square in squares:
            mask |= 1 << outer_of[square]
        if squares and mask.bit_count() <= size:
            cover[k] = mask
    for group in combinations(sorted(cover), size):
        mask = 0
        for k in group:
            mask |= cover[k]
        if mask.bit_count() > size:
            continue
        covering = [k for k in range(len(outer)) if mask >> k & 1]
        if sum(outer[k][1] for k in covering) > sum(inner[k][1] for k in group):
            continue
        inside = {s for k in group for s in inner[k][0]}
        empties = sorted(s for k in covering for s in outer[k][0] if s not in inside)
        if empties:
            what = _unit_list(inner_name, group, names, n)
            where = _unit_list(outer_name, covering, names, n)
            verb = "lies" if size == 1 else "lie"
            return Step("confined", (), tuple(empties), f"{what} {verb} within {where}", size)
    return None


def _would_empty(state: State) -> Step | None:
    """The first unknown square (in board order) whose piece would leave some unit too
    little room: the piece, its touching squares emptied and the units it fills closed.
    Each trial counts only what changes, unit by unit."""
    units = state.room_units()[: 3 * state.n]
    holding = _units_holding(state.regions, lines_and_regions=True)
    around = _neighbours(state.n)
    unknown = [len(state.unknown(squares)) for _, squares, _ in units]
    needed = [state.needed(squares) for _, squares, _ in units]
    for square in sorted(s for _, squares, _ in units[: state.n] for s in state.unknown(squares)):
        mine = holding[square]
        emptied = {t for t in around[square] if t not in state.marks}
        for index in mine:
            if needed[index] == 1:  # the piece fills it: its other squares empty
                emptied.update(t for t in units[index][1] if t not in state.marks)
        emptied.discard(square)
        lost = dict.fromkeys(mine, 1)
        for t in emptied:
            for index in holding[t]:
                lost[index] = lost.get(index, 0) + 1
        for index, count in lost.items():
            if unknown[index] - count < needed[index] - (index in mine):
                return Step(
                    "would empty a unit",
                    (),
                    (square,),
                    f"a piece on {square_name(square)} would leave {units[index][0]} "
                    "too little room",
                )
    return None


def _tight_room(state: State) -> Step | None:
    """A unit whose free squares fit the pieces it needs only with a piece on some of
    them: those get a piece."""
    for name, squares, holds in state.room_units():
        rest = frozenset(state.unknown(squares))
        needed = holds - sum(1 for s in squares if state.marks.get(s) is True)
        if needed <= 0 or len(rest) <= needed or capacity(rest) != needed:
            continue
        forced = tuple(sorted(s for s in rest if capacity(rest - {s}) < needed))
        if forced:
            return Step(
                "tight room",
                forced,
                (),
                f"{name} needs {needed} more and its free squares fit them only so",
                1 if holds == state.regions.per_line else 2,
            )
    return None


def _would_cramp(state: State) -> Step | None:
    """The first unknown square whose piece would leave some unit (or two neighbouring
    lines) room for fewer pieces than it needs, pieces not touching."""
    units = list(state.room_units())
    rest = [frozenset(state.unknown(squares)) for _, squares, _ in units]
    needed = [
        holds - sum(1 for s in squares if state.marks.get(s) is True) for _, squares, holds in units
    ]
    holds_square: dict[Square, list[int]] = {}
    for index, (_, squares, _) in enumerate(units):
        for square in squares:
            holds_square.setdefault(square, []).append(index)
    for square in sorted(s for squares in rest[: state.n] for s in squares):
        mine = holds_square[square]
        gone = {t for t in _around(square, state.n) if t not in state.marks}
        for index in mine:
            if needed[index] == 1 and index < 3 * state.n:  # filled: the rest empties
                gone.update(rest[index])
        gone.add(square)
        touched = {index for t in gone for index in holds_square[t]}
        for index in sorted(touched):
            need = needed[index] - (index in mine)
            if need > 0 and capacity(rest[index] - gone) < need:
                return Step(
                    "would cramp a unit",
                    (),
                    (square,),
                    f"a piece on {square_name(square)} would leave {units[index][0]} "
                    f"room for fewer than {need} more",
                )
    return None


CHAIN_RULES = (_touching, _unit_full, _last_squares, _confined, _would_empty, _tight_room)
"""The rules a ``short chain`` follows: all before it but ``would cramp a unit``."""


def _short_chain(state: State, stop: Stop) -> Step | None:
    """The first unknown square whose piece, followed by the easy rules, leaves a unit
    too cramped for its pieces (or two pieces touching); ``None`` also when ``stop``
    says to stop."""
    for square in _tightest_first(state):
        if stop():
            return None
        trial = State(state.regions, {**state.marks, square: True})
        moves = 0
        changed: tuple[Square, ...] = (square,)
        while (cramped := _cramped(trial, changed)) is None:
            step = next((found for rule in CHAIN_RULES if (found := rule(trial))), None)
            if step is None:
                break
            trial.apply(step)
            changed = step.places + step.empties
            moves += 1
        if cramped is not None:
            return Step(
                "short chain",
                (),
                (square,),
                f"a piece on {square_name(square)} and {moves} easy steps after it leave {cramped}",
            )
    return None


def _tightest_first(state: State) -> list[Square]:
    """The unknown squares, those of the units with the least room to spare first
    (where a trial piece most likely runs into trouble), then in board order."""
    slack: dict[Square, int] = {}
    for _, squares in state.units():
        rest = state.unknown(squares)
        spare = len(rest) - state.needed(squares)
        for square in rest:
            slack[square] = min(slack.get(square, spare), spare)
    return sorted(slack, key=lambda square: (slack[square], square))


def _cramped(state: State, changed: Iterable[Square]) -> str | None:
    """What makes the marks impossible, looking at the units that hold a ``changed``
    square: one with room for fewer pieces than it needs (or too many), or two
    pieces touching; ``None`` when nothing does."""
    units, holding = state.room_units(), _units_holding(state.regions)
    changed = list(changed)
    for index in sorted({index for square in changed for index in holding[square]}):
        name, squares, holds = units[index]
        needed = holds - sum(1 for s in squares if state.marks.get(s) is True)
        if needed < 0:
            return f"{name} with too many pieces"
        if capacity(frozenset(state.unknown(squares))) < needed:
            return f"{name} too little room"
    for square in changed:
        if state.marks.get(square) and any(state.marks.get(t) for t in _around(square, state.n)):
            return f"two pieces touching at {square_name(square)}"
    return None


@lru_cache(maxsize=8)
def _neighbours(n: int) -> dict[Square, tuple[Square, ...]]:
    """Square → the squares touching it on an n×n board."""
    return {(f, r): tuple(_around((f, r), n)) for f in range(n) for r in range(n)}


def _around(square: Square, n: int) -> Iterator[Square]:
    """The up to eight squares touching ``square``, corners included."""
    f, r = square
    for df in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if (df or dr) and 0 <= f + df < n and 0 <= r + dr < n:
                yield f + df, r + dr


def _touch_each_other(squares: list[Square]) -> bool:
    return any(max(abs(a[0] - b[0]), abs(a[1] - b[1])) <= 1 for a, b in combinations(squares, 2))


def _unit_list(
    kind: str, indices: tuple[int, ...] | list[int], names: tuple[str, ...], n: int
) -> str:
    if kind == "region":
        labels = [names[k] for k in indices]
    elif kind == "rank":
        labels = [str(k + 1) for k in indices]
    else:
        labels = [square_name((k, 0))[:-1] for k in indices]
    plural = "s" if len(labels) > 1 else ""
    return f"{kind}{plural} {', '.join(labels)}"


def _names(squares: tuple[Square, ...]) -> str:
    return " ".join(square_name(s) for s in squares)
