"""``chessplace export``: write the model of a problem to a file or standard output."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO

from chessplace.export import export_lines
from chessplace.faces.cli.exits import EXIT_OK, UsageError
from chessplace.faces.cli.problemargs import problem_from


def export_command(arguments: argparse.Namespace) -> int:
    """Build the model first (bad input writes nothing, not even an empty file), then
    write it line by line; a file is written under a temporary name and renamed when
    complete, so a failed or interrupted export leaves nothing behind (and an
    existing file stays as it was)."""
    problem = problem_from(arguments)
    lines = export_lines(
        problem,
        arguments.format,
        encoding=arguments.encoding,
        break_symmetry=not arguments.no_symmetry,
    )
    if arguments.output in (None, "-"):
        _write(sys.stdout, lines)
        return EXIT_OK
    output = Path(arguments.output)
    if output.exists() and not output.is_file():  # a device or pipe: written as it is
        partial = output
    else:
        partial = output.with_name(f".{output.name}.partial")
    try:
        with open(partial, "w", encoding="utf-8") as target:
            _write(target, lines)
        if partial != output:
            os.replace(partial, output)
    except OSError as error:
        raise UsageError(f"cannot write {arguments.output}: {error.strerror or error}") from None
    finally:
        if partial != output:
            partial.unlink(missing_ok=True)
    return EXIT_OK


def _write(target: TextIO, lines: Iterator[str]) -> None:
    for line in lines:
        target.write(line + "\n")
