"""The ``bitboard`` engine: a generated, compiled row-by-row search that counts and
enumerates, split into subproblems for threads, processes and Dask.

The search is the bit-mask backtracking of J. Somers' n-queens program, "The N Queens
Problem: a study in optimization": the files and both diagonals taken as bit masks
shifted one square a row, the lowest free bit placed next, and (in a plain count) the
first row's left half searched, each solution counted twice for its mirror image.
"""
