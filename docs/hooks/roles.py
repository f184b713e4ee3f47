"""Griffe extension: the Sphinx roles in chessplace's docstrings as links.

The docstrings name other objects the Sphinx way (``:func:`count```,
``:mod:`.exits```). Markdown has no such roles, so each becomes a cross-reference
that mkdocs-autorefs resolves when the object is on a page of the site, and plain
code when it is not (the ``optional`` attribute: no warning for those).
"""

from __future__ import annotations

import re
from html import escape
from typing import Any

from griffe import Extension, Object

ROLE = re.compile(r":(?:func|mod|class|meth|data|attr|exc|obj|const):`(~?)([^`]+)`")


def _target(obj: Object, name: str) -> str:
    """The full dotted name ``name`` means inside ``obj``'s docstring."""
    if name.startswith("."):  # relative to the package of the module
        module = obj.module
        package = module.path if module.is_package else module.path.rpartition(".")[0]
        parts = package.split(".")
        level = len(name) - len(name.lstrip("."))
        base = ".".join(parts[: len(parts) - level + 1])
        return f"{base}.{name.lstrip('.')}"
    if name.startswith("chessplace."):
        return name
    head, _, rest = name.partition(".")
    for scope in (obj, obj.parent):
        if scope is None:
            continue
        try:
            found = scope.resolve(head)
        except Exception:  # a name the scope does not know: left as it is
            continue
        return f"{found}.{rest}" if rest else found
    return name


class SphinxRoles(Extension):
    """Rewrites ``:role:`name``` in every docstring before it is rendered."""

    def on_object(self, *, obj: Object, loader: Any, **kwargs: Any) -> None:
        docstring = obj.docstring
        if docstring is None or ":`" not in docstring.value:
            return

        def link(match: re.Match[str]) -> str:
            short, name = match[1], match[2]
            shown = name.rpartition(".")[2] if short else name.lstrip(".")
            target = _target(obj, name)
            return (
                f'<autoref identifier="{escape(target)}" optional>'
                f"<code>{escape(shown)}</code></autoref>"
            )

        docstring.value = ROLE.sub(link, docstring.value)
