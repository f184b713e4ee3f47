"""``python -m chessplace``: the command line."""

import sys

from chessplace.faces.cli import main

sys.exit(main())
