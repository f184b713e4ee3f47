"""``python -m chessplace.research <command>``: see :mod:`chessplace.research.commands`."""

import sys

from chessplace.research.commands import main

sys.exit(main(sys.argv[1:]))
