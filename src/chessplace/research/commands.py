"""The research commands: ``python -m chessplace.research <command> [options]``.

Each command is a module of this package with a ``main(argv)`` that returns an
exit status: 0 done, 1 the check refuted the claim (or found a fault), 2 bad
input, 3 stopped by Ctrl-C or SIGTERM with its journal kept. A module is imported
only when its command runs, so a command's optional dependencies (PySAT, dratify,
a C compiler) are needed only by that command.
"""

from __future__ import annotations

import importlib
import signal
import sys
from collections.abc import Sequence

PROG = "python -m chessplace.research"

COMMANDS = {
    "term": ("term", "run one chessplace command for a term and record it with its witness"),
    "optima": ("optima", "write every class of optimal peaceable armies on n×n (A260680)"),
    "crosscheck-bound": ("crosscheck_bound", "check an optimum by SAT: one more is impossible"),
    "crosscheck-optima": ("crosscheck_optima", "check a list of optimal classes by SAT"),
    "crosscheck-search": ("crosscheck_search", "check an optimum by the independent C search"),
    "crosscheck-count": ("crosscheck_count", "check a list of optimal classes by counting in C"),
    "crosscheck-pawns": (
        "crosscheck_pawns",
        "recount random parts of an n+k queens count by CP-SAT",
    ),
    "sample-lines": (
        "sample_lines",
        "time a random sample of the line engine's chunks to project a long proof",
    ),
    "sample-proofs": (
        "sample_proofs",
        "refute a random sample of a claim's cubes by SAT with checked proofs",
    ),
    "reprove-certificate": ("reprove_certificate", "prove a certificate's cubes again, checked"),
    "tables": ("tables", "write results/README.md's tables from the records"),
}
"""Each command's module (in this package) and what it does, in the order listed."""


def prog(command: str) -> str:
    """How a command is invoked, for its usage line."""
    return f"{PROG} {command}"


def usage() -> str:
    """The list of commands."""
    width = max(map(len, COMMANDS))
    lines = [f"  {name:<{width}}  {about}" for name, (_, about) in COMMANDS.items()]
    return f"usage: {PROG} <command> [options]\n\ncommands:\n" + "\n".join(lines)


def main(argv: Sequence[str]) -> int:
    """Run the command named by ``argv[0]`` on the rest. SIGTERM stops it as Ctrl-C does;
    a stop its own code does not catch is one line on stderr and exit 3."""
    if argv and argv[0] in ("-h", "--help"):
        print(usage())
        return 0
    if not argv:
        print(usage(), file=sys.stderr)
        return 2
    if argv[0] not in COMMANDS:
        print(f"{PROG}: no command {argv[0]!r}\n{usage()}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    try:
        module = importlib.import_module(f"chessplace.research.{COMMANDS[argv[0]][0]}")
        status: int = module.main(list(argv[1:]))
    except KeyboardInterrupt:
        print(f"{argv[0]}: stopped before any work was kept", file=sys.stderr)
        return 3
    return status
