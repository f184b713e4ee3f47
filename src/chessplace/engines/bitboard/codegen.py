"""Writing the row-by-row search as Python source, one nested loop per row.

A search with the board side fixed in advance can keep every row's state
(columns taken, diagonal masks, leap masks) in scalar locals, one loop per
row: LLVM then holds the state in registers. Measured on n = 16 without
symmetry pruning, the plain search written this way took 2.9 s where the
plain C recursion of ``benchmarks/plain_counter.c`` took 3.3 s and the
explicit-stack Numba loop this replaced ran at about 0.75× the C. Python
allows 20 nested loops, so the rows are cut into segments of at most
:data:`SEGMENT_ROWS`, each a function whose innermost loop calls the next.

The source is generic over the piece: a ``Shape`` says whether it rides
diagonally and which further leaps it has, and the generator writes the
shifts those leaps need. Every row's allowed columns come in as a
``forbid`` mask per row, so one compiled search serves every subproblem
(prefix rows forbid all but their column) and every pruning rule.

The same source runs uncompiled too (:func:`source` with ``compiled`` false): plain
Python integers then stand for the 64-bit words (bits shifted past the board's
side are masked off wherever they would be read, as in the compiled search) and
:mod:`chessplace.engines.bitboard.interpreted` supplies the helpers. It answers a
small count in less time than compiling takes.

A search stops when asked: each iteration of the loops of rows 2 down to
:data:`STOP_ROWS_BELOW` rows above the bottom (see :func:`checks_stop`)
reads a one-byte flag another thread may set, and returns :data:`STOPPED`
when it is set. Between two checks the search is inside one subtree of
that many rows (milliseconds, however large the board) or at a checked
row; the innermost rows, where nearly all nodes are, never check.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

SEGMENT_ROWS = 12
"""Rows per generated function, well inside Python's limit of 20 nested loops."""

LOOKAHEAD_ROWS = 7
"""Within this many rows of the bottom, a node whose later rows cannot all
be filled (a row with no free column, or a free column no later row can
take; for a diagonal rider, the last two columns side by side) is cut
before it is searched."""


STOP_ROWS_BELOW = 12
"""Rows below the last row whose loop checks the stop flag: between two checks
the search runs at most a subtree of this many rows, whatever the board's side."""

STOPPED = -2
"""What a search returns as its count when its stop flag was set: the work is incomplete."""


@dataclass(frozen=True)
class Shape:
    """What a compiled search is specialised to.

    ``leaps`` are the piece's displacements (dx, dy), dy > 0, beyond its
    rook and bishop rides; ``collect`` writes solutions out instead of
    counting symmetry classes; ``plain`` counts every solution once, without
    symmetry (a position's blocked squares and given pieces break it).
    """

    n: int
    diagonals: bool
    leaps: tuple[tuple[int, int], ...]
    collect: bool
    plain: bool = False

    @property
    def depth(self) -> int:
        """How many rows below its own a piece's leaps reach."""
        return max((dy for _, dy in self.leaps), default=0)


class _Writer:
    def __init__(self, compiled: bool) -> None:
        self.lines: list[str] = []
        self.level = 0
        self.compiled = compiled

    def __call__(self, line: str) -> None:
        self.lines.append("    " * self.level + line)

    def function(self, header: str) -> None:
        """A function's first line, compiled by Numba when the source is."""
        if self.compiled:
            self("@njit(nogil=True, cache=True)")
        self(header)

    @contextmanager
    def block(self, header: str) -> Iterator[None]:
        self(header)
        self.level += 1
        yield
        self.level -= 1


def checks_stop(n: int, row: int) -> bool:
    """True when ``row``'s loop checks the stop flag on an n×n board: from row 2
    (rows 0 and 1 are a subproblem's prefix) to the row :data:`STOP_ROWS_BELOW`
    above the bottom, and at least row 2 (the last row has no loop)."""
    return 2 <= row < n - 1 and row <= max(2, n - 1 - STOP_ROWS_BELOW)


def source(shape: Shape, compiled: bool = True) -> str:
    """A module defining ``search(forbid, first, out, stop) -> (found, classes)``,
    compiled by Numba, or plain Python when not ``compiled``.

    ``forbid[r]`` masks the columns row r may not use; ``first`` is the
    first row's column. When counting plainly, ``found`` and ``classes`` both
    count every solution. When counting by classes, ``forbid`` must carry the rules of
    :func:`chessplace.engines.bitboard.split.class_pruning` (the symmetry check at
    each solution relies on them); ``found`` weighs each class's smallest
    member by its class size and ``classes`` counts them. When collecting,
    each solution's columns fill a row of ``out``, ``found`` says how many,
    and -1 says ``out`` filled up first. Either way ``found`` is
    :data:`STOPPED` when ``stop[0]`` was set while it searched.
    """
    n = shape.n
    # The bottom segment is the one entered most often: give it the most rows.
    starts = sorted({max(0, end - SEGMENT_ROWS) for end in range(n, 0, -SEGMENT_ROWS)} | {0})
    write = _Writer(compiled)
    if compiled:
        write("import numpy as np")
        write("from numba import njit, uint64")
        write("from chessplace.engines.bitboard.leaf import class_size, popcount, write_columns")
    else:
        write("from chessplace.engines.bitboard.interpreted import class_size, popcount")
        write("from chessplace.engines.bitboard.interpreted import write_columns")
        write("uint64 = int  # Python's integers for the words")
    write("")
    for index in reversed(range(len(starts))):
        end = starts[index + 1] if index + 1 < len(starts) else n
        _segment(write, shape, index, starts[index], end)
    _entry(write, shape)
    return "\n".join(write.lines) + "\n"


