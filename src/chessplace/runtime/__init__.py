"""The ground floor: stopping and progress (control), checkpoint journals, file locks,
child processes that die with their parent (lifelines), Dask clusters, clipping.

Nothing here imports the rest of chessplace.
"""
