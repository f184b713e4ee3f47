"""Cubes of one CNF formula solved by CaDiCaL in worker processes (the cross-checks)."""

from __future__ import annotations

import hashlib
import itertools
import multiprocessing
import os
import signal
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, NamedTuple

from chessplace.runtime.journal import Schema
from chessplace.runtime.lifeline import become_child

if TYPE_CHECKING:
    from pysat.solvers import Solver

CLAUSES: list[Sequence[int]] = []
"""The formula, set before the worker processes fork."""


class Solved(NamedTuple):
    """A cube, its model (``None``: unsatisfiable or undecided), the seconds it took, and
    whether CaDiCaL decided it within the conflict budget."""

    cube: tuple[int, ...]
    model: list[int] | None
    seconds: float
    decided: bool = True


_SOLVER: list[Solver] = []
"""The worker's CaDiCaL, loaded with :data:`CLAUSES` once and kept for every cube."""


def _solve(task: tuple[tuple[int, ...], int | None]) -> Solved:
    """One cube, as assumptions on the worker's solver: what it learnt from the formula
    under earlier cubes holds under every cube, and the formula is loaded once."""
    from pysat.solvers import Solver

    cube, conflicts = task
    started = time.perf_counter()
    if not _SOLVER:
        _SOLVER.append(Solver(name="cadical195", bootstrap_with=CLAUSES))
    solver = _SOLVER[0]
    solver.conf_budget(-1 if conflicts is None else conflicts)  # -1: no limit
    found: bool | None = solver.solve_limited(assumptions=list(cube))  # None: undecided
    if found is None and conflicts is None:
        raise RuntimeError(f"CaDiCaL left cube {cube} undecided without a budget")
    model = solver.get_model() if found else None
    return Solved(cube, model, time.perf_counter() - started, found is not None)


def solved(
    clauses: Sequence[Sequence[int]],
    cubes: Sequence[tuple[int, ...]],
    workers: int,
    conflicts: Mapping[tuple[int, ...], int] | None = None,
) -> Iterator[Solved]:
    """Each cube under ``clauses``, as the workers finish them (forked, one per worker),
    a cube given up after ``conflicts[cube]`` conflicts where it has a budget there.

    Ctrl-C and SIGTERM stop it: the signal only marks the stop, and ``solved``
    raises ``KeyboardInterrupt`` at its next look for a result (every
    :data:`POLL` seconds, or once the caller has dealt with the last one), or as it
    ends, so a stop while the pool closes is not lost; the workers end with the
    pool, and later stops are ignored while the caller ends. (Raised from the
    handler itself, the exception could land inside the pool's lock and hang.) A
    caller that leaves the loop early, its answer found, gets its own handlers back.
    """
    CLAUSES[:] = clauses
    _STOP["asked"] = False
    signals = (signal.SIGINT, signal.SIGTERM)
    before = {sig: signal.signal(sig, _interrupt) for sig in signals}
    closed = False
    try:
        held = signal.pthread_sigmask(signal.SIG_BLOCK, signals)  # the workers start deaf
        try:
            pool = multiprocessing.get_context("fork").Pool(
                workers, initializer=become_child, initargs=(os.getpid(),)
            )
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, held)
        with pool:
            budgets = conflicts or {}
            tasks = [(cube, budgets.get(cube)) for cube in cubes]
            results = pool.imap_unordered(_solve, tasks)
            while not _STOP["asked"]:
                try:
                    result = results.next(timeout=POLL)
                except multiprocessing.TimeoutError:
                    continue
                except StopIteration:
                    break
                yield result
    except GeneratorExit:  # the caller left the loop: a stop now is the caller's to see
        closed = True
        raise
    finally:  # a stop to be raised below: later ones ignored; else the caller's handlers
        stopping = _STOP["asked"] and not closed
        for sig, handler in before.items():
            signal.signal(sig, signal.SIG_IGN if stopping else handler)
    if _STOP["asked"]:
        raise KeyboardInterrupt


POLL = 0.2
"""Seconds between looks at the stop mark while the workers solve."""

_STOP = {"asked": False}
"""Whether Ctrl-C or SIGTERM came while :func:`solved` ran."""


def _interrupt(signum: int, frame: object) -> None:
    _STOP["asked"] = True


def covers(words: Sequence[str]) -> bool:
    """Whether cubes, each written as its labels on the cut lines in order ("1" white
    or army 0, "0" black), cover every labelling of those lines exactly once: none
    extends another and their shares 2^-length add up to one."""
    ordered = sorted(words)
    if any(b.startswith(a) for a, b in itertools.pairwise(ordered)):
        return False
    deepest = max(map(len, ordered), default=0)
    return sum(1 << (deepest - len(word)) for word in ordered) == 1 << deepest


def refuted_share(words: Iterable[str]) -> float:
    """The share of the labellings of the cut lines that refuted cubes (words as in
    :func:`covers`) rule out, a cube inside another counted once: 1.0 once they cover
    every labelling (a progress figure; :func:`covers` is the check)."""
    share, outer = 0.0, None
    for word in sorted(words):
        if outer is None or not word.startswith(outer):
            share += 2.0 ** -len(word)
            outer = word
    return share


class Refuted(NamedTuple):
    """A cube CaDiCaL found unsatisfiable, and how long it took (a journal record)."""

    seconds: float


def refuted_schema(valid_key: Callable[[str], bool]) -> Schema:
    """The journal of a cross-check: one record per refuted cube, keyed by its labels
    (``valid_key`` says which keys are cubes of this check)."""
    return Schema(
        key="cube",
        record=Refuted,
        valid_key=valid_key,
        valid=lambda record: isinstance(record.seconds, float) and record.seconds >= 0,
        work="cross-check",
        unit="cube",
        redone="solved again",
    )


def formula_digest(clauses: Sequence[Sequence[int]]) -> str:
    """A SHA-256 of the clauses, which pins a formula in a journal's header."""
    digest = hashlib.sha256()
    for clause in clauses:
        digest.update(" ".join(map(str, clause)).encode() + b"\n")
    return digest.hexdigest()
