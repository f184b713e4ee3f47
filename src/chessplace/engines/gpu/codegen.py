"""Writing the CUDA counting kernel for one piece and board as Python source (Numba).

One thread takes one prefix at a time (an atomic counter hands them out, so
fast threads take more) and searches its later rows depth first, one node
per turn of a single loop: every thread of a warp runs the same few
instructions whatever its depth, as in the published GPU counters. The
attack state of the rows above lives in registers; the states to come back
to sit on a stack in shared memory laid out [level][word][thread], so the
32 threads of a warp always touch 32 different banks, at any mix of depths.
A level whose columns are used up is never pushed, and a dead child never
entered; the depth is the number of pieces placed (one per row).

Each solution's last two rows are found at once; its class weight is the
bitboard counter's (:mod:`chessplace.engines.bitboard.codegen`): 8 unless it
ties with an image by its first entries, then the full comparison of
:func:`chessplace.engines.bitboard.leaf.class_size`, on the columns each row
took (kept in shared memory too).

A thread reads a stop flag (host memory the GPU maps) before each prefix and
every :data:`STOP_STEPS` nodes; a prefix cut short is not marked done.

That is the default :class:`~chessplace.engines.gpu.variant.KernelVariant`. Its
other choices keep each thread's stack, rows and bans in local arrays instead
of shared memory, and count every solution of the mirror-half prefixes once,
with no class weighing in the loop (the prefix's mirror weight multiplies its
total, and the host finds the classes by Burnside's lemma).
"""

from __future__ import annotations

from dataclasses import dataclass

from chessplace.engines.bitboard.codegen import Shape
from chessplace.engines.gpu.prefixes import state_words
from chessplace.engines.gpu.variant import TODAY, KernelVariant

STOP_STEPS = 1 << 14
"""Nodes a thread searches between two looks at the stop flag."""


@dataclass(frozen=True)
class Launch:
    """A kernel's compile-time sizes and choices: the shape, the prefix rows, threads
    per block, and the variant of the generator (today's kernel by default)."""

    shape: Shape
    rows: int
    block: int
    variant: KernelVariant = TODAY

    @property
    def depth(self) -> int:
        """Stack levels: rows searched, less the last two (never pushed)."""
        return max(1, self.shape.n - 2 - self.rows)

    @property
    def fields(self) -> int:
        """Words a stack level holds: the state, then the columns still to try."""
        return len(state_words(self.shape)) + 1

    @property
    def weighs(self) -> bool:
        """Whether the kernel weighs each solution by its class (and so keeps each
        row's column and the prefix's banned columns)."""
        return self.variant.weighing == "in_loop"

    @property
    def shared_bytes(self) -> int:
        """Shared memory a block needs: its stack, each row's column, each row's ban
        (none when the variant keeps them in local arrays)."""
        if self.variant.stack == "local":
            return 0
        per_thread = self.depth * self.fields + (2 * self.shape.n if self.weighs else 0)
        return 4 * self.block * per_thread


