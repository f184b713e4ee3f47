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
  (or files), those ranks' pieces all belong to them, so the other squares of
  those ranks are empty; likewise k ranks (or files) inside k regions. With
  k = 1 this is "a region confined to one rank";
- ``would empty a unit``: a piece on this square would leave some unit too few
  unknown squares, so the square is empty.

Every step is sound (it only marks what every solution agrees with), so a
puzzle the rules finish has exactly one solution. When no rule applies the
puzzle needs a guess (or a rule not written here) and :func:`explain_from` says so.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from itertools import combinations

from chessplace.board import Square, square_name
from chessplace.regions import Regions

"""Every rule, easiest first."""

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
        if self.rule == "confined" and self.size == 1:
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

    def units(self) -> Iterator[tuple[str, list[Square]]]:
        """Every rank, file and region with its squares."""
        n, regions = self.n, self.regions
        for rank in range(n):
            yield f"rank {rank + 1}", [(file, rank) for file in range(n)]
        for file in range(n):
            yield f"file {square_name((file, 0))[:-1]}", [(file, rank) for rank in range(n)]
        for region in range(n):
            yield f"region {regions.labels[region]}", regions.squares(region)

    def unknown(self, squares: list[Square]) -> list[Square]:
        return [s for s in squares if s not in self.marks]

    def needed(self, squares: list[Square]) -> int:
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


def next_step(state: State) -> Step | None:
    """The easiest step that applies, or ``None`` when no rule does."""
    for finder in (_touching, _unit_full, _last_squares, _confined, _would_empty):
        step = finder(state)
        if step is not None:
            return step
    return None


@dataclass(frozen=True)
class Explanation:
    """The steps from the start, whether they solve the puzzle, and its grade
    (the hardest step's; ``needs guessing`` when the rules stop short)."""

    steps: tuple[Step, ...]
    solved: bool
    pieces: tuple[Square, ...]

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


def explain_from(regions: Regions, placed: tuple[Square, ...] = ()) -> Explanation:
    """Apply the rules until the puzzle is solved or none applies; ``placed`` are
    pieces already on the board (a player's progress)."""
    state = State(regions, {square: True for square in placed})
    steps: list[Step] = []
    while not state.solved:
        step = next_step(state)
        if step is None:
            break
        state.apply(step)
        steps.append(step)
    pieces = tuple(sorted(s for s, piece in state.marks.items() if piece))
    return Explanation(tuple(steps), state.solved and not state.broken(), pieces)


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
    regions = [state.unknown(state.regions.squares(r)) for r in range(n)]
    names = state.regions.labels
    ranks = [state.unknown([(f, r) for f in range(n)]) for r in range(n)]
    files = [state.unknown([(f, r) for r in range(n)]) for f in range(n)]
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


def _confined_sets(
    inner: list[list[Square]],
    outer: list[list[Square]],
    size: int,
    inner_name: str,
    outer_name: str,
    names: tuple[str, ...],
    n: int,
) -> Step | None:
    """``size`` inner units whose unknown squares lie within ``size`` outer units: the
    other squares of those outer units are empty."""
    outer_of = {square: k for k, squares in enumerate(outer) for square in squares}
    open_inner = [k for k, squares in enumerate(inner) if squares]
    for group in combinations(open_inner, size):
        covering = {outer_of[s] for k in group for s in inner[k]}
        if len(covering) != size:
            continue
        inside = {s for k in group for s in inner[k]}
        empties = sorted(s for k in covering for s in outer[k] if s not in inside)
        if empties:
            what = _unit_list(inner_name, group, names, n)
            where = _unit_list(outer_name, sorted(covering), names, n)
            verb = "lies" if size == 1 else "lie"
            return Step("confined", (), tuple(empties), f"{what} {verb} within {where}", size)
    return None


def _would_empty(state: State) -> Step | None:
    """The first unknown square (in board order) whose piece would leave some unit too
    little room: the piece, its touching squares emptied and the units it fills closed.
    Each trial counts only what changes, unit by unit."""
    units = list(state.units())
    holds: dict[Square, list[int]] = {}
    for index, (_, squares) in enumerate(units):
        for square in squares:
            holds.setdefault(square, []).append(index)
    unknown = [len(state.unknown(squares)) for _, squares in units]
    needed = [state.needed(squares) for _, squares in units]
    for square in sorted(s for _, squares in units[: state.n] for s in state.unknown(squares)):
        mine = holds[square]
        emptied = {t for t in _around(square, state.n) if t not in state.marks}
        for index in mine:
            if needed[index] == 1:  # the piece fills it: its other squares empty
                emptied.update(t for t in units[index][1] if t not in state.marks)
        emptied.discard(square)
        lost = [0] * len(units)
        for t in emptied:
            for index in holds[t]:
                lost[index] += 1
        for index in mine:
            lost[index] += 1
        for index, (name, _) in enumerate(units):
            if unknown[index] - lost[index] < needed[index] - (index in mine):
                return Step(
                    "would empty a unit",
                    (),
                    (square,),
                    f"a piece on {square_name(square)} would leave {name} too little room",
                )
    return None


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
