"""One instance of every engine that works on its own (the portfolio draws on these)."""

from __future__ import annotations

from chessplace.linesearch.engine import LineSearchEngine
from chessplace.rowsearch.engine import BitboardEngine
from chessplace.solvers.base import Engine
from chessplace.solvers.construction import ConstructionEngine
from chessplace.solvers.cpsat import CpSatEngine
from chessplace.solvers.exhaustive import ExhaustiveEngine
from chessplace.solvers.heuristic import HeuristicEngine
from chessplace.solvers.regionsearch import RegionSearchEngine
from chessplace.solvers.sat import SatEngine

SINGLE_ENGINES: dict[str, Engine] = {
    engine.name: engine
    for engine in (
        ConstructionEngine(),
        BitboardEngine(),
        CpSatEngine(),
        SatEngine(),
        ExhaustiveEngine(),
        HeuristicEngine(),
        LineSearchEngine(),
        RegionSearchEngine(),
    )
}
