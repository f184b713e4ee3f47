"""TOML text for the shapes a problem file has: keys holding strings, whole numbers,
booleans or lists of them (lists of lists too: attack pairs), tables (``[board]``)
and lists of tables (``[[armies]]``).

Standard-library ``tomllib`` reads it back to the same data; anything else (floats,
``None``, dates, a string holding a lone surrogate) is a ``ValueError``.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

_BARE_KEY = re.compile(r"[A-Za-z0-9_-]+")


def dumps(data: Mapping[str, Any]) -> str:
    """The TOML document of ``data``."""
    lines: list[str] = []
    _table(data, (), lines)
    return "\n".join(lines).lstrip("\n") + "\n"


def _table(data: Mapping[str, Any], path: tuple[str, ...], lines: list[str]) -> None:
    """Plain keys first, then sub-tables, then lists of tables (TOML's order)."""
    tables = {k: v for k, v in data.items() if isinstance(v, Mapping)}
    lists = {k: v for k, v in data.items() if _is_table_list(v)}
    for key, value in data.items():
        if key not in tables and key not in lists:
            lines.append(f"{_key(key)} = {_value(value)}")
    for key, value in tables.items():
        lines += ["", f"[{_dotted((*path, key))}]"]
        _table(value, (*path, key), lines)
    for key, items in lists.items():
        for item in items:
            lines += ["", f"[[{_dotted((*path, key))}]]"]
            _table(item, (*path, key), lines)


def _is_table_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, Mapping) for v in value)


def _dotted(path: Sequence[str]) -> str:
    return ".".join(_key(part) for part in path)


def _key(key: str) -> str:
    return key if _BARE_KEY.fullmatch(key) else _string(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list) and not any(isinstance(v, Mapping) for v in value):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise ValueError(f"a problem file holds no {type(value).__name__} values: {value!r:.40}")


def _string(text: str) -> str:
    """A basic string: quote, backslash and control characters escaped."""
    out = ['"']
    for char in text:
        code = ord(char)
        if char in '"\\':
            out.append("\\" + char)
        elif code < 0x20 or code == 0x7F:
            out.append(f"\\u{code:04X}")
        elif 0xD800 <= code <= 0xDFFF:
            raise ValueError(f"{text!r:.40}: a lone surrogate has no place in TOML text")
        else:
            out.append(char)
    return "".join(out) + '"'
