"""The package's rooms import one another only down the layers, and without circles,
lazy imports included (imports under ``TYPE_CHECKING`` are for the type checker only).

The layers, from the ground up (the table ``ALLOWED`` says the same room by room):
the package's own ``__init__`` (names only, loaded on use), ``runtime`` and ``data``,
``core``, the trusted ``certificates.checker``, ``forms`` and ``grids``, ``encodings``
and ``export``, ``engines``, ``api`` (the one door), ``making``, the
``certificates.writer``, ``research``, and the ``faces``.
"""

from __future__ import annotations

import ast
import re
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


def _imports(tree: ast.AST, known: set[str]) -> set[str]:
    """Modules of the package imported anywhere in ``tree``, except under TYPE_CHECKING;
    a name taken from the facade (``from chessplace import solve``, ``chessplace.solve``)
    counts as its home module."""
    found: set[str] = set()
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
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
        found |= _imports(node, known)
    return found & known


def _graph() -> dict[str, set[str]]:
    files = {_module_name(path): path for path in PACKAGE.rglob("*.py")}
    known = set(files)
    return {
        name: _imports(ast.parse(path.read_text(encoding="utf-8")), known) - {name}
        for name, path in files.items()
    }


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
SOLVING = CORE | {"encodings", "engines", "grids", "forms"}
ALLOWED: dict[str, set[str]] = {
    "chessplace": set(),
    "runtime": {"chessplace"},
    "data": {"chessplace"},
    "core": GROUND,
    "certificates": set(),
    "certificates.checker": {"runtime"},
    "forms": CORE,
    "grids": CORE,
    "encodings": CORE,
    "export": CORE | {"encodings"},
    "engines": CORE | {"encodings"},
    "api": CORE | {"engines", "grids"},
    "making": CORE | {"api", "grids"},
    "certificates.writer": SOLVING | {"api", "certificates.checker"},
    "research": SOLVING | {"api", "certificates.checker", "certificates.writer", "export"},
    "faces": CORE  # never the engines or encodings: faces reach them through api only
    | {"forms", "grids", "api", "making", "export", "certificates.checker", "certificates.writer"},
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
    graph = {"chessplace.core.puzzles": found}
    assert _against_the_flow(graph) == ["chessplace.core.puzzles -> chessplace.api"]


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


def _documented() -> dict[str, set[str]]:
    """The rooms each room may import, as docs/explanation/layout.md's table says."""
    page = (PACKAGE.parents[1] / "docs" / "explanation" / "layout.md").read_text("utf-8")
    table = page.split("| room | may import | why |", 1)[1].split("\n\n", 1)[0]
    said: dict[str, set[str]] = {}
    for row in table.strip().splitlines()[1:]:
        rooms, imports, _ = (cell.strip() for cell in row.strip("|").split("|"))
        allowed = set() if imports == "nothing" else set(imports.split(", "))
        for room in re.findall(r"`([\w.]+)`", rooms):
            said[room] = allowed
    return said


def test_the_layout_page_says_what_the_contract_enforces() -> None:
    """docs/explanation/layout.md's table of who may import whom is ``ALLOWED``, the
    package's own ``__init__`` aside (the faces, it once said, might import everything
    but research)."""
    expected = {
        room: allowed - {"chessplace"}
        for room, allowed in ALLOWED.items()
        if room not in ("chessplace", "certificates")
    }
    assert _documented() == expected
