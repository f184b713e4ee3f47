"""Problem files: every problem chessplace can pose, as one JSON object or TOML document.

A file whose name ends in ``.toml`` is TOML (read by the standard library's
``tomllib``, written by :mod:`chessplace.notation.tomlwriter`), any other JSON; the
data is the same in both. Two forms, one schema (``data/problem.schema.json``):

- a named puzzle and the options the CLI takes, for people to write::

      {"puzzle": "queens", "n": 8, "blocked": ["a1", "b3"],
       "given": [{"piece": "queen", "square": "d1"}]}

- the problem spelled out, which :func:`to_data` writes and ``--print-problem``
  prints: ``board`` (rows, cols, shape, blocked, pawns, regions), ``armies``
  (name, piece, min, max, fixed), ``rules`` (independent, dominating: true or the
  list of squares to dominate, equal_armies, no_attack), ``objective`` (maximize or
  minimize; minimize unless told when dominating), ``given``, ``place_pawns`` and
  ``counts`` (:mod:`chessplace.notation.rulefile`). Region
  puzzles keep the first form (their grid is the problem).

Reading checks every key and type first and names the first wrong one in one
line (``ValueError``); the file's size, nesting (TOML's dotted keys too) and number of
values are bounded before parsing, each list's length before any of its entries is read,
and a key given twice in one JSON object is refused (TOML refuses it itself).
"""

from __future__ import annotations

import json
import os
import stat
import tomllib
from os import PathLike
from pathlib import Path
from typing import Any, Literal

from chessplace.core.board import Board, Shape, board_shape, square_names
from chessplace.core.pieces import NAMED_PIECES, Piece, piece_from_text
from chessplace.core.problem import ARMY_NAMES, Army, Problem, Sense
from chessplace.notation.options import (
    PROBLEM_OPTIONS,
    RULE_OPTIONS,
    problem_from_options,
)
from chessplace.notation.position import with_dominated, with_position
from chessplace.notation.puzzles import REGION_PUZZLES
from chessplace.notation.rulefile import (
    Cover,
    areas_from_data,
    counts_from_data,
    counts_to_data,
    cover_from_data,
    cover_to_data,
    no_attack_from_data,
)
from chessplace.notation.tomlwriter import dumps
from chessplace.runtime.clipping import clipped

Form = Literal["json", "toml"]
"""The two spellings of a problem file."""
FORMS: tuple[Form, ...] = ("json", "toml")

MAX_FILE_BYTES = 64 << 20
"""The largest problem file read: room for lists of :data:`MAX_LISTED` entries."""
MAX_DEPTH = 6
"""The deepest nesting a problem file has (an object in a list in an object); each dot
of a TOML dotted key (``a.b.c = 1``) counts as a level."""
MAX_LISTED = 1 << 20
"""The most entries a list in a problem file holds (blocked squares, pawns, given
pieces, squares to dominate, rows of a grid), as in the HTTP API's bodies: every square
of a 1,024×1,024 board. No engine models a position on more than 40,000 squares, and a
million squares take seconds to read, so a longer list is refused before any is read."""
MAX_COMMAS = 4 * MAX_LISTED
"""The most commas a problem file's text holds, counted before it is parsed: four full
lists (a given piece written as an object takes three). Millions of tiny values cost
gigabytes once parsed (a 55 MB list of squares, 1.5 GB), so such a file is refused first."""
LISTINGS = ("blocked", "given", "pawns", "dominate")
"""Puzzle options that list squares or pieces, as a list or comma-separated text."""

PUZZLE_KEYS = frozenset({"puzzle", *PROBLEM_OPTIONS, *RULE_OPTIONS})
SPELLED_KEYS = frozenset({"puzzle", "board", "armies", "rules", "objective", "given"})
SPELLED_KEYS |= {"place_pawns", "counts"}
BOARD_KEYS = frozenset({"rows", "cols", "shape", "torus", "blocked", "pawns", "regions"})
ARMY_KEYS = frozenset({"name", "piece", "min", "max", "fixed"})
RULE_KEYS = frozenset({"independent", "dominating", "equal_armies", "no_attack"})


