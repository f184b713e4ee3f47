"""Every example in the documentation runs as written (docs/**/*.md and README.md).

- A ```python block runs in the namespace of its page, after the page's earlier blocks.
- In a ```sh or ```console block, each command (after ``$ `` in a console block; a
  line ending in a backslash goes on on the next) runs and must exit with the code its
  comment names ("(exit 1)", "(exit code 2)"), else 0; ``> FILE`` sends standard output
  to FILE. ``chessplace ...`` runs through the command line's ``main``,
  ``python -m chessplace.research ...`` as a process in the page's directory, and
  ``.venv/bin/pytest ...`` as a process in the repository's root. Other lines
  (``make``, ``dask``, output) are text; the contributor pages have none
  (``docs/contributing``: every command there runs, none is left out).
- A ```text title="NAME" block is a file the page's commands read: it is written
  to NAME before any of them runs.
- A block right after ``<!-- not run: REASON -->`` is skipped, with that reason.

Each page runs in a directory of its own, so files one example writes are there for
the next. The generated reference pages are checked against the parser and the app.
"""

from __future__ import annotations

import argparse
import importlib.util
import re
import shlex
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from chessplace.faces.cli import main
from tests.paths import ROOT

DOCS = ROOT / "docs"
PAGES = [*sorted(DOCS.rglob("*.md")), ROOT / "README.md"]
SHELLS = {"sh", "console"}
NOT_RUN = re.compile(r"<!--\s*not run:\s*(.*?)\s*-->")
FENCE = re.compile(r"^(?P<indent>\s*)```(?P<lang>[\w-]*)(?P<info>.*)$")
TITLE = re.compile(r'title="([^"]+)"')
EXIT = re.compile(r"\(exit(?: code)? (\d+)\)")


@dataclass(frozen=True)
class Block:
    page: Path
    line: int
    lang: str
    info: str
    code: str
    skip: str | None

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(ROOT)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """The fenced blocks of a page, in order, with the reason not to run each (if any)."""
    found: list[Block] = []
    lines = page.read_text(encoding="utf-8").splitlines()
    index = 0
    while index < len(lines):
        fence = FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        indent = len(fence["indent"])
        start = index
        index += 1
        body: list[str] = []
        while index < len(lines) and lines[index].strip() != "```":
            body.append(lines[index][indent:])
            index += 1
        before = [line for line in lines[:start] if line.strip()]
        marker = NOT_RUN.search(before[-1]) if before else None
        found.append(
            Block(
                page,
                start + 1,
                fence["lang"],
                fence["info"],
                "\n".join(body) + "\n",
                marker[1] if marker else None,
            )
        )
        index += 1
    return found


PROCESSES = {
    "python -m chessplace.research": ([sys.executable, "-m", "chessplace.research"], None),
    ".venv/bin/pytest": ([sys.executable, "-m", "pytest", "-p", "no:cacheprovider"], ROOT),
}
"""Commands that run as a process: what runs them, and where (``None``: the page's
directory); ``chessplace`` runs through ``main``, in this process."""
RUNNERS = ("chessplace", *PROCESSES)


def shell_lines(block: Block) -> list[str]:
    """The lines of a shell block, a console's ``$ `` dropped and a ``\\`` joined to
    the next line."""
    lines: list[str] = []
    going_on = False
    for line in block.code.splitlines():
        line = line.removeprefix("$ ")
        if going_on:
            lines[-1] = lines[-1][:-1].rstrip() + " " + line.strip()
        else:
            lines.append(line)
        going_on = lines[-1].endswith("\\")
    return lines


def _runner(line: str) -> str | None:
    return next((r for r in RUNNERS if line.startswith(f"{r} ")), None)


def commands(block: Block) -> list[str]:
    """The lines of a shell block that are commands this test runs."""
    return [line for line in shell_lines(block) if _runner(line)]


BLOCKS = [b for page in PAGES for b in blocks(page)]
EXAMPLES = [b for b in BLOCKS if b.lang == "python" or (b.lang in SHELLS and commands(b))]


def _workdir(page: Path, factory: pytest.TempPathFactory, made: dict[Path, Path]) -> Path:
    """The page's own directory, with the files its titled blocks hold."""
    if page not in made:
        directory = factory.mktemp(page.stem)
        for block in blocks(page):
            title = TITLE.search(block.info)
            if title:
                (directory / title[1]).write_text(block.code, encoding="utf-8")
        made[page] = directory
    return made[page]


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> Any:
    """Per page: its working directory and the namespace its Python blocks share."""
    made: dict[Path, Path] = {}
    spaces: dict[Path, dict[str, Any]] = {}

    def page_state(page: Path) -> tuple[Path, dict[str, Any]]:
        return _workdir(page, tmp_path_factory, made), spaces.setdefault(page, {})

    return page_state


def _command(line: str) -> tuple[list[str], Path | None, int]:
    """The arguments after the runner, the file ``>`` names, and the exit code due."""
    runner = _runner(line)
    assert runner is not None, line
    text, _, comment = line.removeprefix(runner).partition(" #")
    words = shlex.split(text)
    assert not {"|", "<", "&&", ";", "2>&1"} & set(words), f"not a plain command: {line}"
    target = None
    if ">" in words:
        at = words.index(">")
        target, words = Path(words[at + 1]), words[:at]
    due = EXIT.search(comment)
    return words, target, int(due[1]) if due else 0


