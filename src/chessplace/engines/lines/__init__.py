"""Branch and bound over line labellings for peaceable armies of a rider.

``geometry`` lays the lines out as arrays, ``bounds`` and ``kernel`` are the
compiled search, ``runner`` splits it into chunks over threads, ``engine``
is the ``lines`` engine the registry offers.

The model (a colour per line, the squares following from them) is
:mod:`chessplace.encodings.lines`, explained in docs/explanation/line-model.md.
The problem: R. A. Bosch, 1999, "Peaceably coexisting armies of queens", Optima 62.
Each diagonal family's bound is a fractional knapsack, solved greedily by ratio as
in G. B. Dantzig, 1957, "Discrete-variable extremum problems", Operations Research 5.
"""
