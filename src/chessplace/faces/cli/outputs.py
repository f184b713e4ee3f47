"""Output paths checked before any work starts, so a long proof never ends in a
"cannot write" (the write itself can still fail later, and says so)."""

from __future__ import annotations

import argparse
import os
import tempfile
from pathlib import Path

from chessplace.certificates.writer.directory import unusable_directory
from chessplace.faces.cli.argtypes import shown

SPECIAL = {"-", "/dev/null", "/dev/stdout", "/dev/stderr"}
DRAWN = (".svg", ".png")
"""The endings of the files a board is drawn to."""


def writable_file(path: Path) -> str | None:
    """Why a file cannot be written at ``path``; ``None`` when it looks fine."""
    try:
        if str(path) in SPECIAL or _special_file(path):
            return None  # standard output or a device: written in place
        if path.is_dir():
            return f"{path} is a directory"
        return _writable_parent(path)
    except OSError as error:  # a name too long, a folder on the way that cannot be entered
        return _unusable(path, error)


def writable_directory(path: Path) -> str | None:
    """Why a directory cannot be made or filled at ``path`` (a certificate is staged in
    a directory made beside it, then renamed); ``None`` when it looks fine."""
    try:
        if path.exists():
            if not path.is_dir():
                return f"{path} exists and is not a directory"
            if not os.access(path, os.W_OK | os.X_OK):
                return f"{path} is not writable"
        return _writable_parent(path, directory=True)
    except OSError as error:
        return _unusable(path, error)


def _unusable(path: Path, error: OSError) -> str:
    return f"cannot use {shown(str(path))}: {error.strerror or error}"


def _writable_parent(path: Path, directory: bool = False) -> str | None:
    """Why nothing can be written beside ``path``: no such directory, no permission,
    or (for root, to whom permissions say yes, on /proc, /sys or a read-only file
    system) a file or directory made there to try it, and removed, fails."""
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        return f"cannot write {path}: no directory {parent}"
    if not os.access(parent, os.W_OK | os.X_OK):
        return f"cannot write {path}: {parent} is not writable"
    try:
        if directory:
            os.rmdir(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".probe", dir=parent))
        else:
            tempfile.TemporaryFile(prefix=f".{path.name}.", suffix=".probe", dir=parent).close()
    except OSError as error:
        made = "directory" if directory else "file"
        return f"cannot write {path}: {parent} takes no new {made} ({error.strerror or error})"
    return None


def _special_file(path: Path) -> bool:
    """A device, a pipe or a socket: something there that is not a file or a directory
    (false when the path cannot be looked at: the caller's next look says why)."""
    try:
        return path.exists() and not (path.is_file() or path.is_dir())
    except OSError:
        return False


def output_fault(arguments: argparse.Namespace) -> str | None:
    """The first output path of a command line that cannot be written, as one line."""
    checkpoint = getattr(arguments, "checkpoint", None)
    if checkpoint and (str(checkpoint) in SPECIAL or _special_file(Path(checkpoint))):
        return f"--checkpoint: {checkpoint} is not a file (a checkpoint is rewritten in place)"
    render = getattr(arguments, "render", None)
    if render and Path(render).suffix.lower() not in DRAWN:
        return f"{_flag(arguments, 'render')}: cannot draw to {render}: it must end in .svg or .png"
    for name in ("render", "output", "checkpoint"):
        value = getattr(arguments, name, None)
        if value:
            fault = writable_file(Path(value))
            if fault:
                return f"{_flag(arguments, name)}: {fault}"
    certificate = getattr(arguments, "certificate", None)
    if certificate:
        fault = writable_directory(Path(certificate)) or unusable_directory(Path(certificate))
        if fault:
            return f"--certificate: {fault}"
    return None


def _flag(arguments: argparse.Namespace, name: str) -> str:
    """The option that set ``name`` (``render`` draws to ``-o``/``--output``)."""
    drawing = name == "render" and getattr(arguments, "command", None) == "render"
    return "--output" if drawing else f"--{name}"
