"""The model and its checker: boards, Betza pieces, attacks, problems, placements,
the independent verification of every answer, and results.

Nothing here imports an engine, an encoding, a form or the notation people state
problems in; everything else builds on it.
"""
