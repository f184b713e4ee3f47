"""Peaceable queens benchmark: chessplace against two plain models, in one script.

For each n it proves a(n) (OEIS A250000) three ways and prints the seconds:
chessplace's default ``optimize``; a plain SAT model (one "may hold white"
variable per line, totalizer cardinality, the colour swap broken by fixing
the first rank's line to white, Kissat through PySAT: satisfiable at a(n),
unsatisfiable at a(n)+1); and a straightforward CP-SAT model (two 0/1 grids,
one indicator per line and colour, equal army sizes, maximise). ProB's
published times stand beside them for context. Past ``--baselines-max-n``
only chessplace runs; where it stops at the limit, the best armies found and
the bound it has are shown. Then the checking table: is m against m possible
on 8×8, for m = 6..10 (10 is not), chessplace ``solve --at-least m`` against
the same two plain models and ProB. Plots to benchmarks/out/peaceable.png.

    python benchmarks/peaceable.py [--min-n 5] [--max-n 12] [--time-limit 600]
                                   [--baselines-max-n 10]
"""

from __future__ import annotations

import argparse
import sys
import time

from chessplace import Board, optimize, puzzles, solve
from chessplace.data.reference import known
from plotting import log_plot

PROB_SECONDS = {5: 0.18, 6: 1.16, 7: 21.2, 8: 780.0}
PROB_CHECK_SECONDS = {6: 0.02, 7: 0.06, 8: 0.53, 9: 12.96, 10: 728.0}


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


def plain_cpsat(n: int, seconds: float, at_least: int | None = None) -> tuple[int | None, bool]:
    """The straightforward CP-SAT model: (best value, proven). With ``at_least``
    it only checks m against m: (m, True) if possible, (None, True) if not."""
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
    if at_least is None:
        model.maximize(size)
    else:
        model.add(size >= at_least)
    solver = cp_model.CpSolver()
    solver.parameters.max_time_in_seconds = seconds
    solver.parameters.num_workers = 2
    status = solver.solve(model)
    if at_least is not None:
        decided = status in (cp_model.OPTIMAL, cp_model.FEASIBLE, cp_model.INFEASIBLE)
        return (at_least if status != cp_model.INFEASIBLE else None), decided
    if status not in (cp_model.OPTIMAL, cp_model.FEASIBLE):
        return None, False
    return round(solver.objective_value), status == cp_model.OPTIMAL


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--min-n", type=int, default=5)
    parser.add_argument("--max-n", type=int, default=12)
    parser.add_argument("--time-limit", type=float, default=600.0)
    parser.add_argument("--baselines-max-n", type=int, default=10)
    parser.add_argument("--no-check-table", action="store_true")
    parser.add_argument("--no-plot", action="store_true")
    arguments = parser.parse_args()
    limit = arguments.time_limit
    rows = []
    print(f"Proving a(n), seconds (limit {limit:.0f} s each)")
    print(
        f"{'n':>3} {'a(n)':>5} {'chessplace':>11} {'plain SAT':>10} {'plain CP-SAT':>13} "
        f"{'ProB':>7}  at the limit"
    )
    for n in range(arguments.min_n, arguments.max_n + 1):
        expected = known("A250000", n)
        assert expected is not None
        result = optimize(puzzles.peaceable_queens(Board.square(n)), time_limit=limit)
        ours = result.seconds if result.status.value == "optimal" else None
        assert ours is None or result.objective == expected
        reached = "" if ours else f"found {result.objective}, bound {result.bound}"
        sat_seconds = cpsat_seconds = None
        baselines = n <= arguments.baselines_max_n
        if baselines:
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
            f"{n:>3} {expected:>5} {_cell(ours, limit):>11} "
            f"{_cell(sat_seconds, limit, baselines):>10} "
            f"{_cell(cpsat_seconds, limit, baselines):>13} "
            f"{PROB_SECONDS.get(n, float('nan')):>7.2f}  {reached}",
            flush=True,
        )
    if not arguments.no_check_table:
        check_table(limit)
    if not arguments.no_plot:
        plot(rows)
    return 0


def check_table(limit: float) -> None:
    """Is m against m possible on 8×8? Seconds to decide, m = 6..10."""
    print("\nChecking m against m on 8×8, seconds (10 is impossible)")
    print(
        f"{'m':>3} {'answer':>7} {'chessplace':>11} {'plain SAT':>10} "
        f"{'plain CP-SAT':>13} {'ProB':>7}"
    )
    for m in range(6, 11):
        problem = puzzles.peaceable_queens(Board.square(8)).with_counts(at_least=m)
        result = solve(problem, time_limit=limit)
        ours = result.seconds if result.status.value in ("feasible", "infeasible") else None
        started = time.perf_counter()
        sat_answer = plain_sat(8, m, limit)
        sat_seconds = time.perf_counter() - started if sat_answer is not None else None
        started = time.perf_counter()
        _, decided = plain_cpsat(8, limit, at_least=m)
        cpsat_seconds = time.perf_counter() - started if decided else None
        answer = {"feasible": "yes", "infeasible": "no"}.get(result.status.value, "?")
        print(
            f"{m:>3} {answer:>7} {_cell(ours, limit):>11} {_cell(sat_seconds, limit):>10} "
            f"{_cell(cpsat_seconds, limit):>13} {PROB_CHECK_SECONDS[m]:>7.2f}",
            flush=True,
        )


def _cell(seconds: float | None, limit: float, ran: bool = True) -> str:
    if not ran:
        return "not run"
    return f"{seconds:.2f}" if seconds is not None else f">{limit:.0f}"


def plot(rows: list[tuple[int, float | None, float | None, float | None]]) -> None:
    series: list[tuple[str, list[int], list[float], str]] = []
    for column, label in ((1, "chessplace"), (2, "plain SAT (Kissat)"), (3, "plain CP-SAT")):
        points = [(row[0], seconds) for row in rows if (seconds := row[column]) is not None]
        series.append((label, [n for n, _ in points], [s for _, s in points], "o-"))
    prob = sorted(PROB_SECONDS.items())
    series.append(("ProB (published)", [n for n, _ in prob], [s for _, s in prob], "x--"))
    log_plot("peaceable", "Peaceable armies of queens", "seconds to prove a(n) (log scale)", series)


if __name__ == "__main__":
    sys.exit(main())
