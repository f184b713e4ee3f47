"""The ``chessplace`` command line.

``parser`` reads the arguments, ``handlers`` runs each command through
:mod:`chessplace.api`, ``report`` prints answers and picks the exit code
(the codes are in ``exits``); ``supervision`` hears signals and time limits.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from chessplace.faces.cli.exits import (
    EXIT_INTERRUPTED,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    reader_left,
)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code.

    Run as the program (no ``argv``), it exits at once after answering for an
    engine that did not stop in time, rather than wait for that engine.
    """
    if sys.stdout is None:  # started with standard output closed: an answer would be lost
        if sys.stderr is not None:
            print("chessplace: error: standard output is closed", file=sys.stderr)
        return EXIT_USAGE
    try:
        # imported here, so that a Ctrl-C while the engines load is heard as one
        from chessplace.faces.cli.handlers import run
        from chessplace.faces.cli.parser import parse
        from chessplace.faces.cli.supervision import leave_if_abandoned

        arguments = parse(argv)
        code = run(arguments)
        return code if argv is not None else leave_if_abandoned(code)
    except BrokenPipeError:  # the reader left before an answer was settled (a listing)
        reader_left()
        return EXIT_OK
    except UsageError as error:
        print(f"chessplace: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("chessplace: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
