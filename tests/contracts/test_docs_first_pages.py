"""The pages a newcomer reads first (issue 52): code that fits the page's width,
commands shown with their output, and a Python API reference that opens with
``solve``, ``optimize`` and ``count``."""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from chessplace import api
from chessplace.faces.cli import main
from tests.contracts.test_docs import DOCS, SHELLS, Block, blocks, commands

WIDTH = 80
"""Characters of code that fit a code block of the site at full width (Material's
content column holds about 80 characters of its monospaced font beside both
sidebars); a longer line is cut off at the right edge."""

FIRST_PAGES = [
    DOCS / "index.md",
    DOCS / "tutorials" / "first-steps.md",
    DOCS / "tutorials" / "your-own-puzzle.md",
    DOCS / "tutorials" / "peaceable-armies.md",
    DOCS / "tutorials" / "region-puzzles.md",
]


def _code_lines(block: Block) -> list[str]:
    """The lines of a block that are code: Python, and a shell block's commands and
    comments (a console block's output lines are what the program printed)."""
    if block.lang == "python":
        return block.code.splitlines()
    if block.lang in SHELLS:
        lines = block.code.splitlines()
        if block.lang == "console":
            return [line for line in lines if line.startswith(("$ ", "#"))]
        return lines
    return []


@pytest.mark.parametrize("page", FIRST_PAGES, ids=lambda p: str(p.relative_to(DOCS)))
def test_code_fits_the_page(page: Path) -> None:
    too_long = [
        f"{block.name}: {line}"
        for block in blocks(page)
        for line in _code_lines(block)
        if len(line) > WIDTH
    ]
    assert too_long == []


def test_the_width_rule_catches_a_long_comment() -> None:
    line = "chessplace optimize peaceable-queens -n 8           # 9 white and 9 black, proven"
    block = Block(DOCS / "index.md", 1, "sh", "", line + "\n", None)
    assert [len(x) > WIDTH for x in _code_lines(block)] == [True]


FIRST_STEPS = DOCS / "tutorials" / "first-steps.md"
SHOWN = [
    "chessplace solve queens -n 8",
    "chessplace solve amazons -n 9",
    "chessplace optimize bishops -n 8",
    "chessplace optimize peaceable-queens -n 8 --ascii",
    "chessplace optimize dominating-queens -n 8",
    "chessplace count queens -n 8 --unique",
    "chessplace count peaceable-queens -n 8 --optimal --unique",
    "chessplace verify peaceable-queens -n 5 answer.json",
    "chessplace verify queens -n 4 bad.txt",
]
"""The first tutorial's main commands, each shown with what it prints."""

VERDICT = re.compile(r"^(?P<what>[\w-]+ on \d+×\d+: .*?)(?: · [\w()]+ · [\d.]+ s)?$")


def _output_after(command: str) -> tuple[str, int]:
    """The text block that follows the shell block running ``command``, and how many
    commands that block runs."""
    found = blocks(FIRST_STEPS)
    for index, block in enumerate(found):
        lines = [line.partition(" #")[0].rstrip() for line in commands(block)]
        if block.lang in SHELLS and command in lines:
            following = found[index + 1]
            assert following.lang == "text" and "title=" not in following.info, block.name
            return following.code, len(lines)
    raise AssertionError(f"first-steps.md does not run {command!r}")


@pytest.mark.parametrize("command", SHOWN)
def test_the_first_tutorial_shows_what_its_commands_print(
    command: str,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The output shown is the command's own, timings and engines aside."""
    output, run = _output_after(command)
    shown = output.splitlines()
    monkeypatch.chdir(tmp_path)
    if "answer.json" in command:
        main(["solve", "peaceable-queens", "-n", "5", "--at-least", "4", "--json"])
        (tmp_path / "answer.json").write_text(capsys.readouterr().out)
    if "bad.txt" in command:
        (tmp_path / "bad.txt").write_text(". Q . .\n. . . Q\nQ . . Q\n. . . .\n")
    main(command.split()[1:])
    printed = capsys.readouterr().out.splitlines()
    due = VERDICT.match(printed[-1])
    assert due, printed[-1]
    said = [m["what"] for line in shown if (m := VERDICT.match(line))]
    assert due["what"] in said
    if run == 1:
        assert len(shown) == len(printed)  # the same board and lines above the verdict


def test_the_python_reference_opens_with_the_three_questions() -> None:
    page = (DOCS / "reference" / "python-api.md").read_text(encoding="utf-8")
    block = page.split("::: chessplace.api\n", 1)[1].split("\n\n", 1)[0]
    assert "group_by_category: false" in block  # else constants come first, as a group
    listed = re.findall(r"^\s+- (\w+)$", block, re.M)
    assert listed[:3] == ["solve", "optimize", "count"]
    tree = ast.parse(inspect.getsource(api))
    constants = {
        target.id
        for node in tree.body
        if isinstance(node, ast.Assign)
        for target in node.targets
        if isinstance(target, ast.Name) and target.id.isupper()
    }
    defined = {
        name
        for name, value in vars(api).items()
        if (inspect.isfunction(value) or inspect.isclass(value))
        and value.__module__ == api.__name__
    }
    public = {name for name in {*api.__all__, *constants, *defined} if not name.startswith("_")}
    assert set(listed) == public  # a new public name is listed, not left out