def source(launch: Launch) -> str:
    """A module defining the kernel ``count(tasks, forbid, total, next_task, stop,
    found, classes, done)``: see :mod:`chessplace.engines.gpu.kernel`."""
    shape = launch.shape
    n = shape.n
    words = state_words(shape)
    weighs = launch.weighs
    t = ", tid" if launch.variant.stack == "shared" else ""  # the thread's slot
    lines = [
        "import numpy as np",
        "from numba import cuda, int32, uint32, uint64",
        "",
        f"N = {n}",
        f"LAST = {n - 1}",
        f"ROWS = {launch.rows}",
        f"WORDS = {len(words)}",
        f"TABLE = {len(words) + launch.rows}",
        f"BLOCK = {launch.block}",
        f"DEPTH = {launch.depth}",
        f"FIELDS = {launch.fields}",
        f"FULL = np.uint32({(1 << n) - 1})",
        f"SIDES = np.uint32({1 | 1 << (n - 1)})",
        "ONE = np.uint32(1)",
        "NONE = np.uint32(0)",
        f"STOP_MASK = {STOP_STEPS - 1}",
        "",
        *([_CLASS_SIZE.format(t=t), ""] if weighs else []),
        "@cuda.jit(cache=True)",
        "def count(tasks, forbid, total, next_task, stop, found_out, classes_out, done_out):",
        *(f"    {line}" for line in _arrays(launch)),
        *(["    tid = cuda.threadIdx.x"] if t else []),
        "    steps = 0",
        "    while True:",
        "        if stop[0]:",
        "            return",
        "        task = cuda.atomic.add(next_task, 0, 1)",
        "        if task >= total:",
        "            return",
        *(f"        {line}" for line in _start(launch, t)),
        *(f"        {w} = uint32(tasks[task, {i}])" for i, w in enumerate(words)),
        "        row = ROWS",
        f"        free = uint32(FULL & ~({_blocked(launch, '', 'row', t)}))",
        "        top = 0",
        "        found = uint64(0)",
        *(["        classes = uint64(0)"] if weighs else []),
        "        stopped = False",
        "        while True:",
        "            steps += 1",
        "            if steps & STOP_MASK == 0 and stop[0]:",
        "                stopped = True",
        "                break",
        "            if free == NONE:",
        "                if top == 0:",
        "                    break",
        "                top -= 1",
        *(f"                {w} = stack[top, {i}{t}]" for i, w in enumerate(words)),
        f"                free = stack[top, {len(words)}{t}]",
        "                row = cuda.popc(c)",
        "                continue",
        "            bit = uint32(free & ~(free - ONE))",
        "            free = uint32(free ^ bit)",
        *([f"            rows[row{t}] = bit"] if weighs else []),
        *(f"            {line}" for line in _place(shape)),
        f"            below = uint32(FULL & ~({_blocked(launch, '_', 'row + 1', t)}))",
        "            if row + 1 == LAST:",
        "                if below != NONE:",
        *(f"                    {line}" for line in _leaf(launch, t)),
        "                continue",
        "            if below == NONE:",
        "                continue",
        "            if free != NONE:",
        *(f"                stack[top, {i}{t}] = {w}" for i, w in enumerate(words)),
        f"                stack[top, {len(words)}{t}] = free",
        "                top += 1",
        *(f"            {w} = {w}_" for w in words),
        "            free = below",
        "            row += 1",
        "        if stopped:",
        "            return",
        *(f"        {line}" for line in _finish(launch)),
        "        done_out[task] = 1",
    ]
    return "\n".join(lines) + "\n"


def _arrays(launch: Launch) -> list[str]:
    """The thread's stack (and, when it weighs, its rows' columns and banned columns):
    slices of block-wide shared arrays, or local arrays of its own."""
    names = ["stack", "rows", "banned"] if launch.weighs else ["stack"]
    kind = launch.variant.stack
    sizes = {
        "shared": {"stack": "(DEPTH, FIELDS, BLOCK)", "rows": "(N, BLOCK)", "banned": "(N, BLOCK)"},
        "local": {"stack": "(DEPTH, FIELDS)", "rows": "N", "banned": "N"},
    }[kind]
    return [f"{name} = cuda.{kind}.array({sizes[name]}, uint32)" for name in names]


def _start(launch: Launch, t: str) -> list[str]:
    """What a prefix brings besides its state: its banned columns and its rows'
    columns, for the weighing (nothing when the host weighs)."""
    if not launch.weighs:
        return []
    return [
        "table = tasks[task, TABLE]",
        "for row in range(N):",
        f"    banned[row{t}] = forbid[table, row]",
        "for row in range(ROWS):",
        f"    rows[row{t}] = tasks[task, WORDS + row]",
        f"first = cuda.popc(rows[0{t}] - ONE)",
        "ends = uint32((ONE << uint32(first)) | (ONE << uint32(LAST - first)))",
        "middle = 2 * first == LAST",
    ]


