"""Exit codes of the command line, and the error that means bad input.

0 answered; 1 the answer is no (infeasible, or verify found a broken rule);
2 bad input; 3 stopped by a time limit or a signal before a definite answer
(the best found so far is still printed); 130 interrupted with nothing to report
(the shell's code for a Ctrl-C): while the engines load, or a certificate check.
"""

from __future__ import annotations

import os
import sys

EXIT_OK, EXIT_NO, EXIT_USAGE, EXIT_STOPPED = 0, 1, 2, 3
EXIT_INTERRUPTED = 130


class UsageError(Exception):
    """Bad input: reported on one line with exit code 2."""


def reader_left() -> None:
    """Standard output's reader has gone (a broken pipe): later writes, the final flush
    included, go nowhere rather than raise again."""
    sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - open for the rest of the run
