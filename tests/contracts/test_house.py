"""The house's rules that are not imports: results/ holds data only, and no code
reaches modules through ``sys.path``."""

from __future__ import annotations

from tests.paths import ROOT

CODE = {".py", ".c", ".h", ".sh", ".ipynb"}
TEST_FILE = ROOT / "tests" / "contracts" / "test_house.py"


def test_results_hold_data_only() -> None:
    found = [p.relative_to(ROOT) for p in (ROOT / "results").rglob("*") if p.suffix in CODE]
    assert found == []


def test_no_code_reaches_modules_through_sys_path() -> None:
    folders = ("src", "benchmarks", "tests")
    offenders = [
        path.relative_to(ROOT)
        for folder in folders
        for path in (ROOT / folder).rglob("*.py")
        if "sys.path." in path.read_text(encoding="utf-8") and path != TEST_FILE
    ]
    assert offenders == []
