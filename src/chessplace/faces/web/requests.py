"""Request bodies with strict types, and their validation errors as the CLI's one line."""

from __future__ import annotations

import json
import math
from collections.abc import Sequence
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from chessplace.core.problem import Problem
from chessplace.core.regions import parse_grid
from chessplace.notation.options import problem_from_attributes
from chessplace.runtime.clipping import clipped

POSITIVE = {"n", "rows", "cols", "armies", "stars", "limit"}
SEED = 2**63
"""Seeds of generated grids lie in [−SEED, SEED)."""
COUNTS = {"at_least", "exactly", "at_most", "white", "offset"}
LONGEST_MESSAGE = 300
MOST_LISTED = 1 << 20
"""The longest list (or text) of blocked squares, given pieces or pawns a body may hold;
the board's size caps it further (:mod:`chessplace.notation.position`)."""
Squares = Annotated[list[str], Field(max_length=MOST_LISTED)]
Text = Annotated[str, Field(max_length=MOST_LISTED)]


class Options(BaseModel):
    """The CLI's options as a JSON body: no coercion (``true`` is not 1), finite numbers."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    puzzle: str = Field(max_length=64)
    n: int | None = Field(None, ge=1)
    rows: int | None = Field(None, ge=1)
    cols: int | None = Field(None, ge=1)
    torus: bool | None = None
    shape: str | None = Field(None, max_length=64)
    piece: str | None = Field(None, max_length=100)
    at_least: int | None = Field(None, ge=0)
    exactly: int | None = Field(None, ge=0)
    at_most: int | None = Field(None, ge=0)
    armies: int | None = Field(None, ge=1)
    white: int | None = Field(None, ge=0)
    solver: str | None = Field(None, max_length=64)
    time_limit: float | None = Field(None, gt=0)
    unique: bool = False
    optimal: bool = False
    grid: list[str] | None = None
    stars: int | None = Field(None, ge=1)
    limit: int | None = Field(None, ge=1)
    blocked: Squares | Text | None = None
    given: Annotated[list[str | dict[str, str]], Field(max_length=MOST_LISTED)] | Text | None = None
    pawns: Squares | Text | int | None = None
    dominate: Squares | Text | None = None

    def board(self) -> tuple[int, int] | None:
        """(rows, cols) as asked, before any problem is built; None when not given.
        A grid's size is its own (``ValueError`` when it is not even a list of rows)."""
        if self.grid is not None:
            rows = parse_grid(self.grid)
            return len(rows), max(map(len, rows), default=0)
        if self.n is not None:
            return self.n, self.n
        if self.rows is not None and self.cols is not None:
            return self.rows, self.cols
        return None

    def problem(self) -> Problem:
        """The problem these options describe; ``ValueError`` with the CLI's message."""
        return problem_from_attributes(self)


class JobRequest(Options):
    task: Literal["solve", "optimize", "count"]


class PlacementRequest(Options):
    pieces: list[dict[str, Any]]


class BrowseRequest(Options):
    offset: int = Field(0, ge=0)


class GenerateRequest(BaseModel):
    """``chessplace generate``'s options: a new region grid with exactly one solution."""

    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    puzzle: str = Field(max_length=64)
    n: int = Field(ge=1)
    stars: int | None = Field(None, ge=1)
    seed: int | None = Field(None, ge=-SEED, lt=SEED)
    difficulty: Literal["easy", "medium", "hard"] | None = None
    time_limit: float | None = Field(None, gt=0)


_LISTS = {
    "grid": "a list of strings, one per row",
    "pieces": "a list of pieces",
    "blocked": "a list of squares",
    "pawns": "a list of squares",
    "given": "a list of pieces",
    "dominate": "a list of squares",
}
"""What each list option holds, as its error says."""


def one_line(errors: Sequence[Any]) -> str:
    """The first validation error as the CLI would say it (wrong types, NaN, ranges)."""
    if not errors:
        return "bad request"
    error = errors[0]
    kind, where, value = error["type"], _where(error["loc"]), error.get("input")
    name = str(error["loc"][-1]) if error["loc"] else ""
    if kind == "json_invalid":
        return "the body is not valid JSON"
    if kind in ("model_type", "model_attributes_type", "dict_type") and where == "":
        return "the body must be a JSON object"
    if kind == "missing":
        return f"missing option {where!r}" if where else "the body must be a JSON object"
    if kind == "extra_forbidden":
        return f"unknown option {_shown(name)}"
    if name in POSITIVE and not where.startswith("pieces"):
        return f"{where}: expected a positive integer, not {_shown(value)}"
    if name in COUNTS and kind == "greater_than_equal":
        return f"{where}: a count cannot be negative: {_shown(value)}"
    if name in COUNTS:
        return f"{where}: expected a count, not {_shown(value)}"
    if name == "time_limit" and kind == "greater_than":
        return f"time_limit: a time limit must be positive, not {_shown(value)}"
    if name == "time_limit":
        return f"time_limit: expected a finite number of seconds, not {_shown(value)}"
    if name == "seed":
        return f"seed: expected an integer from -2**63 to 2**63 - 1, not {_shown(value)}"
    if kind == "list_type":
        return f"{where}: expected {_LISTS.get(where, 'a list')}, not {_shown(value)}"
    if kind in ("dict_type", "model_type", "model_attributes_type"):
        return f"{where}: expected an object, not {_shown(value)}"
    if kind == "bool_type":
        return f"{where}: expected true or false, not {_shown(value)}"
    if kind == "string_type":
        return f"{where}: expected a string, not {_shown(value)}"
    if kind == "string_too_long":
        return f"{where}: at most {error['ctx']['max_length']} characters"
    if kind == "literal_error":
        return f"{where}: expected {error['ctx']['expected']}, not {_shown(value)}"
    return shorten(f"{where}: {error['msg']}" if where else str(error["msg"]))


def shorten(message: str) -> str:
    """One line of bounded length: a message never echoes a huge input back."""
    return clipped(" ".join(message.split()), LONGEST_MESSAGE)


def _where(location: Sequence[Any]) -> str:
    parts = [
        str(part)
        for part in location
        if part not in ("body", "query", "str", "int") and "[" not in str(part)
    ]
    return shorten(".".join(parts))


def _shown(value: Any) -> str:
    """A value as JSON spells it, cut short."""
    if isinstance(value, float) and not math.isfinite(value):
        text = "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")
    else:
        try:
            text = json.dumps(value)
        except (TypeError, ValueError):
            text = repr(value)
    return clipped(text, 40)
