"""One instance of every engine that works on its own (the portfolio draws on these)."""

from __future__ import annotations

from chessplace.engines.base import Engine
from chessplace.engines.bitboard.engine import BitboardEngine
from chessplace.engines.construction import ConstructionEngine
from chessplace.engines.cpsat import CpSatEngine
from chessplace.engines.exhaustive import ExhaustiveEngine
from chessplace.engines.gpu.engine import GpuEngine
from chessplace.engines.heuristic.engine import HeuristicEngine
from chessplace.engines.lines.engine import LineSearchEngine
from chessplace.engines.regions.engine import RegionSearchEngine
from chessplace.engines.sat import SatEngine

SINGLE_ENGINES: dict[str, Engine] = {
    engine.name: engine
    for engine in (
        ConstructionEngine(),
        GpuEngine(),
        BitboardEngine(),
        CpSatEngine(),
        SatEngine(),
        ExhaustiveEngine(),
        HeuristicEngine(),
        LineSearchEngine(),
        RegionSearchEngine(),
    )
}
