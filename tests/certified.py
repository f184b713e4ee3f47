"""Helpers for tests that tamper with certificates, as a forger would."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

PROOF = "refutation.drup.gz"
"""The proof file of a certificate refuted as one proof."""


def manifest_of(directory: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((directory / "manifest.json").read_text())
    return data


def seal(directory: Path, manifest: dict[str, Any]) -> None:
    """Write the manifest with every listed file's SHA-256 made to match."""
    for name in manifest["files"]:
        manifest["files"][name] = hashlib.sha256((directory / name).read_bytes()).hexdigest()
    (directory / "manifest.json").write_text(json.dumps(manifest))


def rehash(directory: Path) -> None:
    """Make the manifest's hashes match the files again."""
    seal(directory, manifest_of(directory))