def _tag(row: int) -> str:
    return "s" if row < 0 else str(row)


def _state(shape: Shape, row: int) -> list[str]:
    """Names of the state after ``row`` (row -1: the empty board)."""
    tag = _tag(row)
    names = [f"c{tag}"]
    if shape.diagonals:
        names += [f"l{tag}", f"r{tag}"]
    return names + [f"a{tag}_{k}" for k in range(1, shape.depth + 1)]


def _blocked(shape: Shape, row: int, ahead: int, columns: bool = True) -> list[str]:
    """Masks of the columns that the pieces up to ``row`` forbid ``ahead`` rows
    further down (leaving out their own columns unless ``columns``)."""
    tag = _tag(row)
    terms = [f"c{tag}"] if columns else []
    if shape.diagonals and ahead == 1:
        terms += [f"l{tag}", f"r{tag}"]
    elif shape.diagonals:
        shift = f"uint64({ahead - 1})"
        terms += [f"(l{tag} << {shift})", f"(r{tag} >> {shift})"]
    if ahead <= shape.depth:
        terms.append(f"a{tag}_{ahead}")
    return terms


_PASSED = ["forbid", "required", "bits", "scratch", "first", "out", "stop", "found"]


def _segment(write: _Writer, shape: Shape, index: int, start: int, end: int) -> None:
    n = shape.n
    write.function(f"def segment{index}({', '.join([*_state(shape, start - 1), *_PASSED])}):")
    write.level = 1
    write(f"full = uint64({(1 << n) - 1})")
    write("one = uint64(1)")
    write("zero = uint64(0)")
    write("classes = 0")
    if end == n and not shape.collect and not shape.plain:
        write(f"sides = uint64({1 | 1 << (n - 1)})")
        write(f"ends = (one << uint64(first)) | (one << uint64({n - 1} - first))")
        write(f"middle = 2 * first == {n - 1}")
    for row in range(start, min(end, n - 1)):
        if not _inherits_look_ahead(shape, row, start):
            write(f"q{row} = required[{row}]")
    for row in range(start, min(end + LOOKAHEAD_ROWS, n)):
        write(f"f{row} = forbid[{row}]")
    for row in range(start, end):
        _row(write, shape, row, start, end)
        if row == n - 1:
            _leaf(write, shape, start)
        elif row == end - 1:
            _call(write, shape, index + 1, row)
    write.level = 1
    write("return found, classes")
    write.level = 0
    write("")


def _row(write: _Writer, shape: Shape, row: int, start: int, end: int) -> None:
    """Free columns of ``row``, then (unless it is the last) a loop over them."""
    free = f"free{row}"
    if _inherits_look_ahead(shape, row, start):
        write(f"{free} = option{row - 1}_1")
    else:
        write(f"{free} = full & ~({' | '.join([*_blocked(shape, row - 1, 1), f'f{row}'])})")
        if row < shape.n - 1:  # nothing is required of the last row
            # A column forbidden in every later row must be taken by this one.
            write(f"missing{row} = q{row} & ~c{_tag(row - 1)}")
            with write.block(f"if missing{row}:"):  # one can be taken here, two cannot
                single = f"missing{row} & (missing{row} - one) == zero"
                write(f"{free} = {free} & missing{row} if {single} else zero")
    if row == shape.n - 1:
        return
    write(f"while {free}:")
    write.level += 1
    if checks_stop(shape.n, row):
        with write.block("if stop[0]:"):
            write(f"return {STOPPED}, 0")
    write(f"bit{row} = {free} & (zero - {free})")
    write(f"{free} &= {free} - one")
    if end < shape.n:  # the last segment's leaves read their rows from its locals
        write(f"bits[{row}] = bit{row}")
    _place(write, shape, row)
    _look_ahead(write, shape, row)


