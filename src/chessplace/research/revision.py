"""The revision of the code that produces a record, written into every term record.

In a git checkout of the package it is the commit (``git rev-parse HEAD``) and
whether the package's tracked files differed from it (data beside it, such as
the record being written, does not count); otherwise the installed package's
version. Records made before this field existed carry the commit that added
them to the repository instead, with ``"source": "the commit that recorded it"``
(the code that ran is that commit or an earlier one).
"""

from __future__ import annotations

import subprocess
from importlib import metadata
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
"""The ``chessplace`` folder: git runs there."""


def current() -> dict[str, object]:
    """``{"commit", "source", "dirty"}`` from git, else ``{"version", "source"}``. The
    package must be tracked by the repository git finds: a package installed into a
    virtual environment inside some checkout is not that checkout's code."""
    tracked = _git("ls-files", "--error-unmatch", "__init__.py") is not None
    commit = _git("rev-parse", "HEAD") if tracked else None
    if commit is None:
        return {"version": _version(), "source": "the package version (not a git checkout)"}
    changes = _git("status", "--porcelain", "--untracked-files=no", "--", ".")
    return {"commit": commit, "source": "git rev-parse HEAD", "dirty": bool(changes)}


def _git(*arguments: str) -> str | None:
    """What a git command prints in the package's folder; ``None`` outside a checkout
    or without git."""
    try:
        run = subprocess.run(
            ["git", "-C", str(PACKAGE), *arguments],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    return run.stdout.strip() if run.returncode == 0 else None


def _version() -> str:
    try:
        return metadata.version("chessplace")
    except metadata.PackageNotFoundError:
        return "unknown"
