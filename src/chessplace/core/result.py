"""What a solver returns."""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from chessplace.core.placement import Placement


class Status(StrEnum):
    """How far a run got.

    ``optimal``: best value, proven; ``feasible``: a valid answer, not proven
    best (or no optimisation asked); ``infeasible``: proven impossible;
    ``complete``: a count that enumerated everything; ``partial``: a count
    stopped early (the count is a lower bound); ``unknown``: stopped with
    nothing to show.
    """

    OPTIMAL = "optimal"
    FEASIBLE = "feasible"
    INFEASIBLE = "infeasible"
    COMPLETE = "complete"
    PARTIAL = "partial"
    UNKNOWN = "unknown"


@dataclass(frozen=True)
class Result:
    """An answer with its provenance."""

    status: Status
    solver: str
    placement: Placement | None = None
    objective: int | None = None
    bound: int | None = None
    count: int | None = None
    unique: int | None = None
    seconds: float = 0.0
    note: str = ""
    passed_over: tuple[str, ...] = ()
    """The preferred engines that did not take the problem, each with its reason."""
    difficulty: tuple[str, int] | None = None
    """A region puzzle's grade by the human rules and how many steps they take."""
    compile_seconds: float = 0.0
    """Seconds spent compiling searches during the run (once per machine: later runs
    load them from a cache), not counted in ``seconds``."""

    def timed(self, seconds: float, compile_seconds: float = 0.0) -> Result:
        return replace(self, seconds=seconds, compile_seconds=compile_seconds)

    @property
    def compiled_note(self) -> str:
        """``"(compiled in 11.8 s)"`` after a run that compiled a search, else ``""``."""
        if self.compile_seconds < 0.05:
            return ""
        return f"(compiled in {self.compile_seconds:.1f} s)"

    def __str__(self) -> str:
        """The verdict in one line, then the placement's board when there is one."""
        parts = [self.status.value]
        for name in ("objective", "bound", "count", "unique"):
            value = getattr(self, name)
            if value is not None and not (name == "bound" and value == self.objective):
                parts.append(f"{name} {value:,}")
        parts += [
            self.solver,
            " ".join(filter(None, [f"{self.seconds:.3f} s", self.compiled_note])),
        ]
        line = " · ".join(parts) + (f" ({self.note})" if self.note else "")
        return line if self.placement is None else f"{self.placement}\n{line}"

    def _repr_svg_(self) -> str | None:
        """Jupyter draws a result as its placement's board."""
        return self.placement._repr_svg_() if self.placement is not None else None
