"""``Cnf.at_most_one`` on both sides of its pairwise limit: every single literal may be
true, no two may, whichever encoding the group size picks."""

from __future__ import annotations

from itertools import combinations

import pytest

from chessplace.encodings.cnf import PAIRWISE_LIMIT, Cnf


@pytest.mark.parametrize("size", [2, PAIRWISE_LIMIT, PAIRWISE_LIMIT + 1, 2 * PAIRWISE_LIMIT])
def test_at_most_one_allows_one_and_forbids_two(size: int) -> None:
    from pysat.solvers import Solver

    cnf = Cnf("totalizer")
    lits = [cnf.named(("x", i)) for i in range(size)]
    cnf.at_most_one(lits)
    auxiliaries = cnf.pool.top - size
    assert (auxiliaries == 0) == (size <= PAIRWISE_LIMIT)  # pairwise up to the limit
    with Solver(name="cadical195", bootstrap_with=cnf.clauses) as solver:
        assert solver.solve(assumptions=[-lit for lit in lits])
        for lit in lits:
            assert solver.solve(assumptions=[lit] + [-other for other in lits if other != lit])
        for first, second in combinations(lits, 2):
            assert not solver.solve(assumptions=[first, second])
