"""The ``heuristic`` engine (``engine``) and its compiled annealer (``anneal``)."""
