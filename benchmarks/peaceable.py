"""Peaceable queens benchmark: chessplace against two plain models, in one script.

For each n it proves a(n) (OEIS A250000) three ways and prints the seconds:
chessplace's default ``optimize``; a plain SAT model (one "may hold white"
variable per line, totalizer cardinality, the colour swap broken by fixing
the first rank's line to white, Kissat through PySAT: satisfiable at a(n),
unsatisfiable at a(n)+1); and a straightforward CP-SAT model (two 0/1 grids,
one indicator per line and colour, equal army sizes, maximise). ProB's
published times stand beside them for context. Plots to
benchmarks/out/peaceable.png.

    python benchmarks/peaceable.py [--min-n 5] [--max-n 9] [--time-limit 120]
"""

from __future__ import annotations

import argparse
import sys
import time

from chessplace import Board, optimize, puzzles
from chessplace.reference import known
from plotting import log_plot

PROB_SECONDS = {5: 0.18, 6: 1.16, 7: 21.2, 8: 780.0}


def queen_lines(n: int) -> list[list[tuple[int, int]]]:
    """Ranks, files and both diagonal directions, as lists of (file, rank)."""
    squares = [(f, r) for r in range(n) for f in range(n)]
    groups: dict[tuple[str, int], list[tuple[int, int]]] = {}
    for f, r in squares:
        for key in (("rank", r), ("file", f), ("diag", f - r), ("anti", f + r)):
            groups.setdefault(key, []).append((f, r))
    return [line for line in groups.values() if len(line) > 1]


def plain_sat(n: int, m: int, seconds: float) -> bool | None:
    """Is m against m possible? The plain SAT model, Kissat; None past the limit."""
    import multiprocessing

    context = multiprocessing.get_context("fork")
    receiver, sender = context.Pipe(duplex=False)
    child = context.Process(target=_plain_sat_child, args=(n, m, sender), daemon=True)
    child.start()
    sender.close()
    answer = receiver.recv() if receiver.poll(seconds) else None
    child.kill()
    child.join()
    return answer


def _plain_sat_child(n: int, m: int, sender: object) -> None:
    from pysat.card import CardEnc, EncType
    from pysat.formula import IDPool
    from pysat.solvers import Solver

    pool = IDPool()
    white = {s: pool.id(("w", s)) for s in ((f, r) for r in range(n) for f in range(n))}
    black = {s: pool.id(("b", s)) for s in white}
    clauses: list[list[int]] = []
    lines = queen_lines(n)
    for index, line in enumerate(lines):
        may_hold_white = pool.id(("line", index))
        for square in line:
            clauses.append([-white[square], may_hold_white])
            clauses.append([-black[square], -may_hold_white])
    first_rank = next(i for i, line in enumerate(lines) if all(r == 0 for _, r in line))
    clauses.append([pool.id(("line", first_rank))])  # colour swap broken
    for army in (white, black):
        clauses += CardEnc.atleast(
            list(army.values()), m, vpool=pool, encoding=EncType.totalizer
        ).clauses
    with Solver(name="kissat404", bootstrap_with=clauses) as solver:
        sender.send(solver.solve())  # type: ignore[attr-defined]


def plain_cpsat(n: int, seconds: float) -> tuple[int | None, bool]:
    """The straightforward CP-SAT model: (best value, proven)."""
    from ortools.sat.python import cp_model

    model = cp_model.CpModel()
    squares = [(f, r) for r in range(n) for f in range(n)]
    white = {s: model.new_bool_var(f"w{s}") for s in squares}
    black = {s: model.new_bool_var(f"b{s}") for s in squares}
    for s in squares:
        model.add_at_most_one(white[s], black[s])
    for line in queen_lines(n):
        has_white, has_black = model.new_bool_var(""), model.new_bool_var("")
        for s in line:
            model.add_implication(white[s], has_white)
            model.add_implication(black[s], has_black)
        model.add_at_most_one(has_white, has_black)
    size = sum(white.values())
    model.add(size == sum(black.values()))
    model.maximize(size)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 2
    status = solver.solve(model)
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, False
    return round(solver.objective_value), status == cp_model.OPTIMAL


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-n", type=int, default=5)
    parser.add_argument("--max-n", type=int, default=9)
    parser.add_argument("--time-limit", type=float, default=120.0)
    parser.add_argument("--no-plot", action="store_true")
    arguments = parser.parse_args()
    limit = arguments.time_limit
    rows = []
    print(
        f"{'n':>3} {'a(n)':>5} {'chessplace':>11} {'plain SAT':>10} {'plain CP-SAT':>13} "
        f"{'ProB':>7}"
    )
    for n in range(arguments.min_n, arguments.max_n + 1):
        expected = known("A250000", n)
        assert expected is not None
        result = optimize(puzzles.peaceable_queens(Board.square(n)), time_limit=limit)
        ours = result.seconds if result.status.value == "optimal" else None
        assert ours is None or result.objective == expected
        started = time.perf_counter()
        sat_at = plain_sat(n, expected, limit)
        sat_above = plain_sat(n, expected + 1, limit) if sat_at else None
        sat_seconds = time.perf_counter() - started if sat_above is False else None
        started = time.perf_counter()
        value, proven = plain_cpsat(n, limit)
        cpsat_seconds = time.perf_counter() - started if proven else None
        assert not proven or value == expected
        rows.append((n, ours, sat_seconds, cpsat_seconds))
        print(
            f"{n:>3} {expected:>5} {_cell(ours, limit):>11} {_cell(sat_seconds, limit):>10} "
            f"{_cell(cpsat_seconds, limit):>13} {PROB_SECONDS.get(n, float('nan')):>7.2f}"
        )
    if not arguments.no_plot:
        plot(rows)
    return 0


def _cell(seconds: float | None, limit: float) -> str:
    return f"{seconds:.2f}" if seconds is not None else f">{limit:.0f}"


def plot(rows: list[tuple[int, float | None, float | None, float | None]]) -> None:
    series = []
    for column, label in ((1, "chessplace"), (2, "plain SAT (Kissat)"), (3, "plain CP-SAT")):
        points = [(row[0], row[column]) for row in rows if row[column] is not None]
        series.append((label, [n for n, _ in points], [s for _, s in points], "o-"))
    prob = sorted(PROB_SECONDS.items())
    series.append(("ProB (published)", [n for n, _ in prob], [s for _, s in prob], "x--"))
    log_plot("peaceable", "Peaceable armies of queens", "seconds to prove a(n) (log scale)", series)


if __name__ == "__main__":
    sys.exit(main())
