"""Shared helpers for the tests."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from chessplace.placement import Placement
from chessplace.result import Result


def assert_valid(result: Result) -> Placement:
    """The result carries a placement that the independent checker accepts."""
    assert result.placement is not None, result
    violations = result.placement.verify()
    assert violations == (), [str(v) for v in violations]
    return result.placement


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A certificate of a(5) = 4 (one proof, no cubes), written once per module."""
    from chessplace.cli import main

    directory = tmp_path_factory.mktemp("a5")
    assert main(["optimize", "peaceable-queens", "-n", "5", "--certificate", str(directory)]) == 0
    return directory


@pytest.fixture
def copy(pristine: Path, tmp_path: Path) -> Path:
    """A copy of the a(5) certificate for one test to tamper with."""
    target = tmp_path / "certificate"
    shutil.copytree(pristine, target)
    return target
