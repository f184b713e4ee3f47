"""Output paths checked before any work starts, so a long proof never ends in a
"cannot write" (the write itself can still fail later, and says so)."""

from __future__ import annotations

import argparse
import os
from collections.abc import Callable
from pathlib import Path

SPECIAL = {"-", "/dev/null", "/dev/stdout", "/dev/stderr"}
DRAWN = (".svg", ".png")
"""The endings of the files a board is drawn to."""


def writable_file(path: Path) -> str | None:
    """Why a file cannot be written at ``path``; ``None`` when it looks fine."""
    if str(path) in SPECIAL or (path.exists() and not path.is_file() and not path.is_dir()):
        return None  # standard output or a device: written in place
    if path.is_dir():
        return f"{path} is a directory"
    return _writable_parent(path)


def writable_directory(path: Path) -> str | None:
    """Why a directory cannot be made or filled at ``path``; ``None`` when it looks fine."""
    if path.exists():
        if not path.is_dir():
            return f"{path} exists and is not a directory"
        return None if os.access(path, os.W_OK | os.X_OK) else f"{path} is not writable"
    return _writable_parent(path)


def _writable_parent(path: Path) -> str | None:
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        return f"cannot write {path}: no directory {parent}"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot write {path}: {parent} is not writable"
    return None


def _special_file(path: Path) -> bool:
    """A device, a pipe or a socket: something there that is not a file or a directory."""
    return path.exists() and not (path.is_file() or path.is_dir())


def output_fault(arguments: argparse.Namespace) -> str | None:
    """The first output path of a command line that cannot be written, as one line."""
    checkpoint = getattr(arguments, "checkpoint", None)
    if checkpoint and (str(checkpoint) in SPECIAL or _probe(_special_file, checkpoint) is True):
        return f"--checkpoint: {checkpoint} is not a file (a checkpoint is rewritten in place)"
    render = getattr(arguments, "render", None)
    if render and Path(render).suffix.lower() not in DRAWN:
        return f"cannot draw to {render}: the file must end in .svg or .png"
    probes: list[tuple[str, Callable[[Path], object]]] = [
        ("render", writable_file),
        ("output", writable_file),
        ("checkpoint", writable_file),
        ("certificate", writable_directory),
    ]
    for name, probe in probes:
        value = getattr(arguments, name, None)
        if value:
            fault = _probe(probe, value)
            if isinstance(fault, str):
                return f"--{name}: {fault}"
    return None


def _probe(probe: Callable[[Path], object], value: str | Path) -> object:
    """What ``probe`` says of the path, or why the path cannot even be looked at (a
    name too long, a folder on the way that cannot be entered) as a string."""
    try:
        return probe(Path(value))
    except OSError as error:
        return f"cannot use {value}: {error.strerror}"
