"""The rules of :mod:`chessplace.regions.deduction` for ranks, files and regions: what is
known of each square (:class:`State`), one deduction (:class:`Step`), the units and
the five rules that count squares (touching, unit full, last squares, confined,
would empty a unit)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations

from chessplace.core.board import Square, file_name, square_name
from chessplace.core.regions import Regions
from chessplace.core.regions import touching as squares_touch

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
        marks = [f"piece on {names(self.places)}"] if self.places else []
        if self.empties:
            marks.append(f"{names(self.empties)} empty")
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
    _placed: dict[int, tuple[Sequence[Square], int]] = field(
        default_factory=dict, init=False, repr=False, compare=False
    )
    """Pieces counted on a sequence of squares since the last step, by the sequence's
    id (the sequence is kept too, so its id stays its own); :meth:`apply` clears it."""

    @property
    def n(self) -> int:
        return self.regions.size

    def units(self) -> Iterator[tuple[str, Sequence[Square]]]:
        """Every rank, file and region with its squares."""
        for name, squares, _ in room_units(self.regions)[: 3 * self.n]:
            yield name, squares

    def room_units(self) -> tuple[Unit, ...]:
        """Every unit with how many pieces it holds (``per_line``), and with two or more
        per line every two neighbouring ranks or files (twice that)."""
        return room_units(self.regions)

    def unknown(self, squares: Sequence[Square]) -> list[Square]:
        return [s for s in squares if s not in self.marks]

    def needed(self, squares: Sequence[Square], holds: int | None = None) -> int:
        """The pieces a unit of ``squares`` still needs: ``holds`` (``per_line`` unless
        given) less those placed."""
        total = self.regions.per_line if holds is None else holds
        known = self._placed.get(id(squares))
        if known is not None and known[0] is squares:
            return total - known[1]
        placed = sum(1 for s in squares if self.marks.get(s) is True)
        self._placed[id(squares)] = (squares, placed)
        return total - placed

    def apply(self, step: Step) -> None:
        self._placed.clear()
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
        return any(t in self.marks and self.marks[t] for s in pieces for t in around(s, self.n))


Unit = tuple[str, tuple[Square, ...], int]
"""A unit's name, its squares and how many pieces it holds."""


@lru_cache(maxsize=16)
def room_units(regions: Regions) -> tuple[Unit, ...]:
    """Ranks, files and regions (in that order, ``per_line`` pieces each), then with
    two or more per line every two neighbouring ranks and files (twice that)."""
    n, k = regions.size, regions.per_line
    units: list[Unit] = []
    for rank in range(n):
        units.append((f"rank {rank + 1}", tuple((file, rank) for file in range(n)), k))
    for file in range(n):
        squares = tuple((file, rank) for rank in range(n))
        units.append((f"file {file_name(file)}", squares, k))
    for region in range(n):
        units.append((f"region {regions.labels[region]}", tuple(regions.squares(region)), k))
    if k > 1:
        for low in range(n - 1):
            squares = tuple((file, rank) for rank in (low, low + 1) for file in range(n))
            units.append((f"ranks {low + 1}–{low + 2}", squares, 2 * k))
        for low in range(n - 1):
            squares = tuple((file, rank) for file in (low, low + 1) for rank in range(n))
            pair = f"{file_name(low)}–{file_name(low + 1)}"
            units.append((f"files {pair}", squares, 2 * k))
    return tuple(units)


@lru_cache(maxsize=32)
def units_holding(
    regions: Regions, lines_and_regions: bool = False
) -> dict[Square, tuple[int, ...]]:
    """Square → the indices (in :func:`room_units`) of the units that hold it (with
    ``lines_and_regions``, of its rank, file and region only)."""
    units = room_units(regions)
    holding: dict[Square, list[int]] = {}
    for index, (_, squares, _) in enumerate(
        units[: 3 * regions.size] if lines_and_regions else units
    ):
        for square in squares:
            holding.setdefault(square, []).append(index)
    return {square: tuple(indices) for square, indices in holding.items()}


def touching(state: State) -> Step | None:
    for square, piece in sorted(state.marks.items()):
        if piece:
            free = [t for t in around(square, state.n) if t not in state.marks]
            if free:
                return Step(
                    "touching", (), tuple(sorted(free)), f"{square_name(square)} has a piece"
                )
    return None


def unit_full(state: State) -> Step | None:
    for name, squares in state.units():
        rest = state.unknown(squares)
        if rest and state.needed(squares) == 0:
            return Step("unit full", (), tuple(sorted(rest)), f"{name} has all its pieces")
    return None


def last_squares(state: State) -> Step | None:
    for name, squares in state.units():
        rest = state.unknown(squares)
        needed = state.needed(squares)
        if rest and 0 < needed == len(rest) and not _touch_each_other(rest):
            return Step("last squares", tuple(sorted(rest)), (), f"{name} has no other room")
    return None


def confined(state: State, sizes: range = range(1, MAX_CONFINED + 1)) -> Step | None:
    """The first ``confined`` step looking at a number of units in ``sizes`` together."""
    n = state.n
    units = state.room_units()
    ranks, files, regions = (
        [(state.unknown(squares), state.needed(squares)) for _, squares, _ in units[k : k + n]]
        for k in (0, n, 2 * n)
    )
    names = state.regions.labels
    for size in sizes:
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


def would_empty(state: State) -> Step | None:
    """The first unknown square (in board order) whose piece would leave some unit too
    little room: the piece, its touching squares emptied and the units it fills closed.
    Each trial counts only what changes, unit by unit."""
    units = state.room_units()[: 3 * state.n]
    holding = units_holding(state.regions, lines_and_regions=True)
    around = neighbours_of(state.n)
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


@lru_cache(maxsize=8)
def neighbours_of(n: int) -> dict[Square, tuple[Square, ...]]:
    """Square → the squares touching it on an n×n board."""
    return {(f, r): tuple(around((f, r), n)) for f in range(n) for r in range(n)}


def around(square: Square, n: int) -> Iterator[Square]:
    """The up to eight squares touching ``square``, corners included."""
    f, r = square
    for df in (-1, 0, 1):
        for dr in (-1, 0, 1):
            if (df or dr) and 0 <= f + df < n and 0 <= r + dr < n:
                yield f + df, r + dr


def _touch_each_other(squares: list[Square]) -> bool:
    return any(squares_touch(a, b) for a, b in combinations(squares, 2))


def _unit_list(
    kind: str, indices: tuple[int, ...] | list[int], names: tuple[str, ...], n: int
) -> str:
    if kind == "region":
        labels = [names[k] for k in indices]
    elif kind == "rank":
        labels = [str(k + 1) for k in indices]
    else:
        labels = [file_name(k) for k in indices]
    plural = "s" if len(labels) > 1 else ""
    return f"{kind}{plural} {', '.join(labels)}"


def names(squares: tuple[Square, ...]) -> str:
    return " ".join(square_name(s) for s in squares)
