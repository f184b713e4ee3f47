"""The package's rooms import one another only down the layers, and without circles,
lazy imports included (imports under ``TYPE_CHECKING`` are for the type checker only),
but for the drawings :data:`LAZY_DRAWINGS` names: placements and problems draw
themselves through the forms, imported inside the method.

The layers, from the ground up (the table ``ALLOWED`` says the same room by room):
the package's own ``__init__`` (names only, loaded on use), ``runtime`` and ``data``,
``core``, the trusted ``certificates.checker``, ``forms``, ``notation`` and
``regions``, ``encodings`` and ``export``, ``engines``, ``api`` (the one door), ``making``, the
``certificates.writer``, ``research``, and the ``faces``.
"""

from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import chessplace

PACKAGE = Path(chessplace.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _home(name: str) -> str:
    """The module a public name of the package's facade (``chessplace.solve``) loads:
    importing it through the facade imports that module, not the ground floor."""
    homes = {**chessplace._HOMES, **chessplace._MODULES}
    return f"chessplace.{homes[name]}" if name in homes else "chessplace"


def _imports(tree: ast.AST, known: set[str], lazy: bool = True) -> set[str]:
    """Modules of the package imported anywhere in ``tree``, except under TYPE_CHECKING
    (and, without ``lazy``, inside functions); a name taken from the facade
    (``from chessplace import solve``, ``chessplace.solve``) counts as its home module."""
    found: set[str] = set()
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        if not lazy and isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module == "chessplace":
            found |= {_home(alias.name) for alias in node.names}
            found |= {f"chessplace.{alias.name}" for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id == "chessplace"
        ):
            found.add(_home(node.attr))
        found |= _imports(node, known, lazy)
    return found & known


LAZY_DRAWINGS: set[tuple[str, str]] = {
    ("chessplace.core.placement", "chessplace.forms.drawing"),
    ("chessplace.core.placement", "chessplace.forms.text"),
    ("chessplace.core.problem", "chessplace.forms.drawing"),
}
"""The only imports against the flow, each inside a method: a placement draws itself
(``str(placement)`` as a text board, ``_repr_svg_`` in Jupyter) and a problem its
starting position through the forms, as python-chess's ``Board._repr_svg_`` imports
``chess.svg``. Imported only when called, they make no circle as modules load, and a
placement draws the same whatever was imported before."""


def _edges(module: str, tree: ast.AST, known: set[str]) -> set[str]:
    """What ``module`` imports, less the drawings of :data:`LAZY_DRAWINGS` where it
    imports them inside a function only."""
    eager = _imports(tree, known, lazy=False)
    return {
        target
        for target in _imports(tree, known)
        if target in eager or (module, target) not in LAZY_DRAWINGS
    }


@cache
def _trees() -> dict[str, ast.AST]:
    """Every module of the package, parsed."""
    return {
        _module_name(path): ast.parse(path.read_text(encoding="utf-8"))
        for path in PACKAGE.rglob("*.py")
    }


def _graph() -> dict[str, set[str]]:
    trees = _trees()
    known = set(trees)
    return {name: _edges(name, tree, known) - {name} for name, tree in trees.items()}


def _cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle, or an empty list."""
    state: dict[str, int] = {}  # 1 on the current path, 2 finished
    path: list[str] = []

    def visit(node: str) -> list[str]:
        state[node] = 1
        path.append(node)
        for target in sorted(graph[node]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state and (found := visit(target)):
                return found
        state[node] = 2
        path.pop()
        return []

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return []


def test_no_import_circles() -> None:
    assert _cycle(_graph()) == []


def test_the_circle_finder_finds_circles() -> None:
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) == []


GROUND = {"chessplace", "runtime", "data"}
CORE = GROUND | {"core"}
SOLVING = CORE | {"encodings", "engines", "regions", "forms"}
ALLOWED: dict[str, set[str]] = {
    "chessplace": set(),
    "runtime": {"chessplace"},
    "data": {"chessplace"},
    "core": GROUND,
    "certificates": set(),
    "certificates.checker": {"runtime"},
    "forms": CORE,
    "notation": CORE,
    "regions": CORE,
    "encodings": CORE,
    "export": CORE | {"encodings"},
    "engines": CORE | {"encodings"},
    "api": CORE | {"engines", "regions"},
    "making": CORE | {"api", "regions", "notation"},
    "certificates.writer": SOLVING | {"api", "certificates.checker"},
    "research": SOLVING
    | {"api", "certificates.checker", "certificates.writer", "export", "notation"},
    "faces": CORE  # never the engines or encodings: faces reach them through api only
    | {
        "forms",
        "notation",
        "regions",
        "api",
        "making",
        "export",
        "certificates.checker",
        "certificates.writer",
    },
    "__main__": {"faces"},
}
"""Which rooms each room may import besides itself."""


def room_of(module: str) -> str:
    """The room a module belongs to: its top-level package, or a side of the certificates."""
    parts = module.split(".")[1:]
    if not parts:
        return "chessplace"
    if parts[0] == "certificates" and len(parts) > 1:
        return f"certificates.{parts[1]}"
    return parts[0]


def test_every_module_lives_in_a_known_room() -> None:
    assert {room_of(module) for module in _graph()} <= set(ALLOWED)


def _against_the_flow(graph: dict[str, set[str]]) -> list[str]:
    """Every import from one room into another that ``ALLOWED`` does not list."""
    return sorted(
        f"{module} -> {target}"
        for module, targets in graph.items()
        for target in targets
        if room_of(target) != room_of(module) and room_of(target) not in ALLOWED[room_of(module)]
    )


def test_no_room_imports_one_above_it() -> None:
    assert _against_the_flow(_graph()) == []


def test_the_top_level_holds_about_a_dozen_names() -> None:
    names = {p.name for p in PACKAGE.iterdir() if not p.name.startswith(("_", "."))} - {"py.typed"}
    assert len(names) <= 14, sorted(names)


def test_the_contract_sees_through_the_facade() -> None:
    """``from chessplace import solve`` in core imports the api, not the ground floor."""
    tree = ast.parse("from chessplace import Board, solve\nimport chessplace\nchessplace.count")
    found = _imports(tree, set(_graph()))
    assert {"chessplace.api", "chessplace.core.board"} <= found
    graph = {"chessplace.notation.puzzles": found}
    assert _against_the_flow(graph) == ["chessplace.notation.puzzles -> chessplace.api"]


def test_the_contract_catches_an_arrow_against_the_flow() -> None:
    graph = {
        "chessplace.core.placement": {"chessplace.forms.svg", "chessplace.core.board"},
        "chessplace.making.carving": {"chessplace.engines.regions.engine"},
        "chessplace.faces.cli": {"chessplace.api"},
    }
    assert _against_the_flow(graph) == [
        "chessplace.core.placement -> chessplace.forms.svg",
        "chessplace.making.carving -> chessplace.engines.regions.engine",
    ]


def test_the_lazy_drawings_are_used_lazily_and_needed() -> None:
    """Each allowed drawing is imported by its module, inside a method only, and goes
    against the flow (else it needs no allowance)."""
    trees = _trees()
    known = set(trees)
    for module, target in sorted(LAZY_DRAWINGS):
        assert target in _imports(trees[module], known), (module, target)
        assert target not in _imports(trees[module], known, lazy=False), (module, target)
        assert room_of(target) not in ALLOWED[room_of(module)], (module, target)


def test_the_contract_catches_other_lazy_imports_and_eager_drawings() -> None:
    """A lazy import against the flow that :data:`LAZY_DRAWINGS` does not name counts,
    and so does an allowed drawing imported as the module loads."""
    known = set(_trees())
    lazy_svg = ast.parse("def f():\n    from chessplace.forms.svg import render_svg\n")
    lazy_text = ast.parse("def f():\n    from chessplace.forms.text import render_text\n")
    eager_text = ast.parse("from chessplace.forms.text import render_text\n")
    lazy_api = ast.parse("class P:\n    def f(self):\n        import chessplace.api\n")
    placement = "chessplace.core.placement"
    assert _edges(placement, lazy_text, known) == set()
    graph = {
        placement: _edges(placement, lazy_svg, known) | _edges(placement, eager_text, known),
        "chessplace.core.problem": _edges("chessplace.core.problem", lazy_api, known),
    }
    assert _against_the_flow(graph) == [
        "chessplace.core.placement -> chessplace.forms.svg",
        "chessplace.core.placement -> chessplace.forms.text",
        "chessplace.core.problem -> chessplace.api",
    ]


def _script_graph() -> dict[str, set[str]]:
    """The web page's JavaScript modules and the modules each imports."""
    static = PACKAGE / "faces" / "web" / "static"
    pattern = re.compile(r'^import [^;]*? from "\./([\w.]+)";', re.M)
    return {
        path.name: set(pattern.findall(path.read_text(encoding="utf-8")))
        for path in static.glob("*.js")
    }


def test_the_page_scripts_import_one_another_without_circles() -> None:
    graph = _script_graph()
    assert graph.get("app.js")
    assert _cycle(graph) == []


WHY: dict[str, str] = {
    "runtime": "the ground floor",
    "data": "the ground floor",
    "certificates.checker": "trusted: it shares no code with the model or the engines",
    "notation": "how people state problems, read into the model",
    "api": "the one door to the engines",
    "making": "it reaches the engines only through api",
    "faces": "never engines, encodings or research: the faces reach the engines through api only",
    "__main__": "`python -m chessplace` is the command line",
}
"""The why column of docs/explanation/layout.md's table, room by room."""

LAYOUT = PACKAGE.parents[1] / "docs" / "explanation" / "layout.md"
BEFORE_TABLE = "a test holds this table to it:\n\n"
AFTER_TABLE = "\n\n## The rooms"


def room_table() -> str:
    """docs/explanation/layout.md's table of who may import whom, made from ``ALLOWED``
    (the package's own ``__init__``, which every room may import, left out)."""
    order = [room for room in ALLOWED if room not in ("chessplace", "certificates")]
    rows = ["| room | may import | why |", "| --- | --- | --- |"]
    for room in order:
        allowed = [other for other in order if other in ALLOWED[room]]
        rows.append(f"| `{room}` | {', '.join(allowed) or 'nothing'} | {WHY.get(room, '')} |")
    return "\n".join(rows)


def _with_table(page: str) -> str:
    head, rest = page.split(BEFORE_TABLE, 1)
    return head + BEFORE_TABLE + room_table() + AFTER_TABLE + rest.split(AFTER_TABLE, 1)[1]


def test_the_layout_page_shows_the_contract_as_generated() -> None:
    """The table is written from ``ALLOWED``: ``python -m tests.contracts.test_layers``
    writes it after a change to the contract."""
    page = LAYOUT.read_text("utf-8")
    assert page == _with_table(page), "run: python -m tests.contracts.test_layers"


if __name__ == "__main__":
    LAYOUT.write_text(_with_table(LAYOUT.read_text("utf-8")), "utf-8")
