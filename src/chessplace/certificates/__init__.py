"""Certificates: answers a sceptic can check without trusting chessplace's solvers.

Two packages. The untrusted :mod:`.writer` (and the ``--certificate`` option in
:mod:`chessplace.faces.cli.certificates`) writes a directory for a proven answer.
The trusted :mod:`.checker` imports nothing else of chessplace but
:mod:`chessplace.runtime.lifeline`, which runs proof
checks in child processes and decides nothing (``import chessplace`` itself
loads no engine; a test holds the checker to this). It reads the problem from
the manifest, checks the witness with its own attack rules, regenerates the
refuted formula and gives it with the proof to dratify.

Why the formula may ignore blockers: every army has the same piece, so if two
pieces that may not attack each other stand on one line of a ride, the pieces on
that line between them include a neighbouring pair that may not either, and
neighbours attack directly. Coverage is the same: the last piece before a square
on a line attacks it. Blocked squares change neither: rides pass over them. Pawns
do (they stop rides), so certificates refuse them.

The user's rules: a count rule is one more cardinality bound. Attack pairs
(``no_attack``: some armies may attack others) make blockers matter, and let the
armies have different pieces, so the formula then states sight itself: no piece
of a forbidden pair sees the other unless a piece stands between. Squares covered
a set number of times count the attackers, which blockers also change: the
formula defines "this piece sees that square" from the squares between, and
bounds the number per square.
"""
