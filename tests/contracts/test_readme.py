"""The README's Python examples run as written."""

from __future__ import annotations

import re

from tests.paths import ROOT

README = ROOT / "README.md"


def test_readme_python_examples_run() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), re.S)
    assert blocks
    for block in blocks:
        exec(compile(block, str(README), "exec"), {})
