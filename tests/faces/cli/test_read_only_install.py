"""A read-only install with no writable home: Numba can cache its kernels neither
beside their source nor in ``~/.cache``, and refused to define them, so every command
died with "cannot cache function". The kernels now compile into a private temporary
directory, and ``check`` loads no Numba at all."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import chessplace

CHECK = (
    "import sys; from chessplace.faces.cli import main; code = main(sys.argv[1:]);"
    "print('numba loaded' if 'numba' in sys.modules else 'no numba', file=sys.stderr);"
    "sys.exit(code)"
)


def _read_only_install(tmp_path: Path) -> dict[str, str]:
    """The environment of a copy of the package where no ``__pycache__`` can be made
    (each is a file: root writes through permissions, so they would not do), with
    ``HOME=/dev/null`` (no ``~/.cache`` under it, even for root) and no cache variables."""
    site = tmp_path / "site"
    shutil.copytree(
        Path(chessplace.__file__).parent,
        site / "chessplace",
        ignore=shutil.ignore_patterns("__pycache__"),
    )
    for directory in [site / "chessplace", *(site / "chessplace").rglob("*")]:
        if directory.is_dir():
            (directory / "__pycache__").touch()
    (tmp_path / "tmp").mkdir()
    names = ("NUMBA_CACHE_DIR", "XDG_CACHE_HOME", "CHESSPLACE_CACHE", "PYTHONDONTWRITEBYTECODE")
    environment = {k: v for k, v in os.environ.items() if k not in names}
    return environment | {
        "HOME": "/dev/null",
        "TMPDIR": str(tmp_path / "tmp"),
        "PYTHONPATH": str(site),
    }


def _run(environment: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "chessplace", *args],
        env=environment,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_commands_run_from_a_read_only_install(tmp_path: Path) -> None:
    environment = _read_only_install(tmp_path)
    board = tmp_path / "board.txt"
    board.write_text("Q...\n..Q.\n....\n....\n")
    expected = {
        ("solve", "queens", "-n", "8"): 0,
        ("verify", "queens", "-n", "4", str(board)): 1,
        ("count", "queens", "-n", "5"): 0,
    }
    for args, code in expected.items():
        done = _run(environment, *args)
        assert "Traceback" not in done.stderr, done.stderr
        assert done.returncode == code, (args, done.stderr)
    assert "10 placements" in _run(environment, "count", "queens", "-n", "5").stdout


@pytest.mark.skipif(importlib.util.find_spec("dratify") is None, reason="needs dratify")
def test_check_runs_from_a_read_only_install_without_numba(tmp_path: Path) -> None:
    certificate = tmp_path / "certificate"
    made = _run(dict(os.environ), "solve", "queens", "-n", "3", "--certificate", str(certificate))
    assert made.returncode == 1, made.stderr
    done = subprocess.run(
        [sys.executable, "-c", CHECK, "check", str(certificate)],
        env=_read_only_install(tmp_path),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.endswith("no numba\n"), done.stderr
