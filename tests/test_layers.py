"""The package's modules import one another without circles, lazy imports included."""

from __future__ import annotations

import ast
from pathlib import Path

import chessplace

PACKAGE = Path(chessplace.__file__).parent


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imports(tree: ast.AST, known: set[str]) -> set[str]:
    """Modules of the package imported anywhere in ``tree``, except under TYPE_CHECKING."""
    found: set[str] = set()
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found |= {f"{node.module}.{alias.name}" for alias in node.names}
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
