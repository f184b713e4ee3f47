"""Making region puzzles: generating grids whose solution is unique (carving shapes the
regions, reshaping moves Star Battle grids until the rules solve them). The engines
are reached only through :mod:`chessplace.api`.
"""
