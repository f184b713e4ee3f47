"""The ``bitboard`` engine: a generated, compiled row-by-row search that counts and
enumerates, split into subproblems for threads, processes and Dask.
"""
