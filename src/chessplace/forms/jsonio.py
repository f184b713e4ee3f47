"""The JSON form of results and placements, and reading placements back."""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Iterator
from functools import lru_cache
from itertools import chain, islice
from typing import Any, TextIO

import numpy as np

from chessplace.core.board import (
    Shape,
    Square,
    board_shape,
    file_names,
    parse_square,
    square_name,
    square_names,
)
from chessplace.core.pieces import Piece, piece_from_text
from chessplace.core.placement import Placement
from chessplace.core.problem import Problem
from chessplace.core.result import Result
from chessplace.runtime.clipping import clipped


def placement_pieces(placement: Placement) -> list[dict[str, Any]]:
    """``{piece, army, square, file, rank}`` for every piece, files and ranks 1-based
    (a piece off the board, as verify may be given, keeps its square's name)."""
    return list(pieces_of(placement))


PAWN_ENTRY = {"piece": "pawn", "army": "neutral"}
"""What a pawn the answer places is called among its ``pieces``."""


def pieces_of(placement: Placement) -> Iterator[dict[str, Any]]:
    """:func:`placement_pieces` one at a time; the pawns placed come last."""
    names = file_names(placement.problem.board.cols)
    kinds = [
        ({"piece": army.piece.name, "army": army.name}, squares)
        for army, squares in zip(placement.problem.armies, placement.armies, strict=True)
    ]
    if placement.pawns:
        kinds.append((PAWN_ENTRY, placement.pawns))
    return (
        kind
        | {
            "square": f"{names[file]}{rank + 1}"
            if 0 <= file < len(names) and rank >= 0
            else square_name((file, rank)),
            "file": file + 1,
            "rank": rank + 1,
        }
        for kind, squares in kinds
        for rank, file in _rank_order(squares, placement.problem.board.cols)
    )


PIECES_INDENTED = 1000
"""Answers with up to this many pieces are written indented; larger ones on one line,
streamed (a million queens' JSON is 93 MB)."""

PIECES_PER_WRITE = 10_000
"""Pieces encoded and written at a time when streamed (about 0.9 MB of JSON)."""


def write_json(head: dict[str, Any], placement: Placement | None, out: TextIO) -> None:
    """``head`` with the placement's ``pieces`` added, as JSON on ``out``: indented up to
    :data:`PIECES_INDENTED` pieces, else on one line, the pieces encoded and written a
    batch at a time rather than held as one list and one string."""
    if placement is None or len(placement) <= PIECES_INDENTED:
        listed = placement_pieces(placement) if placement is not None else []
        out.write(json.dumps(head | {"pieces": listed}, indent=2) + "\n")
        return
    opening = json.dumps(head | {"pieces": []})
    out.write(opening[: -len("]}")])
    pieces = pieces_of(placement)
    separator = ""
    while batch := list(islice(pieces, PIECES_PER_WRITE)):
        out.write(separator + json.dumps(batch)[1:-1])
        separator = ", "
    out.write("]}\n")


def _rank_order(squares: Collection[Square], cols: int) -> Iterable[tuple[int, int]]:
    """``(rank, file)`` of each square, by rank and then file. Squares on the board's
    files sort as one integer each in NumPy (a million queens: 1.1 s against 1.8 s as
    pairs); anything else (off the board, floats, strings) sorts as pairs."""
    flat = None
    try:
        if all(map((2).__eq__, map(len, squares))):  # pairs: the flat list lines up
            flat = np.array(list(chain.from_iterable(squares)))  # its kind says if all are ints
    except (TypeError, ValueError):
        pass
    if flat is None or flat.dtype.kind != "i" or not len(flat):
        return sorted((rank, file) for file, rank in squares)
    files, ranks = flat[0::2].astype(np.int64), flat[1::2].astype(np.int64)
    top = int(ranks.max())
    if files.min() < 0 or files.max() >= cols or ranks.min() < 0 or (top + 1) * cols >= 2**62:
        return sorted((rank, file) for file, rank in squares)
    keys = np.sort(ranks * cols + files)
    return zip(*(part.tolist() for part in np.divmod(keys, cols)), strict=True)


def result_json(problem: Problem, task: str, result: Result) -> dict[str, Any]:
    """The ``--json`` object of a command's answer."""
    pieces = placement_pieces(result.placement) if result.placement else []
    return result_head(problem, task, result) | {"pieces": pieces}


