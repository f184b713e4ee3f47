"""Counting queens (or rooks) one per segment, with pawns, blocked squares and given queens.

The counts of the n+k queens problem (OEIS A103330, A103331, A129552, A129554):
every set of pawns that can be part of an answer is taken once per class under the
problem's symmetries (those of the board that keep its blocked squares, given pawns
and given queens), weighted by the size of its class, and the queens are counted for
it by :func:`chessplace.engines.bitboard.segments.search`, split by the columns of
its first segments into subproblems that threads, processes or Dask run and a
checkpoint records.

Classes, by Burnside's lemma: the classes of answers are those of pawn sets P (one
representative each, stabiliser H) times the H-classes of queen placements Q for P,
and those number (N + F) / |H|, where N counts the placements and F, summed over the
symmetries of H but the identity, counts the placements each maps onto themselves.
A subproblem's record keeps ``solutions`` = Σ w·N and ``scaled`` = Σ w·(N + F), with
w = |G| / |H| the size of P's class; the count is Σ solutions and the classes are
Σ scaled / |G|.

Burnside's lemma: W. Burnside, 1897, "Theory of Groups of Finite Order".
"""

from __future__ import annotations

import hashlib
import itertools
import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np

from chessplace.core.board import Square, square_name

PawnSet = tuple[Square, ...]
"""Pawn squares, sorted by rank then file."""

SPLIT_VERSION = 1
"""Bumped whenever the pawn sets or subproblems of a count change order or shape, so a
checkpoint of another split is refused instead of misread."""

TARGET_TASKS = 2000
"""About how many subproblems a count is cut into: enough to keep every core busy to
the end and to lose little to a stop, few enough that a checkpoint stays small."""


SPLIT_FROM = 12
"""Boards below this side are counted in at most :data:`SMALL_TASKS` subproblems of
whole pawn classes: their searches take milliseconds, the bookkeeping would not."""

SMALL_TASKS = 64


def dihedral_image(transform: int, square: Square, last: int) -> Square:
    """``square``'s image under symmetry ``transform`` of an n×n board (``last`` = n-1),
    numbered as :meth:`chessplace.core.board.Board.symmetries` lists them."""
    x, y = square
    images = (
        (x, y),
        (last - x, last - y),
        (last - x, y),
        (x, last - y),
        (y, x),
        (last - y, last - x),
        (y, last - x),
        (last - y, x),
    )
    return images[transform]


def _sorted(squares: Iterable[Square]) -> PawnSet:
    return tuple(sorted(squares, key=lambda s: (s[1], s[0])))


@dataclass(frozen=True)
class Position:
    """What a count starts from: an n×n board, its blocked squares, its given pawns and
    queens, how many pawns to place and how many queens (one per row segment)."""

    n: int
    queens: int
    free_pawns: int = 0
    blocked: frozenset[Square] = frozenset()
    pawns: frozenset[Square] = frozenset()
    given: frozenset[Square] = frozenset()
    diagonals: bool = True

    def fixed_parts(self) -> tuple[frozenset[Square], ...]:
        return (self.blocked, self.pawns, self.given)

    def group(self) -> tuple[int, ...]:
        """The symmetries (numbers, identity first) that keep the position."""
        last = self.n - 1
        return tuple(
            t
            for t in range(8)
            if all(
                {dihedral_image(t, s, last) for s in part} == part for part in self.fixed_parts()
            )
        )

    def header(self) -> dict[str, object]:
        """What a checkpoint pins."""
        return {
            "n": self.n,
            "piece": "queen" if self.diagonals else "rook",
            "method": "segments",
            "queens": self.queens,
            "free_pawns": self.free_pawns,
            "blocked": [square_name(s) for s in _sorted(self.blocked)],
            "pawns": [square_name(s) for s in _sorted(self.pawns)],
            "given": [square_name(s) for s in _sorted(self.given)],
            "split": SPLIT_VERSION,
        }


def _runs(allowed: Sequence[bool], pawn: Sequence[bool]) -> int:
    """Segments of a line (runs between pawns) holding at least one allowed square."""
    count = 0
    usable = False
    for ok, stop in zip(allowed, pawn, strict=True):
        if stop:
            count += usable
            usable = False
        elif ok:
            usable = True
    return count + usable


@dataclass(frozen=True)
class Layout:
    """The arrays :func:`~chessplace.engines.bitboard.segments.search` takes for one
    set of pawns."""

    segs: np.ndarray
    rows: np.ndarray
    ends: np.ndarray
    pawns: np.ndarray
    need: np.ndarray


