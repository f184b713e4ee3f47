"""Research programs behind the sequence terms in ``results/``: recording a term,
listing optimal classes, independent checks (SAT on cubes, a search in C, proofs
checked again) and the tables of ``results/README.md``.

They run as ``python -m chessplace.research <command>`` (the commands are listed by
:mod:`chessplace.research.commands`); the library never imports this package.
"""
