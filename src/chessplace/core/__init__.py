"""The model and its checker: boards, Betza pieces, attacks, problems and the named
puzzles, placements, the independent verification of every answer, and results.

Nothing here imports an engine, an encoding or a form; everything else builds on it.
"""

from chessplace.core import problemfile  # noqa: F401  (hands Problem its file reader and writer)