def layout(position: Position, pawn_set: PawnSet) -> Layout | None:
    """The segments for ``pawn_set`` (given pawns included), or ``None`` when no answer
    uses these pawns: the rows do not have exactly one segment per queen, or the
    files fewer segments than queens."""
    n = position.n
    pawns = set(pawn_set)
    blocked = position.blocked
    allowed = [[(x, y) not in blocked and (x, y) not in pawns for x in range(n)] for y in range(n)]
    is_pawn = [[(x, y) in pawns for x in range(n)] for y in range(n)]
    row_segments = sum(_runs(allowed[y], is_pawn[y]) for y in range(n))
    if row_segments != position.queens:
        return None
    column_segments = sum(
        _runs([allowed[y][x] for y in range(n)], [is_pawn[y][x] for y in range(n)])
        for x in range(n)
    )
    if column_segments < position.queens:
        return None
    segs: list[int] = []
    rows: list[int] = []
    ends: list[int] = []
    for y in range(n):
        mask = 0
        usable = False
        for x in range(n + 1):
            if x == n or is_pawn[y][x]:
                if mask and usable:
                    segs.append(mask)
                    rows.append(y)
                    ends.append(0)
                mask, usable = 0, False
                continue
            if allowed[y][x]:
                mask |= 1 << x
                usable = True
        if ends and rows[-1] == y:
            ends[-1] = 1
    whole = tuple(segs)
    for x, y in position.given:  # a given queen is its segment's only square
        for s, (mask, row) in enumerate(zip(whole, rows, strict=True)):
            if row == y and mask >> x & 1:
                if segs[s] != mask:  # two given queens in one segment attack each other
                    return None
                segs[s] = 1 << x
    pawn_rows = [sum(1 << x for x in range(n) if is_pawn[y][x]) for y in range(n)]
    # Every file segment holds a queen when there are no more of them than queens:
    # then the one ending at a pawn must be full when the search reaches the pawn.
    need = [0] * n
    if column_segments == position.queens:
        for x, y in pawns:
            above = [y2 for y2 in range(y) if (x, y2) in pawns]
            start = max(above) + 1 if above else 0
            if any(allowed[y2][x] for y2 in range(start, y)):
                need[y] |= 1 << x
    return Layout(
        np.array(segs, dtype=np.uint64),
        np.array(rows, dtype=np.int64),
        np.array(ends, dtype=np.uint8),
        np.array(pawn_rows, dtype=np.uint64),
        np.array(need, dtype=np.uint64),
    )


@dataclass(frozen=True)
class PawnClass:
    """One set of pawns for each class of them: its class's size (``weight``) and the
    symmetries, other than the identity, that fix it."""

    pawns: PawnSet
    weight: int
    fixers: tuple[int, ...]


