"""Output paths checked before any work starts, so a long proof never ends in a
"cannot write" (the write itself can still fail later, and says so)."""

from __future__ import annotations

import argparse
import os
from pathlib import Path

SPECIAL = {"-", "/dev/null", "/dev/stdout", "/dev/stderr"}


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
    if checkpoint and (str(checkpoint) in SPECIAL or _special_file(Path(checkpoint))):
        return f"--checkpoint: {checkpoint} is not a file (a checkpoint is rewritten in place)"
    for name in ("render", "output", "checkpoint"):
        value = getattr(arguments, name, None)
        if value:
            fault = writable_file(Path(value))
            if fault:
                return f"--{name}: {fault}"
    certificate = getattr(arguments, "certificate", None)
    if certificate:
        fault = writable_directory(Path(certificate))
        if fault:
            return f"--certificate: {fault}"
    return None
