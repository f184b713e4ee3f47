"""``chessplace demo``: the classic puzzles one after the other, with boards and timings.

On a machine that never ran chessplace, the searches of the later sections (the line
search, the local search, the cover search) compile in a child process while the
first sections run (:func:`_compile_ahead`): the sections then load them from the
disk cache, and wait only for what is not compiled yet, saying so.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable
from typing import Any

from rich.console import Console
from rich.table import Table

from chessplace import api
from chessplace.core.board import Board
from chessplace.core.result import Result
from chessplace.data.reference import known
from chessplace.forms.text import render_text
from chessplace.notation import puzzles
from chessplace.runtime import compiling
from chessplace.runtime.lifeline import start_child


class _Console(Console):
    """A console that leaves a closed pipe to :func:`chessplace.faces.cli.main` (rich exits 1)."""

    def on_broken_pipe(self) -> None:
        self.quiet = True
        raise BrokenPipeError


def _board(console: Console, title: str, result: Result, ascii_only: bool) -> None:
    console.rule(title)
    if result.placement is not None:
        console.print(render_text(result.placement, ascii_only), highlight=False)
    console.print(f"[dim]{result.status.value} · {result.solver} · {_took(result, 3)}[/dim]")


def _took(result: Result, digits: int = 2) -> str:
    """``0.79 s``, and after a first run's compilation ``0.79 s (compiled in 11.8 s)``:
    the compilation, once per machine, is no part of the answer's time."""
    return " ".join(filter(None, [f"{result.seconds:.{digits}f} s", result.compiled_note]))


def _cell(result: Result) -> str:
    """A table's seconds: ``0.79``, or ``0.79 (compiled in 11.8 s)``."""
    return " ".join(filter(None, [f"{result.seconds:.2f}", result.compiled_note]))


def _compile_ahead(sender: Any) -> None:
    """In a child process: solve the smallest problem of each later section that needs a
    search compiled, so that it compiles into the disk cache while the first sections
    run. Sends the name of each search as it starts compiling, and ``None`` after each
    problem."""
    lock = threading.Lock()  # the searches may compile in threads of their own

    def send(message: str | None) -> None:
        with lock:
            sender.send(message)

    compiling.on_compile(send)
    square = Board.square
    with contextlib.suppress(Exception):  # then the section compiles for itself
        for problem in (puzzles.peaceable_queens(square(2)), puzzles.dominating_queens(square(5))):
            api.optimize(problem)
            send(None)


class _Ahead:
    """The child of :func:`_compile_ahead`, and how far it has got."""

    def __init__(self) -> None:
        self.child = start_child(_compile_ahead)
        self.solved = 0
        self.compiling: list[str] = []  # for the problem under way

    def wait(self, problem: int, say: Callable[[str], None]) -> None:
        """Wait until the child has solved problem ``problem`` (0: peaceable queens, 1:
        domination), saying which searches it is still compiling for it."""
        receiver = self.child.receiver
        try:
            while self.solved <= problem and receiver.poll():
                self._heard(receiver.recv())  # what it said while this process worked
            if self.solved > problem:
                return
            for search in self.compiling:
                say(search)
            while self.solved <= problem:
                message = receiver.recv()
                self._heard(message)
                if message is not None and self.solved == problem:
                    say(message)
        except EOFError:  # the child died: the section compiles for itself
            self.solved = problem + 1

    def _heard(self, message: str | None) -> None:
        if message is None:
            self.solved += 1
            self.compiling = []
        else:
            self.compiling.append(message)


def run_demo(ascii_only: bool = False) -> None:
    """Solve, optimise and count the seed puzzles, checking each answer against OEIS."""
    console = _Console()
    ahead = _Ahead()  # before this process's listener: the child keeps quiet

    def say(search: str) -> None:  # from the thread that compiles: a closed pipe waits
        with contextlib.suppress(BrokenPipeError):
            console.print(f"[dim]{compiling.notice(search)}[/dim]")

    unsay = compiling.on_compile(say)
    try:
        _run_demo(console, ascii_only, ahead, say)
    finally:
        ahead.child.end()
        unsay()


def _run_demo(
    console: Console, ascii_only: bool, ahead: _Ahead, say: Callable[[str], None]
) -> None:
    square = Board.square

    _board(console, "8 queens", api.solve(puzzles.queens(square(8))), ascii_only)
    queens = api.count(puzzles.queens(square(8)), unique=True)
    console.print(
        f"all 8-queens solutions: {queens.count} ({queens.unique} up to symmetry) "
        f"in {_took(queens)}"
    )

    million = api.solve(puzzles.queens(square(1_000_000)))
    console.rule("1,000,000 queens")
    console.print(
        f"placed and verified {len(million.placement or ())} queens on a "
        f"1,000,000×1,000,000 board in {_took(million)}"
    )

    _board(
        console,
        "most bishops on 8×8 (2n−2, proven)",
        api.optimize(puzzles.bishops(square(8))),
        ascii_only,
    )

    console.rule("amazons (queen + knight)")
    impossible = [
        n
        for n in range(2, 10)
        if api.solve(puzzles.amazons(square(n))).status.value == "infeasible"
    ]
    console.print(f"no placement for n = {impossible[0]}..{impossible[-1]}, proven")
    _board(console, "10 amazons", api.solve(puzzles.amazons(square(10))), ascii_only)
    amazons = api.count(puzzles.amazons(square(10)), unique=True)
    console.print(f"all 10-amazon solutions: {amazons.count} ({amazons.unique} up to symmetry)")

    ahead.wait(0, say)
    table = Table(title="peaceable armies of queens (OEIS A250000)")
    for column in ("n", "m", "status", "solver", "seconds", "OEIS"):
        table.add_column(column, justify="right")
    last = None
    for n in range(1, 10):
        last = api.optimize(puzzles.peaceable_queens(square(n)))
        table.add_row(
            str(n),
            str(last.objective),
            last.status.value,
            last.solver,
            _cell(last),
            str(known("A250000", n)),
        )
    console.print(table)
    if last is not None:
        _board(console, "9×9: 12 white and 12 black queens, proven best", last, ascii_only)
    optimal = api.count(puzzles.peaceable_queens(square(7)), unique=True, optimal=True)
    console.print(
        f"every optimal 7×7 army: {optimal.count} placements, {optimal.unique} up to "
        f"symmetry and colour swap (OEIS A260680: {known('A260680', 7)}) "
        f"in {_took(optimal)}"
    )
    target = known("peaceable-best-known", 20)
    large = api.solve(
        puzzles.peaceable_queens(square(20)).with_counts(at_least=target),
        solver="heuristic",
        time_limit=60,
    )
    _board(console, f"20×20 by local search: the best known {target} each", large, ascii_only)

    ahead.wait(1, say)
    table = Table(title="queen domination (OEIS A075458)")
    for column in ("n", "queens", "status", "seconds", "OEIS"):
        table.add_column(column, justify="right")
    for n in range(1, 9):
        result = api.optimize(puzzles.dominating_queens(square(n)))
        table.add_row(
            str(n),
            str(result.objective),
            result.status.value,
            _cell(result),
            str(known("A075458", n)),
        )
    console.print(table)
    if result.placement is not None:
        _board(console, "5 queens dominate 8×8", result, ascii_only)
