"""The trusted checker of certificates: it reads the problem from the manifest, checks
the witness with its own attack rules, regenerates the refuted formula and checks
its proof. It imports nothing of chessplace but itself and
:mod:`chessplace.runtime.lifeline` (a test holds it to this).
"""
