"""Shared helpers for the tests."""

from __future__ import annotations

import shutil
import signal
from pathlib import Path

import pytest
from hypothesis import settings

from chessplace.core.placement import Placement
from chessplace.core.result import Result

# No property test fails for one slow example: CI's two cores are shared with the
# engines' child processes, and a stall of a fraction of a second is no defect.
settings.register_profile("unhurried", deadline=None)
settings.load_profile("unhurried")


def pytest_configure(config: pytest.Config) -> None:
    """A suite started as a background job (``make test &``) inherits Ctrl-C ignored, and
    so would every command it starts, which would then never hear the Ctrl-C the stop
    tests send. Handling it here instead gives those commands the default again (a
    handled signal is reset by exec; an ignored one stays ignored)."""
    if signal.getsignal(signal.SIGINT) == signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def assert_valid(result: Result) -> Placement:
    """The result carries a placement that the independent checker accepts."""
    assert result.placement is not None, result
    violations = result.placement.verify()
    assert violations == (), [str(v) for v in violations]
    return result.placement


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A certificate of a(5) = 4 (one proof, no cubes), written once per module."""
    from chessplace.faces.cli import main

    directory = tmp_path_factory.mktemp("a5")
    assert main(["optimize", "peaceable-queens", "-n", "5", "--certificate", str(directory)]) == 0
    return directory


@pytest.fixture
def copy(pristine: Path, tmp_path: Path) -> Path:
    """A copy of the a(5) certificate for one test to tamper with."""
    target = tmp_path / "certificate"
    shutil.copytree(pristine, target)
    return target
