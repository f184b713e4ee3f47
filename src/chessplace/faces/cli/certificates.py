"""The command line's side of certificates: ``--certificate DIR`` and ``check DIR``."""

from __future__ import annotations

import argparse
import shlex
import signal
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from chessplace.core.problem import Problem
from chessplace.core.result import Result
from chessplace.faces.cli.exits import EXIT_NO, EXIT_OK, UsageError, answer_written
from chessplace.faces.cli.problemargs import problem_from
from chessplace.faces.cli.supervision import stop_on_interrupt
from chessplace.notation.puzzles import REGION_PUZZLES
from chessplace.runtime.control import Control


def certify(
    arguments: argparse.Namespace, problem: Problem, task: str, result: Result, started: float
) -> bool:
    """Write the certificate ``--certificate`` asks for, and say so on stderr; an
    answer that is not proven gets a one-line note instead. The certificate gets
    what is left of ``--time-limit`` (counted from ``started``, a monotonic time)
    and stops at Ctrl-C or SIGTERM, leaving no certificate behind. Whether it was
    stopped so (the run then exits 3, stopped, whatever the answer was)."""
    from chessplace.certificates.writer.certificate import (
        CannotCertify,
        write_certificate,
    )
    from chessplace.certificates.writer.proving import StoppedProving

    command = shlex.join(["chessplace", *sys.argv[1:]])
    limit = arguments.time_limit
    left = None if limit is None else limit - (time.monotonic() - started)
    stopped = False
    try:
        if left is not None and left <= 0:
            raise StoppedProving
        control = Control(left)
        with stop_on_interrupt(control):
            line = write_certificate(
                Path(arguments.certificate), problem, task, result, command, control
            )
    except StoppedProving:
        why = "by the time limit" if _expired(started, limit) else "(Ctrl-C or SIGTERM)"
        line = f"no certificate: stopped {why} before it was complete; none written"
        stopped = True
    except CannotCertify as error:
        line = f"no certificate: {error}"
    except ImportError:
        raise UsageError("certificates need: pip install 'chessplace[certify]'") from None
    print(f"chessplace: {line}", file=sys.stderr)
    return stopped


def _expired(started: float, limit: float | None) -> bool:
    """Whether the time limit, counted from ``started``, has passed."""
    return limit is not None and time.monotonic() - started >= limit


def check(arguments: argparse.Namespace) -> int:
    """Print one verdict line: 0 certified, 1 rejected; a directory that holds no
    certificate is bad input. SIGTERM ends it as Ctrl-C does (the proof-checking
    workers go with it)."""
    from chessplace.certificates.checker.proofs import NoProofChecker
    from chessplace.certificates.checker.verdict import NotACertificate, check_certificate

    try:
        with _sigterm_interrupts():
            verdict = check_certificate(Path(arguments.directory))
    except (NotACertificate, NoProofChecker) as error:
        raise UsageError(str(error)) from None
    with answer_written():
        print(verdict.line)
    return EXIT_OK if verdict.certified else EXIT_NO


@contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    """Within: SIGTERM raises KeyboardInterrupt (in the main thread only)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, interrupt)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def refuse_uncertifiable(arguments: argparse.Namespace) -> None:
    """``--certificate`` certifies verdicts and optima: a plain count has neither, and
    the certified formula has no regions; the problem must be one a certificate
    covers (:func:`~chessplace.certificates.writer.certificate.spec_of` says why not)."""
    if getattr(arguments, "grid_file", None) is not None or arguments.puzzle in REGION_PUZZLES:
        raise UsageError("--certificate does not cover region puzzles yet")
    if arguments.command == "count" and (not arguments.optimal or arguments.list):
        raise UsageError("--certificate on count needs --optimal (the optimum is certified)")
    from chessplace.certificates.writer.certificate import spec_of

    try:
        spec_of(problem_from(arguments))
    except ValueError as error:  # CannotCertify, or a bad board or piece
        raise UsageError(str(error)) from None