def _run(
    line: str, arguments: list[str], capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    """Run a command of the docs: its exit code, standard output and standard error."""
    runner = _runner(line)
    if runner == "chessplace":
        code = main(arguments)
        out, err = capsys.readouterr()
        return code, out, err
    command, where = PROCESSES[str(runner)]
    done = subprocess.run(
        [*command, *arguments], cwd=where or Path.cwd(), capture_output=True, text=True
    )
    return done.returncode, done.stdout, done.stderr


@pytest.mark.parametrize("block", EXAMPLES, ids=[b.name for b in EXAMPLES])
def test_example_runs(
    block: Block,
    pages: Any,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    if block.skip:
        pytest.skip(f"{block.name} not run: {block.skip}")
    directory, namespace = pages(block.page)
    monkeypatch.chdir(directory)
    if block.lang == "python":
        exec(compile(block.code, block.name, "exec"), namespace)
        return
    for line in commands(block):
        arguments, target, due = _command(line)
        code, out, err = _run(line, arguments, capsys)
        assert "Traceback" not in err, f"{line}\n{err}"
        said = f"{err}\n{out[-3000:]}"
        assert code == due, f"{block.name}: {line}\nexit {code}, the docs say {due}\n{said}"
        if target is not None:
            target.write_text(out, encoding="utf-8")


def test_examples_are_found() -> None:
    """The collector sees the examples (a broken fence pattern would skip them all)."""
    assert sum(b.lang == "python" for b in EXAMPLES) >= 5
    assert sum(b.lang in SHELLS for b in EXAMPLES) >= 20
    assert any(b.skip for b in EXAMPLES)


CONTRIBUTING = DOCS / "contributing"


def test_every_command_of_the_contributor_pages_runs() -> None:
    """A contributor follows these pages command by command: no block of theirs is left
    out, and a shell block holds only commands this test runs (and comments)."""
    found = [b for b in BLOCKS if b.page.is_relative_to(CONTRIBUTING)]
    assert {b.page.name for b in found} >= {"adding-an-engine.md", "adding-a-rule.md"}
    assert [b.name for b in found if b.skip] == []
    assert [b.name for b in found if b.lang in {"bash", "shell", "zsh"}] == []
    text = [
        f"{b.name}: {line}"
        for b in found
        if b.lang in SHELLS
        for line in shell_lines(b)
        if line.strip() and not line.lstrip().startswith("#") and not _runner(line)
    ]
    assert text == []


# --- the generated reference pages ------------------------------------------------------


def _hooks() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_hooks", DOCS / "hooks" / "reference.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_cli_reference_has_every_command_and_option() -> None:
    from chessplace.faces.cli.parser import build_parser

    page = _hooks().cli_markdown()
    parser = build_parser()
    commands_action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name, sub in commands_action.choices.items():
        assert f"\n## {name}\n" in page, name
        for action in sub._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert f"`{flag}" in page, (name, flag)


def test_http_reference_has_every_route_and_field() -> None:
    from chessplace.faces.web.app import create_app

    schema = create_app().openapi()
    page = _hooks().http_markdown(schema)
    for path, operations in schema["paths"].items():
        for method in operations:
            assert f"`{method.upper()} {path}`" in page, (method, path)
    for name, body in schema["components"]["schemas"].items():
        if name not in {"HTTPValidationError", "ValidationError"}:
            for field in body.get("properties", {}):
                assert f"| `{field}` |" in page, (name, field)


def test_the_reference_pages_hold_their_markers() -> None:
    hooks = _hooks()
    assert hooks.CLI_MARKER in (DOCS / "reference" / "cli.md").read_text(encoding="utf-8")
    assert hooks.HTTP_MARKER in (DOCS / "reference" / "http-api.md").read_text(encoding="utf-8")


def test_the_layout_page_names_every_room() -> None:
    page = (DOCS / "explanation" / "layout.md").read_text(encoding="utf-8")
    package = ROOT / "src" / "chessplace"
    rooms = [p.name for p in package.iterdir() if (p / "__init__.py").exists()]
    rooms += [p.stem for p in package.glob("*.py") if not p.name.startswith("__")]
    assert rooms
    for room in rooms:
        assert f"`{room}`" in page, room


MACHINE_PATH = re.compile(r"(?<![\w.~-])/(?:work|root|home|Users|tmp)/[^\s`)]*")
"""A path of the machine the project was made on (``/work/...``, ``/root/...``)."""


def test_no_page_names_a_path_of_the_development_machine() -> None:
    """Commands in the docs name paths relative to the repository, which work in any
    clone, never where the project happened to live (benchmarks-csplib.md once did)."""
    found = [
        f"{page.relative_to(ROOT)}:{number}: {match}"
        for page in PAGES
        for number, line in enumerate(page.read_text(encoding="utf-8").splitlines(), 1)
        for match in MACHINE_PATH.findall(line)
    ]
    assert found == []
    assert MACHINE_PATH.findall("--csplib /work/.mirror/x and ../csplib, results/a1/") == [
        "/work/.mirror/x"
    ]


# --- README: one screen or two, pointing into the docs ----------------------------------


def test_readme_is_short_and_its_links_resolve() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(text.splitlines()) <= 200
    links = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text)
    local = [link for link in links if "://" not in link]
    assert any(link.startswith("docs/") for link in local)
    for link in local:
        assert (ROOT / link).exists(), link