def _place(write: _Writer, shape: Shape, row: int) -> None:
    before = _tag(row - 1)
    bit = f"bit{row}"
    write(f"c{row} = c{before} | {bit}")
    if shape.diagonals:
        write(f"l{row} = (l{before} | {bit}) << one")
        write(f"r{row} = (r{before} | {bit}) >> one")
    for k in range(1, shape.depth + 1):
        shifts = [
            f"({bit} << uint64({dx}))" if dx > 0 else f"({bit} >> uint64({-dx}))"
            for dx, dy in shape.leaps
            if dy == k
        ]
        inherited = [f"a{before}_{k + 1}"] if k < shape.depth else []
        write(f"a{row}_{k} = {' | '.join([*inherited, *shifts]) or 'zero'}")


def _look_ahead(write: _Writer, shape: Shape, row: int) -> None:
    """Cut the node unless every later row has a free column and every open column a row."""
    if not _looks_ahead(shape, row):
        return
    rows_left = shape.n - 1 - row
    write(f"open{row} = full & ~c{row}")
    options = [f"option{row}_{ahead}" for ahead in range(1, rows_left + 1)]
    for ahead, option in enumerate(options, start=1):
        blocked = " | ".join([*_blocked(shape, row, ahead, columns=False), f"f{row + ahead}"])
        write(f"{option} = open{row} & ~({blocked})")
    each_row = " & ".join(f"({option} != zero)" for option in options)
    each_column = f"(({' | '.join(options)}) == open{row})"
    test = f"{each_row} & {each_column}"
    if rows_left == 2 and shape.diagonals:  # two adjacent columns for two adjacent rows
        test += f" & ((open{row} & (open{row} >> one)) == zero)"
    with write.block(f"if not ({test}):"):
        write("continue")


def _looks_ahead(shape: Shape, row: int) -> bool:
    return 2 <= shape.n - 1 - row <= LOOKAHEAD_ROWS


def _inherits_look_ahead(shape: Shape, row: int, start: int) -> bool:
    """True when the row above, in the same function, looked ahead: its options
    for this row are this row's free columns, and its check already covers the
    columns this row is required to take."""
    return row > start and _looks_ahead(shape, row - 1)


def _call(write: _Writer, shape: Shape, index: int, row: int) -> None:
    arguments = ", ".join([*_state(shape, row), *_PASSED])
    write(f"found, more = segment{index}({arguments})")
    with write.block("if found < 0:"):
        write("return found, 0")
    write("classes += more")


def _leaf(write: _Writer, shape: Shape, start: int) -> None:
    """The last row: count (or write out) the solution it completes."""
    last = shape.n - 1
    free = f"free{last}"
    if shape.plain and not shape.collect:
        write(f"found += popcount({free})")
        write(f"classes += popcount({free})")
        return
    with write.block(f"if {free}:"):
        for row in range(start, last):
            write(f"bits[{row}] = c{row} ^ c{_tag(row - 1)}")
        write(f"bits[{last}] = {free}")
        if shape.collect:
            with write.block("if found == out.shape[0]:"):
                write("return -1, 0")
            write("write_columns(bits, out[found])")
            write("found += 1")
            return
        # With a queen-like piece in the corner only the transpose also starts
        # in a corner, the corner rule keeps the smaller of the two, and no
        # symmetry fixes the solution: its class has 8 members. Otherwise the
        # solution is the smallest of 8 unless an image starts as near a corner.
        corner = "first == 0 or " if shape.diagonals and shape.n > 1 else ""
        tie = f"middle or (bits[first] | bits[{last} - first]) & sides or {free} & ends"
        with write.block(f"if {corner}not ({tie}):"):
            write("found += 8")
            write("classes += 1")
        with write.block("else:"):
            write("weight = class_size(bits, scratch)")
            with write.block("if weight:"):
                write("found += weight")
                write("classes += 1")


def _entry(write: _Writer, shape: Shape) -> None:
    n = shape.n
    write.function("def search(forbid, first, out, stop):")
    write.level = 1
    write(f"full = uint64({(1 << n) - 1})")
    write("zero = uint64(0)")
    if write.compiled:  # filled by a loop: np.zeros would compile a helper of its own
        write(f"required = np.empty({n}, dtype=np.uint64)")
        write(f"bits = np.empty({n}, dtype=np.uint64)")
        write(f"scratch = np.empty((2, {n}), dtype=np.int64)")
        with write.block(f"for row in range({n}):"):
            write("required[row] = zero")
            write("bits[row] = zero")
    else:
        write("forbid = [int(word) for word in forbid]")
        write(f"required = [0] * {n}")
        write(f"bits = [0] * {n}")
        write("scratch = None")
    write("# A column forbidden in every later row must be taken by this one.")
    write("later = full")
    with write.block(f"for row in range({n - 2}, -1, -1):"):
        write("later &= forbid[row + 1]")
        write("required[row] = later")
    empty = ", ".join("zero" for _ in _state(shape, -1))
    passed = "forbid, required, bits, scratch, first, out, stop, 0"
    write(f"return segment0({empty}, {passed})")
    write.level = 0