def form_of(path: str | PathLike[str]) -> Form:
    """TOML for a name ending in ``.toml`` (any case), JSON for any other."""
    return "toml" if str(path).lower().endswith(".toml") else "json"


def read_problem(path: str | PathLike[str]) -> Problem:
    """The problem in a problem file (TOML by its suffix, else JSON); ``ValueError``
    (one line, not naming the file: the caller does) when it is not one, ``OSError``
    when it cannot be read."""
    text = _read(path).decode("utf-8", errors="replace").removeprefix("\ufeff")
    return from_text(text, form_of(path))


def _read(path: str | PathLike[str]) -> bytes:
    """The bytes of a regular file of at most :data:`MAX_FILE_BYTES`. It is opened
    without blocking and checked before it is read: a FIFO would wait for a writer
    forever, a device such as ``/dev/zero`` never ends."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0)
    with open(os.open(path, flags), "rb") as source:
        mode = os.fstat(source.fileno()).st_mode
        if not stat.S_ISREG(mode):
            raise ValueError(f"{_file_kind(mode)}, not a regular file")
        data = source.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise ValueError(f"more than {MAX_FILE_BYTES >> 20} MiB, too long for a problem file")
    return data


def _file_kind(mode: int) -> str:
    kinds = [
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
        (stat.S_ISSOCK, "a socket"),
    ]
    return next((word for test, word in kinds if test(mode)), "a special file")


def write_problem(problem: Problem, path: str | PathLike[str]) -> None:
    """Write ``problem`` as a problem file (:func:`to_data`), TOML by its suffix, else JSON."""
    Path(path).write_text(to_text(problem, form_of(path)), encoding="utf-8")


def to_text(problem: Problem, form: Form = "json") -> str:
    """The problem file of ``problem`` as JSON or TOML text."""
    data = to_data(problem)
    return dumps(data) if form == "toml" else json.dumps(data, indent=2) + "\n"


def from_text(text: str, form: Form = "json") -> Problem:
    """The problem in the JSON (or TOML) ``text``."""
    commas = text.count(",")
    if commas > MAX_COMMAS:
        raise ValueError(
            f"{commas:,} commas: a problem file holds at most {MAX_COMMAS:,} "
            f"(lists of at most {MAX_LISTED:,} entries)"
        )
    _check_depth(text, form)
    return from_data(_parsed_toml(text) if form == "toml" else _parsed_json(text))


class _DuplicateKey(ValueError):
    """A JSON object names a key twice (``json`` would keep the last silently)."""


def _unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """The object of ``pairs``, refused when a key comes twice (``object_pairs_hook``)."""
    data = dict(pairs)
    if len(data) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise _DuplicateKey(key)
            seen.add(key)
    return data


def repeated_key(text: str | bytes) -> str | None:
    """The first key that some object of the JSON ``text`` names twice; ``None`` when
    none does, or when the text is no JSON at all (its reader says why)."""
    try:
        json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKey as error:
        return str(error.args[0])
    except (ValueError, RecursionError):
        return None
    return None


def _parsed_json(text: str) -> Any:
    try:
        return json.loads(text, object_pairs_hook=_unique_keys)
    except _DuplicateKey as error:
        key = clipped(json.dumps(error.args[0]), 40)
        raise ValueError(f"not valid JSON: the key {key} comes twice in one object") from None
    except json.JSONDecodeError as error:
        raise ValueError(
            f"not valid JSON: {error.msg} at line {error.lineno}, column {error.colno}"
        ) from None
    except (RecursionError, ValueError) as error:
        raise ValueError(f"not valid JSON: {clipped(str(error), 80)}") from None


def _parsed_toml(text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except (tomllib.TOMLDecodeError, RecursionError) as error:
        first = str(error).splitlines()[0] if str(error) else type(error).__name__
        raise ValueError(f"not valid TOML: {clipped(first, 80)}") from None


def _check_depth(text: str, form: Form = "json") -> None:
    """Refuse nesting deeper than :data:`MAX_DEPTH` before parsing. Brackets inside
    strings (JSON's and TOML's quotes, a backslash escaping in double quotes only) and
    in TOML comments do not count: an army may be named ``{``. In TOML each dot of a
    dotted key (a run of dots up to the next ``=``, comma, bracket or line end) adds a
    level: ``tomllib`` takes time quadratic in a key's dots (50,000 of them, a minute)."""
    depth, quote, escaped, comment = 0, "", False, False
    dots, dotted = 0, form == "toml"
    for char in text:
        if comment:
            if char == "\n":
                comment, dots = False, 0
        elif quote:
            if escaped:
                escaped = False
            elif char == "\\" and quote == '"':
                escaped = True
            elif char == quote:
                quote = ""
        elif char in "\"'":
            quote = char
        elif char == "#":
            comment = True
        elif char in "[{":
            depth, dots = depth + 1, 0
            if depth > MAX_DEPTH:
                raise ValueError(f"nested deeper than {MAX_DEPTH} levels: not a problem file")
        elif char in "]}":
            depth, dots = depth - 1, 0
        elif char == "." and dotted:
            dots += 1
            if depth + dots > MAX_DEPTH:
                raise ValueError(
                    f"nested deeper than {MAX_DEPTH} levels (a dotted key's dots count): "
                    "not a problem file"
                )
        elif char in "=,\n":
            dots = 0


def from_data(data: Any) -> Problem:
    """The problem a decoded problem file states."""
    if not isinstance(data, dict):
        raise ValueError(f"a problem file holds a JSON object or TOML table, not {_kind(data)}")
    if "board" in data:
        return _spelled(data)
    _known(data, PUZZLE_KEYS, "")
    if "puzzle" not in data:
        raise ValueError("missing key 'puzzle' (or 'board' and 'armies' for a problem spelled out)")
    options = {key: data.get(key) for key in PROBLEM_OPTIONS}
    for key, value in options.items():
        _typed(key, value)
    puzzle = _string(data["puzzle"], "puzzle")
    options["given"] = _given_list(options["given"])
    rules = {key: data.get(key) for key in RULE_OPTIONS}
    return problem_from_options(puzzle, **options, **rules)


_OPTION_TYPES: dict[str, tuple[type, ...]] = {
    "n": (int,),
    "rows": (int,),
    "cols": (int,),
    "piece": (str,),
    "at_least": (int,),
    "exactly": (int,),
    "at_most": (int,),
    "armies": (int,),
    "white": (int,),
    "grid": (list, str),
    "stars": (int,),
    "torus": (bool,),
    "shape": (str,),
    "blocked": (list,),
    "given": (list,),
    "pawns": (list, int),
    "dominate": (list, str),
}


def _typed(key: str, value: Any) -> None:
    """A puzzle option of the right JSON type (``true`` is not a number)."""
    if value is None:
        return
    if key in LISTINGS or key == "grid":
        _short(value, key)
    allowed = _OPTION_TYPES[key]
    if isinstance(value, bool) and bool not in allowed:
        raise ValueError(f"{key}: expected {_names(allowed)}, not {_kind(value)}")
    if not isinstance(value, allowed):
        raise ValueError(f"{key}: expected {_names(allowed)}, not {_kind(value)}")
    if isinstance(value, list) and key in ("blocked", "grid", "pawns", "dominate"):
        for item in value:
            if not isinstance(item, str):
                raise ValueError(f"{key}: expected a list of strings, found {_kind(item)}")


def _short(value: Any, key: str) -> None:
    """Refuse a list (or comma-separated text) of more than :data:`MAX_LISTED` entries
    before any entry is read."""
    if isinstance(value, list):
        entries = len(value)
    elif isinstance(value, str) and key in LISTINGS:
        entries = value.count(",") + 1
    else:
        return
    if entries > MAX_LISTED:
        raise ValueError(
            f"{key}: {entries:,} entries; a problem file lists at most {MAX_LISTED:,} "
            f"(every square of a 1,024×1,024 board)"
        )


def _given_list(value: Any) -> list[Any] | None:
    """Given pieces: ``Qd1`` text or ``{piece, square, army}`` objects of strings."""
    if value is None:
        return None
    if not isinstance(value, list):
        raise ValueError(f"given: expected a list, not {_kind(value)}")
    _short(value, "given")
    for item in value:
        if isinstance(item, dict):
            for key, field in item.items():
                if not isinstance(field, str):
                    raise ValueError(
                        f"given.{clipped(key, 20)}: expected a string, not {_kind(field)}"
                    )
        elif not isinstance(item, str):
            raise ValueError(f"given: expected pieces as objects or text (Qd1), not {_kind(item)}")
    return value


def _spelled(data: dict[str, Any]) -> Problem:
    """The spelled-out form."""
    _known(data, SPELLED_KEYS, "")
    board_data = _object(data["board"], "board")
    _known(board_data, BOARD_KEYS, "board.")
    torus = board_data.get("torus")
    board = Board(
        _int(board_data.get("rows"), "board.rows"),
        _int(board_data.get("cols"), "board.cols"),
        board_shape(
            board_data.get("shape"),
            None if torus is None else _bool(torus, "board.torus"),
            ("board.shape", "board.torus"),
        ),
    )
    armies_data = data.get("armies")
    if not isinstance(armies_data, list) or not 1 <= len(armies_data) <= len(ARMY_NAMES):
        raise ValueError(f"armies: expected a list of 1 to {len(ARMY_NAMES)} armies")
    armies = tuple(_army(item, i, board) for i, item in enumerate(armies_data))
    rules = _object(data.get("rules", {}), "rules")
    _known(rules, RULE_KEYS, "rules.")
    dominating = rules.get("dominating", False)
    cover: Cover = (1, None)
    if isinstance(dominating, dict):
        dominating, cover = cover_from_data(dominating, [army.name for army in armies])
    objective = data.get("objective", "minimize" if dominating else "maximize")
    if objective not in ("maximize", "minimize"):
        raise ValueError(f"objective: expected maximize or minimize, not {_shown(objective)}")
    if not isinstance(dominating, (bool, list)):
        raise ValueError(
            f"rules.dominating: expected true or false, or a list of squares, not "
            f"{_shown(dominating)}"
        )
    problem = Problem(
        _string(data.get("puzzle", "custom"), "puzzle"),
        board,
        armies,
        independent=_bool(rules.get("independent", True), "rules.independent"),
        dominating=dominating is not False,
        equal_armies=_bool(rules.get("equal_armies", False), "rules.equal_armies"),
        sense=Sense(objective),
        counts=counts_from_data(data.get("counts")),
        no_attack=no_attack_from_data(rules.get("no_attack")),
        areas=areas_from_data(board_data.get("regions")),
        cover=cover,
    )
    for key in ("blocked", "pawns"):
        _typed(key, board_data.get(key))
    place = data.get("place_pawns", 0)
    if not isinstance(place, int) or isinstance(place, bool) or place < 0:
        raise ValueError(f"place_pawns: expected a count, not {_shown(place)}")
    problem = with_position(
        problem,
        board_data.get("blocked"),
        _given_list(data.get("given")),
        board_data.get("pawns"),
        place,
    )
    if isinstance(dominating, list):
        _short(dominating, "rules.dominating")
        return with_dominated(problem, dominating, "rules.dominating")
    return problem


def _army(data: Any, index: int, board: Board) -> Army:
    where = f"armies.{index}"
    item = _object(data, where)
    _known(item, ARMY_KEYS, f"{where}.")
    name = _string(item.get("name", ARMY_NAMES[index]), f"{where}.name")
    piece_text = _string(item.get("piece"), f"{where}.piece")
    try:
        piece = piece_from_text(piece_text)
    except ValueError as error:
        raise ValueError(f"{where}.piece: {error}") from None
    most = item.get("max")
    return Army(
        clipped(name, 40),
        piece,
        _int(item.get("min", 0), f"{where}.min", least=0),
        None if most is None else _int(most, f"{where}.max", least=0),
        _bool(item.get("fixed", False), f"{where}.fixed"),
    )


def to_data(problem: Problem) -> dict[str, Any]:
    """The problem file of ``problem``: spelled out, or for a region puzzle its name,
    grid and stars."""
    if problem.regions is not None and problem.puzzle in REGION_PUZZLES:
        return {
            "puzzle": problem.puzzle,
            "grid": list(problem.regions.rows),
            "stars": problem.regions.per_line,
        }
    board = problem.board
    board_data: dict[str, Any] = {"rows": board.rows, "cols": board.cols}
    if board.shape is not Shape.PLANE:
        board_data["shape"] = board.shape.value
    if problem.blocked:
        board_data["blocked"] = square_names(problem.blocked)
    if problem.pawns:
        board_data["pawns"] = square_names(problem.pawns)
    if problem.areas is not None:
        board_data["regions"] = list(problem.areas)
    data: dict[str, Any] = {
        "puzzle": problem.puzzle,
        "board": board_data,
        "armies": [_army_data(army, board) for army in problem.armies],
        "rules": {
            "independent": problem.independent,
            "dominating": problem.dominating
            if problem.dominated is None
            else square_names(problem.dominated),
            "equal_armies": problem.equal_armies,
        },
        "objective": problem.sense.value,
    }
    if problem.cover_counted:
        listed = None if problem.dominated is None else square_names(problem.dominated)
        data["rules"]["dominating"] = cover_to_data(problem, listed)
    if problem.no_attack is not None:
        data["rules"]["no_attack"] = [list(pair) for pair in problem.no_attack]
    if problem.counts:
        data["counts"] = counts_to_data(problem)
    if problem.given:
        data["given"] = [
            {"army": army.name, "piece": _piece_text(army.piece, board), "square": name}
            for index, army in enumerate(problem.armies)
            for name in square_names(problem.given_of(index))
        ]
    if problem.free_pawns:
        data["place_pawns"] = problem.free_pawns
    return data


def _army_data(army: Army, board: Board) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": army.name,
        "piece": _piece_text(army.piece, board),
        "min": army.minimum,
    }
    if army.maximum is not None:
        data["max"] = army.maximum
    if army.fixed:
        data["fixed"] = True
    return data


