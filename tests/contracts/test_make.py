"""The Makefile's two commands as a newcomer meets them (issue 52): ``make demo``
installs what the demo needs and says how to reach ``chessplace`` afterwards, and
``make test`` adds the test and docs tools to the same venv, in either order.

The recipes are read with ``make -n`` (print, run nothing) against a venv path in a
temporary directory, so no test installs anything."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from tests.paths import ROOT

pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def _dry_run(target: str, venv: Path) -> str:
    done = subprocess.run(
        ["make", "-n", f"VENV={venv}", target],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return done.stdout


def test_demo_installs_the_engines_only_and_says_how_to_reach_chessplace(
    tmp_path: Path,
) -> None:
    venv = tmp_path / "venv"
    plan = _dry_run("demo", venv)
    assert '-e ".[all]"' in plan
    assert "dev" not in plan and "docs]" not in plan
    # The last lines say that chessplace is not on PATH, and how to put it there.
    tail = plan[plan.index(f"{venv}/bin/chessplace demo") :]
    assert f"source {venv}/bin/activate" in tail
    assert "PATH" in tail


def test_test_after_demo_adds_the_tools_to_the_same_venv(tmp_path: Path) -> None:
    venv = tmp_path / "venv"
    venv.mkdir()
    (venv / ".installed").touch()  # as make demo leaves it
    plan = _dry_run("test", venv)
    assert "-m venv" not in plan
    assert '-e ".[all,dev,docs]"' in plan
    (venv / ".installed-dev").touch()
    assert "pip install" not in _dry_run("test", venv)
    assert "pip install" not in _dry_run("demo", venv)


def test_test_on_a_fresh_clone_installs_everything(tmp_path: Path) -> None:
    plan = _dry_run("test", tmp_path / "venv")
    assert plan.index('-e ".[all]"') < plan.index('-e ".[all,dev,docs]"') < plan.index("bin/pytest")


def test_the_readme_activates_the_venv_before_its_examples() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    examples = text.index("## Ten examples")
    first = text.index("\nchessplace solve", examples)
    assert "source .venv/bin/activate" in text[examples:first]
    assert ".venv/bin/chessplace" in text[examples:first]
