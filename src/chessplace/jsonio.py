"""The JSON form of results and placements, and reading placements back."""

from __future__ import annotations

import json
from typing import Any

from chessplace.board import Square, file_names, parse_square
from chessplace.pieces import piece_from_text
from chessplace.placement import Placement
from chessplace.problem import Problem
from chessplace.result import Result


def placement_pieces(placement: Placement) -> list[dict[str, Any]]:
    """``{piece, army, square, file, rank}`` for every piece, files and ranks 1-based."""
    names = file_names(placement.problem.board.cols)
    return [
        {
            "piece": army.piece.name,
            "army": army.name,
            "square": f"{names[file]}{rank + 1}",
            "file": file + 1,
            "rank": rank + 1,
        }
        for army, squares in zip(placement.problem.armies, placement.armies, strict=True)
        for rank, file in sorted((rank, file) for file, rank in squares)
    ]


def result_json(problem: Problem, task: str, result: Result) -> dict[str, Any]:
    """The ``--json`` object of a command's answer."""
    data: dict[str, Any] = {
        "task": task,
        "puzzle": problem.puzzle,
        "rows": problem.board.rows,
        "cols": problem.board.cols,
        "status": result.status.value,
        "solver": result.solver,
        "seconds": round(result.seconds, 6),
        "armies": [
            {"name": army.name, "piece": army.piece.name, "betza": army.piece.betza}
            for army in problem.armies
        ],
    }
    for key in ("objective", "bound", "count", "unique"):
        value = getattr(result, key)
        if value is not None:
            data[key] = value
    if result.note:
        data["note"] = result.note
    data["pieces"] = placement_pieces(result.placement) if result.placement else []
    return data


def parse_json(problem: Problem, text: str) -> Placement:
    """A placement from ``--json`` output (or any object with a ``pieces`` list)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise ValueError(f"not valid JSON: {error.msg} at line {error.lineno}") from None
    return placement_from_data(problem, data)


def placement_from_data(problem: Problem, data: Any) -> Placement:
    """A placement from decoded JSON: an object with a ``pieces`` list, or the list."""
    pieces = data.get("pieces") if isinstance(data, dict) else data
    if not isinstance(pieces, list):
        raise ValueError("JSON placement needs a 'pieces' list")
    names = [army.name for army in problem.armies]
    armies: list[list[Square]] = [[] for _ in names]
    for number, entry in enumerate(pieces, 1):
        if not isinstance(entry, dict):
            raise ValueError(f"piece {number}: expected an object")
        army = entry.get("army", names[0])
        if army not in names:
            raise ValueError(f"piece {number}: army {army!r} is not one of {', '.join(names)}")
        index = names.index(army)
        named = piece_from_text(str(entry["piece"])).on(problem.board) if "piece" in entry else None
        if named is not None and named != problem.armies[index].piece:
            raise ValueError(
                f"piece {number}: {entry['piece']!r} is not a {problem.armies[index].piece.name}"
            )
        armies[index].append(_square_of(entry, number))
    return Placement.from_squares(problem, armies)


def _square_of(entry: dict[str, Any], number: int) -> Square:
    if "square" in entry:
        return parse_square(str(entry["square"]))
    file, rank = entry.get("file"), entry.get("rank")
    if isinstance(file, int) and isinstance(rank, int) and file >= 1 and rank >= 1:
        return file - 1, rank - 1
    raise ValueError(f"piece {number}: needs 'square' or 1-based 'file' and 'rank'")


def read_placement(problem: Problem, text: str) -> Placement:
    """A placement from JSON or a text board, whichever ``text`` holds."""
    if text.lstrip().startswith(("{", "[")):
        return parse_json(problem, text)
    from chessplace.textboard import parse_text

    return parse_text(problem, text)