def _blocked(launch: Launch, suffix: str, row: str, t: str) -> str:
    """The columns that ``row`` may not take, from the state words named with ``suffix``
    (and the prefix's banned columns when the kernel weighs)."""
    terms = _blocking(launch.shape, suffix)
    if launch.weighs:
        terms.append(f"banned[{row}{t}]")
    return " | ".join(terms)


def _leaf(launch: Launch, t: str) -> list[str]:
    """A solution completed by ``below``: weighed by its class, or counted once."""
    if not launch.weighs:
        return ["found += uint64(1)"]
    return [f"rows[LAST{t}] = below", *_weigh(launch.shape, t)]


def _finish(launch: Launch) -> list[str]:
    """The prefix's totals: when the host weighs, its solutions times its mirror weight
    (the column after its table) and no classes."""
    if not launch.weighs:
        return [
            "found_out[task] = found * uint64(tasks[task, TABLE + 1])",
            "classes_out[task] = uint64(0)",
        ]
    return ["found_out[task] = found", "classes_out[task] = classes"]


def _blocking(shape: Shape, suffix: str) -> list[str]:
    """The words that block the next row's columns (each name with ``suffix``)."""
    names = ["c", "l", "r"] if shape.diagonals else ["c"]
    if shape.depth:
        names.append("a1")
    return [name + suffix for name in names]


def _place(shape: Shape) -> list[str]:
    """The state after the piece on ``bit`` (names with a trailing underscore)."""
    lines = ["c_ = uint32(c | bit)"]
    if shape.diagonals:
        lines += ["l_ = uint32((l | bit) << ONE)", "r_ = uint32((r | bit) >> ONE)"]
    for k in range(1, shape.depth + 1):
        terms = [f"a{k + 1}"] if k < shape.depth else []
        terms += [
            f"(bit << uint32({dx}))" if dx > 0 else f"(bit >> uint32({-dx}))"
            for dx, dy in shape.leaps
            if dy == k
        ]
        lines.append(f"a{k}_ = uint32({' | '.join(terms) or 'NONE'})")
    return lines


def _weigh(shape: Shape, t: str) -> list[str]:
    """Count the solution just completed by its class's size if it is its class's
    smallest member (see :func:`chessplace.engines.bitboard.codegen._leaf`)."""
    corner = "first == 0 or " if shape.diagonals and shape.n > 1 else ""
    tie = f"middle or (rows[first{t}] | rows[LAST - first{t}]) & SIDES or below & ends"
    return [
        f"if {corner}not ({tie}):",
        "    found += uint64(8)",
        "    classes += uint64(1)",
        "else:",
        f"    weight = class_size(rows{t})",
        "    if weight:",
        "        found += uint64(weight)",
        "        classes += uint64(1)",
    ]


_CLASS_SIZE = '''
@cuda.jit(device=True)
def class_size(rows{t}):
    """As chessplace.engines.bitboard.leaf.class_size, on one thread's rows."""
    perm = cuda.local.array(N, int32)
    inverse = cuda.local.array(N, int32)
    for row in range(N):
        column = cuda.popc(rows[row{t}] - ONE)
        perm[row] = column
        inverse[column] = row
    fixed = 1
    for transform in range(1, 8):
        same = True
        for i in range(N):
            if transform == 1:
                other = LAST - perm[i]
            elif transform == 2:
                other = perm[LAST - i]
            elif transform == 3:
                other = LAST - perm[LAST - i]
            elif transform == 4:
                other = inverse[i]
            elif transform == 5:
                other = LAST - inverse[LAST - i]
            elif transform == 6:
                other = LAST - inverse[i]
            else:
                other = inverse[LAST - i]
            if other != perm[i]:
                if other < perm[i]:
                    return 0
                same = False
                break
        if same:
            fixed += 1
    return 8 // fixed
'''.strip("\n")
