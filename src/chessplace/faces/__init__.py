"""The faces people use: the command line (:mod:`.cli`) and the web app (:mod:`.web`).
Both call :mod:`chessplace.api` and the forms; neither picks engines.
"""