def pawn_classes(
    position: Position, stopped: Callable[[], bool] | None = None
) -> list[PawnClass] | None:
    """A set of pawns (given ones and ``free_pawns`` more) for each class of those that
    some answer may use, smallest first, each the smallest of its class; ``None`` when
    ``stopped()`` came true first (it is asked every few thousand sets)."""
    n, last = position.n, position.n - 1
    group = position.group()
    taken = position.blocked | position.pawns | position.given
    base = layout_counts(position, position.pawns)
    # Each placed pawn must add a row segment and a file segment (every row segment
    # holds a queen, and n + k of them need every pawn to cut its row and file).
    candidates = [
        (x, y)
        for y in range(n)
        for x in range(n)
        if (x, y) not in taken and _adds_segments(position, position.pawns, (x, y), base)
    ]
    found: list[PawnClass] = []
    for tried, chosen in enumerate(itertools.combinations(candidates, position.free_pawns)):
        if stopped is not None and tried % 4096 == 4095 and stopped():
            return None
        if not _apart(chosen):
            continue
        pawn_set = _sorted((*position.pawns, *chosen))
        key = _key(pawn_set)
        fixers = []
        smallest = True
        for t in group[1:]:
            other = _key(_sorted(dihedral_image(t, s, last) for s in pawn_set))
            if other < key:
                smallest = False
                break
            if other == key:
                fixers.append(t)
        if not smallest:
            continue
        if layout(position, pawn_set) is None:
            continue
        found.append(PawnClass(pawn_set, len(group) // (len(fixers) + 1), tuple(fixers)))
    return found


def _key(pawn_set: PawnSet) -> tuple[tuple[int, int], ...]:
    return tuple((y, x) for x, y in pawn_set)


def _apart(chosen: Sequence[Square]) -> bool:
    """No two pawns side by side on a rank or a file (a segment between them would be
    empty)."""
    squares = set(chosen)
    return not any((x + 1, y) in squares or (x, y + 1) in squares for x, y in chosen)


def layout_counts(position: Position, pawns: Iterable[Square]) -> tuple[int, int]:
    """(row segments, file segments) with ``pawns`` on the board."""
    n = position.n
    on = set(pawns)
    allowed = [
        [(x, y) not in position.blocked and (x, y) not in on for x in range(n)] for y in range(n)
    ]
    is_pawn = [[(x, y) in on for x in range(n)] for y in range(n)]
    rows = sum(_runs(allowed[y], is_pawn[y]) for y in range(n))
    files = sum(
        _runs([allowed[y][x] for y in range(n)], [is_pawn[y][x] for y in range(n)])
        for x in range(n)
    )
    return rows, files


def _adds_segments(
    position: Position, pawns: frozenset[Square], square: Square, base: tuple[int, int]
) -> bool:
    rows, files = layout_counts(position, pawns | {square})
    return rows == base[0] + 1 and files == base[1] + 1


@dataclass(frozen=True)
class PawnTask:
    """A subproblem: pawn classes (by number), each with its first segments' files
    fixed to ``prefix`` (empty: not split)."""

    classes: tuple[int, ...]
    prefix: tuple[int, ...] = ()

    @property
    def key(self) -> str:
        first, last = self.classes[0], self.classes[-1]
        name = f"p{first}" if first == last else f"p{first}-{last}"
        return name + (":" + ".".join(map(str, self.prefix)) if self.prefix else "")


def pawn_tasks(position: Position, classes: Sequence[PawnClass]) -> list[PawnTask]:
    """Subproblems: about :data:`TARGET_TASKS`, by pawn classes grouped when they are
    many (or the board small), else by the files of each class's first segments too."""
    if not classes:
        return []
    n = position.n
    if n < SPLIT_FROM or len(classes) >= TARGET_TASKS:
        size = -(-len(classes) // (SMALL_TASKS if n < SPLIT_FROM else TARGET_TASKS))
        return [
            PawnTask(tuple(range(start, min(start + size, len(classes)))))
            for start in range(0, len(classes), size)
        ]
    depth = 1 if len(classes) * n >= TARGET_TASKS else 2
    tasks = []
    for number, pawn_class in enumerate(classes):
        shape = layout(position, pawn_class.pawns)
        assert shape is not None
        options = [
            [x for x in range(n) if int(shape.segs[s]) >> x & 1]
            for s in range(min(depth, len(shape.segs)))
        ]
        tasks += [PawnTask((number,), tuple(p)) for p in itertools.product(*options)]
    return tasks


def digest(classes: Sequence[PawnClass]) -> str:
    """A short hash of the pawn classes, for the checkpoint's header."""
    text = json.dumps([[list(s) for s in c.pawns] for c in classes])
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def count_task(
    position: Position,
    classes: Sequence[PawnClass],
    prefix: tuple[int, ...],
    stop: np.ndarray | None = None,
) -> tuple[int, int] | None:
    """``(Σ w·N, Σ w·(N + F))`` over ``classes`` with the first segments' files
    ``prefix``; ``None`` when ``stop`` was set first. Importable and picklable, for
    threads and Dask workers alike."""
    from chessplace.engines.bitboard.segments import STOPPED, search

    if stop is None:  # a Dask worker: no flag is shared with the caller
        stop = np.zeros(1, dtype=np.uint8)
    solutions = scaled = 0
    for pawn_class in classes:
        shape = layout(position, pawn_class.pawns)
        if shape is None:
            continue
        segs = shape.segs.copy()
        for s, x in enumerate(prefix):
            segs[s] &= np.uint64(1 << x)
        syms = np.array(pawn_class.fixers, dtype=np.int64)
        found, fixed = search(
            position.n,
            position.diagonals,
            segs,
            shape.rows,
            shape.ends,
            shape.pawns,
            shape.need,
            syms,
            stop,
        )
        if found == STOPPED:
            return None
        solutions += pawn_class.weight * int(found)
        scaled += pawn_class.weight * (int(found) + int(fixed.sum()))
    return solutions, scaled
