"""Where a certificate goes: which directories it may fill, and putting it in place.

A certificate is written into a staging directory beside the one named and renamed
into place at the end, so a stopped or failed run leaves the named directory as it
was. It may replace an earlier certificate, never a user's own files.
"""

from __future__ import annotations

import json
import os
import secrets
import shutil
import tempfile
from pathlib import Path

MANIFEST = "manifest.json"


def unusable_directory(directory: Path) -> str | None:
    """Why a certificate may not be written to ``directory``: it holds files that are
    not one earlier certificate (a certificate replaces only its like, never a
    user's own files). ``None`` when it is absent, empty, or a certificate."""
    try:
        if not directory.exists():
            return None
        if not directory.is_dir():
            return f"{directory} exists and is not a directory"
        names = {entry.name for entry in directory.iterdir()}
        if not names:
            return None
        listed = _listed_files(directory / MANIFEST) if MANIFEST in names else None
    except OSError as error:
        return f"cannot use {directory}: {error.strerror or error}"
    if listed is None or names - listed - {MANIFEST}:
        return (
            f"{directory} holds files that are not a certificate; "
            "name a new or empty directory, or one that holds only a certificate"
        )
    return None


def _listed_files(manifest: Path) -> set[str] | None:
    """The files a certificate's manifest lists; ``None`` if it is not a manifest."""
    try:
        if manifest.stat().st_size > 64 * 1024 * 1024:
            return None
        data = json.loads(manifest.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not str(data.get("format", "")).startswith(
        "chessplace-certificate/"
    ):
        return None
    files = data.get("files")
    return {name for name in files if isinstance(name, str)} if isinstance(files, dict) else None


def put_in_place(staging: Path, target: Path) -> None:
    """Rename the finished ``staging`` to ``target``; an earlier certificate there is
    moved aside first and removed only once the new one is in place."""
    if not target.exists() or not any(target.iterdir()):
        os.replace(staging, target)
        return
    old = Path(tempfile.mkdtemp(prefix=f".{target.name}.", suffix=".old", dir=target.parent))
    os.replace(target, old)
    try:
        os.replace(staging, target)
    except OSError:
        os.replace(old, target)
        raise
    shutil.rmtree(old, ignore_errors=True)


def staging_beside(target: Path) -> Path:
    """A new, empty directory beside ``target`` to write a certificate into, made as
    any directory is (its mode from the umask: a temporary directory would be 0700,
    and so would the certificate renamed from it)."""
    while True:
        staging = target.parent / f".{target.name}.{secrets.token_hex(6)}.partial"
        try:
            staging.mkdir()
        except FileExistsError:
            continue
        return staging