def result_head(problem: Problem, task: str, result: Result) -> dict[str, Any]:
    """:func:`result_json` but its pieces (for :func:`write_json`)."""
    data: dict[str, Any] = {
        "task": task,
        "puzzle": problem.puzzle,
        "rows": problem.board.rows,
        "cols": problem.board.cols,
        "shape": problem.board.shape.value,
        "status": result.status.value,
        "solver": result.solver,
        "seconds": round(result.seconds, 6),
        **({"compile_seconds": round(result.compile_seconds, 3)} if result.compiled_note else {}),
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
    if result.passed_over:
        data["passed_over"] = list(result.passed_over)
    if result.difficulty is not None:
        data["difficulty"], data["steps"] = result.difficulty
    if problem.regions is not None:
        data["grid"] = list(problem.regions.rows)
        data["stars"] = problem.regions.per_line
    return data | position_json(problem)


def position_json(problem: Problem) -> dict[str, Any]:
    """The position's keys, those that are set: ``blocked`` and ``pawns`` (square
    names), ``given`` (``{piece, army, square}``), ``place_pawns`` (a number)."""
    data: dict[str, Any] = {}
    if problem.blocked:
        data["blocked"] = square_names(problem.blocked)
    if problem.pawns:
        data["pawns"] = square_names(problem.pawns)
    if problem.given:
        data["given"] = [
            {"piece": army.piece.name, "army": army.name, "square": name}
            for index, army in enumerate(problem.armies)
            for name in square_names(problem.given_of(index))
        ]
    if problem.free_pawns:
        data["place_pawns"] = problem.free_pawns
    return data


def parse_json(problem: Problem, text: str) -> Placement:
    """A placement from ``--json`` output (or any object with a ``pieces`` list), or from
    a term record of ``results/``, which holds that output as its ``answer``."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        where = error.msg if error.msg.endswith(" at") else f"{error.msg} at"  # some end so
        raise ValueError(
            f"not valid JSON: {where} line {error.lineno}, column {error.colno}"
        ) from None
    except RecursionError:
        raise ValueError("not valid JSON: nested too deeply") from None
    except ValueError as error:  # an integer too long to convert
        raise ValueError(f"not valid JSON: {str(error).split(';')[0]}") from None
    if isinstance(data, dict) and "pieces" not in data and isinstance(data.get("answer"), dict):
        data = data["answer"]  # a term record: the command, its answer, and how it ran
    if isinstance(data, dict):
        board = problem.board
        for key, size in (("rows", board.rows), ("cols", board.cols)):
            if key in data and data[key] != size:
                said = clipped(str(data[key]), 12)
                raise ValueError(f"the JSON is for {key} = {said}, not {size}")
        said = json_shape(data)
        if said is not board.shape:
            raise ValueError(f"the JSON is for a {said} board, not a {board.shape} one")
    return placement_from_data(problem, data)


def json_shape(data: dict[str, Any]) -> Shape:
    """The board shape an answer's JSON states: its ``shape``, or ``torus`` true as
    earlier versions wrote it; a plane when it says neither; ``ValueError`` in one line
    for a word that is no shape, a ``torus`` that is not true or false, or the two
    disagreeing."""
    return board_shape(data.get("shape"), data.get("torus"), ("the JSON's shape", "its torus"))


def placement_from_data(problem: Problem, data: Any) -> Placement:
    """A placement from decoded JSON: an object with a ``pieces`` list, or the list.

    Each square may be listed once, and ``file``/``rank`` given beside
    ``square`` must name the same square; anything else is bad input
    (``ValueError`` naming the piece), found in one pass however long the list.
    """
    pieces = data.get("pieces") if isinstance(data, dict) else data
    if not isinstance(pieces, list):
        raise ValueError("JSON placement needs a 'pieces' list")
    index_of = {army.name: index for index, army in enumerate(problem.armies)}
    default = problem.armies[0].name
    armies: list[list[Square]] = [[] for _ in problem.armies]
    pawns: list[Square] = []
    taken: dict[Square, int] = {}
    for number, entry in enumerate(pieces, 1):
        if not isinstance(entry, dict):
            raise ValueError(f"piece {number}: expected an object")
        if entry.get("piece") == PAWN_ENTRY["piece"]:
            pawn = _square_of(entry, number)
            if pawn not in problem.pawns:  # a given pawn is the problem's
                pawns.append(pawn)
            continue
        army = entry.get("army", default)
        if not isinstance(army, str) or army not in index_of:
            raise ValueError(f"piece {number}: army {army!r} is not one of {', '.join(index_of)}")
        index = index_of[army]
        named = _piece_named(str(entry["piece"])).on(problem.board) if "piece" in entry else None
        if named is not None and named != problem.armies[index].piece:
            raise ValueError(
                f"piece {number}: {entry['piece']!r} is not a {problem.armies[index].piece.name}"
            )
        square = _square_of(entry, number)
        first = taken.setdefault(square, number)
        if first != number:
            raise ValueError(
                f"piece {number}: {square_name(square)} is already taken by piece {first}"
            )
        armies[index].append(square)
    return Placement.from_squares(problem, armies, pawns)


@lru_cache(maxsize=64)
def _piece_named(text: str) -> Piece:
    """A piece named in JSON; cached, as one name usually repeats for every entry."""
    return piece_from_text(text)


def _square_of(entry: dict[str, Any], number: int) -> Square:
    """The entry's square, from ``square`` or ``file`` and ``rank``, which must agree."""
    given = {key: entry[key] for key in ("file", "rank") if key in entry}
    for key, value in given.items():
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise ValueError(f"piece {number}: {key!r} must be a 1-based integer, not {value!r}")
    if "square" in entry:
        try:
            square = parse_square(str(entry["square"]))
        except ValueError as error:
            raise ValueError(f"piece {number}: {error}") from None
        named = {"file": square[0] + 1, "rank": square[1] + 1}
        for key, value in given.items():
            if value != named[key]:
                raise ValueError(
                    f"piece {number}: {key} {value} disagrees with square {entry['square']}"
                )
        return square
    if len(given) == 2:
        return given["file"] - 1, given["rank"] - 1
    raise ValueError(f"piece {number}: needs 'square' or 1-based 'file' and 'rank'")


def read_placement(problem: Problem, text: str) -> Placement:
    """A placement from JSON or a text board, whichever ``text`` holds."""
    if text.lstrip().startswith(("{", "[")):
        return parse_json(problem, text)
    from chessplace.forms.text import parse_text

    return parse_text(problem, text)