def _piece_text(piece: Piece, board: Board) -> str:
    """The piece's name where it names it on ``board``: a named piece, or the Betza text
    it was given as (``R4`` on 5×5 rides across the board, its moves those of the rook
    there, yet it reads back as ``R4``, not as the rook); else its Betza notation."""
    named = NAMED_PIECES.get(piece.name)
    if named is not None:
        return piece.name if named.moves == piece.moves else piece.betza
    try:
        written = piece_from_text(piece.name).on(board)
    except ValueError:  # a name that is not Betza text (a Piece made in Python)
        return piece.betza
    return piece.name if written == piece else piece.betza


def _known(data: dict[str, Any], keys: frozenset[str], prefix: str) -> None:
    for key in data:
        if key not in keys:
            raise ValueError(
                f"{prefix}{clipped(str(key), 30)}: unknown key (known: {', '.join(sorted(keys))})"
            )


def _object(value: Any, key: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise ValueError(f"{key}: expected an object, not {_kind(value)}")
    return value


def _string(value: Any, key: str) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{key}: expected a string, not {_kind(value)}")
    return value


def _int(value: Any, key: str, least: int = 1) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        wanted = "a positive whole number" if least == 1 else "a whole number from 0"
        raise ValueError(f"{key}: expected {wanted}, not {_shown(value)}")
    return value


def _bool(value: Any, key: str) -> bool:
    if not isinstance(value, bool):
        raise ValueError(f"{key}: expected true or false, not {_shown(value)}")
    return value


def _kind(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, (int, float)):
        return f"the number {_shown(value)}"
    if isinstance(value, str):
        return f"the string {_shown(value)}"
    if isinstance(value, list):
        return "a list"
    return "an object" if isinstance(value, dict) else f"a {type(value).__name__}"


def _shown(value: Any) -> str:
    try:
        return clipped(json.dumps(value), 40)
    except (TypeError, ValueError):
        return clipped(repr(value), 40)


def _names(types: tuple[type, ...]) -> str:
    words = {int: "a whole number", str: "a string", list: "a list", bool: "true or false"}
    return " or ".join(words[t] for t in types)
