"""``python -m chessplace``: the command line."""

import sys

from chessplace.cli import main

sys.exit(main())
